package traces

import (
	"bufio"
	"fmt"
	"io"
	"strings"

	"github.com/groupcheck/groupcheck/spec"
)

// Text writes a replayed trace for people: the header, the initial world, then each step
// with its events and the lines of the world that changed, and the checks' verdicts.
func Text(w io.Writer, t *Trace, res *Result) error {
	bw := bufio.NewWriter(w)
	fmt.Fprintf(bw, "trace %s (%s)\n", t.Name, t.Config.Name)
	for _, l := range t.Header.About {
		fmt.Fprintf(bw, "  %s\n", l)
	}
	if t.Header.Property != "" {
		fmt.Fprintf(bw, "property: %s\n", t.Header.Property)
	}
	switch {
	case t.Header.DeadEnd:
		fmt.Fprintf(bw, "lasso: the last world is a dead end (no protocol action enabled)\n")
	case t.Header.Cycle > 0:
		last := len(t.Steps)
		for last > 0 && t.Steps[last-1].Check {
			last--
		}
		fmt.Fprintf(bw, "lasso: steps %d to %d repeat forever\n", t.Header.Cycle, last)
	}
	fmt.Fprintf(bw, "found: %s\n", t.Header.Found)
	if res.Note != "" {
		fmt.Fprintf(bw, "note: %s\n", res.Note)
	}
	fmt.Fprintf(bw, "\ninitial world:\n")
	for _, l := range splitLines(res.Init.String()) {
		fmt.Fprintf(bw, "    %s\n", l)
	}
	for i, s := range res.Steps {
		if i+1 == t.Header.Cycle {
			fmt.Fprintf(bw, "--- the cycle: from here to the end, forever ---\n")
		}
		fmt.Fprintf(bw, "%d. %s\n", i+1, s.Step.Text)
		for _, l := range s.Got {
			fmt.Fprintf(bw, "     %s\n", l)
		}
	}
	if d := res.Divergence; d != nil {
		fmt.Fprintf(bw, "\nDIVERGES at %s: %s\n%s", d.Label, d.Reason, d.Diff)
	}
	return bw.Flush()
}

// Mermaid writes a replayed trace as a Mermaid sequence diagram: the coordinator and one
// participant per member; requests (spec.SendEvent) and responses (spec.ReplyEvent) as arrows,
// a dropped response as a crossed arrow; callbacks, assignments, commits, fatal errors and the
// environment's actions as notes; the checks' violations as a note over everyone; a lasso's
// cycle as a loop block, a dead end as a closing note.
func Mermaid(w io.Writer, t *Trace, res *Result) error {
	bw := bufio.NewWriter(w)
	bw.WriteString("sequenceDiagram\n    participant coord\n")
	for _, m := range t.Config.Members {
		fmt.Fprintf(bw, "    participant %s as %s\n", pid(m.Name), m.Name)
	}
	everyone := "coord"
	if n := len(t.Config.Members); n > 0 {
		everyone += "," + pid(t.Config.Members[n-1].Name)
	}
	for i, s := range res.Steps {
		if i+1 == t.Header.Cycle {
			bw.WriteString("    loop repeats forever\n")
		}
		switch {
		case s.Step.Check:
			for _, v := range s.Violations {
				fmt.Fprintf(bw, "    Note over %s: %s\n", everyone, mm(v.String()))
			}
		case !s.Enabled:
			fmt.Fprintf(bw, "    Note over %s: %d. %s: not enabled\n", actor(t, s.Step.Action), i+1, mm(s.Step.Text))
		default:
			mermaidStep(bw, t, i, s)
		}
	}
	switch {
	case t.Header.Cycle > 0:
		bw.WriteString("    end\n")
	case t.Header.DeadEnd:
		fmt.Fprintf(bw, "    Note over %s: dead end: no protocol action is enabled\n", everyone)
	}
	return bw.Flush()
}

func mermaidStep(bw *bufio.Writer, t *Trace, i int, s StepResult) {
	if s.Step.Action.Kind.Class() != spec.ClassProtocol {
		fmt.Fprintf(bw, "    Note over %s: %d. %s\n", actor(t, s.Step.Action), i+1, mm(s.Step.Text))
	}
	for _, e := range s.Events {
		switch e := e.(type) {
		case spec.SendEvent:
			fmt.Fprintf(bw, "    %s->>coord: %s\n", pid(e.Name), mm(after(e.String(), ": ")))
		case spec.ReplyEvent:
			arrow := "-->>"
			if e.Dropped {
				arrow = "--x"
			}
			fmt.Fprintf(bw, "    coord%s%s: %s\n", arrow, pid(e.Name), mm(after(e.String(), ": ")))
		case spec.CommitEvent:
			fmt.Fprintf(bw, "    Note over coord: %s\n", mm(after(e.String(), ": ")))
		case spec.CallbackEvent:
			fmt.Fprintf(bw, "    Note over %s: %s\n", pid(e.Name), mm(after(e.String(), ": ")))
		case spec.AssignEvent:
			fmt.Fprintf(bw, "    Note over %s: %s\n", pid(e.Name), mm(after(e.String(), ": ")))
		case spec.FatalEvent:
			fmt.Fprintf(bw, "    Note over %s: %s\n", pid(e.Name), mm(after(e.String(), ": ")))
		default:
			fmt.Fprintf(bw, "    Note over coord: %s\n", mm(e.String()))
		}
	}
}

// actor is the participant an action is drawn on: its member, or the coordinator.
func actor(t *Trace, a spec.Action) string {
	if a.Kind.OnCoordinator() {
		return "coord"
	}
	return pid(t.Config.Members[a.Slot].Name)
}

// pid is a member's participant id: prefixed, so that a member named like a Mermaid keyword
// ("end", "note") cannot break the diagram.
func pid(name string) string { return "m_" + name }

// mm escapes what Mermaid reads as syntax in message text: a semicolon ends a statement.
// A "#" is kept: Mermaid reads only #word; as an entity, and no semicolon is left.
func mm(s string) string {
	return strings.NewReplacer(";", "#59;", "\n", " ").Replace(s)
}

func after(s, sep string) string {
	if _, rest, ok := strings.Cut(s, sep); ok {
		return rest
	}
	return s
}
