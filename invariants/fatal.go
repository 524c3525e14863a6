package invariants

import (
	"fmt"
	"slices"

	"github.com/groupcheck/groupcheck/explorer"
	"github.com/groupcheck/groupcheck/impl"
	"github.com/groupcheck/groupcheck/spec"
)

// noFatal is kip848-no-fatal's classic counterpart: a classic member stops for good only on an
// error the world can provoke. Java throws to the application, and the model's consumer
// stops, on the JoinGroup/SyncGroup errors of ConsumerCoordinator's JoinGroupResponseHandler
// and SyncGroupResponseHandler that are not retried (docs/protocol.md §1.11):
// FENCED_INSTANCE_ID, INCONSISTENT_GROUP_PROTOCOL, GROUP_MAX_SIZE_REACHED,
// INVALID_SESSION_TIMEOUT, INVALID_GROUP_ID, INVALID_REQUEST. Each needs a cause in the
// config: members whose assignor lists have none in common (GroupMetadata.supportsProtocols,
// docs/protocol.md §1.2), a group.max.size (KIP-389), and for FENCED_INSTANCE_ID another
// process holding the member's group.instance.id (KIP-345): two processes configured with one,
// or the old incarnation of a restarted member after its replacement. In this world a restart
// replaces its process (its last requests reach the coordinator before its successor's, on the
// slot's one queue) and its answers are dropped, so only two processes sharing an instance id
// can fence a live one. The last three errors need a misconfiguration no config expresses.
//
// The promise on FENCED_INSTANCE_ID is judged where it is made, at the coordinator: it answers
// it to a live process only while the instance id is mapped to a member id another process was
// given (validateCurrentMember, replaceStaticMember; docs/protocol.md §1.10).
// A coordinator that fences a healthy static member (a replacement lost in a failover, a
// stale mapping) fails here, in any world, not only where static members are absent. A client
// that takes a fencing or retriable answer for a fatal one, or a coordinator that refuses a
// well-formed join, stops a member while the group converges without it — and converges,
// which counts live members only, does not notice.
var noFatal = Property{
	Name:      "no-fatal",
	Kind:      explorer.Always,
	Statement: "a classic member stops with a fatal error only for a cause its config allows (two processes sharing a group.instance.id, assignor lists with none in common, group-max-size), and is answered FENCED_INSTANCE_ID only while another process holds its instance id",
	Source:    "docs/protocol.md §1.2 (protocol selection), §1.10 (KIP-345 fencing), §1.11 (which errors Java throws); KIP-389",
	Applies:   classic,
	Expected:  staticReplacementLost,
	Step: func(pre *spec.World, ev []spec.Event, post *spec.World) string {
		for _, e := range ev {
			if r, ok := e.(spec.ReplyEvent); ok && !r.Dropped && r.Response.Code() == impl.FencedInstanceID {
				if why := fencedWithoutTwin(post, r.Slot); why != "" {
					return why
				}
			}
		}
		c := post.Config()
		for i, s := range post.Slots {
			if s.Incarnation != pre.Slots[i].Incarnation || fatalOf(pre, i) != impl.None {
				continue
			}
			if e := fatalOf(post, i); e != impl.None && !fatalAllowed(*c, e) {
				return fmt.Sprintf("%s stopped with fatal %s, which nothing in the config provokes", c.Members[i].Name, e)
			}
		}
		return ""
	},
}

// staticReplacementLost is Kafka's own way to fence a healthy static member (a finding): the
// coordinator writes a static replacement to the log only when it answers it in a Stable group
// (GroupCoordinator.updateStaticMemberAndRebalance stores the group there and only rebalances
// in PreparingRebalance and CompletingRebalance), and a join completion writes nothing
// (GroupMetadataManager.completeClassicGroupJoin, onCompleteJoin before 4.0): the next write is
// the SyncGroup that completes the round. A failover before it loads the replaced member id,
// and the replacement's next request, under the id it was given, is answered
// FENCED_INSTANCE_ID, which Java throws from poll (docs/protocol.md §1.3, §1.10, §1.11). The
// reference logs the group as Kafka does, so no-fatal can fail on it wherever failovers and
// static members meet.
func staticReplacementLost(c spec.Config) string {
	if c.Budget.Failovers == 0 || !staticMembers(c) {
		return ""
	}
	return "a static replacement made while the group rebalances is not written to the log, so a coordinator failover reloads the replaced member id and fences the live replacement, which Java throws from poll (finding: updateStaticMemberAndRebalance stores the group only when Stable, a join completion not at all)"
}

// fencedWithoutTwin says why slot i's live process, just answered FENCED_INSTANCE_ID, was
// fenced while no other process holds its instance id, or "": the coordinator maps the
// instance to a member id handed to another slot (the member id names the slot it was given
// to, spec.World.SlotOfID).
func fencedWithoutTwin(w *spec.World, i int) string {
	m := w.Config().Members[i]
	if !m.Static {
		return fmt.Sprintf("coord answers %s FENCED_INSTANCE_ID, but it has no group.instance.id", m.Name)
	}
	held, ok := w.Coord.StaticMember(m.InstanceID())
	if !ok {
		return fmt.Sprintf("coord answers %s FENCED_INSTANCE_ID, but no member holds instance %s", m.Name, m.InstanceID())
	}
	if j, ok := w.SlotOfID(held); ok && j == i {
		return fmt.Sprintf("coord answers %s FENCED_INSTANCE_ID, but instance %s is held by %s, its own slot's: no other process holds it", m.Name, m.InstanceID(), held)
	}
	return ""
}

// fatalAllowed says whether a classic config can provoke fatal error e.
func fatalAllowed(c spec.Config, e impl.ErrorCode) bool {
	switch e {
	case impl.FencedInstanceID:
		return sharedInstance(c)
	case impl.GroupMaxSizeReached:
		return c.MaxSize > 0
	case impl.InconsistentGroupProtocol:
		return !commonAssignor(c)
	}
	return false
}

// commonAssignor says whether one assignor is on every member's list: then every subset of
// the members has a protocol in common, and the coordinator accepts every join
// (GroupMetadata.supportsProtocols asks only for one protocol all current members support).
func commonAssignor(c spec.Config) bool {
	for _, a := range c.MemberAssignors(0) {
		all := true
		for i := range c.Members {
			all = all && slices.Contains(c.MemberAssignors(i), a)
		}
		if all {
			return true
		}
	}
	return len(c.Members) == 0
}
