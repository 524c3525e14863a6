package traces

import (
	"bytes"
	"encoding/json"
	"errors"
	"os"
	"strings"
	"testing"

	"github.com/groupcheck/groupcheck/explorer"
	"github.com/groupcheck/groupcheck/invariants"
	"github.com/groupcheck/groupcheck/spec"
)

// buggyConfig is an eager world with the franz-go #686 fault (docs/bugs.md B23): a member that
// revoked everything still advertises its last assignment as owned. Explored in 0.2s.
const buggyConfig = `name buggy
protocol eager
consumer kafka
coordinator kafka
assignor sticky
topic t 2
member a topics=t
member b topics=t
budget crashes=1
fault eager-keeps-owned-list
`

func mustConfig(t *testing.T, text string) spec.Config {
	t.Helper()
	cfg, err := spec.ParseConfig("test", strings.NewReader(text))
	if err != nil {
		t.Fatal(err)
	}
	return cfg
}

// counterexample is the explorer's shortest path violating property in the buggy world.
func counterexample(t *testing.T, property string) (spec.Config, *explorer.Path[spec.World, spec.Action]) {
	t.Helper()
	cfg := mustConfig(t, buggyConfig)
	m := invariants.NewModel(cfg)
	r := explorer.Check[spec.World, spec.Action](m, m.Properties(), explorer.Options{Workers: 1})
	pr := r.Property(property)
	if pr == nil || pr.Status != explorer.Violated || pr.Path == nil {
		t.Fatalf("%s: not violated in the buggy world", property)
	}
	return cfg, pr.Path
}

func written(t *testing.T, property string) string {
	t.Helper()
	cfg, p := counterexample(t, property)
	var b strings.Builder
	if err := Write(&b, Header{Property: property, Found: "bfs shortest"}, cfg, p); err != nil {
		t.Fatal(err)
	}
	return b.String()
}

func TestWriteParseReplayRoundTrip(t *testing.T) {
	text := written(t, "exclusive-ownership")
	tr, err := Parse("x.trace", strings.NewReader(text))
	if err != nil {
		t.Fatalf("%v\n%s", err, text)
	}
	_, p := counterexample(t, "exclusive-ownership")
	if got, want := len(tr.Actions()), len(p.Steps); got != want {
		t.Errorf("parsed %d actions, the path has %d", got, want)
	}
	for i, a := range tr.Actions() {
		if a.Text(&tr.Config) != p.Steps[i].Action.Text(&tr.Config) {
			t.Errorf("action %d: %s, want %s", i, a.Text(&tr.Config), p.Steps[i].Action.Text(&tr.Config))
		}
	}
	res, err := Replay(tr)
	if err != nil || res.Divergence != nil {
		t.Fatalf("replay: %v %v", err, res.Divergence)
	}
	last := res.Steps[len(res.Steps)-1]
	if !last.Step.Check || len(last.Violations) == 0 || last.Violations[0].Property != "exclusive-ownership" {
		t.Errorf("final check: %v", last.Got)
	}
	// Format of the parsed trace is the file, byte for byte.
	var b strings.Builder
	if err := Format(&b, tr); err != nil {
		t.Fatal(err)
	}
	if b.String() != text {
		t.Errorf("Format(Parse(text)) differs from text:\n%s", b.String())
	}
	if !strings.HasPrefix(text, FormatVersion+"\n# property: exclusive-ownership (always)\n# found: bfs shortest\n# model: "+ModelVersion+"\n# config:\n#   name buggy\n") {
		t.Errorf("header:\n%s", text[:300])
	}
}

func TestDivergenceNamesTheStep(t *testing.T) {
	text := written(t, "revoke-before-reassign")
	lines := strings.Split(text, "\n")
	// Edit the first expected line of the third directive.
	n, edited := 0, -1
	for i := 1; i < len(lines); i++ {
		if lines[i] == "----" && lines[i-1] != "" {
			n++
			if n == 3 {
				lines[i+1] += " EDITED"
				edited = i + 1
				break
			}
		}
	}
	tr, err := Parse("x.trace", strings.NewReader(strings.Join(lines, "\n")))
	if err != nil {
		t.Fatal(err)
	}
	res, err := Replay(tr)
	if err != nil {
		t.Fatal(err)
	}
	d := res.Divergence
	if d == nil {
		t.Fatalf("no divergence after editing line %d", edited+1)
	}
	if d.Step != 3 || d.Reason != "output differs" || !strings.Contains(d.Label, "step 3 (x.trace:") || !strings.Contains(d.Diff, "EDITED") {
		t.Errorf("divergence %+v", d)
	}
	// Rewrite repairs it.
	fixed, err := Rewrite(tr)
	if err != nil {
		t.Fatal(err)
	}
	if res, _ := Replay(fixed); res.Divergence != nil {
		t.Errorf("rewritten trace diverges: %v", res.Divergence)
	}
}

func TestDivergenceNotEnabled(t *testing.T) {
	text := written(t, "revoke-before-reassign")
	// Deliver a's request twice in a row where only one is in flight: swap the first
	// directive (poll a) for a delivery.
	text = strings.Replace(text, "\npoll a\n----\n", "\ndeliver-request a\n----\n", 1)
	tr, err := Parse("x.trace", strings.NewReader(text))
	if err != nil {
		t.Fatal(err)
	}
	res, _ := Replay(tr)
	if d := res.Divergence; d == nil || d.Step != 1 || d.Reason != "not enabled" {
		t.Fatalf("divergence %+v", d)
	}
	// "not enabled" is itself assertable.
	text = strings.Replace(text, "\ndeliver-request a\n----\n", "\ndeliver-request a\n----\nnot enabled\n\npoll a\n----\n", 1)
	tr, err = Parse("x.trace", strings.NewReader(text))
	if err != nil {
		t.Fatal(err)
	}
	if res, _ := Replay(tr); res.Divergence != nil {
		t.Errorf("asserted not-enabled step diverges: %v", res.Divergence)
	}
}

const goodHeader = `# groupcheck trace v1
# found: hand-written
# model: groupcheck-model 1
# config:
#   protocol eager
#   consumer kafka
#   coordinator kafka
#   assignor range
#   topic t 2
#   member a topics=t
#   member b topics=t
`

func TestParseErrors(t *testing.T) {
	for _, tc := range []struct {
		name, text string
		line       int
		msg        string
	}{
		{"empty file", "", 1, "not a groupcheck trace"},
		{"no version line", "poll a\n----\n", 1, "not a groupcheck trace"},
		{"other version", "# groupcheck trace v2\n", 1, "unsupported format"},
		{"bad header line", strings.Replace(goodHeader, "# found: hand-written", "# found hand-written", 1), 2, "bad header line"},
		{"unknown header key", strings.Replace(goodHeader, "# model:", "# modle:", 1), 3, "bad header line"},
		{"repeated key", strings.Replace(goodHeader, "# model: groupcheck-model 1\n", "# model: groupcheck-model 1\n# model: x\n", 1), 4, "given twice"},
		{"bad found", strings.Replace(goodHeader, "hand-written", "guessed", 1), 2, "found"},
		{"missing config", strings.Split(goodHeader, "# config:")[0] + "\npoll a\n----\n", 4, "missing `# config:`"},
		{"config does not parse", strings.Replace(goodHeader, "#   topic t 2", "#   topic t two", 1), 9, "config: topic t: partition count"},
		{"config incomplete", strings.Replace(goodHeader, "#   assignor range\n", "", 1), 4, "missing required directive"},
		{"continuation outside block", strings.Replace(goodHeader, "# model: groupcheck-model 1\n", "# model: groupcheck-model 1\n#   more\n", 1), 4, "continuation"},
		{"unknown property", strings.Replace(goodHeader, "# found:", "# property: no-such (always)\n# found:", 1), 2, "unknown property"},
		{"wrong property kind", strings.Replace(goodHeader, "# found:", "# property: exclusive-ownership (sometimes)\n# found:", 1), 2, "is (always)"},
		{"header not followed by blank", goodHeader + "poll a\n----\n", 12, "blank line"},
		{"unknown directive", goodHeader + "\npoll a\n----\n\nfrobnicate a\n----\n", 16, "unknown directive \"frobnicate\""},
		{"action does not parse", goodHeader + "\npoll zed\n----\n", 13, "action does not parse"},
		{"action with blanks", goodHeader + "\npoll a \n----\n", 13, "blanks"},
		{"missing ----", goodHeader + "\npoll a\nexpected\n", 14, "missing ----"},
		{"missing ---- at EOF", goodHeader + "\npoll a", 14, "missing ----"},
		{"check with argument", goodHeader + "\ncheck all\n----\n", 13, "check takes no arguments"},
		{"unterminated double block", goodHeader + "\ncheck\n----\n----\nok\n\nmore\n", 14, "unterminated"},
		{"stray ---- in block", goodHeader + "\ncheck\n----\nok\n----\n", 16, "unexpected ----"},
		{"stray ----", goodHeader + "\n----\n", 13, "without a directive"},
		{"junk after double block", goodHeader + "\ncheck\n----\n----\nok\n----\n----\njunk\n", 19, "blank line must follow"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			_, err := Parse("bad.trace", strings.NewReader(tc.text))
			var pe *ParseError
			if !errors.As(err, &pe) {
				t.Fatalf("error %v, want a *ParseError", err)
			}
			if pe.Line != tc.line || pe.File != "bad.trace" || !strings.Contains(pe.Msg, tc.msg) {
				t.Errorf("got %v, want bad.trace:%d: ...%s...", err, tc.line, tc.msg)
			}
		})
	}
}

func TestParseAcceptsDoubleBlocksAndComments(t *testing.T) {
	text := goodHeader + "\n# a comment kept with its step\npoll a\n----\n----\n" +
		"a -> coord: JoinGroup v9 member=- range{topics=t owned=() gen=-1}\n" +
		"| a        running#1 PREPARING_REBALANCE gen=-1 member=\"\" owned=() owned-gen=-1 topics=[t] rejoin-needed in-flight=JoinGroup@-1\n" +
		"|   a -> coord: JoinGroup v9 member=- range{topics=t owned=() gen=-1}\n----\n----\n\ncheck\n----\nok\n\n# trailing\n"
	tr, err := Parse("ok.trace", strings.NewReader(text))
	if err != nil {
		t.Fatal(err)
	}
	if len(tr.Steps) != 2 || tr.Steps[0].Comments[0] != "a comment kept with its step" || len(tr.Steps[0].Expected) != 3 || tr.Steps[1].Line != 23 || tr.Trailing[0] != "trailing" {
		t.Fatalf("parsed %+v", tr.Steps)
	}
	res, _ := Replay(tr)
	if res.Divergence != nil {
		t.Errorf("%v", res.Divergence)
	}
}

func TestShowFormats(t *testing.T) {
	tr, err := Parse("x.trace", strings.NewReader(written(t, "exclusive-ownership")))
	if err != nil {
		t.Fatal(err)
	}
	res, _ := Replay(tr)
	var mm bytes.Buffer
	if err := Mermaid(&mm, tr, res); err != nil {
		t.Fatal(err)
	}
	for _, want := range []string{"sequenceDiagram\n", "participant coord\n", "participant m_a as a\n", "participant m_b as b\n",
		"m_a->>coord: JoinGroup v9 member=-", "coord-->>m_a: JoinGroup MEMBER_ID_REQUIRED", "Note over m_a: on-partitions-assigned",
		"Note over coord: 8. join-timeout", "Note over coord,m_b: violation exclusive-ownership: "} {
		if !strings.Contains(mm.String(), want) {
			t.Errorf("mermaid lacks %q:\n%s", want, mm.String())
		}
	}
	if strings.Contains(mm.String(), ";") && !strings.Contains(mm.String(), "#59;") {
		t.Errorf("unescaped semicolon in mermaid")
	}
	var itf bytes.Buffer
	if err := ITF(&itf, tr, res); err != nil {
		t.Fatal(err)
	}
	var doc struct {
		Meta   map[string]any   `json:"#meta"`
		Vars   []string         `json:"vars"`
		States []map[string]any `json:"states"`
	}
	if err := json.Unmarshal(itf.Bytes(), &doc); err != nil {
		t.Fatal(err)
	}
	if got, want := len(doc.States), len(tr.Actions())+1; got != want {
		t.Errorf("ITF has %d states, want %d", got, want)
	}
	for i, s := range doc.States {
		if s["#meta"].(map[string]any)["index"].(float64) != float64(i) {
			t.Errorf("state %d: #meta %v", i, s["#meta"])
		}
		for _, v := range doc.Vars {
			if _, ok := s[v]; !ok {
				t.Errorf("state %d lacks var %s", i, v)
			}
		}
	}
	lastSlots := doc.States[len(doc.States)-1]["slots"].(map[string]any)
	if owned := lastSlots["b"].(map[string]any)["owned"].([]any); len(owned) == 0 {
		t.Errorf("b owns nothing at the end: %v", lastSlots)
	}
	if doc.Meta["format"] != "ITF" || doc.States[0]["mbt::actionTaken"] != "init" {
		t.Errorf("meta %v, first action %v", doc.Meta, doc.States[0]["mbt::actionTaken"])
	}
	var js bytes.Buffer
	if err := JSON(&js, tr, res); err != nil {
		t.Fatal(err)
	}
	var jt struct {
		Steps []struct {
			Kind   string
			Events []struct{ Type string }
			State  *struct{ Coord struct{ State string } }
		}
	}
	if err := json.Unmarshal(js.Bytes(), &jt); err != nil {
		t.Fatal(err)
	}
	if len(jt.Steps) != len(tr.Steps) || jt.Steps[0].Kind != "poll" || jt.Steps[0].Events[0].Type != "send" || jt.Steps[len(jt.Steps)-1].Kind != "check" {
		t.Errorf("json steps: %+v", jt.Steps[0])
	}
	var txt bytes.Buffer
	if err := Text(&txt, tr, res); err != nil {
		t.Fatal(err)
	}
	if !strings.Contains(txt.String(), "1. poll a\n     a -> coord: JoinGroup") || !strings.Contains(txt.String(), "     | coord    Empty gen=0 leader=- members=() pending=(a#1)") {
		t.Errorf("text:\n%s", txt.String())
	}
}

// pad inserts k enabled actions into a counterexample so that it still first violates
// property at its last step: at the first position where it works, greedily the first
// enabled candidate that keeps the rest of the path enabled and violating.
func pad(t *testing.T, cfg spec.Config, property string, acts []spec.Action, k int) []spec.Action {
	t.Helper()
	for pos := 1; pos < len(acts); pos++ {
		prefix := append([]spec.Action{}, acts[:pos]...)
		for len(prefix) < pos+k {
			w := spec.Init(cfg)
			for _, a := range prefix {
				w, _ = spec.Next(w, a)
			}
			grown := false
			for _, a := range spec.Actions(w, nil) {
				if _, ok := spec.Next(w, a); !ok {
					continue
				}
				cand := append(append(append([]spec.Action{}, prefix...), a), acts[pos:]...)
				if n, ok := firstViolation(cfg, property, cand); ok && n == len(cand) {
					prefix, grown = append(prefix, a), true
					break
				}
			}
			if !grown {
				break
			}
		}
		if len(prefix) == pos+k {
			return append(prefix, acts[pos:]...)
		}
	}
	t.Fatal("no padding keeps the violation")
	return nil
}

// TestShrinkPaddedCounterexample pads the explorer's shortest zombie counterexample (the
// scenario file, BFS-found) with enabled detours and shrinks it back.
func TestShrinkPaddedCounterexample(t *testing.T) {
	const prop = "exclusive-ownership-strict"
	f, err := os.Open("scenarios/session-expiry-zombie.trace")
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	shortest, err := Parse("session-expiry-zombie.trace", f)
	if err != nil {
		t.Fatal(err)
	}
	cfg, acts := shortest.Config, shortest.Actions()
	padded := pad(t, cfg, prop, acts, 6)
	tr, err := Rewrite(New("padded.trace", Header{Property: prop, Found: "simulation"}, cfg, padded))
	if err != nil {
		t.Fatal(err)
	}
	small := Shrink(tr, prop)
	if small == nil {
		t.Fatal("Shrink found no violation")
	}
	if got := len(small.Actions()); got > len(acts) || got >= len(padded) {
		t.Errorf("shrunk to %d steps; padded %d, shortest %d", got, len(padded), len(acts))
	}
	res, _ := Replay(small)
	if res.Divergence != nil {
		t.Fatalf("the shrunk trace diverges: %v", res.Divergence)
	}
	last := res.Steps[len(res.Steps)-1]
	if !strings.Contains(strings.Join(last.Got, "\n"), "violation "+prop+": ") {
		t.Errorf("shrunk trace's check: %v", last.Got)
	}
	if !strings.HasPrefix(small.Header.Found, "shrunk from 24 to ") {
		t.Errorf("found: %q", small.Header.Found)
	}
	// A shortest counterexample is a fixed point, and a trace that does not violate gives nil.
	if again := Shrink(small, prop); again == nil || len(again.Actions()) != len(small.Actions()) {
		t.Errorf("shrinking again changed the trace")
	}
	if Shrink(New("none", Header{}, cfg, acts[:3]), prop) != nil {
		t.Errorf("a trace without the violation shrank")
	}
}
