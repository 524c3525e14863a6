package consumer

import (
	"fmt"
	"testing"

	"github.com/google/go-cmp/cmp"
	"github.com/google/go-cmp/cmp/cmpopts"
	"github.com/groupcheck/groupcheck/impl"
)

var testCluster = impl.NewCluster(impl.TopicMetadata{Name: "t", Partitions: 3}, impl.TopicMetadata{Name: "u", Partitions: 2})

// setOpt compares partition sets by content; EquateEmpty makes nil and empty slices equal.
var cmpOpts = cmp.Options{
	cmp.Comparer(func(a, b impl.PartitionSet) bool { return a.Equal(b) }),
	cmpopts.EquateEmpty(),
}

// P builds a partition set from "topic-N" style pairs: P("t", 0, 1) = (t-0 t-1).
func P(topic string, parts ...int32) impl.PartitionSet {
	tps := make([]impl.TopicPartition, len(parts))
	for i, p := range parts {
		tps[i] = impl.TP(topic, p)
	}
	return impl.NewPartitionSet(tps...)
}

func testConfig(v impl.Variant, assignors ...string) Config {
	if len(assignors) == 0 {
		assignors = []string{CooperativeSticky}
	}
	return Config{Variant: v, Assignors: assignors, SubscriptionVersion: 2, JoinGroupVersion: 9, Conn: 7}
}

var eager = []string{Range}

// heartbeatingConsumer is stableConsumer with a Heartbeat in flight.
func heartbeatingConsumer(cfg Config, owned impl.PartitionSet) Consumer {
	c, _ := stableConsumer(cfg, owned).HeartbeatTick()
	return c
}

// committingConsumer is stableConsumer with an OffsetCommit of owned in flight.
func committingConsumer(cfg Config, owned impl.PartitionSet) Consumer {
	c, _ := stableConsumer(cfg, owned).CommitTick()
	return c
}

// stableConsumer is a member that completed generation 3 as follower "m1" owning owned,
// subscribed to t and u.
func stableConsumer(cfg Config, owned impl.PartitionSet) Consumer {
	c := New(cfg, testCluster)
	c.Topics = []string{"t", "u"}
	c.JoinedTopics = c.Topics
	c.Status = Stable
	c.Gen = GroupGeneration{ID: 3, MemberID: "m1", ProtocolName: cfg.Assignors[0]}
	c.OwnedPartitions = owned
	c.OwnedGeneration = 3
	c.UserData = impl.UserData{Previous: owned, Generation: 3}
	c.RejoinNeeded = false
	c.NeedsJoinPrepare = true
	c.HasJoined = true
	return c
}

// joiningConsumer is stableConsumer after its poll sent a JoinGroup for a new rebalance.
func joiningConsumer(t *testing.T, cfg Config, owned impl.PartitionSet) Consumer {
	t.Helper()
	c := stableConsumer(cfg, owned)
	c.RejoinNeeded = true
	c, _ = c.PollTick()
	if !c.InFlight(KindJoin) {
		t.Fatalf("setup: no JoinGroup in flight: %v", c)
	}
	return c
}

// syncingConsumer is a follower whose JoinGroup for generation 4 succeeded and whose
// SyncGroup is in flight.
func syncingConsumer(t *testing.T, cfg Config, owned impl.PartitionSet) Consumer {
	t.Helper()
	c := joiningConsumer(t, cfg, owned)
	c, _ = c.Step(Received{Response: impl.JoinGroupResponse{Generation: 4, ProtocolName: cfg.Assignors[0], Leader: "m0", MemberID: "m1"}})
	if !c.InFlight(KindSync) {
		t.Fatalf("setup: no SyncGroup in flight: %v", c)
	}
	return c
}

func render(effs []Effect) []string {
	out := make([]string, len(effs))
	for i, e := range effs {
		out[i] = fmt.Sprint(e)
	}
	return out
}

// callbacks keeps only the callback effects, rendered.
func callbacks(effs []Effect) []string {
	var out []string
	for _, e := range effs {
		if cb, ok := e.(Callback); ok {
			out = append(out, cb.String())
		}
	}
	return out
}

// sent returns the requests among effs.
func sent(effs []Effect) []impl.Request {
	var out []impl.Request
	for _, e := range effs {
		if s, ok := e.(Send); ok {
			out = append(out, s.Request)
		}
	}
	return out
}

// summary is the part of a state most tests compare.
type summary struct {
	Status           ClientState
	Gen              GroupGeneration
	Owned            impl.PartitionSet
	RejoinNeeded     bool
	NeedsJoinPrepare bool
	Fatal            impl.ErrorCode
}

func summarize(c Consumer) summary {
	return summary{c.Status, c.Gen, c.OwnedPartitions, c.RejoinNeeded, c.NeedsJoinPrepare, c.FatalError}
}
