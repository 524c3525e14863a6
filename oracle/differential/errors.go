package differential

import (
	"fmt"

	"github.com/groupcheck/groupcheck/impl"
)

// ParseError maps a Kafka error name as clients print it ("ILLEGAL_GENERATION") to the
// reference's code. "" and "NONE" are success. A name the group protocols do not use is an
// error rather than a silent success.
func ParseError(name string) (impl.ErrorCode, error) {
	if name == "" {
		return impl.None, nil
	}
	c, ok := impl.ParseErrorCode(name)
	if !ok {
		return 0, fmt.Errorf("error %q: not an error code of the group protocols", name)
	}
	return c, nil
}

// ErrorName is the name ParseError reads: "" for success, Kafka's name otherwise.
func ErrorName(c impl.ErrorCode) string {
	if c == impl.None {
		return ""
	}
	return c.String()
}
