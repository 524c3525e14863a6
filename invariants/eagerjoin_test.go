package invariants

import (
	"slices"
	"strings"
	"testing"

	"github.com/groupcheck/groupcheck/spec"
)

// joinsOwning finds a step in which a member that owned partitions sends a JoinGroup.
func joinsOwning(pre *spec.World, ev []spec.Event, _ *spec.World) bool {
	return slices.ContainsFunc(joinsSent(ev), func(s spec.SendEvent) bool {
		return !pre.Slots[s.Slot].Client.OwnedPartitions.IsEmpty()
	})
}

// TestEagerJoinsEmpty: a member of the upgrade's first bounce (cooperative-sticky listed
// beside range, so eager, docs/protocol.md §2.7) revokes everything in the poll that sends its next
// JoinGroup, and eager-joins-empty holds on the way; had it kept its partitions (a client
// taking itself for cooperative, as mutant 440 makes the KIP variant's member), the property names
// it. A cooperative member keeping its partitions on the same step is not judged.
func TestEagerJoinsEmpty(t *testing.T) {
	c := config(t, `protocol eager
consumer kafka
coordinator kafka
assignor range
topic t 2
member a topics=t assignors=cooperative-sticky,range
member b topics=t assignors=cooperative-sticky,range absent
budget joins=1
`)
	pre, ev, post, _ := shortestStep(t, c, eagerJoinsEmpty, joinsOwning)
	i := ev[len(ev)-1].(spec.SendEvent).Slot
	if !post.Slots[i].Client.OwnedPartitions.IsEmpty() {
		t.Fatalf("the reference joins owning %s", post.Slots[i].Client.OwnedPartitions)
	}
	kept := ownSlots(post)
	kept.Slots[i].Client.OwnedPartitions = pre.Slots[i].Client.OwnedPartitions
	if got := eagerJoinsEmpty.Step(&pre, ev, &kept); !strings.Contains(got, "is eager and sends a JoinGroup still owning") {
		t.Errorf("an eager member joining with its partitions: %q", got)
	}
	coop := config(t, twoMembers+"budget crashes=1\n")
	pre, ev, post, _ = shortestStep(t, coop, eagerJoinsEmpty, joinsOwning)
	if i := ev[len(ev)-1].(spec.SendEvent).Slot; post.Slots[i].Client.OwnedPartitions.IsEmpty() {
		t.Fatalf("the cooperative member gave its partitions up before joining")
	}
	if got := eagerJoinsEmpty.Step(&pre, ev, &post); got != "" {
		t.Errorf("a cooperative member keeping its partitions: %q", got)
	}
}
