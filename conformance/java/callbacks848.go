package java

import (
	"fmt"

	"github.com/groupcheck/groupcheck/impl"
	"github.com/groupcheck/groupcheck/impl/kip848client"
	"github.com/groupcheck/groupcheck/oracle/differential"
	"github.com/groupcheck/groupcheck/oracle/history"
)

// CheckReference848 is CompareCallbacks848 as a harness.Protocol.Check: disagreements fail
// the run, reconciliations it could not compare are noted.
func CheckReference848(hist history.History) (fail, note []string) {
	r := CompareCallbacks848(hist)
	note = append([]string{fmt.Sprintf("reference: %d KIP-848 reconciliations compared with impl/kip848client, %d not compared",
		r.Compared, len(r.Skipped))}, r.Skipped...)
	return r.Diffs, note
}

// Reconciliations848 is what CompareCallbacks848 found: assignments whose reconciliation
// was compared, those it could not compare (and why), and disagreements.
type Reconciliations848 struct {
	Compared int
	Skipped  []string
	Diffs    []string
}

// CompareCallbacks848 sets each reconciliation of Kafka's KIP-848 consumer
// (ConsumerMembershipManager) beside what the reference client, impl/kip848client, does with
// the same assignment in the same state: for every ConsumerGroupHeartbeat answer that
// carries an assignment, a reference member that owns what the Java member's callbacks left
// it owning receives that answer, and its callbacks (onPartitionsRevoked(owned − target),
// then onPartitionsAssigned(target − owned), even if empty; docs/protocol.md §3.7) and the
// owned partitions of its acknowledging heartbeat must be the ones Java's consumer ran and
// sent next. The reference's revocation commit is answered at once (the driver commits from
// its callbacks instead; commits are not compared).
//
// A reconciliation is not compared when another assignment arrives before Java's callbacks
// for it have run (Java reconciles the newest target once the one in progress ends), when
// the member is fenced, crashes or closes meanwhile, or when the assignment arrives after
// the member's close began: a member in PREPARE_LEAVING or LEAVING ignores it
// (AbstractMembershipManager.onHeartbeatSuccess, MemberState.canHandleNewAssignment) and
// revokes what it owns, and whether Java's consumer had got there when the answer came is
// not in the history.
func CompareCallbacks848(hist history.History) Reconciliations848 {
	var out Reconciliations848
	type pending struct {
		resp history.Event
		want []kip848client.Callback
		got  []history.Event
		ack  impl.PartitionSet
	}
	owned := map[string]impl.PartitionSet{}
	joined := map[string]bool{}  // a heartbeat of this incarnation was answered without error
	closing := map[string]bool{} // its close began
	waiting := map[string]*pending{}
	drop := func(node, why string) {
		if p := waiting[node]; p != nil {
			out.Skipped = append(out.Skipped, fmt.Sprintf("%s's assignment at seq %d: %s", node, p.resp.Seq, why))
			delete(waiting, node)
		}
	}
	for _, e := range hist {
		p := waiting[e.Node]
		switch {
		case e.Kind == history.Start || e.Kind == history.Crash || e.Kind == history.Close && e.Phase == history.Begin:
			drop(e.Node, string(e.Kind)+" before its callbacks ran")
			closing[e.Node] = e.Kind == history.Close
			if e.Kind != history.Close {
				owned[e.Node], joined[e.Node] = impl.PartitionSet{}, false
			}
		case e.Kind == history.Request && e.Op == history.ConsumerGroupHeartbeat && e.Phase == history.End:
			if !e.OK() {
				drop(e.Node, "answered "+e.Err+" before its callbacks ran")
				joined[e.Node] = false
				continue
			}
			wasJoined := joined[e.Node]
			joined[e.Node] = true
			if e.Parts == nil {
				continue
			}
			drop(e.Node, "a newer assignment arrived first")
			if closing[e.Node] {
				out.Skipped = append(out.Skipped, fmt.Sprintf("%s's assignment at seq %d: it arrived while the member was closing", e.Node, e.Seq))
				continue
			}
			want, ack, err := reference848(owned[e.Node], wasJoined, e)
			if err != nil {
				out.Diffs = append(out.Diffs, fmt.Sprintf("%s's assignment at seq %d: %v", e.Node, e.Seq, err))
				continue
			}
			waiting[e.Node] = &pending{resp: e, want: want, ack: ack}
		case (e.Kind == history.Assign || e.Kind == history.Revoke || e.Kind == history.Lost) && e.Phase == history.Begin:
			parts, err := differential.ToSet(e.Parts)
			if err != nil {
				out.Diffs = append(out.Diffs, fmt.Sprintf("%s's %s at seq %d: %v", e.Node, e.Kind, e.Seq, err))
				continue
			}
			if e.Kind == history.Assign {
				owned[e.Node] = owned[e.Node].Union(parts)
			} else {
				owned[e.Node] = owned[e.Node].Minus(parts)
			}
			if p == nil {
				continue
			}
			if len(p.got) == len(p.want) || e.Kind == history.Lost {
				out.Diffs = append(out.Diffs, fmt.Sprintf("%s after its assignment at seq %d: the reference runs %s, Kafka's consumer ran %s %v at seq %d as well",
					e.Node, p.resp.Seq, callbacks(p.want), e.Kind, e.Parts, e.Seq))
				delete(waiting, e.Node)
				continue
			}
			p.got = append(p.got, e)
		case e.Kind == history.Request && e.Op == history.ConsumerGroupHeartbeat && e.Phase == history.Begin && p != nil:
			if len(p.got) < len(p.want) {
				continue // a heartbeat before the callbacks: Java's background thread keeps heartbeating
			}
			delete(waiting, e.Node)
			out.Compared++
			if d := compare848(p.want, p.got, p.ack, e); d != "" {
				out.Diffs = append(out.Diffs, fmt.Sprintf("%s after its assignment at seq %d: %s", e.Node, p.resp.Seq, d))
			}
		}
	}
	for node := range waiting {
		drop(node, "the history ends before its acknowledgement")
	}
	return out
}

// compare848 compares Java's callbacks and acknowledging heartbeat with the reference's.
func compare848(want []kip848client.Callback, got []history.Event, ack impl.PartitionSet, hb history.Event) string {
	for i, w := range want {
		g := got[i]
		kind := map[kip848client.CallbackKind]history.Kind{kip848client.Assigned: history.Assign,
			kip848client.Revoked: history.Revoke, kip848client.Lost: history.Lost}[w.Kind]
		if g.Kind != kind || differential.DiffParts(differential.FromSet(w.Partitions), g.Parts) != "" {
			return fmt.Sprintf("the reference runs %s, Kafka's consumer ran %s %v (seq %d)", callbacks(want), g.Kind, g.Parts, g.Seq)
		}
	}
	if hb.Owned != nil && differential.DiffParts(differential.FromSet(ack), hb.Owned) != "" {
		return fmt.Sprintf("the reference acknowledges owning %v, Kafka's consumer sent %v (seq %d)", differential.FromSet(ack), hb.Owned, hb.Seq)
	}
	return ""
}

func callbacks(cbs []kip848client.Callback) string {
	s := ""
	for i, c := range cbs {
		if i > 0 {
			s += " then "
		}
		s += c.Kind.String() + " " + c.Partitions.String()
	}
	if s == "" {
		return "no callback"
	}
	return s
}

// reference848 is what a reference member owning owned, STABLE if joined and JOINING if
// not, does with the heartbeat answer resp (its member ID, epoch and assignment): the
// callbacks it runs and the owned partitions its acknowledging heartbeat carries.
func reference848(owned impl.PartitionSet, joined bool, resp history.Event) ([]kip848client.Callback, impl.PartitionSet, error) {
	target, err := differential.ToSet(resp.Parts)
	if err != nil {
		return nil, impl.PartitionSet{}, fmt.Errorf("its assignment: %v", err)
	}
	topics := owned.Union(target).Topics()
	m := kip848client.New(kip848client.Config{MemberID: impl.MemberID(resp.Member)})
	m.Status, m.MemberEpoch, m.Topics = kip848client.Stable, impl.Epoch(resp.Gen)-1, topics
	m.OwnedPartitions, m.Target = owned, owned
	m.Sent = kip848client.SentFields{Valid: true, Topics: topics, Owned: owned}
	if !joined {
		m.Status, m.MemberEpoch, m.Sent = kip848client.Joining, 0, kip848client.SentFields{}
	}
	m.Heartbeat = kip848client.PendingHeartbeat{Active: true, Epoch: m.MemberEpoch}
	m, effs := m.OnHeartbeatResponse(impl.ConsumerGroupHeartbeatResponse{MemberID: m.ID,
		MemberEpoch: impl.Epoch(resp.Gen), Assignment: &target})
	for range 4 { // the revocation commit, answered at once; at most one in flight
		if !m.Commit.Active {
			break
		}
		var more []kip848client.Effect
		m, more = m.OnOffsetCommitResponse(impl.OffsetCommitResponse{})
		effs = append(effs, more...)
	}
	var cbs []kip848client.Callback
	ack := m.OwnedPartitions
	for _, e := range effs {
		switch e := e.(type) {
		case kip848client.Callback:
			cbs = append(cbs, e)
		case kip848client.Send:
			if hb, ok := e.Request.(impl.ConsumerGroupHeartbeatRequest); ok && hb.OwnedPartitions != nil {
				ack = *hb.OwnedPartitions
			}
		}
	}
	return cbs, ack, nil
}
