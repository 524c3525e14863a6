package harness

import (
	"slices"
	"strings"

	"github.com/groupcheck/groupcheck/oracle"
	"github.com/groupcheck/groupcheck/oracle/history"
)

// kfakeParkedExpiry is kfake's removal of a classic member whose JoinGroup or SyncGroup it
// holds: its session timer runs while the request waits for the join or sync phase, and
// removeMember drops the request unanswered (groups.go updateHeartbeat, removeMember). Kafka
// counts a member awaiting join or sync as alive (ClassicGroupMember.hasSatisfiedHeartbeat)
// and answers every parked request by the phase's deadline. What follows is kfake's too: the
// member's next commit is refused as Kafka would not refuse it (ILLEGAL_GENERATION from a
// group with no members, the probe's kfake-commit-unknown-member), and removeMember counts a
// dropped SyncGroup as a join, so the next join phase waits out its timer with every member
// in. TestKfakeExpiresParkedSync reproduces it.
const kfakeParkedExpiry = "kfake expires a classic member while its JoinGroup or SyncGroup waits and never answers it " +
	"(groups.go updateHeartbeat, removeMember; conformance/confluent/testdata/kfake-illegal-generation-crash-mid-join-cooperative-sticky.jsonl, " +
	"conformance/sarama/testdata/kfake-join-expiry-cooperative-sticky.jsonl)"

// abandonedParked is the seq of the first classic JoinGroup or SyncGroup that the coordinator
// was handling and never answered, though its process went on and was answered a later
// request: a broker answers a connection's requests in order, so the client gave the first up
// (its read timeout, which every client here sets at or above the rebalance timeout) and went
// on over a new connection. Handling means every earlier request of the node was
// answered when it was sent (it was not queued behind another, such as a held commit); a
// node cut, crashed or restarted in between gives its requests up for that reason and is
// not counted.
func abandonedParked(h history.History) (int64, bool) {
	type req struct {
		begin    history.Event
		answered bool
	}
	reqs := map[int64]*req{}
	for _, e := range h {
		if e.Kind != history.Request {
			continue
		}
		switch e.Phase {
		case history.Begin:
			reqs[e.ID] = &req{begin: e}
		case history.End:
			if r := reqs[e.ID]; r != nil {
				r.answered = e.Note != history.Unfinished
			}
		}
	}
	open := map[string]int{} // node → its requests begun and not yet answered, at each point
	var parked []history.Event
	for _, e := range h {
		switch {
		case e.Kind == history.Cut || e.Kind == history.Crash || e.Kind == history.Start:
			parked = dropNode(parked, e.Node)
		case e.Kind == history.Request && e.Phase == history.Begin:
			r := reqs[e.ID]
			if r.answered {
				for _, p := range parked {
					if p.Node == e.Node {
						return p.Seq, true
					}
				}
			}
			if (e.Op == history.JoinGroup || e.Op == history.SyncGroup) && e.Proto == history.Classic && !r.answered && open[e.Node] == 0 {
				parked = append(parked, e)
			}
			open[e.Node]++
		case e.Kind == history.Request && e.Phase == history.End:
			open[e.Node]--
		}
	}
	return 0, false
}

// dropNode removes node's events from es.
func dropNode(es []history.Event, node string) []history.Event {
	out := es[:0]
	for _, e := range es {
		if e.Node != node {
			out = append(out, e)
		}
	}
	return out
}

// classifyParkedExpiry moves the reference search's verdict at or after kfakeParkedExpiry's
// first event (abandonedParked) to Known, and a "no" of the linearizability check with it:
// from there kfake's group is no longer one a reference coordinator could hold. Plain
// violations stay: an overlap it causes is a zombie (the member was removed first), and
// anything else is not this deviation. It says whether the run showed the deviation.
func (v *Verdict) classifyParkedExpiry() bool {
	from, ok := abandonedParked(v.History)
	if !ok {
		return false
	}
	v.Report.Violations = slices.DeleteFunc(v.Report.Violations, func(x oracle.Violation) bool {
		if x.Property != oracle.ReferenceSearch || len(x.Events) == 0 || x.Events[0].Seq < from {
			return false
		}
		v.Known = append(v.Known, kfakeParkedExpiry+": "+x.Message)
		return true
	})
	if strings.HasPrefix(v.Report.Linearizable, "no:") {
		v.Known = append(v.Known, kfakeParkedExpiry+": "+v.Report.Linearizable)
		v.Report.Linearizable = "known deviation (see Known)"
	}
	return true
}
