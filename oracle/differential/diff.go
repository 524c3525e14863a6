package differential

import (
	"slices"

	"github.com/google/go-cmp/cmp"
)

// DiffParts compares two partition maps by content: topic order, partition order and a
// topic listed with no partitions do not matter. It returns a go-cmp diff (-want +got), ""
// when equal.
func DiffParts(want, got map[string][]int32) string {
	return cmp.Diff(normParts(want), normParts(got))
}

// DiffAssignments compares two assignments (member id → topic → partitions) by content. A
// member missing from one side counts as assigned nothing, as in SyncGroup (docs/protocol.md §1.5).
func DiffAssignments(want, got map[string]map[string][]int32) string {
	return cmp.Diff(normAssignments(want, got), normAssignments(got, want))
}

// DiffReconcile compares two reconciliation results by content ("" state means STABLE).
func DiffReconcile(want, got ReconcileResult) string {
	return cmp.Diff(normReconcile(want), normReconcile(got))
}

// normParts is the canonical form of a partition map: sorted partitions, no empty topics,
// never nil.
func normParts(p map[string][]int32) map[string][]int32 {
	out := map[string][]int32{}
	for t, ps := range p {
		if len(ps) > 0 {
			out[t] = slices.Sorted(slices.Values(ps))
		}
	}
	return out
}

// normAssignments is a's canonical form with an empty entry for every member of either side.
func normAssignments(a, other map[string]map[string][]int32) map[string]map[string][]int32 {
	out := map[string]map[string][]int32{}
	for id, p := range a {
		out[id] = normParts(p)
	}
	for id := range other {
		if _, ok := out[id]; !ok {
			out[id] = map[string][]int32{}
		}
	}
	return out
}

func normReconcile(r ReconcileResult) ReconcileResult {
	if r.State == "" {
		r.State = StateStable
	}
	r.Assigned, r.PendingRevocation = normParts(r.Assigned), normParts(r.PendingRevocation)
	return r
}
