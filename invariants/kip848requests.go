package invariants

import (
	"fmt"

	"github.com/groupcheck/groupcheck/explorer"
	"github.com/groupcheck/groupcheck/impl"
	"github.com/groupcheck/groupcheck/spec"
)

// kip848RequestsValid: the client and the coordinator agree on what a well-formed
// ConsumerGroupHeartbeat is. The coordinator answers INVALID_REQUEST to a request that breaks
// the rules of docs/protocol.md §3.1 (a join without subscription or with owned partitions, a member id
// missing, a temporary leave without instance id, an unknown epoch); the client treats it as
// FATAL (§3.7), so a client that builds such a request, or a coordinator that refuses a valid
// one (a static member's rejoin, say), stops a member for good — while the group converges
// without it and no other property notices. A state predicate: the answer on its way.
var kip848RequestsValid = Property{
	Name:      "kip848-requests-valid",
	Kind:      explorer.Always,
	Statement: "no ConsumerGroupHeartbeat is answered INVALID_REQUEST: clients build only requests the coordinator's validation accepts",
	Source:    "docs/protocol.md §3.1 (request validation, GroupMetadataManager.throwIfConsumerGroupHeartbeatRequestIsInvalid), §3.7 (INVALID_REQUEST is FATAL)",
	Applies:   kip848Protocol,
	State: func(w *spec.World) string {
		for i, s := range w.Slots {
			for _, r := range s.In {
				if h, ok := r.(impl.ConsumerGroupHeartbeatResponse); ok && h.Error == impl.InvalidRequest {
					return fmt.Sprintf("the coordinator answered %s's ConsumerGroupHeartbeat INVALID_REQUEST", w.Config().Members[i].Name)
				}
			}
		}
		return ""
	},
}

// kip848NoFatal: a dynamic KIP-848 member in a group without a size limit never stops with a
// FATAL error. Every error the coordinator can give such a member is either retriable
// (NOT_COORDINATOR, COORDINATOR_NOT_AVAILABLE, COORDINATOR_LOAD_IN_PROGRESS) or a fencing
// (FENCED_MEMBER_EPOCH, UNKNOWN_MEMBER_ID: rejoin); the FATAL ones need a misconfiguration
// (UNSUPPORTED_ASSIGNOR, INVALID_REQUEST), group.consumer.max.size (GROUP_MAX_SIZE_REACHED) or
// an instance id (UNRELEASED_INSTANCE_ID, FENCED_INSTANCE_ID). A client that takes a fencing
// or a retriable answer for a fatal one stops for good while the group converges without it,
// which no other property notices.
var kip848NoFatal = Property{
	Name:      "kip848-no-fatal",
	Kind:      explorer.Always,
	Statement: "without group-max-size and static members, no KIP-848 member stops with a FATAL error",
	Source:    "docs/protocol.md §3.1 (errors), §3.7 (which errors are FATAL)",
	Applies: func(c spec.Config) bool {
		return c.ConsumerProtocol && c.MaxSize == 0 && !staticMembers(c)
	},
	State: func(w *spec.World) string {
		for i, s := range w.Slots {
			if s.Member.Fatal() != impl.None {
				return fmt.Sprintf("%s stopped with FATAL %s", w.Config().Members[i].Name, s.Member.Fatal())
			}
		}
		return ""
	},
}
