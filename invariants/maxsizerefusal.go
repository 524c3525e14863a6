package invariants

import (
	"fmt"

	"github.com/groupcheck/groupcheck/explorer"
	"github.com/groupcheck/groupcheck/impl"
	"github.com/groupcheck/groupcheck/impl/coordinator"
	"github.com/groupcheck/groupcheck/spec"
)

// maxSizeRefusal is group-max-size's converse: KIP-389's capacity check refuses a JoinGroup
// with GROUP_MAX_SIZE_REACHED only when admitting the joiner would pass group.max.size, as
// the check counts (docs/protocol.md §1.4): in PreparingRebalance the members already awaiting the
// join (a member whose JoinGroup is parked is never refused), in CompletingRebalance and
// Stable the members (a member of the group is never refused; an Empty group refuses nobody).
// And the refused joiner leaves nothing behind: the coordinator removes it (member or pending
// id, GroupCoordinator: `group.remove(memberId)` before the answer), so the join phase does
// not wait for an id nobody will use. The Java client takes the answer as fatal
// (docs/protocol.md §1.11): a coordinator that refuses a member of the group stops a process the bound
// did not require to stop, and no-fatal allows the error wherever a bound is set; a refused id
// left pending delays the next join phase by a pending-member timeout.
var maxSizeRefusal = Property{
	Name:      "max-size-refusal",
	Kind:      explorer.Always,
	Statement: "a JoinGroup is refused GROUP_MAX_SIZE_REACHED only when admitting it would pass group.max.size (PreparingRebalance: members awaiting the join; CompletingRebalance, Stable: members), and the coordinator then holds neither its member id nor its pending id",
	Source:    "docs/protocol.md §1.4 (capacity check, KIP-389: GroupCoordinator.acceptJoiningMember, `group.remove(memberId)`), §1.11",
	Applies:   func(c spec.Config) bool { return !c.ConsumerProtocol && c.MaxSize > 0 },
	Step: func(pre *spec.World, ev []spec.Event, post *spec.World) string {
		for _, e := range ev {
			r, ok := e.(spec.ReplyEvent)
			if !ok {
				continue
			}
			if a, isJoin := r.Response.(impl.JoinGroupResponse); !isJoin || a.Error != impl.GroupMaxSizeReached {
				continue
			}
			q, handled := handledJoin(pre, ev, post)
			if !handled {
				return fmt.Sprintf("%s is answered GROUP_MAX_SIZE_REACHED in a step that handled no JoinGroup", r.Name)
			}
			if why := admissible(pre.Coord, q.MemberID, pre.Config().MaxSize); why != "" {
				return fmt.Sprintf("%s's JoinGroup (member id %q) is refused GROUP_MAX_SIZE_REACHED, but %s", r.Name, q.MemberID, why)
			}
			if _, held := post.Coord.Member(q.MemberID); q.MemberID != impl.NoMemberID && (held || post.Coord.IsPending(q.MemberID)) {
				return fmt.Sprintf("%s's JoinGroup is refused GROUP_MAX_SIZE_REACHED, but the coordinator still holds %s", r.Name, q.MemberID)
			}
		}
		return ""
	},
}

// admissible says why admitting id to group g would not pass max, as KIP-389's check counts,
// or "" when it would.
func admissible(g coordinator.Group, id impl.MemberID, max int) string {
	m, member := g.Member(id)
	member = member && id != impl.NoMemberID
	switch g.State() {
	case coordinator.PreparingRebalance:
		if member && m.Join.Parked {
			return "it is already awaiting the join"
		}
		awaiting := 0
		for _, o := range g.AllMembers() {
			if o.Join.Parked {
				awaiting++
			}
		}
		if awaiting < max {
			return fmt.Sprintf("only %d members await the join, group.max.size is %d", awaiting, max)
		}
	case coordinator.CompletingRebalance, coordinator.Stable:
		if member {
			return "it is a member of the group"
		}
		if n := len(g.Members()); n < max {
			return fmt.Sprintf("the group has %d members, group.max.size is %d", n, max)
		}
	default:
		return fmt.Sprintf("the group is %s", g.State())
	}
	return ""
}
