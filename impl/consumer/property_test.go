package consumer

import (
	"fmt"
	"testing"

	"github.com/groupcheck/groupcheck/impl"
	"pgregory.net/rapid"
)

var propTopics = []string{"t", "u", "v"}

// drawnErrors are the non-fatal error codes drawn for responses; NONE is over-represented so
// that rounds do complete. Fatal codes are drawn rarely (they end the consumer).
var drawnErrors = []impl.ErrorCode{
	impl.None, impl.None, impl.None, impl.None, impl.None, impl.None,
	impl.RebalanceInProgress, impl.UnknownMemberID, impl.IllegalGeneration, impl.MemberIDRequired,
	impl.CoordinatorNotAvailable, impl.NotCoordinator,
}

func drawError(t *rapid.T) impl.ErrorCode {
	if rapid.IntRange(0, 199).Draw(t, "fatal") == 199 {
		return rapid.SampledFrom([]impl.ErrorCode{impl.FencedInstanceID, impl.InconsistentGroupProtocol}).Draw(t, "fatal-error")
	}
	return rapid.SampledFrom(drawnErrors).Draw(t, "error")
}

// drawKind picks the kind a response answers: mostly one that is in flight.
func drawKind(t *rapid.T, c Consumer) RequestKind {
	var pending []RequestKind
	for _, k := range AllKinds() {
		if c.InFlight(k) {
			pending = append(pending, k)
		}
	}
	if len(pending) > 0 && rapid.IntRange(0, 9).Draw(t, "answer-pending") < 9 {
		return rapid.SampledFrom(pending).Draw(t, "pending-kind")
	}
	return rapid.SampledFrom(AllKinds()).Draw(t, "response-kind")
}

func drawSet(t *rapid.T, label string, topics []string) impl.PartitionSet {
	var tps []impl.TopicPartition
	for _, topic := range topics {
		for p := int32(0); p < 3; p++ {
			if rapid.IntRange(0, 3).Draw(t, fmt.Sprintf("%s-%s-%d", label, topic, p)) == 0 {
				tps = append(tps, impl.TP(topic, p))
			}
		}
	}
	return impl.NewPartitionSet(tps...)
}

func drawTopics(t *rapid.T, label string) []string {
	return rapid.SliceOfNDistinct(rapid.SampledFrom(propTopics), 1, 3, rapid.ID[string]).Draw(t, label)
}

func drawCluster(t *rapid.T) impl.Cluster {
	var tm []impl.TopicMetadata
	for _, topic := range propTopics {
		if n := rapid.Int32Range(0, 3).Draw(t, "partitions-"+topic); n > 0 {
			tm = append(tm, impl.TopicMetadata{Name: topic, Partitions: n})
		}
	}
	return impl.NewCluster(tm...)
}

func drawResponse(t *rapid.T, c Consumer) impl.Response {
	e := drawError(t)
	switch drawKind(t, c) {
	case KindJoin:
		gen := impl.Generation(rapid.IntRange(-1, 6).Draw(t, "generation"))
		if e == impl.None && gen < 1 {
			gen = 1 // a completed join phase has bumped the generation (docs/protocol.md §1.3)
		}
		member := impl.MemberID(rapid.SampledFrom([]string{"m1", "m2"}).Draw(t, "member"))
		leader := impl.MemberID(rapid.SampledFrom([]string{"m0", "m1", "m2"}).Draw(t, "leader"))
		members := []impl.JoinGroupMember{{MemberID: member, Metadata: impl.Subscription{Topics: drawTopics(t, "member-topics")}}}
		return impl.JoinGroupResponse{Error: e, Generation: gen, ProtocolName: CooperativeSticky, Leader: leader,
			MemberID: member, Members: members, SkipAssignment: rapid.Bool().Draw(t, "skip")}
	case KindSync:
		topics := c.Topics
		if rapid.IntRange(0, 9).Draw(t, "any-topics") == 9 {
			topics = propTopics // an assignment outside the subscription
		}
		a := impl.Assignment{Partitions: drawSet(t, "assigned", topics)}
		if c.Config.Variant == impl.KIP && rapid.Bool().Draw(t, "needs-rejoin") {
			a.Error = impl.NeedsRejoin
		}
		return impl.SyncGroupResponse{Error: e, Assignment: a}
	case KindHeartbeat:
		return impl.HeartbeatResponse{Error: e}
	case KindCommit:
		return impl.OffsetCommitResponse{Error: e}
	}
	return impl.LeaveGroupResponse{Error: e}
}

// drawInput draws one input; rapid favours small numbers, so the common inputs come first.
func drawInput(t *rapid.T, c Consumer) Input {
	switch n := int(rapid.Uint32().Draw(t, "input") % 40); {
	case n < 20:
		return Received{Response: drawResponse(t, c)}
	case n < 26:
		return PollTick{}
	case n < 28:
		var as []impl.MemberAssignment
		for _, m := range []impl.MemberID{"m1", "m2"} {
			as = append(as, impl.MemberAssignment{MemberID: m, Assignment: impl.Assignment{Partitions: drawSet(t, "leader-"+string(m), propTopics)}})
		}
		return AssignmentComputed{Assignments: as}
	case n < 30:
		return HeartbeatTick{}
	case n < 32:
		return CommitTick{}
	case n < 34:
		return MetadataChanged{Cluster: drawCluster(t)}
	case n < 35:
		return AssignmentFailed{}
	case n < 36:
		return RequestTimedOut{Kind: rapid.SampledFrom(AllKinds()).Draw(t, "timed-out")}
	case n < 38:
		return SubscriptionChanged{Topics: drawTopics(t, "topics")}
	case n < 39 || rapid.IntRange(0, 9).Draw(t, "close") != 5:
		return PollTimeout{}
	}
	return Close{}
}

func drawConfig(t *rapid.T) Config {
	cfg := Config{
		Variant:             rapid.SampledFrom([]impl.Variant{impl.Kafka, impl.KIP}).Draw(t, "variant"),
		Assignors:           rapid.SampledFrom([][]string{{CooperativeSticky}, {Range}, {CooperativeSticky, Range}, {Sticky}}).Draw(t, "assignors"),
		SubscriptionVersion: int8(rapid.IntRange(0, 2).Draw(t, "subscription-version")),
		JoinGroupVersion:    int16(rapid.SampledFrom([]int{3, 9}).Draw(t, "join-version")),
		Conn:                1,
	}
	if rapid.Bool().Draw(t, "static") {
		cfg.InstanceID = "i1"
	}
	if cfg.Variant == impl.KIP { // KIP-429's rebalance.protocol override, when set
		switch rapid.SampledFrom([]string{"assignors", "eager", "cooperative"}).Draw(t, "rebalance-protocol") {
		case "eager":
			cfg.RebalanceProtocol = new(impl.Eager)
		case "cooperative":
			cfg.RebalanceProtocol = new(impl.Cooperative)
		}
	}
	return cfg
}

// TestPropertyOwnershipFollowsCallbacks: under random inputs (ticks, subscription and metadata
// changes, responses with random errors and generations, assignments), with no faults:
//   - Owned() never holds a partition the callbacks took away (Revoked/Lost without a later
//     Assigned); in fact Owned() equals what the callbacks say;
//   - Revoked/Lost name only owned partitions, Assigned only unowned ones;
//   - in a step, Revoked/Lost come before Assigned (variant Kafka; the variant KIP follows docs/protocol.md
//     §7.3's Assigned-then-Revoked order, and on NEEDS_REJOIN then applies the pending §1
//     trigger before the immediate JoinGroup, so it may also revoke or lose after assigning);
//   - an OffsetCommit request is sent only from STABLE and carries that generation (≥ 0);
//   - a closed consumer sends nothing.
//
// Reference: docs/protocol.md §1.11 (generationIfStable), §2.3, §2.6; KIP-429 §1, §3.
func TestPropertyOwnershipFollowsCallbacks(t *testing.T) {
	rapid.Check(t, func(t *rapid.T) {
		cfg := drawConfig(t)
		c, _ := New(cfg, drawCluster(t)).Subscribe(drawTopics(t, "initial-topics"))
		var app impl.PartitionSet
		steps := rapid.IntRange(1, 80).Draw(t, "steps")
		for i := 0; i < steps; i++ {
			in := drawInput(t, c)
			before := c
			var effs []Effect
			c, effs = c.Step(in)
			app = checkEffects(t, cfg.Variant, before, in, effs, app)
			if !c.Owned().SubsetOf(app) {
				t.Fatalf("step %d %T: Owned() %v after callbacks left %v\nbefore %v\nafter  %v", i, in, c.Owned(), app, before, c)
			}
			if !c.Owned().Equal(app) {
				t.Fatalf("step %d %T: Owned() %v differs from callbacks %v\nbefore %v\nafter  %v", i, in, c.Owned(), app, before, c)
			}
		}
	})
}

// checkEffects checks one step's effects and returns the application's ownership after them.
func checkEffects(t *rapid.T, v impl.Variant, before Consumer, in Input, effs []Effect, app impl.PartitionSet) impl.PartitionSet {
	assigned, outOfOrder := false, false
	for _, e := range effs {
		switch e := e.(type) {
		case Callback:
			switch e.Kind {
			case Assigned:
				if app.Intersects(e.Partitions) {
					t.Fatalf("%T: assigned %v already owned %v", in, e.Partitions, app)
				}
				app = app.Union(e.Partitions)
				assigned = true
			default:
				if e.Partitions.IsEmpty() || !e.Partitions.SubsetOf(app) {
					t.Fatalf("%T: %v of %v, owned %v", in, e.Kind, e.Partitions, app)
				}
				if assigned && v == impl.Kafka {
					outOfOrder = true
				}
				app = app.Minus(e.Partitions)
			}
		case Send:
			if before.Closed {
				t.Fatalf("closed consumer sent %v", e)
			}
			if r, ok := e.Request.(impl.OffsetCommitRequest); ok {
				if before.Status != Stable || r.Generation != before.Gen.ID || r.Generation < 0 {
					t.Fatalf("%T: commit %v sent from %v", in, e, before)
				}
			}
		}
	}
	if outOfOrder {
		t.Fatalf("%T: revoked/lost after assigned in one step: %v", in, render(effs))
	}
	return app
}
