package main

import (
	"fmt"
	"slices"
	"strings"

	"github.com/groupcheck/groupcheck/spec"
)

// A difference ends its schedule, so the transitions the schedule would have taken after
// it are not exercised, although many of them are reachable another way. Re-planning
// searches the reference world again avoiding every edge a difference was seen on, runs
// the new shortest schedules to the transitions still not exercised, and repeats while
// that finds new differences to avoid, up to a bounded number of rounds. The search and
// the rounds are deterministic: one broker's answers give one result.

// forbidden is the set of edges a broker differed on, each with the difference's name.
// An edge is a state and an action; a coordinator transition two of whose edges differed
// is forbidden whole (namesAfter): its other edges most likely answer alike, and trying
// each of them would cost a round apiece.
type forbidden struct {
	edges  map[string]string     // state encoding NUL action text → difference
	states map[string]bool       // the states of edges
	names  map[transition]string // transitions forbidden whole
	differ map[transition]string // every transition an edge of which differed: the first difference
	count  map[transition]int    // differing edges per transition
}

// namesAfter is how many differing edges forbid a transition whole.
const namesAfter = 2

func (f *forbidden) empty() bool { return f == nil || len(f.edges) == 0 }

// blocks reports whether f forbids action a of the state encoded as key, whose
// transition is t, and the difference seen on it.
func (f *forbidden) blocks(key string, a spec.Action, t transition, cfg *spec.Config) (string, bool) {
	if f.empty() {
		return "", false
	}
	if id, ok := f.names[t]; ok && t != "" {
		return id, true
	}
	if !f.states[key] {
		return "", false
	}
	id, ok := f.edges[edgeKey(key, a, cfg)]
	return id, ok
}

// add forbids the edge d was seen on, named by id. It reports whether the edge is new.
func (f *forbidden) add(d difference, cfg spec.Config, id string) (bool, error) {
	if d.Step < 0 || d.Step >= len(d.Schedule.Actions) {
		return false, fmt.Errorf("difference %s: step %d outside its schedule of %d", d, d.Step+1, len(d.Schedule.Actions))
	}
	w := spec.Init(cfg)
	for _, a := range d.Schedule.Actions[:d.Step] {
		var ok bool
		if w, ok = spec.Next(w, a); !ok {
			return false, fmt.Errorf("difference %s: %q not enabled in the reference", d, a.Text(&cfg))
		}
	}
	a := d.Schedule.Actions[d.Step]
	_, ev, ok := spec.Step(w, a)
	if !ok {
		return false, fmt.Errorf("difference %s: %q not enabled in the reference", d, a.Text(&cfg))
	}
	state := string(w.Encode(nil))
	key := edgeKey(state, a, &cfg)
	if _, had := f.edges[key]; had {
		return false, nil
	}
	if f.edges == nil {
		f.edges, f.states, f.names, f.differ, f.count = map[string]string{}, map[string]bool{}, map[transition]string{}, map[transition]string{}, map[transition]int{}
	}
	f.edges[key], f.states[state] = id, true
	if t := transitionOf(w, a, ev); t != "" {
		if _, had := f.differ[t]; !had {
			f.differ[t] = id
		}
		if f.count[t]++; f.count[t] >= namesAfter {
			if _, had := f.names[t]; !had {
				f.names[t] = id
			}
		}
	}
	return true, nil
}

// edgeKey names the edge taking action a from the state encoded as state.
func edgeKey(state string, a spec.Action, cfg *spec.Config) string {
	return state + "\x00" + a.Text(cfg)
}

// diffID names a difference for re-planning and reports: its classification's id, or
// its first line when it has none.
func diffID(d difference, broker string) string {
	if k := known(d, broker); k != nil {
		return k.id
	}
	return "unclassified: " + d.Lines[0]
}

// runner runs one schedule against a broker (prober.runSchedule).
type runner func(schedule, spec.Config) (outcome, error)

// replan runs, in up to rounds rounds, schedules to the transitions of wr not exercised
// yet that avoid every edge a difference of wr was seen on, and records why each
// transition still not exercised is not (wr.Missed). broker names the broker for the
// differences' classification.
func replan(wr *worldReport, cfg spec.Config, maxStates, rounds int, broker string, run runner) error {
	var f forbidden
	forbid := func(d difference) (bool, error) { return f.add(d, cfg, diffID(d, broker)) }
	for _, d := range wr.Diffs {
		if _, err := forbid(d); err != nil {
			return err
		}
	}
	tried := map[string]bool{}
	for round := 0; round < rounds && !f.empty(); round++ {
		e := exploreAvoiding(wr.World, cfg, maxStates, &f, false)
		targets := explored{Transitions: map[transition]schedule{}}
		for t, s := range e.Transitions {
			if done, ok := wr.Transitions[t]; ok && !done && !tried[scheduleKey(s, &cfg)] {
				targets.Transitions[t] = s
			}
		}
		grew := false
		for _, s := range targets.covering() {
			tried[scheduleKey(s, &cfg)] = true
			if timerConflict(s, cfg) {
				wr.unrunSchedule(s, cfg)
				continue
			}
			s.Target = "re-planned: " + s.Target
			res, err := run(s, cfg)
			if err != nil {
				return fmt.Errorf("world %s, schedule for %s: %w", wr.World, s.Target, err)
			}
			wr.Replans++
			wr.add(res)
			if res.Diff != nil {
				res.Diff.Replanned = true
				wr.Diffs = append(wr.Diffs, *res.Diff)
				added, err := forbid(*res.Diff)
				if err != nil {
					return err
				}
				grew = grew || added
			}
		}
		if !grew {
			break
		}
	}
	wr.Missed = map[transition]string{}
	final := explored{Through: map[transition]string{}}
	if !f.empty() {
		final = exploreAvoiding(wr.World, cfg, maxStates, &f, true)
	}
	for t, done := range wr.Transitions {
		if done {
			continue
		}
		_, reached := final.Transitions[t]
		id, differs := f.differ[t]
		via, through := final.Through[t]
		switch {
		case differs:
			wr.Missed[t] = "differs: " + id
		case through:
			wr.Missed[t] = "reachable only through difference " + via
		case wr.onUnrun[t]:
			wr.Missed[t] = "only unrun schedules reach it (timer conflict)"
		case reached && rounds == 0:
			wr.Missed[t] = "not re-planned (-replan 0)"
		case reached:
			wr.Missed[t] = fmt.Sprintf("re-planning stopped after %d rounds", rounds)
		default:
			wr.Missed[t] = fmt.Sprintf("not reached within %d states avoiding the differences", maxStates)
		}
	}
	return nil
}

// unrunSchedule records that s is not run (timerConflict): the transitions it takes are
// not exercised by it.
func (wr *worldReport) unrunSchedule(s schedule, cfg spec.Config) {
	wr.Conflicts++
	if wr.onUnrun == nil {
		wr.onUnrun = map[transition]bool{}
	}
	w := spec.Init(cfg)
	for _, a := range s.Actions {
		next, ev, ok := spec.Step(w, a)
		if !ok {
			return
		}
		if t := transitionOf(w, a, ev); t != "" {
			wr.onUnrun[t] = true
		}
		w = next
	}
}

// scheduleKey identifies a schedule by its actions.
func scheduleKey(s schedule, cfg *spec.Config) string {
	texts := make([]string, len(s.Actions))
	for i, a := range s.Actions {
		texts[i] = a.Text(cfg)
	}
	return strings.Join(texts, "\n")
}

// missedLines are the transitions of wr not exercised, sorted, each with why.
func (wr worldReport) missedLines() []string {
	var out []string
	for t, ok := range wr.Transitions {
		if ok {
			continue
		}
		line := string(t)
		if why := wr.Missed[t]; why != "" {
			line += " (" + why + ")"
		}
		out = append(out, line)
	}
	slices.Sort(out)
	return out
}

// defaultReplan is how many rounds of re-planning a run makes unless told (-replan).
const defaultReplan = 4
