package coordinator

import (
	"fmt"

	"github.com/groupcheck/groupcheck/impl"
)

// Handle routes a request to its handler. fresh is used only by a JoinGroup that needs a new
// member id (see JoinGroup). An unknown request type is a broken contract and panics.
func (g Group) Handle(req impl.Request, fresh impl.MemberID) (Group, []impl.Reply) {
	switch r := req.(type) {
	case impl.JoinGroupRequest:
		return g.JoinGroup(r, fresh)
	case impl.SyncGroupRequest:
		return g.SyncGroup(r)
	case impl.HeartbeatRequest:
		return g.Heartbeat(r)
	case impl.LeaveGroupRequest:
		return g.LeaveGroup(r)
	case impl.OffsetCommitRequest:
		return g.OffsetCommit(r)
	}
	panic(fmt.Sprintf("coordinator: Handle: unknown request type %T", req))
}
