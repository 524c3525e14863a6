package main

// errReduction refuses --por beside --symmetry or the liveness check. The ample sets are
// chosen on real worlds, not on orbits, so the two reductions would need a proof together;
// and the reduction preserves what holds in states up to stuttering (the safety and
// reachability properties), not fairness along cycles, which the liveness check judges per
// action (invariants.Reduced).
const errReduction = "--por cannot be combined with --symmetry, --liveness, --max-rounds or --max-unavailable: partial-order reduction preserves the safety and reachability properties, not fairness along cycles, and is not proved together with symmetry; run those without --por"

// reductionNote is printed under a reduced run's verdicts.
const reductionNote = "partial-order reduction: the counts are of the reduced graph (one member's independent, invisible local steps explored where they stand for all orders); verdicts are those of the full graph, counterexamples valid but not always shortest"

// foundBy says how a counterexample was found, for its trace header.
func (r *report) foundBy() string {
	if r.Reduction != "" {
		return "with partial-order reduction (not always shortest)"
	}
	return "shortest"
}
