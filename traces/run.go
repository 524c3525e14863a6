package traces

import (
	"fmt"
	"strings"

	"github.com/groupcheck/groupcheck/explorer"
	"github.com/groupcheck/groupcheck/impl/leader"
	"github.com/groupcheck/groupcheck/invariants"
	"github.com/groupcheck/groupcheck/spec"
)

// Violation is an always-property that fails at some point of a replay.
type Violation struct {
	Property string `json:"property"`
	Reason   string `json:"reason"`
}

func (v Violation) String() string { return fmt.Sprintf("violation %s: %s", v.Property, v.Reason) }

// runner re-executes actions with invariants.Model semantics: Model.Next sets the Observed bit
// of a step property that fails, and the bit stays set, so a step property violated at some
// step fails at every later check; a state property fails where its state does. The runner
// also remembers the reason a step property gave when it first failed.
type runner struct {
	m       *invariants.Model
	props   []invariants.Property
	checks  []explorer.Property[spec.World]
	w       spec.World
	reasons []string // per property: why a step property first failed
}

func newRunner(cfg spec.Config) *runner {
	m := invariants.NewModel(cfg)
	return &runner{m: m, props: m.Props(), checks: m.Properties(), w: m.Init()[0], reasons: make([]string, len(m.Props()))}
}

// step applies a; it reports the step's events and false when a is not enabled (the world
// is then unchanged).
func (r *runner) step(a spec.Action) ([]spec.Event, bool) {
	pre := r.w
	next, ok := r.m.Next(pre, a)
	if !ok {
		return nil, false
	}
	_, ev, _ := spec.Step(pre, a)
	for i, p := range r.props {
		if p.Step != nil && p.Kind == explorer.Always && r.reasons[i] == "" && !r.checks[i].Check(next) {
			r.reasons[i] = p.Step(&pre, ev, &next)
		}
	}
	r.w = next
	return visible(ev), true
}

// visible drops the events a trace does not print: a ReceiveEvent repeats what the world's
// diff shows (the response leaving its connection), a CommitResultEvent what the CommitEvent
// at delivery showed.
func visible(ev []spec.Event) []spec.Event {
	out := ev[:0:0]
	for _, e := range ev {
		switch e.(type) {
		case spec.ReceiveEvent, spec.CommitResultEvent:
		default:
			out = append(out, e)
		}
	}
	return out
}

// violations are the always-properties that fail in the current world, in report order.
func (r *runner) violations() []Violation {
	var out []Violation
	for i, p := range r.props {
		if p.Kind != explorer.Always || r.checks[i].Check(r.w) {
			continue
		}
		why := r.reasons[i]
		if p.State != nil {
			why = p.State(&r.w)
		}
		out = append(out, Violation{Property: p.Name, Reason: why})
	}
	return out
}

// fails reports whether the always-property at index i fails in the current world.
func (r *runner) fails(i int) bool { return !r.checks[i].Check(r.w) }

// propIndex is the index of a property of the config's model, or -1.
func (r *runner) propIndex(name string) int {
	for i, p := range r.props {
		if p.Name == name {
			return i
		}
	}
	return -1
}

// checkLines is the expected output of `check`.
func checkLines(vs []Violation) []string {
	if len(vs) == 0 {
		return []string{"ok"}
	}
	out := make([]string, len(vs))
	for i, v := range vs {
		out[i] = v.String()
	}
	return out
}

// notEnabled is the output of an action that is not enabled where the trace takes it.
const notEnabled = "not enabled"

// planLine renders the KIP variant's cooperative leader plan under its assign event (KIP-429 §2):
// the three sets, what is withheld, and the error every member gets (NEEDS_REJOIN).
func planLine(p *leader.PlanResult) string {
	return fmt.Sprintf("  plan: owned=%s assigned=%s maybe-revoking=%s ready-to-migrate=%s unknown-but-owned=%s withheld=%s error=%s",
		p.OwnedPartitions, p.AssignedPartitions, p.MaybeRevoking, p.ReadyToMigrate, p.UnknownButOwned, p.Withheld, p.Error)
}

// stepLines is the expected output of an enabled action: its events, one a line (a leader's
// plan, when it has one, on an indented line under its assign event), then the
// lines of the world's rendering that changed, prefixed "| ", removed ones as "| -".
func stepLines(ev []spec.Event, pre, post *spec.World) []string {
	var out []string
	for _, e := range ev {
		out = append(out, e.String())
		if a, ok := e.(spec.AssignEvent); ok && a.Plan != nil {
			out = append(out, planLine(a.Plan))
		}
	}
	for _, l := range worldDiff(pre.String(), post.String()) {
		out = append(out, "| "+l)
	}
	return out
}

// worldDiff lists the lines of after that are not lines of before (a multiset difference,
// so a second identical message in flight shows), in order; then the lines of before that
// are gone, prefixed "-", except a top-level line (coord, a member, cluster, budget) whose
// replacement is already listed.
func worldDiff(before, after string) []string {
	b, a := splitLines(before), splitLines(after)
	count := map[string]int{}
	for _, l := range b {
		count[l]++
	}
	var out []string
	changed := map[string]bool{}
	for _, l := range a {
		if count[l] > 0 {
			count[l]--
			continue
		}
		out = append(out, l)
		changed[lineKey(l)] = true
	}
	left := map[string]int{}
	for _, l := range a {
		left[l]++
	}
	for _, l := range b {
		if left[l] > 0 {
			left[l]--
			continue
		}
		if k := lineKey(l); k != "" && changed[k] {
			continue
		}
		out = append(out, "-"+l)
	}
	return out
}

// lineKey is the first word of a top-level line of World.String, "" for an indented one.
func lineKey(l string) string {
	if strings.HasPrefix(l, " ") {
		return ""
	}
	k, _, _ := strings.Cut(l, " ")
	return k
}
