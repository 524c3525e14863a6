package invariants

import (
	"strings"
	"testing"

	"github.com/groupcheck/groupcheck/impl"
	"github.com/groupcheck/groupcheck/impl/consumer"
	"github.com/groupcheck/groupcheck/spec"
)

func TestStableScriptConverges(t *testing.T) {
	ws := walk(t, config(t, twoMembers), stableScript...)
	if w := ws[len(ws)-1]; !Converged(&w) {
		t.Fatalf("script does not converge:\n%s", w)
	}
	for i, w := range ws[:len(ws)-1] {
		if Converged(&w) {
			t.Errorf("world %d converged before the round completed:\n%s", i, w)
		}
	}
}

// TestStepPropertiesBite feeds every step property one transition that violates it and one
// that does not. The violating transitions are built from real worlds of a scripted run, with
// the events the property must judge. Each case is a scenario no correct role produces — that
// is why they are synthetic; mutants that produce them end to end are in explore_test.go.
func TestStepPropertiesBite(t *testing.T) {
	ws := walk(t, config(t, twoMembers), stableScript...)
	stable := ws[len(ws)-1] // gen 1: a#1 owns t-0, b#1 owns t-1
	empty := ws[0]          // gen 0, Empty
	t0, t1 := impl.NewPartitionSet(impl.TP("t", 0)), impl.NewPartitionSet(impl.TP("t", 1))
	members := []impl.JoinGroupMember{
		{MemberID: "a#1", Metadata: impl.NewSubscription(2, []string{"t"}, t0, 1)},
		{MemberID: "b#1", Metadata: impl.NewSubscription(2, []string{"t"}, t1, 1)},
	}
	assign := func(a, b impl.PartitionSet) spec.AssignEvent {
		return spec.AssignEvent{Slot: 0, Name: "a", Generation: 1, Members: members, Assignments: []impl.MemberAssignment{
			{MemberID: "a#1", Assignment: impl.Assignment{Partitions: a}},
			{MemberID: "b#1", Assignment: impl.Assignment{Partitions: b}},
		}}
	}
	for _, tc := range []struct {
		prop      string
		pre, post spec.World
		bad, good []spec.Event
		want      string // in the reason
	}{{
		// Reference: docs/protocol.md §1.3 (generation rules).
		prop: "generation-monotonic", pre: stable, post: empty, want: "from 1 to 0",
	}, {
		// Reference: docs/protocol.md §1.3: Stable's only predecessor is CompletingRebalance.
		prop: "coordinator-transitions", pre: empty, post: stable, want: "Empty -> Stable",
	}, {
		// Reference: docs/protocol.md §1.8: a commit of a partition another member is assigned.
		prop: "commit-fencing", pre: stable, post: stable, want: "gen 1 assigns (t-1) to b#1",
		bad:  []spec.Event{spec.CommitEvent{Slot: 0, Name: "a", MemberID: "a#1", Generation: 1, Partitions: t0.Union(t1)}},
		good: []spec.Event{spec.CommitEvent{Slot: 0, Name: "a", MemberID: "a#1", Generation: 1, Partitions: t0}},
	}, {
		// Reference: docs/protocol.md §1.8: a commit is accepted only from a current member.
		prop: "commit-fencing", pre: stable, post: stable, want: "the group is at gen 1 without it",
		bad: []spec.Event{spec.CommitEvent{Slot: 0, Name: "a", MemberID: "a#1", Generation: 0, Partitions: t0}},
	}, {
		// Reference: docs/protocol.md §1.8: the strict form, the committer's own assignment.
		prop: "commit-fencing-strict", pre: stable, post: stable, want: "gen 1 assigned it (t-0)",
		bad:  []spec.Event{spec.CommitEvent{Slot: 0, Name: "a", MemberID: "a#1", Generation: 1, Partitions: t0.Union(t1)}},
		good: []spec.Event{spec.CommitEvent{Slot: 0, Name: "a", MemberID: "a#1", Generation: 1, Partitions: t0}},
	}, {
		// Reference: docs/protocol.md §1.5, §2.4.
		prop: "sync-assignment-valid", pre: stable, post: stable, want: "to both a#1 and b#1",
		bad:  []spec.Event{assign(t0.Union(t1), t1)},
		good: []spec.Event{assign(t0, t1)},
	}, {
		// Reference: KIP-429 §2.6: a partition another member owns is withheld.
		prop: "no-handover-while-owned", pre: stable, post: stable, want: "gives (t-1) to a#1 while b (b#1) still owns it",
		bad:  []spec.Event{assign(t0.Union(t1), impl.PartitionSet{})},
		good: []spec.Event{assign(t0, t1)},
	}, {
		// Reference: docs/protocol.md §2.6: assigned only what the member does not own.
		prop: "revoke-before-reassign", pre: stable, post: stable, want: "already owns",
		bad:  []spec.Event{spec.CallbackEvent{Slot: 0, Name: "a", Kind: consumer.Assigned, Partitions: t0}},
		good: []spec.Event{spec.CallbackEvent{Slot: 0, Name: "a", Kind: consumer.Assigned}},
	}, {
		// Reference: docs/protocol.md §2.3 step 2: lost only after the generation was lost.
		prop: "lost-only-after-membership-lost", pre: stable, post: stable, want: "still holds it",
		bad:  []spec.Event{spec.CallbackEvent{Slot: 0, Name: "a", Kind: consumer.Lost, Partitions: t0}},
		good: []spec.Event{spec.CallbackEvent{Slot: 0, Name: "a", Kind: consumer.Revoked, Partitions: t0}},
	}, {
		// Reference: docs/protocol.md §1.11: the fencing answers.
		prop: "fenced-reachable", pre: stable, post: stable, want: "UNKNOWN_MEMBER_ID",
		bad:  []spec.Event{spec.ReplyEvent{Slot: 0, Name: "a", Response: impl.HeartbeatResponse{Error: impl.UnknownMemberID}}},
		good: []spec.Event{spec.ReplyEvent{Slot: 0, Name: "a", Response: impl.HeartbeatResponse{Error: impl.RebalanceInProgress}}},
	}} {
		t.Run(tc.prop, func(t *testing.T) {
			p, ok := Lookup(tc.prop)
			if !ok || p.Step == nil {
				t.Fatalf("no step property %q", tc.prop)
			}
			why := p.Step(&tc.pre, tc.bad, &tc.post)
			if !strings.Contains(why, tc.want) {
				t.Errorf("violating step: reason %q, want it to contain %q", why, tc.want)
			}
			if tc.good != nil {
				if why := p.Step(&tc.pre, tc.good, &tc.post); why != "" {
					t.Errorf("harmless step flagged: %s", why)
				}
			}
			if why := p.Step(&tc.pre, nil, &tc.pre); why != "" {
				t.Errorf("a step that changes nothing is flagged: %s", why)
			}
		})
	}
}

// TestStatePropertiesBite gives each state property a world that violates it.
func TestStatePropertiesBite(t *testing.T) {
	ws := walk(t, config(t, twoMembers), stableScript...)
	stable := ws[len(ws)-1]
	// b's consumer believes it also owns t-0: both are current, so both forms fail.
	bad := ownSlots(stable)
	bad.Slots[1].Client.OwnedPartitions = bad.Slots[1].Client.OwnedPartitions.Add(impl.TP("t", 0))
	for _, name := range []string{"exclusive-ownership", "exclusive-ownership-strict"} {
		p, _ := Lookup(name)
		if why := p.State(&stable); why != "" {
			t.Errorf("%s flags the converged world: %s", name, why)
		}
		if why := p.State(&bad); !strings.Contains(why, "(t-0) owned by a (a#1 gen 1) and b (b#1 gen 1)") {
			t.Errorf("%s: reason %q", name, why)
		}
	}
	p, _ := Lookup("converged-reachable")
	if p.State(&stable) != "" || p.State(&bad) == "" || p.State(&ws[0]) == "" {
		t.Errorf("converged-reachable judges the scripted worlds wrongly")
	}
	// commit-accepted: only an accepted commit's answer on its way back satisfies it.
	p, _ = Lookup("commit-accepted")
	answered := func(code impl.ErrorCode) spec.World {
		w := ownSlots(stable)
		w.Slots[0].In = []impl.Response{impl.HeartbeatResponse{}, impl.OffsetCommitResponse{Error: code}}
		return w
	}
	if p.State(&stable) == "" || p.State(ptr(answered(impl.IllegalGeneration))) == "" || p.State(ptr(answered(impl.None))) != "" {
		t.Errorf("commit-accepted judges the scripted worlds wrongly")
	}
	// converged-balanced: a owns both partitions and b none — converged (every partition owned
	// once), valid, and not what cooperative-sticky promises (KIP-54).
	p, _ = Lookup("converged-balanced")
	lopsided := ownSlots(stable)
	lopsided.Slots[0].Client.OwnedPartitions = impl.NewPartitionSet(impl.TP("t", 0), impl.TP("t", 1))
	lopsided.Slots[1].Client.OwnedPartitions = impl.PartitionSet{}
	if !Converged(&lopsided) {
		t.Fatalf("the lopsided world should be converged:\n%s", lopsided)
	}
	if why := p.State(&stable); why != "" {
		t.Errorf("converged-balanced flags the balanced world: %s", why)
	}
	if why := p.State(&lopsided); !strings.Contains(why, "a owns 2 partitions and b, subscribed to t, owns 0") {
		t.Errorf("converged-balanced: reason %q", why)
	}
}
