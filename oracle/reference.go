package oracle

import (
	"fmt"

	"github.com/groupcheck/groupcheck/oracle/history"
	"github.com/groupcheck/groupcheck/oracle/search"
)

// ReferenceSearch names the check of Options.Reference in Report.Checked and Violations.
const ReferenceSearch = "reference-behaviour"

// referenceOptions are the search's options: Options.Reference, or the defaults.
func (o Options) referenceOptions() search.Options {
	if o.Reference == nil {
		return search.Options{}
	}
	return *o.Reference
}

// judgeReference is the search of Options.Reference over a history that replay feeds (each
// call feeds it again from the start), given the result of a first search that kept only the
// simplest explanations (search.Options.Simplest): if that one found none (Violated), the
// whole search runs, and its verdict is the one reported. It returns the result and the
// violation to report, if any.
//
// An Undecided first search is reported as it is: the whole search would be undecided too.
// Its frontier holds every behaviour the simplest one holds, at every event (it keeps the
// matches of every level of timers, the simplest only those of the first level with one), so
// where the simplest one ran out of budget, before finding any match, the whole one explores
// at least the same states up to that level and runs out as well, at that event or earlier.
// Replaying it would only spend that budget again (on an eight-member soak, minutes).
func judgeReference(simplest search.Result, o search.Options, replay func(add func(history.Event) error) error) (search.Result, *Violation, error) {
	r := simplest
	if r.Verdict == search.Violated {
		c := search.New(o)
		if err := replay(c.Add); err != nil {
			return search.Result{}, nil, err
		}
		r = c.Result()
		r.States += simplest.States
	}
	if r.Verdict != search.Violated {
		return r, nil, nil
	}
	return r, &Violation{Property: ReferenceSearch, Class: ClassViolation, Message: r.Detail, Events: []history.Event{r.Event}}, nil
}

// simplestSearch is a search.Checker keeping only the simplest explanations, the first of
// judgeReference's two.
func simplestSearch(o search.Options) *search.Checker {
	o.Simplest = true
	return search.New(o)
}

// referenceVerdict is Report.Reference for a result.
func referenceVerdict(r search.Result) string {
	if r.Verdict == search.OK {
		return fmt.Sprintf("%s (%d requests, %d reference states)", search.OK, r.Requests, r.States)
	}
	return r.String()
}

// searched reports whether the reference search judges e: a coordinator request, or a
// client commit from outside the group (which it judges as the OffsetCommit request it is).
func searched(e history.Event) bool {
	return e.Kind == history.Request || (e.Kind == history.Commit && outsideGroup(e))
}

// replayHistory feeds h.
func replayHistory(h history.History) func(add func(history.Event) error) error {
	return func(add func(history.Event) error) error {
		for _, e := range h {
			if err := add(e); err != nil {
				return err
			}
		}
		return nil
	}
}

// applyReference puts the search's verdict into the report.
func (r *Report) applyReference(res search.Result, v *Violation) {
	r.Reference = referenceVerdict(res)
	r.Checked = append(r.Checked, ReferenceSearch)
	if v != nil {
		r.Violations = append(r.Violations, *v)
	}
}
