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
// and SyncGroupResponseHandler that are not retried (KAFKA.md §1.11): FENCED_INSTANCE_ID,
// INCONSISTENT_GROUP_PROTOCOL, GROUP_MAX_SIZE_REACHED, INVALID_SESSION_TIMEOUT,
// INVALID_GROUP_ID, INVALID_REQUEST. Each needs a cause in the config: a static member (a
// twin or an old incarnation is fenced, KIP-345), members whose assignor lists have none in
// common (GroupMetadata.supportsProtocols, KAFKA.md §1.2), a group.max.size (KIP-389); the
// last three need a misconfiguration no config expresses. A coordinator that refuses a
// well-formed join, or a client that takes a fencing or retriable answer for a fatal one,
// stops a member while the group converges without it — and converges, which counts live
// members only, does not notice.
var noFatal = Property{
	Name:      "no-fatal",
	Kind:      explorer.Always,
	Statement: "a classic member stops with a fatal error only for a cause its config allows (a static member, assignor lists with none in common, group-max-size)",
	Source:    "KAFKA.md §1.2 (protocol selection), §1.10 (KIP-345 fencing), §1.11 (which errors Java throws); KIP-389",
	Applies:   classic,
	State: func(w *spec.World) string {
		c := w.Config()
		for i, s := range w.Slots {
			if e := s.Client.Fatal(); e != impl.None && !fatalAllowed(*c, e) {
				return fmt.Sprintf("%s stopped with fatal %s, which nothing in the config provokes", c.Members[i].Name, e)
			}
		}
		return ""
	},
}

// fatalAllowed says whether a classic config can provoke fatal error e.
func fatalAllowed(c spec.Config, e impl.ErrorCode) bool {
	switch e {
	case impl.FencedInstanceID:
		return staticMembers(c)
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
