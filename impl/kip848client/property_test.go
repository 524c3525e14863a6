package kip848client

import (
	"bytes"
	"testing"

	"github.com/groupcheck/groupcheck/impl"
	"pgregory.net/rapid"
)

var universe = []impl.TopicPartition{impl.TP("t", 0), impl.TP("t", 1), impl.TP("t", 2), impl.TP("u", 0)}

func genSet(t *rapid.T, label string) impl.PartitionSet {
	var tps []impl.TopicPartition
	for _, tp := range universe {
		if rapid.Bool().Draw(t, label+"/"+tp.String()) {
			tps = append(tps, tp)
		}
	}
	return impl.NewPartitionSet(tps...)
}

// genError draws a heartbeat response's error: mostly success, then fencing and retriable
// errors, rarely a fatal one (FATAL is absorbing and would end the interesting part of a run).
func genError(t *rapid.T) impl.ErrorCode {
	switch k := rapid.IntRange(0, 199).Draw(t, "error"); {
	case k < 140:
		return impl.None
	case k < 155:
		return impl.FencedMemberEpoch
	case k < 162:
		return impl.UnknownMemberID
	case k < 175:
		return rapid.SampledFrom([]impl.ErrorCode{impl.NotCoordinator, impl.CoordinatorNotAvailable, impl.CoordinatorLoadInProgress}).Draw(t, "retriable")
	case k < 198:
		return impl.None
	}
	return rapid.SampledFrom([]impl.ErrorCode{impl.UnreleasedInstanceID, impl.FencedInstanceID, impl.GroupMaxSizeReached}).Draw(t, "fatal")
}

// genInput draws an input the world could deliver to m: responses and timeouts only for
// requests in flight, with response epochs at least the one the request carried (as a
// coordinator answers). Weights favour the exchange (rapid biases draws towards small
// values, so the common inputs come first); leaving and failures are rarer.
func genInput(t *rapid.T, m Member) Input {
	for {
		switch k := rapid.IntRange(0, 99).Draw(t, "kind"); {
		case k < 40:
			if m.Heartbeat.Active {
				return HeartbeatResponseInput{Response: genResponse(t, m)}
			}
			if k < 10 && len(m.Topics) == 0 {
				return SubscribeInput{Topics: []string{"t"}}
			}
			return HeartbeatTickInput{}
		case k < 55:
			if m.Commit.Active {
				code := rapid.SampledFrom([]impl.ErrorCode{impl.None, impl.StaleMemberEpoch, impl.UnknownMemberID}).Draw(t, "commit-error")
				return CommitResponseInput{Response: impl.OffsetCommitResponse{Error: code}}
			}
			return CommitTickInput{}
		case k < 65:
			return HeartbeatTickInput{}
		case k < 72:
			return PollInput{}
		case k < 80:
			kind := rapid.SampledFrom([]RequestKind{KindHeartbeat, KindCommit}).Draw(t, "lost")
			if (kind == KindHeartbeat && m.Heartbeat.Active) || (kind == KindCommit && m.Commit.Active) {
				return RequestTimedOutInput{Kind: kind}
			}
		case k < 88:
			topics := rapid.SliceOfDistinct(rapid.SampledFrom([]string{"t", "u"}), rapid.ID[string]).Draw(t, "topics")
			return SubscribeInput{Topics: topics}
		case k < 92:
			return UnsubscribeInput{}
		case k < 96:
			return PollTimeoutInput{}
		case k < 97:
			return CloseInput{}
		}
	}
}

func genResponse(t *rapid.T, m Member) impl.ConsumerGroupHeartbeatResponse {
	code := genError(t)
	if code != impl.None {
		return impl.ConsumerGroupHeartbeatResponse{Error: code}
	}
	epoch := max(m.Heartbeat.Epoch, 1) + impl.Epoch(rapid.IntRange(0, 2).Draw(t, "bump"))
	resp := impl.ConsumerGroupHeartbeatResponse{MemberID: "m1", MemberEpoch: epoch}
	if rapid.Bool().Draw(t, "has-assignment") {
		a := genSet(t, "assignment")
		resp.Assignment = &a
	}
	return resp
}

// reachable reports whether to is reachable from from in at most n transitions of the table.
func reachable(from, to State, n int) bool {
	if from == to {
		return true
	}
	if n == 0 {
		return false
	}
	for _, mid := range AllStates() {
		if CanTransition(from, mid) && reachable(mid, to, n-1) {
			return true
		}
	}
	return false
}

// TestPropertyMemberLaws drives a member with random inputs and checks after every step:
//   - ownership: Owned() is exactly what the callbacks say — a partition revoked or lost is
//     never owned again without a later onPartitionsAssigned (docs/protocol.md §3.7);
//   - callbacks within a step come revoked (or lost) before assigned (docs/protocol.md §3.7);
//   - the state moves only along the predecessor graph (transitions through FENCED /
//     PREPARE_LEAVING / LEAVING happen inside one step; an illegal one would panic);
//   - the member epoch only rises, except to 0, -1 or -2 (docs/protocol.md §3.9);
//   - commits carry the current epoch and exactly the owned partitions; a join heartbeat
//     carries every field with empty owned partitions; at most one heartbeat is in flight
//     (docs/protocol.md §3.1, §3.7);
//   - the encoding is deterministic.
func TestPropertyMemberLaws(t *testing.T) {
	rapid.Check(t, func(t *rapid.T) {
		cfg := rapid.SampledFrom([]Config{dynamicCfg(), staticCfg()}).Draw(t, "cfg")
		m := New(cfg)
		owned := impl.PartitionSet{}
		steps := rapid.IntRange(1, 80).Draw(t, "steps")
		for i := 0; i < steps; i++ {
			in := genInput(t, m)
			next, effs := m.Step(in)
			checkStep(t, m, in, next, effs, &owned)
			m = next
		}
	})
}

func checkStep(t *rapid.T, m Member, in Input, next Member, effs []Effect, owned *impl.PartitionSet) {
	if !reachable(m.Status, next.Status, 4) {
		t.Fatalf("%T: %s -> %s leaves the predecessor graph", in, m.Status, next.Status)
	}
	if e := next.MemberEpoch; e < m.MemberEpoch && e != impl.EpochJoin && e != impl.EpochLeave && e != impl.EpochTemporaryLeave {
		t.Fatalf("%T: epoch fell %d -> %d", in, m.MemberEpoch, e)
	}
	_, response := in.(HeartbeatResponseInput)
	_, timeout := in.(RequestTimedOutInput)
	heartbeats, assigned := 0, false
	for _, e := range effs {
		switch e := e.(type) {
		case Callback:
			switch e.Kind {
			case Assigned:
				if e.Partitions.Intersects(*owned) {
					t.Fatalf("assigned %s already owned %s", e.Partitions, *owned)
				}
				*owned = owned.Union(e.Partitions)
				assigned = true
			default:
				if assigned {
					t.Fatalf("%s after assigned in one step: %v", e, effs)
				}
				if !e.Partitions.SubsetOf(*owned) || e.Partitions.IsEmpty() {
					t.Fatalf("%s of partitions not owned %s", e, *owned)
				}
				*owned = owned.Minus(e.Partitions)
			}
		case Send:
			switch r := e.Request.(type) {
			case impl.OffsetCommitRequest:
				if !r.Partitions.Equal(*owned) || r.Generation <= 0 {
					t.Fatalf("commit %s at %d while owning %s", r.Partitions, r.Generation, *owned)
				}
			case impl.ConsumerGroupHeartbeatRequest:
				heartbeats++
				checkHeartbeat(t, r)
			}
		}
	}
	if heartbeats > 1 || (heartbeats == 1 && m.Heartbeat.Active && !response && !timeout) {
		t.Fatalf("%T: %d heartbeats sent, one was in flight: %v", in, heartbeats, effs)
	}
	if !next.Owned().Equal(*owned) {
		t.Fatalf("%T: Owned() = %s, callbacks say %s; %s", in, next.Owned(), *owned, next)
	}
	if !bytes.Equal(next.AppendEncoding(nil), next.AppendEncoding(nil)) || next.String() == "" {
		t.Fatal("encoding not deterministic")
	}
}

func checkHeartbeat(t *rapid.T, r impl.ConsumerGroupHeartbeatRequest) {
	switch {
	case r.MemberEpoch == impl.EpochJoin:
		if r.OwnedPartitions == nil || !r.OwnedPartitions.IsEmpty() || len(r.SubscribedTopicNames) == 0 {
			t.Fatalf("join heartbeat not full: %+v", r)
		}
	case r.MemberEpoch < 0:
		if r.MemberID == impl.NoMemberID || (r.MemberEpoch == impl.EpochTemporaryLeave) != (r.InstanceID != "") {
			t.Fatalf("bad leave heartbeat: %+v", r)
		}
	}
}

// TestPropertyFaultyMemberStaysConsistent: the B21 fault changes liveness only; the faulty
// member still obeys the state table and its internal contracts under random inputs.
func TestPropertyFaultyMemberStaysConsistent(t *testing.T) {
	rapid.Check(t, func(t *rapid.T) {
		cfg := dynamicCfg()
		cfg.Faults = cfg.Faults.With(impl.FaultInFlightStuckOnError)
		m := New(cfg)
		owned := impl.PartitionSet{}
		for range rapid.IntRange(1, 60).Draw(t, "steps") {
			in := genInput(t, m)
			next, effs := m.Step(in)
			checkStep(t, m, in, next, effs, &owned)
			m = next
		}
	})
}
