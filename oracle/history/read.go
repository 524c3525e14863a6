package history

import (
	"bufio"
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"os"
	"slices"
	"strings"
	"unicode/utf8"
)

// History is a whole record, in Seq order.
type History []Event

// maxLine bounds one event's line; a longer line is an error, not a silent truncation.
const maxLine = 1 << 20

// Read parses JSON lines (blank lines are skipped) and validates the history: an error names
// the line and what is wrong with it, never a partial history.
func Read(r io.Reader) (History, error) {
	var h History
	rd := NewReader(r)
	for {
		e, err := rd.Next()
		if err == io.EOF {
			return h, nil
		}
		if err != nil {
			return nil, err
		}
		h = append(h, e)
	}
}

// ReadFile reads the history in the file at path (Read); an error names the path.
func ReadFile(path string) (History, error) {
	f, err := os.Open(path)
	if err != nil {
		return nil, err
	}
	defer f.Close()
	h, err := Read(f)
	if err != nil {
		return nil, fmt.Errorf("%s: %w", path, err)
	}
	return h, nil
}

// Reader reads a JSON-lines history one event at a time and validates each as it comes, so
// that a checker can stream a file of any length: strict JSON (no unknown field, no duplicate
// key, valid UTF-8, one value per line), every field possible, and at the end of the input
// every interval ended. Errors name the line and the field.
type Reader struct {
	sc   *bufio.Scanner
	v    *validator
	line int
	err  error
}

// NewReader reads the history from r.
func NewReader(r io.Reader) *Reader {
	sc := bufio.NewScanner(r)
	sc.Buffer(make([]byte, 0, 64<<10), maxLine)
	return &Reader{sc: sc, v: newValidator()}
}

// Line is the line of the event Next returned last.
func (r *Reader) Line() int { return r.line }

// Next returns the next event, or io.EOF once the input ended cleanly. Any other error is
// final and names the line.
func (r *Reader) Next() (Event, error) {
	if r.err != nil {
		return Event{}, r.err
	}
	e, err := r.next()
	if err != nil {
		r.err = err
	}
	return e, err
}

func (r *Reader) next() (Event, error) {
	for r.sc.Scan() {
		r.line++
		b := bytes.TrimSpace(r.sc.Bytes())
		if len(b) == 0 {
			continue
		}
		e, err := decodeLine(b)
		if err == nil {
			err = r.v.check(e, r.line)
		}
		if err != nil {
			return Event{}, fmt.Errorf("history line %d: %v", r.line, err)
		}
		return e, nil
	}
	if err := r.sc.Err(); err != nil {
		if err == bufio.ErrTooLong {
			return Event{}, fmt.Errorf("history line %d: longer than %d bytes", r.line+1, maxLine)
		}
		return Event{}, fmt.Errorf("history: %v", err)
	}
	if b, ok := r.v.firstOpen(); ok {
		return Event{}, fmt.Errorf("history line %d: field \"id\": %s begin %d never ends (the input ends first; one that never returned needs an end with \"note\":%q)",
			r.v.lines[b.ID], b.Kind, b.ID, Unfinished)
	}
	return Event{}, io.EOF
}

// decodeLine decodes one line strictly: valid UTF-8, known fields, no key twice, one value.
func decodeLine(b []byte) (Event, error) {
	if !utf8.Valid(b) {
		return Event{}, fmt.Errorf("invalid UTF-8 at byte %d", invalidAt(b))
	}
	dec := json.NewDecoder(bytes.NewReader(b))
	dec.DisallowUnknownFields()
	var e Event
	if err := dec.Decode(&e); err != nil {
		return Event{}, decodeError(err)
	}
	// Decoder.More is false before a stray '}' or ']', so look at what is left instead.
	if rest := bytes.TrimSpace(b[dec.InputOffset():]); len(rest) > 0 {
		return Event{}, fmt.Errorf("more than one JSON value on the line (%.20q follows the event)", rest)
	}
	if err := duplicateKeys(b); err != nil {
		return Event{}, err
	}
	return e, nil
}

// invalidAt is the offset of the first byte of b that is not valid UTF-8.
func invalidAt(b []byte) int {
	for i := 0; i < len(b); {
		r, n := utf8.DecodeRune(b[i:])
		if r == utf8.RuneError && n <= 1 {
			return i
		}
		i += n
	}
	return len(b)
}

var errDuplicate = errors.New("duplicate key")

// duplicateKeys reports a key that appears twice in one object of b, a line that already
// decoded as one valid JSON value: encoding/json would silently keep the last. The event's
// own fields are matched as the decoder matches them, ignoring case (Unicode folding, so
// "ſeq" is "seq"); map keys (topics, members) exactly. It scans the bytes once, without decoding values.
func duplicateKeys(b []byte) error {
	type frame struct {
		object, wantKey bool
		keys            []string
	}
	var stack []frame
	field := "" // the top-level field being read, for messages
	for i := 0; i < len(b); i++ {
		switch c := b[i]; c {
		case '{', '[':
			stack = append(stack, frame{object: c == '{', wantKey: c == '{'})
		case '}', ']':
			stack = stack[:len(stack)-1]
		case ',':
			if top := &stack[len(stack)-1]; top.object {
				top.wantKey = true
			}
		case '"':
			j := i + 1
			escaped := false
			for ; b[j] != '"'; j++ {
				if b[j] == '\\' {
					escaped = true
					j++
				}
			}
			if len(stack) == 0 {
				i = j
				continue
			}
			top := &stack[len(stack)-1]
			if top.object && top.wantKey {
				key := string(b[i+1 : j])
				if escaped {
					if err := json.Unmarshal(b[i:j+1], &key); err != nil {
						return err
					}
				}
				same := func(k string) bool { return k == key }
				if len(stack) == 1 {
					field = key
					same = func(k string) bool { return strings.EqualFold(k, key) }
				}
				if slices.ContainsFunc(top.keys, same) {
					if len(stack) == 1 {
						return fmt.Errorf("field %q: %v", key, errDuplicate)
					}
					return fmt.Errorf("field %q: %v %q", field, errDuplicate, key)
				}
				top.keys = append(top.keys, key)
				top.wantKey = false
			}
			i = j
		}
	}
	return nil
}

// Validate checks an in-memory history as Read checks a file (except that an interval may
// still be open at its end: a history being recorded); errors name the event's index.
func (h History) Validate() error {
	v := newValidator()
	for i, e := range h {
		if err := v.check(e, i); err != nil {
			return fmt.Errorf("history event %d (seq %d): %v", i, e.Seq, err)
		}
	}
	return nil
}

// Write writes h as JSON lines.
func (h History) Write(w io.Writer) error {
	bw := bufio.NewWriter(w)
	enc := json.NewEncoder(bw)
	for _, e := range h {
		if err := enc.Encode(e); err != nil {
			return err
		}
	}
	return bw.Flush()
}
