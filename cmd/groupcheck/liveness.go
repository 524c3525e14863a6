package main

import (
	"fmt"

	"github.com/groupcheck/groupcheck/explorer"
	"github.com/groupcheck/groupcheck/invariants"
	"github.com/groupcheck/groupcheck/spec"
)

// addLiveness appends the converges verdict to the report: its status, why, and its lasso as
// the property's trace (prefix, then the cycle that repeats forever, if any).
func (r *report) addLiveness(lr invariants.LivenessReport) {
	p := propertyReport{Name: invariants.ConvergesName, Kind: "eventually", Status: lr.Status.String(),
		Statement: invariants.ConvergesStatement,
		Source:    "DESIGN.md (liveness); KAFKA.md §1.12, §3.9", Trace: []string{}, liveness: true}
	var path *explorer.Path[spec.World, spec.Action]
	switch lr.Status {
	case explorer.Unknown:
		p.Why = fmt.Sprintf("the state graph has more than the bound's %d worlds", lr.Distinct-1)
	case explorer.Violated:
		l := lr.Lasso
		path = &explorer.Path[spec.World, spec.Action]{Init: l.Prefix.Init, Steps: append(append([]explorer.Step[spec.World, spec.Action]{}, l.Prefix.Steps...), l.Cycle...)}
		if len(l.Cycle) > 0 {
			p.Why = fmt.Sprintf("%d of %d worlds can never converge; after %d steps the last %d repeat forever", lr.Stuck, lr.Distinct, len(l.Prefix.Steps), len(l.Cycle))
		} else {
			p.Why = fmt.Sprintf("%d of %d worlds can never converge; the path ends in a dead end (no action enabled)", lr.Stuck, lr.Distinct)
		}
		for _, s := range path.Steps {
			p.Trace = append(p.Trace, s.Action.Text(&r.cfg))
		}
	}
	r.Properties = append(r.Properties, p)
	r.paths = append(r.paths, path)
}
