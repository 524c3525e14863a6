package mutate

import (
	"fmt"
	"slices"
	"time"

	"github.com/groupcheck/groupcheck/explorer"
	"github.com/groupcheck/groupcheck/invariants"
	"github.com/groupcheck/groupcheck/mutate/rt"
	"github.com/groupcheck/groupcheck/spec"
)

// Baseline is a world of the suite as the unmutated reference explores it: what holds there
// (only that can kill a mutant), what it costs, and which mutation points it reaches.
type Baseline struct {
	World
	Distinct     int64             `json:"distinct"`
	LiveDistinct int               `json:"live_distinct"` // 0: liveness undefined here
	Props        map[string]string `json:"props"`         // property → status (holds, violated, ...)
	Converges    string            `json:"converges,omitempty"`
	Expiry       string            `json:"orphans_expire,omitempty"` // invariants.OrphansExpireName's status
	// Taken is every kind of action the world takes, by member (invariants.LivenessReport.Taken):
	// a mutant that never takes one of them there has silently disabled an event.
	Taken []string `json:"taken,omitempty"`
	// MaxRebalances is the highest generation (KIP-848: group epoch) of any world: a mutant
	// that goes above it rebalances more than the reference ever does here (RoundsName).
	MaxRebalances int `json:"max_rebalances"`
	// MaxHeld is the most member ids the coordinator holds in any world (members and pending
	// ids): a mutant above it leaks ids (RoundsName). 0 (a baseline written before it) sets
	// no bound.
	MaxHeld int `json:"max_held,omitempty"`
	Rounds  int `json:"rounds"` // worst-case rebalances after one event; -1 unbounded
	// RoundsBy is the same per kind of environment event: a mutant that makes one kind of
	// event cost more rebalances is caught even when another kind sets the overall worst case.
	RoundsBy map[string]int `json:"rounds_by,omitempty"`
	// UnavailableBy is the worst-case partition-steps without a live owner after one event,
	// per kind: a mutant that makes an event cost more of them is slower, not safer.
	UnavailableBy map[string]int `json:"unavailable_by,omitempty"`
	// PerStart is the same per measured event, by the converged world it starts in and the
	// event (invariants.Rounds.PerStart): rebalances, partition-steps without an owner and steps. A
	// mutant that makes one event in one world slower is caught even when its kind's worst
	// case, set elsewhere, does not change (a leave that waits for a timer to complete the
	// join the reference completes at once).
	PerStart map[string][3]int `json:"per_start,omitempty"`
	Seconds  float64           `json:"seconds"`
	CPU      float64           `json:"cpu"` // CPU seconds (Linux; 0 elsewhere)
	Hits     []int32           `json:"hits"`
	// Infected are the reached points where some execution computed something else than the
	// mutant would (rt.Infected): a mutant not infected here behaves here as the reference.
	Infected []int32 `json:"infected"`
}

// Verdict is what one mutant did.
type Verdict struct {
	ID      int32    `json:"-"`
	Status  string   `json:"status"` // killed, survived, timed-out, not-reached
	World   string   `json:"world,omitempty"`
	Killers []string `json:"killers,omitempty"` // the properties that caught it there
	Capped  []string `json:"capped,omitempty"`  // worlds whose state cap stopped them undecided
	Seconds float64  `json:"seconds"`
	CPU     float64  `json:"cpu"` // CPU seconds of the mutant's process (Linux; 0 elsewhere)
}

// The verdicts.
const (
	Killed     = "killed"
	Survived   = "survived"
	TimedOut   = "timed-out"
	NotReached = "not-reached" // no world of the suite reaches the point: it survives unexercised
	// NotInfected: worlds reach the point, but in none does it ever compute something else
	// than the reference (the same value, an assignment of what was there): it survives
	// unexercised, as a not-reached one does, without exploring anything.
	NotInfected = "not-infected"
	NotBuilt    = "not-built" // its schema did not compile
)

// RoundsName is the pseudo-property of a mutant that needs more rebalances after one
// environment event than the reference does in the same world, or that reaches a generation
// (KIP-848: group epoch) higher than any the reference reaches there, or in which the
// coordinator holds more member ids at once than it ever does in the reference (a join
// retried forever under a new id each time) — a livelock that a state cap would otherwise
// only stop (timed out).
const RoundsName = "rounds"

// UnavailableName is the pseudo-property of a mutant that leaves more partition-steps without
// a live owner after some kind of environment event than the reference does in the same world
// (the figure --max-unavailable bounds): slower, not wrong by any safety property.
const UnavailableName = "unavailable"

// EventsName is the pseudo-property of a mutant that, in a world, never takes a kind of action
// (by member: a crash of b, a follow-up asked of a) that the reference takes there: a vacuity
// guard for every budgeted event at once — the mutant silently disabled something the config
// says can happen, so every property is vacuous about it (explore's "actions never enabled").
const EventsName = "events"

// PureStepsName is the pseudo-property of a mutant whose step changes the world it steps
// from (invariants.LiveBounds.CheckPure): impl's roles are pure functions, so a step that
// writes into memory its parent shares is wrong whatever the properties say.
const PureStepsName = "pure-steps"

// StepsName is the pseudo-property of a mutant that needs more steps to converge again after
// an environment event in a converged world than the reference needs after the same event in
// the same world: slower, though no partition waits longer for an owner.
const StepsName = "steps"

// capStates is the state cap of a mutant in a world whose reference has n states: a mutant may
// grow the world, but one that grows it far without a violation is called timed out.
func capStates(n int64) int64 { return 3*n + 5000 }

// RunBaseline explores one world with the reference in coverage mode (the process must have
// GROUPCHECK_MUTANT_COVER set and no mutant on) and records it: one pass builds the state
// graph and checks every property on the way, as a mutant's does (pass).
func RunBaseline(w World) (Baseline, error) {
	cfg, err := spec.ParseConfigString(w.Name, w.Text)
	if err != nil {
		return Baseline{}, err
	}
	start, cpu := time.Now(), cpuSeconds()
	rt.ResetHits()
	props := invariants.For(cfg)
	p := newPass(props, false)
	lb := p.bounds(0)
	lb.Events = w.Events()
	lr := invariants.LivenessWithin(cfg, lb)
	if lr.StoppedBy == invariants.StopImpure {
		return Baseline{}, fmt.Errorf("world %s: the reference changed a world while stepping from it (%s)", w.Name, invariants.StopImpure)
	}
	b := Baseline{World: w, Distinct: int64(lr.Distinct), Props: map[string]string{}, Rounds: -1,
		Expiry: lr.Expiry.Status.String(), Taken: lr.Taken, MaxRebalances: p.maxRebalances, MaxHeld: p.maxHeld}
	for i, pr := range props {
		b.Props[pr.Name] = p.status(i).String()
	}
	if invariants.LivenessUndefined(cfg) == "" {
		b.LiveDistinct, b.Converges, b.Rounds = lr.Distinct, lr.Status.String(), lr.Rounds.Rebalances
		b.RoundsBy, b.UnavailableBy = map[string]int{}, map[string]int{}
		for k, f := range lr.Rounds.ByEvent {
			b.RoundsBy[k], b.UnavailableBy[k] = f.Rebalances, f.Unavailability
		}
		b.PerStart = map[string][3]int{}
		for k, f := range lr.Rounds.PerStart {
			b.PerStart[k] = [3]int{f.Rebalances, f.Unavailability, f.Steps}
		}
	}
	b.Seconds, b.CPU = time.Since(start).Seconds(), cpuSeconds()-cpu
	b.Hits, b.Infected = rt.Hits(), rt.Infected()
	return b, nil
}

// RunMutant runs the switched-on mutant (GROUPCHECK_MUTANT = id) against every world whose
// reference reaches and infects point id, cheapest first (a world that does not infect it
// would explore the reference's own state space), and stops at the first that catches it: a
// property that holds in the reference is violated (or a sometimes-property unreached),
// converges fails, or more rebalances are needed after some kind of environment event than
// the reference needs after it. A world whose
// state cap stops it first is undecided; with no catch anywhere and an undecided world the
// mutant timed out. With hung set, a watchdog calls it from another goroutine with the
// verdict of a step that does not return (HangName); hung must end the process.
func RunMutant(base []Baseline, id int32, hung func(Verdict)) Verdict {
	start := time.Now()
	v := Verdict{ID: id, Status: NotReached}
	var dog *watchdog
	if hung != nil {
		dog = &watchdog{}
		go dog.watch(time.Tick(200*time.Millisecond), cpuSeconds, func(world string) {
			hung(Verdict{ID: id, Status: Killed, World: world, Killers: []string{HangName},
				Seconds: time.Since(start).Seconds(), CPU: cpuSeconds()})
		})
	}
	order := slices.Clone(base)
	slices.SortStableFunc(order, func(a, b Baseline) int { return int(a.Distinct - b.Distinct) })
	for _, b := range order {
		if _, ok := slices.BinarySearch(b.Hits, id); !ok {
			continue
		}
		if v.Status == NotReached {
			v.Status = NotInfected
		}
		if _, ok := slices.BinarySearch(b.Infected, id); !ok {
			continue
		}
		v.Status = Survived
		if dog != nil {
			dog.explore(&b)
		}
		killers, capped, err := runWorld(b, dog)
		if err != nil {
			killers = []string{"error: " + err.Error()}
		}
		if capped {
			v.Capped = append(v.Capped, b.Name)
		}
		if len(killers) > 0 {
			v.Status, v.World, v.Killers = Killed, b.Name, killers
			break
		}
	}
	if v.Status == Survived && len(v.Capped) > 0 {
		v.Status = TimedOut
	}
	if dog != nil {
		dog.done.Store(true)
	}
	v.Seconds, v.CPU = time.Since(start).Seconds(), cpuSeconds()
	return v
}

// runWorld explores one world under the mutant, in one pass (pass): the properties that
// catch it, and whether a state cap stopped the search before it decided. The pass stops at
// the first violation of a property that holds for the reference.
func runWorld(b Baseline, dog *watchdog) (killers []string, capped bool, err error) {
	cfg, err := spec.ParseConfigString(b.Name, b.Text)
	if err != nil {
		return nil, false, err
	}
	var props []invariants.Property
	for _, p := range invariants.For(cfg) {
		if b.Props[p.Name] == explorer.Holds.String() {
			props = append(props, p)
		}
	}
	p := newPass(props, true)
	p.limit, p.heldLimit, p.dog = b.MaxRebalances, b.MaxHeld, dog
	lb := p.bounds(int(capStates(b.Distinct)))
	lb.Events = b.Events()
	lr := invariants.LivenessWithin(cfg, lb)
	if lr.StoppedBy == invariants.StopImpure {
		return []string{PureStepsName}, false, nil
	}
	if p.overLimit {
		return []string{RoundsName}, false, nil
	}
	complete := lr.StoppedBy == ""
	if killers = p.caught(complete); len(killers) > 0 {
		return killers, false, nil
	}
	if !complete {
		return nil, true, nil
	}
	if b.Expiry == explorer.Holds.String() && lr.Expiry.Status == explorer.Violated {
		return []string{invariants.OrphansExpireName}, false, nil
	}
	for _, k := range b.Taken {
		if _, ok := slices.BinarySearch(lr.Taken, k); !ok {
			return []string{EventsName}, false, nil
		}
	}
	if b.LiveDistinct == 0 || b.Converges != explorer.Holds.String() {
		return nil, false, nil
	}
	switch {
	case lr.Status == explorer.Violated:
		return []string{invariants.ConvergesName}, false, nil
	case b.Rounds >= 0 && (lr.Rounds.Rebalances == invariants.Unbounded || lr.Rounds.Rebalances > b.Rounds):
		return []string{RoundsName}, false, nil
	}
	for k, f := range lr.Rounds.ByEvent {
		if slower(f.Rebalances, b.RoundsBy, k) {
			return []string{RoundsName}, false, nil
		}
	}
	for k, f := range lr.Rounds.ByEvent {
		if slower(f.Unavailability, b.UnavailableBy, k) {
			return []string{UnavailableName}, false, nil
		}
	}
	for k, f := range lr.Rounds.PerStart {
		ref, ok := b.PerStart[k]
		switch {
		case !ok: // a converged world the reference never reaches: nothing to compare
		case exceeds(f.Rebalances, ref[0]):
			return []string{RoundsName}, false, nil
		case exceeds(f.Unavailability, ref[1]):
			return []string{UnavailableName}, false, nil
		case exceeds(f.Steps, ref[2]):
			return []string{StepsName}, false, nil
		}
	}
	return nil, false, nil
}

// slower says whether a mutant's figure for events of kind k exceeds the reference's (when the
// reference bounds it).
func slower(got int, ref map[string]int, k string) bool {
	r, ok := ref[k]
	return ok && exceeds(got, r)
}

// exceeds says whether a mutant's figure is worse than a bounded reference figure.
func exceeds(got, ref int) bool {
	return ref >= 0 && (got == invariants.Unbounded || got > ref)
}

// String is a one-line account of a verdict.
func (v Verdict) String() string {
	switch v.Status {
	case Killed:
		return fmt.Sprintf("killed in %s by %v", v.World, v.Killers)
	case TimedOut:
		if len(v.Capped) > 3 {
			return fmt.Sprintf("timed out (capped in %d worlds: %v ...)", len(v.Capped), v.Capped[:3])
		}
		return fmt.Sprintf("timed out (capped in %v)", v.Capped)
	}
	return v.Status
}
