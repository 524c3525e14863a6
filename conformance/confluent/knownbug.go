package confluent

import (
	"github.com/groupcheck/groupcheck/oracle"
	"github.com/groupcheck/groupcheck/oracle/history"
)

// rejoinInCallback is librdkafka's eager bug found here, in two forms with one cause: when its
// metadata shows that a subscribed topic's partition count changed while the application is
// inside a rebalance callback, librdkafka rejoins at once instead of waiting for it. From
// join-state wait-unassign-call it rejoins "without an assignment" while the application is
// still revoking, so the next owner's assign begins before the revoke ends
// (eager-rejoin-during-revoke-roundrobin.jsonl); from wait-assign-call it sends JoinGroup still
// owning what it just assigned and never calls the revoke callback
// (eager-rejoin-without-revoke-range.jsonl).
const rejoinInCallback = "librdkafka eager: rejoins while the application is inside its rebalance callback " +
	"(conformance/confluent/testdata/eager-rejoin-*.jsonl)"

// knownBug says whether x is rejoinInCallback: a violation of ownership or of callback
// bookkeeping whose first owner (the node of its earliest event) began a JoinGroup while one
// of its own assign or revoke callbacks was open, after that event and before the violation's
// last one.
func knownBug(h history.History, x oracle.Violation) (string, bool) {
	switch x.Property {
	case oracle.ExclusiveOwnership, oracle.RevokeBeforeAssign, oracle.CallbacksConsistent:
	default:
		return "", false
	}
	if len(x.Events) == 0 {
		return "", false
	}
	first, last := x.Events[0], x.Events[0]
	for _, e := range x.Events {
		if e.Seq < first.Seq {
			first = e
		}
		if e.Seq > last.Seq {
			last = e
		}
	}
	for _, seq := range rejoinsInCallback(h)[first.Node] {
		if seq > first.Seq && seq < last.Seq {
			return rejoinInCallback, true
		}
	}
	return "", false
}

// rejoinsInCallback lists, per node, the seqs at which it began a JoinGroup while one of its
// own assign or revoke callbacks was open.
func rejoinsInCallback(h history.History) map[string][]int64 {
	open := map[string]map[int64]bool{} // node → open callback IDs
	out := map[string][]int64{}
	for _, e := range h {
		callback := e.Kind == history.Assign || e.Kind == history.Revoke
		switch {
		case callback && e.Phase == history.Begin:
			if open[e.Node] == nil {
				open[e.Node] = map[int64]bool{}
			}
			open[e.Node][e.ID] = true
		case callback && e.Phase == history.End:
			delete(open[e.Node], e.ID)
		case e.Kind == history.Request && e.Op == history.JoinGroup && e.Phase == history.Begin && len(open[e.Node]) > 0:
			out[e.Node] = append(out[e.Node], e.Seq)
		}
	}
	return out
}
