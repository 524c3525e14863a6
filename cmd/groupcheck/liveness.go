package main

import (
	"fmt"
	"io"
	"sort"
	"strconv"

	"github.com/groupcheck/groupcheck/explorer"
	"github.com/groupcheck/groupcheck/invariants"
	"github.com/groupcheck/groupcheck/spec"
)

// addLiveness appends the converges verdict (unless --property leaves it out) to the report: its status, why, and its lasso as
// the property's trace (prefix, then the cycle that repeats forever, if any).
func (r *report) addLiveness(lr invariants.LivenessReport, only propertyNames) {
	p := propertyReport{Name: invariants.ConvergesName, Kind: "eventually", Status: lr.Status.String(),
		Statement: invariants.ConvergesStatement,
		Source:    invariants.ConvergesSource, Trace: []string{}, liveness: true}
	var path *explorer.Path[spec.World, spec.Action]
	switch lr.Status {
	case explorer.Unknown:
		p.Why = fmt.Sprintf("BOUNDED: the liveness check was stopped by %s at %d worlds of the state graph; no verdict", lr.StoppedBy, lr.Distinct)
		if lr.StoppedBy == explorer.StopMaxStates {
			p.Why = fmt.Sprintf("BOUNDED: the state graph has more than the bound's %d worlds; no verdict", lr.Distinct-1)
		}
	case explorer.Violated:
		l := lr.Lasso
		r.lasso = l
		what := "can never converge"
		if !l.Stuck {
			what = "could still converge, but a fair schedule need not"
		}
		path = &explorer.Path[spec.World, spec.Action]{Init: l.Prefix.Init, Steps: append(append([]explorer.Step[spec.World, spec.Action]{}, l.Prefix.Steps...), l.Cycle...)}
		if len(l.Cycle) > 0 {
			p.Why = fmt.Sprintf("the lasso's world %s: after %d steps the last %d repeat forever, every action enabled throughout them taken (%d fair cycles, %d dead ends; %d of %d worlds can never converge)",
				what, len(l.Prefix.Steps), len(l.Cycle), lr.FairCycles, lr.DeadEnds, lr.Stuck, lr.Distinct)
		} else {
			p.Why = fmt.Sprintf("the lasso's world %s: the path ends where no protocol action is enabled, so once the environment stops nothing happens (%d fair cycles, %d dead ends; %d of %d worlds can never converge)",
				what, lr.FairCycles, lr.DeadEnds, lr.Stuck, lr.Distinct)
		}
		for _, s := range path.Steps {
			p.Trace = append(p.Trace, s.Action.Text(&r.cfg))
		}
	}
	p.setOrigin()
	if only.has(p.Name) {
		r.Properties = append(r.Properties, p)
		r.paths = append(r.paths, path)
	}
	if lr.Status != explorer.Unknown {
		r.Rounds = newRoundsReport(lr.Rounds)
	}
	if only.has(invariants.OrphansExpireName) {
		r.addExpiry(lr)
	}
}

// addExpiry appends the orphans-expire verdict, decided on the same graph: its path ends in
// the first world from which the coordinator never lets the kept id go. The path is a plain
// trace (its end is not a state predicate the replay checks).
func (r *report) addExpiry(lr invariants.LivenessReport) {
	e := lr.Expiry
	p := propertyReport{Name: invariants.OrphansExpireName, Kind: "eventually", Status: e.Status.String(),
		Statement: invariants.OrphansExpireStatement, Source: invariants.OrphansExpireSource,
		Trace: []string{}, unchecked: true}
	switch e.Status {
	case explorer.Unknown:
		p.Why = fmt.Sprintf("BOUNDED: the liveness check was stopped by %s at %d worlds of the state graph; no verdict", lr.StoppedBy, lr.Distinct)
	case explorer.Violated:
		p.Why = fmt.Sprintf("after the path the coordinator keeps %s, which no running process stands behind, in every behaviour (%d of %d worlds never let such an id go)", e.Kept, e.Stuck, lr.Distinct)
		for _, s := range e.Path.Steps {
			p.Trace = append(p.Trace, s.Action.Text(&r.cfg))
		}
	}
	p.setOrigin()
	r.Properties = append(r.Properties, p)
	r.paths = append(r.paths, e.Path)
}

// roundsReport is the JSON form of invariants.Rounds: -1 (invariants.Unbounded) where a
// figure has no worst case.
type roundsReport struct {
	figuresReport
	Events    int                      `json:"events"`
	Witness   string                   `json:"witness,omitempty"`
	Stops     int                      `json:"stops"`
	ByEvent   map[string]figuresReport `json:"by_event"`
	MaxRounds int                      `json:"max_rounds,omitempty"`
	Exceeded  bool                     `json:"exceeded,omitempty"`
	// MaxUnavailable is --max-unavailable (nil when not given: 0 is a bound);
	// UnavailableExceeded says the worst case is above it.
	MaxUnavailable      *int `json:"max_unavailable,omitempty"`
	UnavailableExceeded bool `json:"unavailable_exceeded,omitempty"`
	// Time is the worst time to converge per kind of event (invariants.ConvergeTime), with
	// the actions from the event on (figuresReport.Time is the worst of all); MaxConvergeTime is --max-converge-time (0: not given).
	Converge        map[string]convergeReport `json:"time_to_converge"`
	MaxConvergeTime int                       `json:"max_converge_time_ms,omitempty"`
	TimeExceeded    bool                      `json:"time_exceeded,omitempty"`

	times map[string]invariants.ConvergeTime // the paths, for --out
}

type figuresReport struct {
	Changes        int `json:"changes"`
	Rebalances     int `json:"rebalances"`
	Steps          int `json:"steps"`
	Unavailability int `json:"unavailability"`
	Time           int `json:"time_ms"`
}

// convergeReport is one kind's worst time to converge: -1 where unbounded.
type convergeReport struct {
	Millis int      `json:"millis"`
	Event  string   `json:"event"`
	Trace  []string `json:"trace,omitempty"` // the event, then the slowest path's actions
}

func newRoundsReport(r invariants.Rounds) *roundsReport {
	rep := &roundsReport{figuresReport: figuresReport(r.Figures), Events: r.Events, Witness: r.Witness, Stops: r.Stops,
		ByEvent: map[string]figuresReport{}, Converge: map[string]convergeReport{}, times: r.Time}
	for k, f := range r.ByEvent {
		rep.ByEvent[k] = figuresReport(f)
	}
	for k, ct := range r.Time {
		cr := convergeReport{Millis: ct.Millis, Event: ct.Event}
		if ct.Path != nil {
			cfg := ct.Path.Init.Config()
			for _, s := range ct.Path.Steps[ct.Start:] {
				cr.Trace = append(cr.Trace, s.Action.Text(cfg))
			}
		}
		rep.Converge[k] = cr
	}
	return rep
}

// exceeded reports whether a figure passed its bound (--max-rounds, --max-unavailable,
// --max-converge-time).
func (r *roundsReport) exceeded() bool {
	return r.Exceeded || r.UnavailableExceeded || r.TimeExceeded
}

// checkConvergeTime applies --max-converge-time (ms, 0: not given): the worst time to
// converge must be bounded and at most ms.
func (r *report) checkConvergeTime(ms int) {
	if r.Rounds == nil || ms <= 0 {
		return
	}
	r.Rounds.MaxConvergeTime = ms
	r.Rounds.TimeExceeded = r.Rounds.Time == invariants.Unbounded || r.Rounds.Time > ms
}

// millis renders a time figure: "unbounded", "800 ms", "48 s", "9.999 s".
func millis(ms int) string {
	switch {
	case ms == invariants.Unbounded:
		return "unbounded"
	case ms < 1000:
		return fmt.Sprintf("%d ms", ms)
	case ms%1000 == 0:
		return fmt.Sprintf("%d s", ms/1000)
	}
	return strconv.FormatFloat(float64(ms)/1000, 'f', -1, 64) + " s"
}

// checkRounds applies --max-rounds: the worst case must be bounded and at most n.
func (r *report) checkRounds(n int) {
	if r.Rounds == nil || n <= 0 {
		return
	}
	r.Rounds.MaxRounds = n
	r.Rounds.Exceeded = r.Rounds.Rebalances == invariants.Unbounded || r.Rounds.Rebalances > n
}

// checkUnavailable applies --max-unavailable (n < 0: not given): the worst case of
// partition-steps without an owner must be bounded and at most n.
func (r *report) checkUnavailable(n int) {
	if r.Rounds == nil || n < 0 {
		return
	}
	r.Rounds.MaxUnavailable = &n
	r.Rounds.UnavailableExceeded = r.Rounds.Unavailability == invariants.Unbounded || r.Rounds.Unavailability > n
}

func figure(n int) string {
	if n == invariants.Unbounded {
		return "unbounded"
	}
	return fmt.Sprint(n)
}

func (r *roundsReport) writeText(w io.Writer) {
	after, first := "one environment event in a converged group", ""
	if r.Events > 1 {
		after = fmt.Sprintf("an environment event in a converged group and up to %d more before it converges again", r.Events-1)
		first = " first"
	}
	fmt.Fprintf(w, "\nafter %s (%d measured), worst case until converged again: %s rebalances (%s%s), %s steps, %s partition-steps without an owner, %s waited on timers",
		after, r.Changes, figure(r.Rebalances), r.Witness, first, figure(r.Steps), figure(r.Unavailability), millis(r.Time))
	if r.Stops > 0 {
		fmt.Fprintf(w, "; after %d of them some behaviour stops unconverged until the environment acts again", r.Stops)
	}
	fmt.Fprintln(w)
	kinds := make([]string, 0, len(r.ByEvent))
	for k := range r.ByEvent {
		kinds = append(kinds, k)
	}
	sort.Strings(kinds)
	for _, k := range kinds {
		f := r.ByEvent[k]
		fmt.Fprintf(w, "  %-18s %5d events: %s rebalances, %s steps, %s partition-steps without an owner, %s to converge\n", k, f.Changes, figure(f.Rebalances), figure(f.Steps), figure(f.Unavailability), millis(f.Time))
	}
	if r.MaxConvergeTime > 0 {
		verdict := "within"
		if r.TimeExceeded {
			verdict = "EXCEEDS"
		}
		fmt.Fprintf(w, "max-converge-time %s: the worst case %s the bound\n", millis(r.MaxConvergeTime), verdict)
	}
	if r.MaxRounds > 0 {
		verdict := "within"
		if r.Exceeded {
			verdict = "EXCEEDS"
		}
		fmt.Fprintf(w, "max-rounds %d: the worst case %s the bound\n", r.MaxRounds, verdict)
	}
	if r.MaxUnavailable != nil {
		verdict := "within"
		if r.UnavailableExceeded {
			verdict = "EXCEEDS"
		}
		fmt.Fprintf(w, "max-unavailable %d: the worst case %s the bound\n", *r.MaxUnavailable, verdict)
	}
}
