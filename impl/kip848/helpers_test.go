package kip848

import (
	"strconv"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"
	"github.com/groupcheck/groupcheck/impl"
)

// cluster: topic t with 4 partitions, u with 2.
var cluster = impl.NewCluster(impl.TopicMetadata{Name: "t", Partitions: 4}, impl.TopicMetadata{Name: "u", Partitions: 2})

// ps parses "t-0 t-1" into a set.
func ps(s string) impl.PartitionSet {
	var tps []impl.TopicPartition
	for _, f := range strings.Fields(s) {
		i := strings.LastIndexByte(f, '-')
		n, err := strconv.Atoi(f[i+1:])
		if err != nil {
			panic(err)
		}
		tps = append(tps, impl.TP(f[:i], int32(n)))
	}
	return impl.NewPartitionSet(tps...)
}

func owned(s string) *impl.PartitionSet { p := ps(s); return &p }

// cmpOpts compares partition sets by value and ignores nothing else.
var cmpOpts = cmp.Options{
	cmp.Comparer(func(a, b impl.PartitionSet) bool { return a.Equal(b) }),
}

func joinReq(id impl.MemberID, topics ...string) impl.ConsumerGroupHeartbeatRequest {
	return impl.ConsumerGroupHeartbeatRequest{Conn: 1, MemberID: id, MemberEpoch: impl.EpochJoin,
		SubscribedTopicNames: topics, OwnedPartitions: owned("")}
}

func staticJoin(id impl.MemberID, inst impl.InstanceID, topics ...string) impl.ConsumerGroupHeartbeatRequest {
	r := joinReq(id, topics...)
	r.InstanceID = inst
	return r
}

func hb(id impl.MemberID, e impl.Epoch, o *impl.PartitionSet) impl.ConsumerGroupHeartbeatRequest {
	return impl.ConsumerGroupHeartbeatRequest{Conn: 2, MemberID: id, MemberEpoch: e, OwnedPartitions: o}
}

// resp extracts the single heartbeat response.
func resp(t *testing.T, out []impl.Reply) impl.ConsumerGroupHeartbeatResponse {
	t.Helper()
	if len(out) != 1 {
		t.Fatalf("want one reply, got %d", len(out))
	}
	r, ok := out[0].Response.(impl.ConsumerGroupHeartbeatResponse)
	if !ok {
		t.Fatalf("want heartbeat response, got %T", out[0].Response)
	}
	return r
}

// step sends req and fails the test on an error response.
func step(t *testing.T, g Group, req impl.ConsumerGroupHeartbeatRequest, fresh impl.MemberID) (Group, impl.ConsumerGroupHeartbeatResponse) {
	t.Helper()
	g, out := g.Heartbeat(req, fresh)
	r := resp(t, out)
	if r.Error != impl.None {
		t.Fatalf("heartbeat %+v: %s", req, r.Error)
	}
	return g, r
}

func member(t *testing.T, g Group, id impl.MemberID) Member {
	t.Helper()
	m, ok := g.Member(id)
	if !ok {
		t.Fatalf("no member %s in %s", id, g)
	}
	return m
}

// twoMembers: a joins alone and takes everything of t; b joins; a is then asked to revoke.
// Returns the group after b's join (a still STABLE at epoch 1 holding t-0..t-3).
func twoMembers(t *testing.T, cfg Config) Group {
	t.Helper()
	g := New(cfg, cluster)
	g, _ = step(t, g, joinReq("a", "t"), "")
	g, _ = step(t, g, joinReq("b", "t"), "")
	return g
}

func setPtr(s impl.PartitionSet) *impl.PartitionSet { return &s }
