package kip848client

import (
	"testing"

	"github.com/google/go-cmp/cmp"
	"github.com/groupcheck/groupcheck/impl"
)

// cmpOpts compares partition sets by content.
var cmpOpts = cmp.Options{cmp.Comparer(func(a, b impl.PartitionSet) bool { return a.Equal(b) })}

// set is a partition set of topic "t".
func set(ps ...int32) impl.PartitionSet {
	tps := make([]impl.TopicPartition, len(ps))
	for i, p := range ps {
		tps[i] = impl.TP("t", p)
	}
	return impl.NewPartitionSet(tps...)
}

func ptr(s impl.PartitionSet) *impl.PartitionSet { return &s }

const testConn impl.Conn = 7

func dynamicCfg() Config { return Config{Conn: testConn} }
func staticCfg() Config  { return Config{Conn: testConn, InstanceID: "i1"} }

// ok is a successful heartbeat response for member "m1"; assignment nil = unchanged.
func ok(epoch impl.Epoch, assignment *impl.PartitionSet) impl.ConsumerGroupHeartbeatResponse {
	return impl.ConsumerGroupHeartbeatResponse{MemberID: "m1", MemberEpoch: epoch, Assignment: assignment}
}

func errResp(code impl.ErrorCode) impl.ConsumerGroupHeartbeatResponse {
	return impl.ConsumerGroupHeartbeatResponse{Error: code}
}

// hb is a heartbeat request as this package's member sends it.
func hb(id impl.MemberID, epoch impl.Epoch, inst impl.InstanceID, topics []string, owned *impl.PartitionSet) Send {
	return Send{Request: impl.ConsumerGroupHeartbeatRequest{
		Conn: testConn, MemberID: id, MemberEpoch: epoch, InstanceID: inst,
		SubscribedTopicNames: topics, OwnedPartitions: owned,
	}}
}

func commitReq(epoch impl.Epoch, parts impl.PartitionSet) Send {
	return Send{Request: impl.OffsetCommitRequest{
		Conn: testConn, MemberID: "m1", Generation: impl.Generation(epoch), Partitions: parts,
	}}
}

// must fails the test at once when a step's effects differ from want.
func must(t *testing.T, step string, got, want []Effect) {
	t.Helper()
	if diff := cmp.Diff(want, got, cmpOpts); diff != "" {
		t.Fatalf("%s: effects (-want +got):\n%s", step, diff)
	}
}

// joining is a member that subscribed to "t" and sent its join heartbeat.
func joining(cfg Config) Member {
	m, _ := New(cfg).Subscribe([]string{"t"})
	return m
}

// stable is a member at epoch 1 owning owned, its acknowledgement answered: STABLE, no
// heartbeat in flight.
func stable(t *testing.T, cfg Config, owned impl.PartitionSet) Member {
	t.Helper()
	m := joining(cfg)
	m, _ = m.OnHeartbeatResponse(ok(1, ptr(owned)))
	m, _ = m.OnHeartbeatResponse(ok(1, nil))
	if m.State() != Stable || m.InFlight() || !m.Owned().Equal(owned) {
		t.Fatalf("stable setup: %s", m)
	}
	return m
}

// ticked is m after a HeartbeatTick that sent a regular heartbeat.
func ticked(t *testing.T, m Member) Member {
	t.Helper()
	m, effs := m.HeartbeatTick()
	if len(effs) != 1 || !m.InFlight() {
		t.Fatalf("tick setup: %s %v", m, effs)
	}
	return m
}
