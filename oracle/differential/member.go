package differential

import (
	"fmt"

	"github.com/groupcheck/groupcheck/impl"
)

// Member is one group member as a classic leader sees it: its id and its decoded
// ConsumerProtocolSubscription (docs/protocol.md §2.2), in the client's shape.
type Member struct {
	ID         string
	InstanceID string // group.instance.id; "" for a dynamic member
	// Version is the subscription version the member wrote: 0 (topics and user data), 1
	// (KIP-429: owned partitions) or 2 (KIP-792: the owned partitions' generation).
	Version int8
	Topics  []string
	Owned   map[string][]int32 // version ≥ 1
	// Generation labels Owned (version 2); -1 for none. Read only at version 2, because a
	// v0/v1 subscription has no such field.
	Generation int32
	// UserData is the sticky assignors' user data (KIP-341): the previous assignment
	// (eager sticky) and its generation (both sticky assignors). nil for none.
	UserData *UserData
}

// UserData is what the sticky assignors keep in a subscription's opaque user data.
type UserData struct {
	Previous   map[string][]int32
	Generation int32 // -1 for none (before KIP-341)
}

// Subscription is the member's subscription in the reference vocabulary. A version the
// reference does not know, owned partitions at version 0 (it cannot carry them) or a bad
// partition map is an error naming the member.
func (m Member) Subscription() (impl.Subscription, error) {
	if m.Version < 0 || m.Version > impl.MaxSubscriptionVersion {
		return impl.Subscription{}, fmt.Errorf("member %q: subscription version %d outside 0..%d", m.ID, m.Version, impl.MaxSubscriptionVersion)
	}
	topics, err := topicList(fmt.Sprintf("member %q: topics", m.ID), m.Topics)
	if err != nil {
		return impl.Subscription{}, err
	}
	owned, err := ToSet(m.Owned)
	if err != nil {
		return impl.Subscription{}, fmt.Errorf("member %q: owned: %v", m.ID, err)
	}
	if m.Version == 0 && !owned.IsEmpty() {
		return impl.Subscription{}, fmt.Errorf("member %q: a version 0 subscription cannot carry owned partitions %s", m.ID, owned)
	}
	gen := impl.Generation(m.Generation)
	if m.Version < 2 || gen < 0 {
		gen = impl.NoGeneration
	}
	s := impl.NewSubscription(m.Version, topics, owned, gen)
	s.UserData = impl.UserData{Generation: impl.NoGeneration}
	if u := m.UserData; u != nil {
		prev, err := ToSet(u.Previous)
		if err != nil {
			return impl.Subscription{}, fmt.Errorf("member %q: user data: %v", m.ID, err)
		}
		s.UserData = impl.UserData{Previous: prev, Generation: max(impl.Generation(u.Generation), impl.NoGeneration)}
	}
	return s, nil
}

// JoinGroupMember is the member as the reference leader receives it in a JoinGroup response.
func (m Member) JoinGroupMember() (impl.JoinGroupMember, error) {
	if m.ID == "" {
		return impl.JoinGroupMember{}, fmt.Errorf("member without an id")
	}
	s, err := m.Subscription()
	if err != nil {
		return impl.JoinGroupMember{}, err
	}
	return impl.JoinGroupMember{MemberID: impl.MemberID(m.ID), InstanceID: impl.InstanceID(m.InstanceID), Metadata: s}, nil
}

// JoinGroupMembers converts a JoinGroup response's member list; an id listed twice is an
// error (the reference leader's contract is one entry per member).
func JoinGroupMembers(ms []Member) ([]impl.JoinGroupMember, error) {
	out := make([]impl.JoinGroupMember, 0, len(ms))
	seen := map[string]bool{}
	for _, m := range ms {
		if seen[m.ID] {
			return nil, fmt.Errorf("member %q listed twice", m.ID)
		}
		seen[m.ID] = true
		j, err := m.JoinGroupMember()
		if err != nil {
			return nil, err
		}
		out = append(out, j)
	}
	return out, nil
}

// FromJoinGroupMember is the client's shape of a reference member.
func FromJoinGroupMember(j impl.JoinGroupMember) Member {
	s := j.Metadata
	m := Member{
		ID: string(j.MemberID), InstanceID: string(j.InstanceID), Version: s.Version,
		Topics: append([]string(nil), s.Topics...), Generation: int32(s.Generation),
	}
	if s.Version >= 1 {
		m.Owned = FromSet(s.OwnedPartitions)
	}
	if !s.UserData.Previous.IsEmpty() || s.UserData.Generation >= 0 {
		m.UserData = &UserData{Previous: FromSet(s.UserData.Previous), Generation: int32(s.UserData.Generation)}
	}
	return m
}
