package kip848

import (
	"fmt"
	"slices"
	"testing"

	"github.com/groupcheck/groupcheck/impl"
	"pgregory.net/rapid"
)

// world drives one group with random, plausible and implausible, requests.
type world struct {
	t     *rapid.T
	g     Group
	fresh int
}

var (
	ids       = []impl.MemberID{"a", "b", "c", "s1", "s2"}
	instances = map[impl.MemberID]impl.InstanceID{"s1": "i1", "s2": "i1"}
	topicSets = [][]string{{"t"}, {"u"}, {"t", "u"}, {}}
)

func (w *world) id(label string) impl.MemberID { return rapid.SampledFrom(ids).Draw(w.t, label) }

func (w *world) epoch(m Member, ok bool) impl.Epoch {
	if !ok {
		return rapid.SampledFrom([]impl.Epoch{0, 1, 2}).Draw(w.t, "epoch")
	}
	return rapid.SampledFrom([]impl.Epoch{m.MemberEpoch, m.MemberEpoch, m.PreviousMemberEpoch, m.MemberEpoch + 1, m.MemberEpoch - 2}).Draw(w.t, "epoch")
}

func (w *world) owned(m Member) *impl.PartitionSet {
	all := cluster.PartitionsOf([]string{"t", "u"})
	switch rapid.IntRange(0, 4).Draw(w.t, "ownedKind") {
	case 0:
		return nil
	case 1:
		return setPtr(m.AssignedPartitions) // acknowledging: what the server says it may own
	case 2:
		return setPtr(m.Holds()) // not yet revoked
	case 3:
		return owned("")
	}
	pick := rapid.SliceOfDistinct(rapid.SampledFrom(all.Slice()), func(tp impl.TopicPartition) string { return tp.String() }).Draw(w.t, "owned")
	return setPtr(impl.NewPartitionSet(pick...))
}

// action performs one random input and returns the accepted commit, if any, for checking.
func (w *world) action() {
	id := w.id("id")
	m, known := w.g.Member(id)
	switch rapid.IntRange(0, 9).Draw(w.t, "action") {
	case 0, 1: // join or rejoin (static ones with their instance id)
		req := joinReq(id, rapid.SampledFrom(topicSets[:3]).Draw(w.t, "topics")...)
		req.InstanceID = instances[id]
		if rapid.Bool().Draw(w.t, "anonymous") {
			req.MemberID = ""
		}
		w.fresh++
		w.g, _ = w.g.Heartbeat(req, impl.MemberID(fmt.Sprintf("f%d", w.fresh)))
	case 2, 3, 4, 5: // heartbeat
		req := hb(id, w.epoch(m, known), w.owned(m))
		req.InstanceID = instances[id]
		if rapid.IntRange(0, 5).Draw(w.t, "subChange") == 0 {
			req.SubscribedTopicNames = rapid.SampledFrom(topicSets).Draw(w.t, "topics")
		}
		w.g, _ = w.g.Heartbeat(req, "")
	case 6: // leave
		req := hb(id, rapid.SampledFrom([]impl.Epoch{-1, -2}).Draw(w.t, "leave"), nil)
		req.InstanceID = instances[id]
		w.g, _ = w.g.Heartbeat(req, "")
	case 7: // timers
		if ts := w.g.RebalanceTimers(); len(ts) > 0 && rapid.Bool().Draw(w.t, "rebalanceTimer") {
			r := rapid.SampledFrom(ts).Draw(w.t, "timer")
			w.g = w.g.RebalanceTimeoutExpired(r.Member, r.Epoch)
		} else {
			w.g = w.g.SessionExpired(id)
		}
	case 8: // metadata
		w.g = w.g.MetadataChanged(impl.NewCluster(
			impl.TopicMetadata{Name: "t", Partitions: rapid.Int32Range(1, 4).Draw(w.t, "tCount")},
			impl.TopicMetadata{Name: "u", Partitions: 2}))
	case 9: // commit
		e := w.epoch(m, known)
		var parts impl.PartitionSet
		if known && rapid.Bool().Draw(w.t, "commitHeld") {
			parts = m.Holds()
		} else if owned := w.owned(m); owned != nil {
			parts = *owned
		}
		_, out := w.g.OffsetCommit(impl.OffsetCommitRequest{MemberID: id, Generation: impl.Generation(e), Partitions: parts})
		if out[0].Response.Code() == impl.None && !commitAllowed(w.g.Config().CommitRule, m, known, e, parts) {
			w.t.Fatalf("commit of %s from %s at epoch %d accepted under %s; member %v known=%v", parts, id, e, w.g.Config().CommitRule, m, known)
		}
	}
}

// commitAllowed is what an accepted commit must satisfy (docs/protocol.md §3.1): a known
// member at its epoch, or under KIP-1251 at an older one for partitions it holds and was
// assigned at or before that epoch.
func commitAllowed(rule CommitRule, m Member, known bool, e impl.Epoch, parts impl.PartitionSet) bool {
	if !known || e > m.MemberEpoch {
		return false
	}
	if e == m.MemberEpoch {
		return true
	}
	if rule != CommitAssignmentEpochs {
		return false
	}
	for _, tp := range parts.Slice() {
		if at, held := m.AssignmentEpoch(tp); !held || at > e {
			return false
		}
	}
	return true
}

// check asserts the docs/protocol.md §3.9 invariants on the current group, and epoch monotonicity
// against the previous one.
func (w *world) check(prev Group) {
	g := w.g
	g.PartitionEpochs() // panics if a partition has two holders
	var targeted impl.PartitionSet
	for _, e := range g.Target() {
		if targeted.Intersects(e.Partitions) {
			w.t.Fatalf("target assigns %s twice: %s", targeted.Intersect(e.Partitions), g)
		}
		targeted = targeted.Union(e.Partitions)
	}
	for _, m := range g.Members() {
		if m.IsStableAt(g.AssignmentEpoch()) {
			for _, o := range g.Target() {
				if o.ID != m.ID && o.Partitions.Intersects(m.Holds()) {
					w.t.Fatalf("STABLE %s holds %s targeted to %s: %s", m.ID, o.Partitions.Intersect(m.Holds()), o.ID, g)
				}
			}
		}
		if p, ok := prev.Member(m.ID); ok && m.MemberEpoch < p.MemberEpoch &&
			m.MemberEpoch != impl.EpochJoin && m.MemberEpoch != impl.EpochTemporaryLeave {
			w.t.Fatalf("member %s epoch fell %d → %d", m.ID, p.MemberEpoch, m.MemberEpoch)
		}
		if m.MemberEpoch > g.AssignmentEpoch() {
			w.t.Fatalf("member %s ahead of the assignment epoch: %s", m.ID, g)
		}
	}
	if g.AssignmentEpoch() > g.GroupEpoch() {
		w.t.Fatalf("assignment epoch ahead of group epoch: %s", g)
	}
}

func TestPropertiesUnderRandomRequests(t *testing.T) {
	rapid.Check(t, func(rt *rapid.T) {
		cfg := Config{
			Variant:    rapid.SampledFrom([]impl.Variant{impl.Kafka, impl.KIP}).Draw(rt, "variant"),
			Assignor:   rapid.SampledFrom([]string{AssignorUniform, AssignorRange}).Draw(rt, "assignor"),
			CommitRule: rapid.SampledFrom([]CommitRule{CommitAssignmentEpochs, CommitExactEpoch}).Draw(rt, "commitRule"),
		}
		if rapid.Bool().Draw(rt, "faulty") {
			cfg.Faults = impl.Faults(0).With(impl.FaultRecomputeWhileRevoking).With(impl.FaultStaleCheckOnRejoin)
		}
		w := &world{t: rt, g: New(cfg, cluster)}
		for range rapid.IntRange(1, 60).Draw(rt, "steps") {
			prev := w.g
			w.action()
			w.check(prev)
		}
	})
}

// Without perturbations every member converges: STABLE at the group epoch, when clients
// acknowledge what the server tells them (docs/protocol.md §3.9 liveness, with fair delivery).
func TestPropertyConvergence(t *testing.T) {
	rapid.Check(t, func(rt *rapid.T) {
		v := rapid.SampledFrom([]impl.Variant{impl.Kafka, impl.KIP}).Draw(rt, "variant")
		w := &world{t: rt, g: New(Config{Variant: v}, cluster)}
		for range rapid.IntRange(1, 30).Draw(rt, "steps") {
			w.action()
		}
		g := w.g
		for round := 0; g.State() != StableGroup && g.State() != Empty; round++ {
			if round > 20 {
				rt.Fatalf("no convergence: %s", g)
			}
			for _, m := range g.Members() {
				if m.MemberEpoch == impl.EpochTemporaryLeave {
					g = g.SessionExpired(m.ID)
					continue
				}
				req := hb(m.ID, m.MemberEpoch, setPtr(m.AssignedPartitions))
				req.InstanceID = m.InstanceID
				g, _ = g.Heartbeat(req, "")
			}
		}
		if slices.ContainsFunc(g.Members(), func(m Member) bool { return !m.IsStableAt(g.GroupEpoch()) }) {
			rt.Fatalf("state STABLE but a member is not: %s", g)
		}
	})
}
