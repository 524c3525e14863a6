package traces

import (
	"bytes"
	"errors"
	"os"
	"strings"
	"testing"

	"github.com/groupcheck/groupcheck/explorer"
	"github.com/groupcheck/groupcheck/invariants"
)

// TestLassoWithCycle: a lasso with a cycle, from Liveness on B18's world (a fenced member
// rejoins and is fenced again, forever), is written with its cycle start, parsed and
// replayed (which checks that the cycle closes).
func TestLassoWithCycle(t *testing.T) {
	m, ok := invariants.LookupMutant("stale-check-on-rejoin")
	if !ok {
		t.Fatal("no B18 mutant")
	}
	if !long() {
		t.Skip("builds B18's state graph (100k worlds; GROUPCHECK_LONG)")
	}
	cfg, err := m.Config()
	if err != nil {
		t.Fatal(err)
	}
	lr := invariants.Liveness(cfg, 1_000_000)
	if lr.Status != explorer.Violated || len(lr.Lasso.Cycle) == 0 {
		t.Fatalf("converges %s, want violated with a cycle", lr.Status)
	}
	var b bytes.Buffer
	if err := WriteLasso(&b, Header{Found: "bfs liveness lasso"}, cfg, lr.Lasso); err != nil {
		t.Fatal(err)
	}
	text := b.String()
	tr, err := Parse("lasso.trace", strings.NewReader(text))
	if err != nil {
		t.Fatal(err)
	}
	n := len(lr.Lasso.Prefix.Steps) + 1
	if tr.Header.Property != invariants.ConvergesName || tr.Header.Cycle != n || tr.Header.DeadEnd ||
		!strings.Contains(text, "# property: converges (eventually)\n# cycle: ") {
		t.Fatalf("header %+v, want converges with cycle %d", tr.Header, n)
	}
	if res, _ := Replay(tr); res.Divergence != nil {
		t.Fatalf("the lasso does not replay: %v", res.Divergence)
	}
}

// TestLassoCycleClaims: B18's golden lasso (a cycle of two steps) replays; moving its cycle
// start or calling it a dead end makes replay fail, naming why; every rendering marks the
// cycle.
func TestLassoCycleClaims(t *testing.T) {
	tr := parseFile(t, "golden/stale-check-on-rejoin-converges.trace")
	if tr.Header.Cycle == 0 {
		t.Fatalf("header %+v, want a cycle", tr.Header)
	}
	if res, _ := Replay(tr); res.Divergence != nil {
		t.Fatalf("the lasso does not replay: %v", res.Divergence)
	}
	moved := tr.clone()
	moved.Header.Cycle = len(tr.Steps) - 1 // the last action alone does not close
	if res, _ := Replay(moved); res.Divergence == nil || !strings.Contains(res.Divergence.Reason, "does not close") || res.Divergence.Diff == "" {
		t.Errorf("a cycle that does not close replays: %+v", res.Divergence)
	}
	dead := tr.clone()
	dead.Header.Cycle, dead.Header.DeadEnd = 0, true
	if res, _ := Replay(dead); res.Divergence == nil || !strings.Contains(res.Divergence.Reason, "not a dead end: `") {
		t.Errorf("a cycle's world passes as a dead end: %+v", res.Divergence)
	}
	for name, render := range map[string]func(*bytes.Buffer, *Trace, *Result) error{
		"text":    func(w *bytes.Buffer, t *Trace, r *Result) error { return Text(w, t, r) },
		"mermaid": func(w *bytes.Buffer, t *Trace, r *Result) error { return Mermaid(w, t, r) },
		"itf":     func(w *bytes.Buffer, t *Trace, r *Result) error { return ITF(w, t, r) },
		"json":    func(w *bytes.Buffer, t *Trace, r *Result) error { return JSON(w, t, r) },
	} {
		res, _ := Replay(tr)
		var out bytes.Buffer
		if err := render(&out, tr, res); err != nil {
			t.Fatal(err)
		}
		want := map[string]string{"text": "--- the cycle: from here", "mermaid": "    loop repeats forever\n",
			"itf": `"loop": `, "json": `"cycle": `}[name]
		if !strings.Contains(out.String(), want) {
			t.Errorf("%s rendering lacks %q", name, want)
		}
	}
}

// TestLassoDeadEnd: the golden B21 lasso ends in a dead end; a converged last world is not one.
func TestLassoDeadEnd(t *testing.T) {
	tr := parseFile(t, "golden/in-flight-stuck-on-error-converges.trace")
	if !tr.Header.DeadEnd {
		t.Fatalf("header %+v, want a dead end", tr.Header)
	}
	res, _ := Replay(tr)
	if res.Divergence != nil {
		t.Fatal(res.Divergence)
	}
	var out bytes.Buffer
	if err := Mermaid(&out, tr, res); err != nil || !strings.Contains(out.String(), "dead end: no protocol action") {
		t.Errorf("mermaid: %v\n%s", err, out.String())
	}
	conv := parseFile(t, "scenarios/cooperative-join-kafka.trace") // ends converged
	conv.Header.Property, conv.Header.DeadEnd = invariants.ConvergesName, true
	if res, _ := Replay(conv); res.Divergence == nil || !strings.Contains(res.Divergence.Reason, "last world is converged") {
		t.Errorf("a converged world passes as a dead end: %+v", res.Divergence)
	}
}

func parseFile(t *testing.T, path string) *Trace {
	t.Helper()
	data, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	tr, err := Parse(path, bytes.NewReader(data))
	if err != nil {
		t.Fatal(err)
	}
	return tr
}

// TestParseLassoErrors: the cycle header is checked against the property and the directives.
func TestParseLassoErrors(t *testing.T) {
	body := "\npoll a\n----\n\ncheck\n----\n"
	conv := "# property: converges (eventually)\n"
	for _, tc := range []struct {
		name, header string
		line         int
		msg          string
	}{
		{"cycle without converges", "# cycle: 1\n", 2, "a cycle belongs to a lasso"},
		{"converges without cycle", conv, 2, "needs `# cycle: N`"},
		{"converges of the wrong kind", "# property: converges (always)\n# cycle: 1\n", 2, "is (eventually)"},
		{"cycle not a number", conv + "# cycle: soon\n", 3, `cycle "soon"`},
		{"cycle out of range", conv + "# cycle: 3\n", 3, "1..2"},
		{"cycle at a check", conv + "# cycle: 2\n", 3, "is a check"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			text := strings.Replace(goodHeader, "# found:", tc.header+"# found:", 1) + body
			_, err := Parse("bad.trace", strings.NewReader(text))
			var pe *ParseError
			if !errors.As(err, &pe) || pe.Line != tc.line || !strings.Contains(pe.Msg, tc.msg) {
				t.Errorf("got %v, want bad.trace:%d: ...%s...", err, tc.line, tc.msg)
			}
		})
	}
	ok := strings.Replace(goodHeader, "# found:", conv+"# cycle: dead-end\n# found:", 1) + body
	if tr, err := Parse("ok.trace", strings.NewReader(ok)); err != nil || !tr.Header.DeadEnd {
		t.Errorf("a dead-end header: %v", err)
	}
}
