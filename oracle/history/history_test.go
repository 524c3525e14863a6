package history

import (
	"bytes"
	"encoding/json"
	"errors"
	"reflect"
	"strings"
	"sync"
	"testing"

	"github.com/google/go-cmp/cmp"
	"github.com/google/go-cmp/cmp/cmpopts"
)

// sample is a small history that uses every kind and most fields.
func sample() History {
	return History{
		{Seq: 1, T: 0, Kind: Start, Node: "a", Proto: Consumer},
		{Seq: 2, T: 5, Kind: Request, Phase: Begin, ID: 1, Node: "a", Op: ConsumerGroupHeartbeat, Member: "m", Owned: Parts{}, Protocols: []string{"uniform"}},
		{Seq: 3, T: 9, Kind: Request, Phase: End, ID: 1, Node: "a", Op: ConsumerGroupHeartbeat, Member: "m", Gen: 1, Parts: Parts{"t": {1, 0}}},
		{Seq: 4, T: 9, Kind: Generation, Node: "a", Member: "m", Gen: 1, Instance: "i-1"},
		{Seq: 5, T: 10, Kind: Assign, Phase: Begin, ID: 2, Node: "a", Parts: Parts{"t": {0, 1}}},
		{Seq: 6, T: 11, Kind: Assign, Phase: End, ID: 2, Node: "a"},
		{Seq: 7, T: 12, Kind: Commit, Phase: Begin, ID: 3, Node: "a", Parts: Parts{"t": {0}}, Gen: 1},
		{Seq: 8, T: 13, Kind: Commit, Phase: End, ID: 3, Node: "a", Err: "NONE"},
		{Seq: 9, T: 14, Kind: Request, Phase: Begin, ID: 4, Node: "b", Op: SyncGroup, Assignments: map[string]Parts{"m": {"t": {0}}}},
		{Seq: 10, T: 15, Kind: Request, Phase: End, ID: 4, Node: "b", Op: SyncGroup, Leader: "m", Members: []string{"m"}, Err: "REBALANCE_IN_PROGRESS"},
		{Seq: 11, T: 16, Kind: Cut, Node: "a"},
		{Seq: 12, T: 17, Kind: Fenced, Node: "a", Member: "m", Gen: 1},
		{Seq: 13, T: 18, Kind: Heal, Node: "a"},
		{Seq: 14, T: 19, Kind: Lost, Phase: Begin, ID: 5, Node: "a", Parts: Parts{"t": {0, 1}}},
		{Seq: 15, T: 20, Kind: Lost, Phase: End, ID: 5, Node: "a"},
		{Seq: 16, T: 21, Kind: Revoke, Phase: Begin, ID: 6, Node: "b"},
		{Seq: 17, T: 22, Kind: Revoke, Phase: End, ID: 6, Node: "b"},
		{Seq: 18, T: 23, Kind: Close, Phase: Begin, ID: 7, Node: "b"},
		{Seq: 19, T: 24, Kind: Close, Phase: End, ID: 7, Node: "b"},
		{Seq: 20, T: 24, Kind: Crash, Node: "a"},
		{Seq: 21, T: 25, Kind: Mark, Node: "harness", Note: "done"},
	}
}

// equal compares histories the way JSON does: an empty Parts is no Parts.
var equal = cmpopts.EquateEmpty()

func TestWriteReadRoundTrip(t *testing.T) {
	var b bytes.Buffer
	if err := sample().Write(&b); err != nil {
		t.Fatal(err)
	}
	got, err := Read(&b)
	if err != nil {
		t.Fatal(err)
	}
	if d := cmp.Diff(sample(), got, equal); d != "" {
		t.Errorf("round trip (-want +got):\n%s", d)
	}
}

func TestReadSkipsBlankLines(t *testing.T) {
	h, err := Read(strings.NewReader("\n  \n" + `{"seq":1,"t_ns":0,"kind":"start","node":"a"}` + "\n\n"))
	if err != nil || len(h) != 1 {
		t.Fatalf("got %v, %v", h, err)
	}
}

func TestReadErrors(t *testing.T) {
	ok := `{"seq":1,"t_ns":10,"kind":"start","node":"a"}`
	for _, tc := range []struct {
		name, in, want string
	}{
		{"not JSON", "{", "history line 1: the JSON object is cut short: the line ends inside it"},
		{"not JSON at all", `{"seq":1,kind:"start"}`, "history line 1: not a JSON object: invalid character 'k' looking for beginning of object key string (at byte 10)"},
		{"unknown field", `{"seq":1,"kind":"start","node":"a","colour":1}`, `history line 1: json: unknown field "colour"`},
		{"two values", ok + ok, "history line 1: more than one JSON value on the line"},
		{"a stray brace after the event", ok + "}", "history line 1: more than one JSON value on the line"},
		{"a stray bracket after the event", ok + " ]", "history line 1: more than one JSON value on the line"},
		{"not an object", "[]", "history line 1: want one JSON object per line (an event); got an array"},
		// A field of the wrong shape names the shape it takes.
		{"parts as a list", `{"seq":1,"kind":"mark","node":"a","parts":["t-0"]}`, `history line 1: field "parts": want an object of topic to partition numbers, such as {"t":[0,1]}; got an array`},
		{"a partition as a string", `{"seq":1,"kind":"mark","node":"a","parts":{"t":["0"]}}`, `history line 1: field "parts": want an object of topic to partition numbers, such as {"t":[0,1]}; got a string`},
		{"an assignment as a list", `{"seq":1,"kind":"mark","node":"a","assignments":{"m":["t-0"]}}`, `history line 1: field "assignments": want an object of member to partitions, such as {"a":{"t":[0]}}; got an array`},
		{"protocols as a string", `{"seq":1,"kind":"mark","node":"a","protocols":"range"}`, `history line 1: field "protocols": want an array of strings, such as ["range","cooperative-sticky"]; got a string`},
		{"gen as a string", `{"seq":1,"kind":"mark","node":"a","gen":"3"}`, `history line 1: field "gen": want an integer of at most 32 bits; got a string`},
		{"gen too large", `{"seq":1,"kind":"mark","node":"a","gen":4294967296}`, `history line 1: field "gen": want an integer of at most 32 bits; got number 4294967296`},
		{"seq a fraction", `{"seq":1.5,"kind":"mark","node":"a"}`, `history line 1: field "seq": want an integer; got number 1.5`},
		{"node a number", `{"seq":1,"kind":"mark","node":7}`, `history line 1: field "node": want a string; got a number`},
		{"null", "null", `history line 1: unknown kind ""`},
		{"unknown kind", `{"seq":1,"kind":"poll","node":"a"}`, `history line 1: unknown kind "poll"`},
		{"seq from 1", `{"seq":0,"kind":"start","node":"a"}`, "history line 1: seq 0 does not increase (previous 0)"},
		{"seq repeats", ok + "\n" + ok, "history line 2: seq 1 does not increase (previous 1)"},
		{"time goes back", ok + "\n" + `{"seq":2,"t_ns":9,"kind":"start","node":"a"}`, "history line 2: t_ns 9 goes back in time (previous 10)"},
		{"no node", `{"seq":1,"kind":"crash"}`, "history line 1: crash event without a node"},
		{"unknown proto", `{"seq":1,"kind":"start","node":"a","proto":"eager"}`, `history line 1: unknown proto "eager"`},
		{"request without op", `{"seq":1,"kind":"request","phase":"begin","id":1,"node":"a"}`, `history line 1: request with unknown op ""`},
		{"op on a callback", `{"seq":1,"kind":"assign","phase":"begin","id":1,"node":"a","op":"JoinGroup"}`, `history line 1: op "JoinGroup" on a assign event`},
		{"negative partition", `{"seq":1,"kind":"mark","node":"a","parts":{"t":[-1]}}`, "history line 1: field \"parts\": negative partition t/-1"},
		{"partition twice", `{"seq":1,"kind":"mark","node":"a","parts":{"t":[1,1]}}`, "history line 1: field \"parts\": partition t/1 listed twice"},
		{"empty topic", `{"seq":1,"kind":"mark","node":"a","parts":{"":[1]}}`, "history line 1: field \"parts\": partition with an empty topic name"},
		{"bad owned", `{"seq":1,"kind":"mark","node":"a","owned":{"t":[-2]}}`, "history line 1: field \"owned\": negative partition t/-2"},
		{"bad assignment", `{"seq":1,"kind":"mark","node":"a","assignments":{"m":{"t":[3,3]}}}`, "history line 1: field \"assignments\"[m]: partition t/3 listed twice"},
		{"phase on an instant", `{"seq":1,"kind":"cut","phase":"begin","node":"a"}`, `history line 1: cut is an instant; phase "begin" is not allowed`},
		{"interval without id", `{"seq":1,"kind":"lost","phase":"begin","node":"a"}`, "history line 1: lost begin without an id"},
		{"bad phase", `{"seq":1,"kind":"lost","phase":"middle","id":1,"node":"a"}`, `history line 1: lost needs phase "begin" or "end", got "middle"`},
		{"begins twice", `{"seq":1,"kind":"lost","phase":"begin","id":1,"node":"a"}` + "\n" + `{"seq":2,"kind":"lost","phase":"begin","id":1,"node":"a"}`, "history line 2: id 1 begins twice"},
		{"id reused after its end", `{"seq":1,"kind":"lost","phase":"begin","id":1,"node":"a"}` + "\n" + `{"seq":2,"kind":"lost","phase":"end","id":1,"node":"a"}` + "\n" + `{"seq":3,"kind":"lost","phase":"begin","id":1,"node":"a"}`, "history line 3: id 1 begins twice"},
		{"end before begin", `{"seq":1,"kind":"lost","phase":"end","id":1,"node":"a"}`, "history line 1: lost end with id 1 that has not begun"},
		{"end of another node", `{"seq":1,"kind":"lost","phase":"begin","id":1,"node":"a"}` + "\n" + `{"seq":2,"kind":"lost","phase":"end","id":1,"node":"b"}`, "history line 2: end id 1 (lost  on b) does not match its begin (lost  on a)"},
		{"negative generation", `{"seq":1,"kind":"generation","node":"a","member":"m","gen":-3}`, `history line 1: field "gen": -3 is impossible`},
		{"negative epoch in an answer", ok + "\n" + `{"seq":2,"t_ns":11,"kind":"request","phase":"begin","id":1,"node":"a","op":"ConsumerGroupHeartbeat","gen":-7}`, `history line 2: field "gen": -7 is impossible`},
		{"negative time", `{"seq":1,"t_ns":-5,"kind":"start","node":"a"}`, `history line 1: field "t_ns": -5 is negative`},
		{"negative id", `{"seq":1,"kind":"lost","phase":"begin","id":-1,"node":"a"}`, `history line 1: field "id": -1 is negative`},
		{"duplicate key", `{"seq":1,"kind":"generation","node":"a","gen":3,"gen":1}`, `history line 1: field "gen": duplicate key`},
		{"duplicate key in another case", `{"seq":1,"kind":"start","node":"a","Node":"b"}`, `history line 1: field "Node": duplicate key`},
		{"duplicate topic", `{"seq":1,"kind":"mark","node":"a","parts":{"t":[1],"t":[2]}}`, `history line 1: field "parts": duplicate key "t"`},
		{"duplicate topic, escaped", `{"seq":1,"kind":"mark","node":"a","parts":{"t":[1],"\u0074":[2]}}`, `history line 1: field "parts": duplicate key "t"`},
		{"duplicate field, folded", `{"seq":1,"kind":"mark","node":"a","\u017feq":2}`, `history line 1: field "ſeq": duplicate key`},
		{"duplicate field, escaped", `{"seq":1,"kind":"mark","node":"a","n\u006fde":"b"}`, `history line 1: field "node": duplicate key`},
		{"duplicate member in assignments", `{"seq":1,"kind":"mark","node":"a","assignments":{"m":{},"m":{"t":[2]}}}`, `history line 1: field "assignments": duplicate key "m"`},
		{"invalid UTF-8", ok + "\n" + "{\"seq\":2,\"kind\":\"mark\",\"node\":\"a\xff\"}", "history line 2: invalid UTF-8 at byte 32"},
		{"a begin that never ends", ok + "\n" + `{"seq":2,"t_ns":11,"kind":"commit","phase":"begin","id":4,"node":"a"}` + "\n" + `{"seq":3,"t_ns":12,"kind":"crash","node":"a"}`, `history line 2: field "id": commit begin 4 never ends (the input ends first; one that never returned needs an end with "note":"unfinished")`},
		{"line too long, after blank lines", "\n\n" + ok + "\n" + strings.Repeat(" ", maxLine+1), "history line 4: longer than 1048576 bytes"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			h, err := Read(strings.NewReader(tc.in))
			if err == nil || !strings.HasPrefix(err.Error(), tc.want) {
				t.Errorf("Read: %v, want an error starting %q", err, tc.want)
			}
			if h != nil {
				t.Errorf("a partial history came back: %v", h)
			}
		})
	}
}

type failingReader struct{}

func (failingReader) Read([]byte) (int, error) { return 0, errors.New("disk on fire") }

func TestReadReaderError(t *testing.T) {
	if _, err := Read(failingReader{}); err == nil || err.Error() != "history: disk on fire" {
		t.Errorf("got %v", err)
	}
}

func TestValidateNamesTheEvent(t *testing.T) {
	h := sample()
	h[4].Node = ""
	if err := h.Validate(); err == nil || err.Error() != "history event 4 (seq 5): assign event without a node" {
		t.Errorf("got %v", err)
	}
	if err := sample().Validate(); err != nil {
		t.Errorf("sample: %v", err)
	}
}

type failingWriter struct{}

func (failingWriter) Write([]byte) (int, error) { return 0, errors.New("full") }

func TestWriteError(t *testing.T) {
	if err := sample().Write(failingWriter{}); err == nil {
		t.Error("a failed write was not reported")
	}
}

func TestEventOKAndParts(t *testing.T) {
	for errName, want := range map[string]bool{"": true, "NONE": true, "UNKNOWN_MEMBER_ID": false} {
		if got := (Event{Err: errName}).OK(); got != want {
			t.Errorf("OK with Err %q = %v", errName, got)
		}
	}
	p := Parts{"u": {2}, "t": {3, 1}}
	var got []string
	p.Each(func(topic string, n int32) { got = append(got, topic+string(rune('0'+n))) })
	if d := cmp.Diff([]string{"t1", "t3", "u2"}, got); d != "" || p.Count() != 3 {
		t.Errorf("Each order (-want +got):\n%s count %d", d, p.Count())
	}
	if p["t"][0] != 3 {
		t.Error("Each sorted the caller's slice")
	}
}

func TestRecorderStampsAndCloses(t *testing.T) {
	clock := []int64{10, 20, 15, 30, 40, 50, 60, 70, 80}
	i := 0
	r := NewRecorderClock(func() int64 { i++; return clock[i-1] })
	r.Record(Event{Kind: Start, Node: "a"})
	endAssign := r.Begin(Event{Kind: Assign, Node: "a", Proto: Classic, Parts: Parts{"t": {0}}})
	r.Record(Event{Kind: Generation, Node: "a", Member: "m", Gen: 1}) // clock went back: clamped
	endAssign(Event{Kind: Crash, Node: "other", Note: "kept"})        // kind and node come from the begin
	endRevoke := r.Begin(Event{Kind: Revoke, Node: "a", Member: "m", Gen: 1})
	r.Record(Event{Kind: Crash, Node: "a"})
	endRevoke(Event{})                                   // dropped: a is dead
	r.Record(Event{Kind: Mark, Node: "a", Note: "late"}) // dropped
	r.Record(Event{Kind: Start, Node: "a"})              // a restarts
	h := r.History()
	want := History{
		{Seq: 1, T: 10, Kind: Start, Node: "a"},
		{Seq: 2, T: 20, Kind: Assign, Phase: Begin, ID: 1, Node: "a", Proto: Classic, Parts: Parts{"t": {0}}},
		{Seq: 3, T: 20, Kind: Generation, Node: "a", Member: "m", Gen: 1},
		{Seq: 4, T: 30, Kind: Assign, Phase: End, ID: 1, Node: "a", Proto: Classic, Note: "kept"},
		{Seq: 5, T: 40, Kind: Revoke, Phase: Begin, ID: 2, Node: "a", Member: "m", Gen: 1},
		{Seq: 6, T: 50, Kind: Crash, Node: "a"},
		{Seq: 7, T: 60, Kind: Start, Node: "a"},
		{Seq: 8, T: 60, Kind: Revoke, Phase: End, ID: 2, Node: "a", Member: "m", Gen: 1, Note: Unfinished},
	}
	if d := cmp.Diff(want, h); d != "" {
		t.Errorf("History (-want +got):\n%s", d)
	}
	if err := h.Validate(); err != nil {
		t.Errorf("a Recorder's history must validate: %v", err)
	}
}

func TestRecorderKeepsCallerIDs(t *testing.T) {
	r := NewRecorderClock(func() int64 { return 0 })
	r.Record(Event{Kind: Lost, Phase: Begin, Node: "a", ID: 7})
	if id := r.Record(Event{Kind: Lost, Phase: Begin, Node: "b"}); id != 8 {
		t.Errorf("fresh ID %d after a caller's 7, want 8", id)
	}
	if err := r.History().Validate(); err != nil {
		t.Error(err)
	}
}

func TestRecorderConcurrent(t *testing.T) {
	r := NewRecorder()
	var wg sync.WaitGroup
	for n := range 8 {
		wg.Add(1)
		go func() {
			defer wg.Done()
			node := string(rune('a' + n))
			for range 50 {
				r.Begin(Event{Kind: Commit, Node: node})(Event{})
			}
		}()
	}
	wg.Wait()
	h := r.History()
	if len(h) != 8*50*2 {
		t.Fatalf("%d events, want %d", len(h), 8*50*2)
	}
	if err := h.Validate(); err != nil {
		t.Error(err)
	}
}

// FuzzRead: Read never panics, and whatever it accepts is written by Write as lines that Read
// gives back unchanged (with an empty Parts taken as none, as JSON does).
func FuzzRead(f *testing.F) {
	var b bytes.Buffer
	if err := sample().Write(&b); err != nil {
		f.Fatal(err)
	}
	f.Add(b.Bytes())
	for _, line := range strings.Split(b.String(), "\n") {
		f.Add([]byte(line))
	}
	f.Add([]byte(`{"seq":1,"t_ns":10,"kind":"start","node":"a"}}`))
	f.Add([]byte("{\"seq\":1,\"kind\":\"mark\",\"node\":\"\xff\"}\n\n"))
	f.Fuzz(func(t *testing.T, data []byte) {
		h, err := Read(bytes.NewReader(data))
		if err != nil {
			if !strings.HasPrefix(err.Error(), "history") {
				t.Fatalf("error does not say where: %v", err)
			}
			return
		}
		var out bytes.Buffer
		if err := h.Write(&out); err != nil {
			t.Fatal(err)
		}
		back, err := Read(&out)
		if err != nil {
			t.Fatalf("Read accepted %q, but not its own Write of it: %v\n%s", data, err, out.String())
		}
		if d := cmp.Diff(h, back, equal); d != "" {
			t.Fatalf("round trip (-read +rewritten):\n%s", d)
		}
	})
}

func TestIDRanges(t *testing.T) {
	var rs idRanges
	for _, id := range []int64{5, 3, 4, 9, 1, 2, 7, 8, 6} {
		if !rs.add(id) {
			t.Fatalf("%d is new", id)
		}
	}
	for _, id := range []int64{1, 5, 9} {
		if rs.add(id) {
			t.Errorf("%d was added before", id)
		}
	}
	if len(rs) != 1 || rs[0] != [2]int64{1, 9} {
		t.Errorf("ranges %v, want [[1 9]]", rs)
	}
	rs = nil
	for _, id := range []int64{10, 30, 20} {
		rs.add(id)
	}
	if len(rs) != 3 || rs[1] != [2]int64{20, 20} {
		t.Errorf("ranges %v", rs)
	}
}

// TestReadKeysAlikeInDifferentObjects: a key may repeat across objects, and inside a string.
func TestReadKeysAlikeInDifferentObjects(t *testing.T) {
	in := `{"seq":1,"t_ns":10,"kind":"mark","node":"a","parts":{"t":[1]},"owned":{"t":[1]},"assignments":{"m":{"t":[1]},"n":{"t":[1]}},"note":"{\"t\":1,\"t\":2}"}`
	if h, err := Read(strings.NewReader(in)); err != nil || len(h) != 1 {
		t.Errorf("Read: %v, %v", h, err)
	}
}

// refDuplicate is the slow, obvious duplicate-key finder (encoding/json's tokens), for
// FuzzDuplicateKeys.
func refDuplicate(dec *json.Decoder, depth int) (bool, error) {
	tok, err := dec.Token()
	if err != nil {
		return false, err
	}
	switch tok {
	case json.Delim('{'):
		var seen []string
		for dec.More() {
			k, err := dec.Token()
			if err != nil {
				return false, err
			}
			key := k.(string)
			for _, s := range seen {
				if s == key || (depth == 0 && strings.EqualFold(s, key)) {
					return true, nil
				}
			}
			seen = append(seen, key)
			if dup, err := refDuplicate(dec, depth+1); dup || err != nil {
				return dup, err
			}
		}
		_, err = dec.Token()
	case json.Delim('['):
		for dec.More() {
			if dup, err := refDuplicate(dec, depth+1); dup || err != nil {
				return dup, err
			}
		}
		_, err = dec.Token()
	}
	return false, err
}

// FuzzDuplicateKeys: the one-scan duplicate-key finder agrees with the token walk on every
// valid JSON value.
func FuzzDuplicateKeys(f *testing.F) {
	for _, s := range []string{`{"a":1,"A":2}`, `{"p":{"t":[1],"t":[2]}}`, `{"p":{"t":[1]},"q":{"t":[1]}}`,
		`{"n":"{\"x\":1,\"x\":2}"}`, `{"\u0061":1,"a":2}`, `[{"a":1},{"a":1}]`, `{"a":[{"b":1,"b":2}]}`, `"x"`, `null`} {
		f.Add([]byte(s))
	}
	f.Fuzz(func(t *testing.T, b []byte) {
		if !json.Valid(b) {
			return
		}
		want, err := refDuplicate(json.NewDecoder(bytes.NewReader(b)), 0)
		if err != nil {
			return
		}
		if got := duplicateKeys(bytes.TrimSpace(b)) != nil; got != want {
			t.Fatalf("%s: duplicate %v, token walk says %v", b, got, want)
		}
	})
}

// Every field of Event has a shape to name in a decoding error: a field added with a type
// shape does not know fails here.
func TestEveryFieldHasAShape(t *testing.T) {
	et := reflect.TypeFor[Event]()
	for i := range et.NumField() {
		key, _, _ := strings.Cut(et.Field(i).Tag.Get("json"), ",")
		if fieldShape(key) == "" {
			t.Errorf("field %q (%s) has no shape: add its type to shape (shape.go)", key, et.Field(i).Type)
		}
	}
}
