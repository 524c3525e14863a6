package traces

import (
	"fmt"
	"strings"

	"github.com/groupcheck/groupcheck/invariants"
	"github.com/groupcheck/groupcheck/spec"
)

// FormatVersion is the first line of every trace file. A file with another version line is
// refused by Parse, never half-read.
const FormatVersion = "# groupcheck trace v1"

// ModelVersion names the behaviour of the model the expected blocks were written with. Bump it
// when a change to impl or spec changes what existing traces print, and regenerate the corpus
// (go test ./traces -run TestScenarios -rewrite); Replay reports a mismatch in Result.Note.
const ModelVersion = "groupcheck-model 1"

// Ways a trace was found: the first word of Header.Found.
var foundWays = []string{"bfs", "simulation", "hand-written", "shrunk"}

// Header is the provenance of a trace: the `# key: value` lines at the top of the file. The
// config is not in the header value: it is Trace.Config.
type Header struct {
	// About is the prose a reader sees first: what the trace shows and what to look for.
	About []string
	// Property is the property the trace is about, "" for none (a scenario).
	Property string
	// Found says how the trace was found: "bfs shortest ...", "simulation ...",
	// "hand-written", "shrunk ...". Its first word must be one of those.
	Found string
	// Model is the model version the expected blocks were written with; "" means ModelVersion.
	Model string
	// Cycle and DeadEnd make the trace a lasso, a counterexample to the liveness property
	// converges (lasso.go): Cycle is the step (1-based, as in Label) from which the actions
	// repeat forever, 0 for none; DeadEnd says the trace ends where no protocol action is
	// enabled. At most one is set, and only with Property converges.
	Cycle   int
	DeadEnd bool
	_       struct{}
}

// Trace is one parsed or built trace: its header, the world it runs in, and its directives.
type Trace struct {
	Name   string // the file name, for messages
	Header Header
	Config spec.Config
	Steps  []Step
	// Trailing are comment lines after the last directive.
	Trailing []string
}

// Step is one directive of a trace: an action, or `check`.
type Step struct {
	Line     int      // line of the directive in its file; 0 for a built trace
	Comments []string // comment lines just above the directive, without their "# "
	Text     string   // the directive as written
	Check    bool     // the `check` directive: every always-property that fails here
	Action   spec.Action
	Expected []string // the expected output, one line each
}

// Label names a step in messages: "step 3 (line 17) `poll a`".
func (t *Trace) Label(i int) string {
	s := fmt.Sprintf("step %d", i+1)
	if l := t.Steps[i].Line; l > 0 {
		s += fmt.Sprintf(" (%s:%d)", t.Name, l)
	}
	return s + " `" + t.Steps[i].Text + "`"
}

// Actions are the trace's actions in order, without the checks.
func (t *Trace) Actions() []spec.Action {
	var out []spec.Action
	for _, s := range t.Steps {
		if !s.Check {
			out = append(out, s.Action)
		}
	}
	return out
}

// clone copies the trace deeply enough that the copy's steps can be edited.
func (t *Trace) clone() *Trace {
	c := *t
	c.Steps = make([]Step, len(t.Steps))
	copy(c.Steps, t.Steps)
	return &c
}

// ActionStep is the step of an action, its text in the config's names.
func ActionStep(cfg *spec.Config, a spec.Action) Step {
	return Step{Text: a.Text(cfg), Action: a}
}

// CheckStep is the `check` directive.
func CheckStep() Step { return Step{Text: "check", Check: true} }

// New builds a trace from actions, ending with a check. Its expected blocks are empty:
// Rewrite fills them.
func New(name string, h Header, cfg spec.Config, actions []spec.Action) *Trace {
	t := &Trace{Name: name, Header: h, Config: cfg}
	for _, a := range actions {
		t.Steps = append(t.Steps, ActionStep(&cfg, a))
	}
	t.Steps = append(t.Steps, CheckStep())
	return t
}

// propertyLine is the header's property value: "NAME (kind)".
func propertyLine(name string) (string, error) {
	if name == invariants.ConvergesName {
		return name + " (" + convergesKind + ")", nil
	}
	p, ok := lookup(name)
	if !ok {
		return "", fmt.Errorf("unknown property %q", name)
	}
	return fmt.Sprintf("%s (%s)", p.Name, p.Kind), nil
}

func splitLines(s string) []string {
	s = strings.TrimRight(s, "\n")
	if s == "" {
		return nil
	}
	return strings.Split(s, "\n")
}
