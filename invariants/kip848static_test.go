package invariants

import (
	"slices"
	"strings"
	"testing"

	"github.com/groupcheck/groupcheck/impl"
	"github.com/groupcheck/groupcheck/impl/kip848"
	"github.com/groupcheck/groupcheck/spec"
)

const staticKIP848Two = "protocol consumer\nconsumer kafka\ncoordinator kafka\nassignor uniform\ntopic t 2\nmember a topics=t static\nmember b topics=t static\n"

// TestKIP848StaticUnique: records of two instances pass; a replaced record left beside its
// replacement (1121–1123, 1214: the replacement not applied) is named.
func TestKIP848StaticUnique(t *testing.T) {
	ms := []kip848.Member{{ID: "a#1", InstanceID: "a"}, {ID: "b#1", InstanceID: "b"}, {ID: "c#1"}, {ID: "d#1"}}
	if got := instanceHeldTwice(ms); got != "" {
		t.Fatalf("distinct instances: %q", got)
	}
	ms = append(ms, kip848.Member{ID: "a#2", InstanceID: "a"})
	if got := instanceHeldTwice(ms); got != "instance a is held by two member records, a#1 and a#2" {
		t.Errorf("a#1 left beside its replacement: %q", got)
	}
}

// TestKIP848TargetStable: a static member's leave and return (replaced under a new id) keeps
// kip848-target-stable; a target installed at the same assignment epoch with one partition
// moved (1127's recompute within an epoch) violates it.
func TestKIP848TargetStable(t *testing.T) {
	c := config(t, staticKIP848Two+"budget leaves=1 joins=1\n")
	pre, ev, post, _ := shortestStep(t, c, kip848TargetStable, func(pre *spec.World, _ []spec.Event, post *spec.World) bool {
		return len(post.Group.Target()) == 2 && len(pre.Group.Target()) == 2 && !slices.Equal(targetIDs(*pre), targetIDs(*post)) &&
			pre.Group.AssignmentEpoch() == post.Group.AssignmentEpoch()
	})
	if got := kip848TargetStable.Step(&pre, ev, &post); got != "" {
		t.Fatalf("a static replacement: %q", got)
	}
	// The assignor any offers every valid target: two worlds at one assignment epoch with
	// different targets stand for a target recomputed within that epoch.
	anyWorld := config(t, strings.Replace(staticKIP848Two, "uniform", "any", 1))
	g := explore(t, anyWorld, 100000)
	for _, x := range g.worlds {
		for _, y := range g.worlds {
			if x.Group.AssignmentEpoch() > 0 && x.Group.AssignmentEpoch() == y.Group.AssignmentEpoch() &&
				slices.Equal(targetIDs(x), targetIDs(y)) && !x.Group.Target().Equal(y.Group.Target()) {
				if got := kip848TargetStable.Step(&x, nil, &y); !strings.Contains(got, "within assignment epoch") {
					t.Errorf("another target at the same epoch: %q", got)
				}
				return
			}
		}
	}
	t.Fatal("no two targets at one epoch in the any world")
}

func targetIDs(w spec.World) []impl.MemberID {
	var ids []impl.MemberID
	for _, e := range w.Group.Target() {
		ids = append(ids, e.ID)
	}
	return ids
}

// TestKIP848LeaveAccepted: a static member's temporary leave (-2) is accepted, as
// kip848-leave-accepted asks; the same step answered FENCED_INSTANCE_ID (1218's refusal of the
// member's own leave) or UNKNOWN_MEMBER_ID (1217) violates it.
func TestKIP848LeaveAccepted(t *testing.T) {
	c := config(t, staticKIP848Two+"budget leaves=1\n")
	pre, ev, post, _ := shortestStep(t, c, kip848LeaveAccepted, func(pre *spec.World, ev []spec.Event, post *spec.World) bool {
		q, _, ok := deliveredHeartbeat(pre, ev, post)
		return ok && q.MemberEpoch == impl.EpochTemporaryLeave
	})
	for _, code := range []impl.ErrorCode{impl.FencedInstanceID, impl.UnknownMemberID} {
		forged := slices.Clone(ev)
		n := 0
		for i, e := range forged {
			if r, ok := e.(spec.ReplyEvent); ok {
				r.Response = impl.ConsumerGroupHeartbeatResponse{Error: code}
				forged[i] = r
				n++
			}
		}
		if n != 1 {
			t.Fatalf("the leave step has %d replies, want 1", n)
		}
		if got := kip848LeaveAccepted.Step(&pre, forged, &post); !strings.Contains(got, "is refused "+code.String()) {
			t.Errorf("refused %s: %q", code, got)
		}
	}
}

// TestKIP848StaticReturnAccepted: a static member that left at -2 and comes back (a new
// incarnation joining with its instance id) is accepted; the same join refused
// UNRELEASED_INSTANCE_ID (1204: the temporary leave not honoured) violates
// kip848-leave-accepted.
func TestKIP848StaticReturnAccepted(t *testing.T) {
	c := config(t, staticKIP848Two+"budget leaves=1 joins=1\n")
	pre, ev, post, _ := shortestStep(t, c, kip848LeaveAccepted, func(pre *spec.World, ev []spec.Event, post *spec.World) bool {
		q, _, ok := deliveredHeartbeat(pre, ev, post)
		if !ok || q.MemberEpoch != impl.EpochJoin || q.InstanceID == "" {
			return false
		}
		m, held := pre.Group.StaticMember(q.InstanceID)
		return held && m.MemberEpoch == impl.EpochTemporaryLeave
	})
	forged := slices.Clone(ev)
	for i, e := range forged {
		if r, ok := e.(spec.ReplyEvent); ok {
			r.Response = impl.ConsumerGroupHeartbeatResponse{Error: impl.UnreleasedInstanceID}
			forged[i] = r
		}
	}
	if got := kip848LeaveAccepted.Step(&pre, forged, &post); !strings.Contains(got, "left at epoch -2, is refused UNRELEASED_INSTANCE_ID") {
		t.Errorf("the return refused: %q", got)
	}
}

// TestKIP848TargetBalanced: the uniform world's targets are balanced; among the targets the
// any assignor offers for two members of one two-partition topic, the one dealing both
// partitions to one member (1023's early stop, 1038's uneven range) is named by both checks.
func TestKIP848TargetBalanced(t *testing.T) {
	two := strings.Replace(staticKIP848Two, " static", "", 2)
	for _, w := range explore(t, config(t, two), 100000).worlds {
		if got := kip848TargetBalanced.State(&w); got != "" {
			t.Fatalf("uniform: %q", got)
		}
	}
	for _, w := range explore(t, config(t, strings.Replace(two, "uniform", "any", 1)), 100000).worlds {
		g := w.Group
		if len(g.Members()) == 2 && g.AssignmentEpoch() == g.GroupEpoch() && len(g.Target()) == 2 && g.Target()[0].Partitions.Len() == 2 {
			if got := uniformMovable(g); !strings.Contains(got, "could move") {
				t.Errorf("uniform check of %v: %q", g.Target(), got)
			}
			if got := rangeUneven(g); !strings.Contains(got, "gives") {
				t.Errorf("range check of %v: %q", g.Target(), got)
			}
			return
		}
	}
	t.Fatal("no target dealing both partitions to one member in the any world")
}
