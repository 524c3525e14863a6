package coordinator

import (
	"fmt"
	"slices"

	"github.com/groupcheck/groupcheck/impl"
)

// normalizeProtocols copies a request's protocol list, keeping the first entry of each
// assignor name (a duplicate name carries no further preference).
func normalizeProtocols(ps []impl.GroupProtocol) []impl.GroupProtocol {
	out := make([]impl.GroupProtocol, 0, len(ps))
	for _, p := range ps {
		if !slices.ContainsFunc(out, func(q impl.GroupProtocol) bool { return q.Name == p.Name }) {
			out = append(out, p)
		}
	}
	return out
}

func lists(ps []impl.GroupProtocol, name string) bool {
	return slices.ContainsFunc(ps, func(p impl.GroupProtocol) bool { return p.Name == name })
}

// supporters counts the members listing the assignor.
func (g Group) supporters(name string) int {
	n := 0
	for _, m := range g.members {
		if lists(m.Protocols, name) {
			n++
		}
	}
	return n
}

// supportsProtocols is GroupMetadata.supportsProtocols: a joiner must list at least one
// assignor that every current member lists (any non-empty list when there are no members).
// The protocol type is always "consumer" here. Reference: docs/protocol.md §1.2.
func (g Group) supportsProtocols(ps []impl.GroupProtocol) bool {
	for _, p := range ps {
		if g.supporters(p.Name) == len(g.members) {
			return true
		}
	}
	return false
}

// selectProtocol is the vote of docs/protocol.md §1.2: candidates are the assignors every member
// lists; each member votes for its first candidate; most votes wins. Kafka breaks ties
// arbitrarily; the reference picks the smallest name. No candidate is a broken contract
// (JoinGroup's protocol check keeps the intersection non-empty).
func (g Group) selectProtocol() string {
	if len(g.members) == 0 {
		panic("coordinator: select protocol: no members")
	}
	var names []string
	var votes []int
	for _, m := range g.members {
		vote := ""
		for _, p := range m.Protocols {
			if g.supporters(p.Name) == len(g.members) {
				vote = p.Name
				break
			}
		}
		if vote == "" {
			panic(fmt.Sprintf("coordinator: select protocol: member %q shares no assignor with the group", m.ID))
		}
		if i := slices.Index(names, vote); i >= 0 {
			votes[i]++
		} else {
			names, votes = append(names, vote), append(votes, 1)
		}
	}
	best := 0
	for i := range names {
		if votes[i] > votes[best] || votes[i] == votes[best] && names[i] < names[best] {
			best = i
		}
	}
	return names[best]
}

// sameProtocols is MemberMetadata.matches: same names, same order, same subscriptions.
func sameProtocols(a, b []impl.GroupProtocol) bool {
	return slices.EqualFunc(a, b, func(x, y impl.GroupProtocol) bool {
		return x.Name == y.Name && x.Metadata.Equal(y.Metadata)
	})
}

// metadataFor is the member's subscription for the selected assignor.
func (m Member) metadataFor(name string) impl.Subscription {
	for _, p := range m.Protocols {
		if p.Name == name {
			return p.Metadata
		}
	}
	panic(fmt.Sprintf("coordinator: member %q does not list selected assignor %q", m.ID, name))
}

// memberList is currentMemberMetadata: every member (absent static ones included) with its
// subscription for the selected assignor, in id order, as sent to the leader.
func (g Group) memberList() []impl.JoinGroupMember {
	out := make([]impl.JoinGroupMember, len(g.members))
	for i, m := range g.members {
		out[i] = impl.JoinGroupMember{MemberID: m.ID, InstanceID: m.InstanceID, Metadata: m.metadataFor(g.protocol)}
	}
	return out
}
