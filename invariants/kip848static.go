package invariants

import (
	"fmt"

	"github.com/groupcheck/groupcheck/explorer"
	"github.com/groupcheck/groupcheck/impl"
	"github.com/groupcheck/groupcheck/impl/kip848"
	"github.com/groupcheck/groupcheck/spec"
)

// kip848StaticUnique: a group.instance.id names at most one member record of a KIP-848 group
// (docs/protocol.md §3.6: the coordinator keeps one member per instance — a new incarnation's join
// replaces the record its old one left at epoch −2, GroupMetadataManager's
// staticMembers map from instance id to one member id). Two records of one instance are two
// members the target gives partitions to, one of them a process that is gone: its share waits
// for a session timer, and the instance's next leave or rejoin resolves to either record.
var kip848StaticUnique = Property{
	Name:      "kip848-static-unique",
	Kind:      explorer.Always,
	Statement: "no two KIP-848 member records carry the same group.instance.id",
	Source:    "docs/protocol.md §3.6 (a static member's replacement; GroupMetadataManager.consumerGroupHeartbeat → staticMemberId)",
	Applies:   kip848Protocol,
	State:     func(w *spec.World) string { return instanceHeldTwice(w.Group.Members()) },
}

// instanceHeldTwice finds an instance id two of the member records carry.
func instanceHeldTwice(ms []kip848.Member) string {
	holder := map[impl.InstanceID]impl.MemberID{}
	for _, m := range ms {
		if m.InstanceID == "" {
			continue
		}
		if other, ok := holder[m.InstanceID]; ok {
			return fmt.Sprintf("instance %s is held by two member records, %s and %s", m.InstanceID, other, m.ID)
		}
		holder[m.InstanceID] = m.ID
	}
	return ""
}
