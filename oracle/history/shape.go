package history

import (
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"reflect"
	"strings"
)

// decodeError says what is wrong with a line encoding/json refused, in the history's terms:
// a field of the wrong shape is named with the shape it takes (`"parts":["t-0"]` → parts is
// an object of topic to partition numbers), a line that is not one object says so, and a
// syntax error names its byte.
func decodeError(err error) error {
	var te *json.UnmarshalTypeError
	if errors.As(err, &te) && te.Field == "" {
		return fmt.Errorf("want one JSON object per line (an event); got %s %s", article(te.Value), te.Value)
	}
	if errors.Is(err, io.ErrUnexpectedEOF) {
		return fmt.Errorf("the JSON object is cut short: the line ends inside it")
	}
	if errors.As(err, &te) {
		top, _, _ := strings.Cut(te.Field, ".")
		got := te.Value
		if !strings.Contains(got, " ") {
			got = article(got) + " " + got
		}
		if want := fieldShape(top); want != "" {
			return fmt.Errorf("field %q: want %s; got %s", top, want, got)
		}
		return fmt.Errorf("field %q: got %s, which does not fit %s", top, got, te.Type)
	}
	var se *json.SyntaxError
	if errors.As(err, &se) {
		return fmt.Errorf("not a JSON object: %v (at byte %d)", se, se.Offset)
	}
	return err
}

func article(noun string) string {
	if strings.ContainsRune("aeiou", rune(noun[0])) {
		return "an"
	}
	return "a"
}

// fieldShape is the JSON shape of Event's field named (by its JSON key) name, or "".
func fieldShape(name string) string {
	t := reflect.TypeFor[Event]()
	for i := range t.NumField() {
		if key, _, _ := strings.Cut(t.Field(i).Tag.Get("json"), ","); key == name {
			return shape(t.Field(i).Type)
		}
	}
	return ""
}

// shape describes a field's Go type as the JSON a history writes for it.
func shape(t reflect.Type) string {
	switch t {
	case reflect.TypeFor[Parts]():
		return `an object of topic to partition numbers, such as {"t":[0,1]}`
	case reflect.TypeFor[map[string]Parts]():
		return `an object of member to partitions, such as {"a":{"t":[0]}}`
	case reflect.TypeFor[[]string]():
		return `an array of strings, such as ["range","cooperative-sticky"]`
	}
	switch t.Kind() {
	case reflect.String:
		return "a string"
	case reflect.Int32:
		return "an integer of at most 32 bits"
	case reflect.Int64:
		return "an integer"
	}
	return ""
}
