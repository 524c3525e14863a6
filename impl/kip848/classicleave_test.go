package kip848

import (
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"
	"github.com/groupcheck/groupcheck/impl"
)

func leaveOf(ms ...impl.LeaveMember) impl.LeaveGroupRequest {
	return impl.LeaveGroupRequest{Conn: 6, Members: ms}
}

// Reference: GroupMetadataManager.classicGroupLeaveToConsumerGroup: each member is resolved on
// its own and answered in its own entry; the resolved ones are fenced with one bump
// (consumerGroupFenceMembers). The member's protocol is not checked.
func TestClassicLeaveGroup(t *testing.T) {
	g := settledStatic(t) // a (consumer protocol), s1[i1] (classic), epoch 2
	b, _ := step(t, g, joinReq("b", "t"), "")
	for _, tc := range []struct {
		name    string
		g       Group
		req     impl.LeaveGroupRequest
		codes   []impl.ErrorCode
		gone    []impl.MemberID
		bumpTo  impl.Epoch
		degrade bool
	}{
		{"a consumer-protocol member by id", b, leaveOf(impl.LeaveMember{MemberID: "a"}), []impl.ErrorCode{impl.None}, []impl.MemberID{"a"}, 4, false},
		{"two at once: one bump", b, leaveOf(impl.LeaveMember{MemberID: "a"}, impl.LeaveMember{MemberID: "b"}), []impl.ErrorCode{impl.None, impl.None}, nil, 0, true},
		{"the same member twice", b, leaveOf(impl.LeaveMember{MemberID: "b"}, impl.LeaveMember{InstanceID: "i1"}, impl.LeaveMember{MemberID: "s1", InstanceID: "i1"}), []impl.ErrorCode{impl.None, impl.None, impl.None}, []impl.MemberID{"b", "s1"}, 4, false},
		{"unknown member id", b, leaveOf(impl.LeaveMember{MemberID: "zz"}), []impl.ErrorCode{impl.UnknownMemberID}, nil, 3, false},
		{"instance not held", b, leaveOf(impl.LeaveMember{MemberID: "s1", InstanceID: "i9"}), []impl.ErrorCode{impl.UnknownMemberID}, nil, 3, false},
		{"instance held by another member", b, leaveOf(impl.LeaveMember{MemberID: "zz", InstanceID: "i1"}), []impl.ErrorCode{impl.FencedInstanceID}, nil, 3, false},
		{"one good, one refused", b, leaveOf(impl.LeaveMember{MemberID: "zz"}, impl.LeaveMember{MemberID: "b"}), []impl.ErrorCode{impl.UnknownMemberID, impl.None}, []impl.MemberID{"b"}, 4, false},
		// validateOnlineDowngradeWithFencedMembers: only classic members left → downgrade.
		{"the last consumer-protocol member", g, leaveOf(impl.LeaveMember{MemberID: "a"}), []impl.ErrorCode{impl.None}, nil, 0, true},
		{"the last member, classic: no downgrade of an empty group", withMemberOnly(t, g, "s1"), leaveOf(impl.LeaveMember{MemberID: "s1"}), []impl.ErrorCode{impl.None}, []impl.MemberID{"s1"}, 3, false},
		{"policy upgrade: no downgrade", withPolicy(g, MigrationUpgrade), leaveOf(impl.LeaveMember{MemberID: "a"}), []impl.ErrorCode{impl.None}, []impl.MemberID{"a"}, 3, false},
		{"policy disabled: no downgrade", withPolicy(g, MigrationDisabled), leaveOf(impl.LeaveMember{MemberID: "a"}), []impl.ErrorCode{impl.None}, []impl.MemberID{"a"}, 3, false},
		{"policy downgrade", withPolicy(g, MigrationDowngrade), leaveOf(impl.LeaveMember{MemberID: "a"}), []impl.ErrorCode{impl.None}, nil, 0, true},
	} {
		t.Run(tc.name, func(t *testing.T) {
			ng, out, d := tc.g.ClassicLeaveGroup(tc.req)
			r := out[0].Response.(impl.LeaveGroupResponse)
			if out[0].To != 6 || r.Error != impl.None || len(r.Members) != len(tc.req.Members) {
				t.Fatalf("response %+v to %d", r, out[0].To)
			}
			for i, want := range tc.codes {
				if m := r.Members[i]; m.Error != want || m.MemberID != tc.req.Members[i].MemberID || m.InstanceID != tc.req.Members[i].InstanceID {
					t.Errorf("entry %d = %+v, want %s echoing the request", i, m, want)
				}
			}
			if tc.degrade {
				if d == nil || !d.Rebalance || d.Joining != nil || !cmp.Equal(tc.g.AppendEncoding(nil), ng.AppendEncoding(nil)) {
					t.Errorf("want a downgrade with a rebalance and the group unchanged, got %+v %s", d, ng)
				}
				return
			}
			if d != nil {
				t.Fatalf("unexpected downgrade %+v", d)
			}
			for _, id := range tc.gone {
				if _, ok := ng.Member(id); ok {
					t.Errorf("%s still a member: %s", id, ng)
				}
			}
			if ng.GroupEpoch() != tc.bumpTo {
				t.Errorf("group epoch %d, want %d", ng.GroupEpoch(), tc.bumpTo)
			}
		})
	}
}

// withMemberOnly is g with only the given member left (the others' records dropped unfenced).
func withMemberOnly(t *testing.T, g Group, id impl.MemberID) Group {
	t.Helper()
	m := member(t, g, id)
	ng := g
	ng.members = nil
	ng.target = NewTarget(MemberTarget{ID: id, Partitions: g.TargetOf(id)})
	return ng.withMember(m)
}

// Reference: GroupMetadataManager.validateOnlineDowngradeWithFencedMembers: every condition.
func TestFenceDowngrade(t *testing.T) {
	g := settledStatic(t)                                    // a (consumer), s1 (classic)
	two, _ := classicStep(t, g, cjoin("c", "", "", "t"), "") // a, c, s1
	for _, tc := range []struct {
		name string
		g    Group
		ids  []impl.MemberID
		want bool
	}{
		{"the only consumer-protocol member", g, []impl.MemberID{"a"}, true},
		{"a classic member while a consumer-protocol one stays", g, []impl.MemberID{"s1"}, false},
		{"nobody", g, nil, false},
		{"everyone", g, []impl.MemberID{"a", "s1"}, false},
		{"an unknown id", g, []impl.MemberID{"zz"}, false},
		{"all classic, one of them fenced", withMemberOnly(t, two, "c").withMember(member(t, two, "s1")), []impl.MemberID{"c"}, true},
		{"within group.max.size", withSize(g, 1), []impl.MemberID{"a"}, true},
		{"beyond group.max.size", withSize(two, 1), []impl.MemberID{"a"}, false},
		{"policy upgrade", withPolicy(g, MigrationUpgrade), []impl.MemberID{"a"}, false},
	} {
		t.Run(tc.name, func(t *testing.T) {
			d := tc.g.FenceDowngrade(tc.ids...)
			if (d != nil) != tc.want {
				t.Fatalf("downgrade = %+v, want %v", d, tc.want)
			}
			if d != nil && (!d.Rebalance || !cmp.Equal(d.Leaving, tc.ids)) {
				t.Errorf("downgrade = %+v, want a rebalance leaving %v", d, tc.ids)
			}
		})
	}
}

func withSize(g Group, n int) Group {
	g.cfg.ClassicMaxSize = n
	return g
}

// Reference: classicGroupJoinToConsumerGroup with validateOnlineDowngradeWithReplacedMember: a
// static member restarted with the classic protocol, replacing the last consumer-protocol
// member, converts the group; the response is the one Kafka sends after converting.
func TestClassicJoinDowngradeOnReplace(t *testing.T) {
	g := New(Config{}, cluster)
	g, _ = step(t, g, staticJoin("", "i1", "t"), "k1")    // k1[i1] consumer protocol, epoch 1
	g, _ = classicStep(t, g, cjoin("c", "", "", "t"), "") // c classic, epoch 2
	g, _ = step(t, g, hb("k1", 1, nil), "")               // k1 revokes
	g, _ = step(t, g, hb("k1", 1, owned("t-2 t-3")), "")  // and acknowledges: k1 at 2
	settled := g
	ng, out, d := settled.ClassicJoinGroup(cjoin("", "i1", "", "t"), "s2")
	if d == nil || d.Rebalance || d.Replaced != "k1" || d.Joining == nil {
		t.Fatalf("want a downgrade without rebalance replacing k1, got %+v", d)
	}
	if !cmp.Equal(settled.AppendEncoding(nil), ng.AppendEncoding(nil)) {
		t.Errorf("the downgrading join changed the consumer group: %s", ng)
	}
	j := *d.Joining
	if j.ID != "s2" || !j.IsStableAt(2) || !j.AssignedPartitions.Equal(settled.TargetOf("k1")) || j.Classic.SyncTimer {
		t.Errorf("joining = %s, want s2 STABLE at 2 with k1's target and no timer", j)
	}
	if d := cmp.Diff(impl.JoinGroupResponse{MemberID: "s2", Generation: 2, ProtocolName: coop}, joinResp(t, out)); d != "" {
		t.Errorf("response (-want +got):\n%s", d)
	}
	// A changed subscription puts the group epoch ahead: the classic group rebalances, and the
	// joiner is not reconciled (generation 0).
	_, out, d = settled.ClassicJoinGroup(cjoin("", "i1", "", "t", "u"), "s2")
	if d == nil || !d.Rebalance || d.Joining.MemberEpoch != 0 || joinResp(t, out).Generation != 0 {
		t.Errorf("changed subscription: want a rebalancing downgrade at generation 0, got %+v", d)
	}
	// Not the last consumer-protocol member: an ordinary replacement.
	more, _ := step(t, settled, joinReq("b", "t"), "")
	if _, _, d := more.ClassicJoinGroup(cjoin("", "i1", "", "t"), "s2"); d != nil {
		t.Errorf("b still speaks the consumer protocol: no downgrade, got %+v", d)
	}
	if _, _, d := withPolicy(settled, MigrationUpgrade).ClassicJoinGroup(cjoin("", "i1", "", "t"), "s2"); d != nil {
		t.Errorf("policy upgrade: no downgrade, got %+v", d)
	}
	if _, _, d := withSize(settled, 1).ClassicJoinGroup(cjoin("", "i1", "", "t"), "s2"); d != nil {
		t.Errorf("two members beyond group.max.size 1: no downgrade, got %+v", d)
	}
	// A consumer group left with classic members only (a fence under policy upgrade): a static
	// classic join of an instance nobody holds replaces nobody and converts nothing.
	onlyClassic := withMemberOnly(t, settled, "c")
	if _, _, d := onlyClassic.ClassicJoinGroup(cjoin("", "i5", "", "t"), "s5"); d != nil {
		t.Errorf("new static classic member, no consumer-protocol member: no downgrade, got %+v", d)
	}
}

// Reference: GroupMetadataManager.scheduleConsumerGroupJoinTimeoutIfAbsent and
// scheduleConsumerGroupSyncTimeout: each fences the member when it fires (one bump); a timer
// that does not run is a no-op.
func TestClassicTimers(t *testing.T) {
	g := mixed(t, Config{}) // c: sync timer
	if d := cmp.Diff([]impl.MemberID{"c"}, g.ClassicSyncTimers()); d != "" || g.ClassicJoinTimers() != nil {
		t.Fatalf("timers: sync %v join %v", g.ClassicSyncTimers(), g.ClassicJoinTimers())
	}
	ng := g.ClassicSyncTimeoutExpired("c")
	if _, ok := ng.Member("c"); ok || ng.GroupEpoch() != 3 {
		t.Errorf("sync timeout: %s, want c fenced at epoch 3", ng)
	}
	for name, ng := range map[string]Group{
		"join timer not running":                g.ClassicJoinTimeoutExpired("c"),
		"consumer-protocol member":              g.ClassicSyncTimeoutExpired("a"),
		"consumer-protocol member's join timer": g.ClassicJoinTimeoutExpired("a"),
		"unknown member":                        g.ClassicSyncTimeoutExpired("zz"),
	} {
		if !cmp.Equal(g.AppendEncoding(nil), ng.AppendEncoding(nil)) {
			t.Errorf("%s: the group changed", name)
		}
	}
	synced, _ := g.ClassicSyncGroup(csync("c", 2))
	if synced.ClassicSyncTimers() != nil || !cmp.Equal(synced.AppendEncoding(nil), synced.ClassicSyncTimeoutExpired("c").AppendEncoding(nil)) {
		t.Errorf("after SyncGroup the sync timer is cancelled")
	}
	armed, _ := step(t, synced, hb("a", 1, nil), "")
	armed, _ = step(t, armed, hb("a", 1, owned("t-2 t-3")), "")
	armed, out := armed.ClassicHeartbeat(cbeat("c", 2))
	if beatCode(t, out) != impl.RebalanceInProgress || !cmp.Equal(armed.ClassicJoinTimers(), []impl.MemberID{"c"}) {
		t.Fatalf("join timer after REBALANCE_IN_PROGRESS: %v", armed.ClassicJoinTimers())
	}
	if ng := armed.ClassicJoinTimeoutExpired("c"); len(ng.Members()) != 1 || ng.GroupEpoch() != 3 {
		t.Errorf("join timeout: %s, want c fenced at epoch 3", ng)
	}
	rejoined, _ := classicStep(t, armed, cjoin("c", "", "", "t"), "")
	if rejoined.ClassicJoinTimers() != nil {
		t.Errorf("JoinGroup cancels the join timer: %s", rejoined)
	}
}

// Reference: ConsumerGroupMigrationPolicy (name, isUpgradeEnabled, isDowngradeEnabled) and the
// config's CaseInsensitiveValidString validator.
func TestMigrationPolicy(t *testing.T) {
	for _, tc := range []struct {
		name     string
		want     MigrationPolicy
		up, down bool
	}{
		{"bidirectional", MigrationBidirectional, true, true},
		{"UPGRADE", MigrationUpgrade, true, false},
		{"Downgrade", MigrationDowngrade, false, true},
		{"disabled", MigrationDisabled, false, false},
	} {
		p, err := ParseMigrationPolicy(tc.name)
		if err != nil || p != tc.want || p.UpgradeEnabled() != tc.up || p.DowngradeEnabled() != tc.down {
			t.Errorf("%s: %v %v up=%v down=%v", tc.name, p, err, p.UpgradeEnabled(), p.DowngradeEnabled())
		}
		if p.String() != map[MigrationPolicy]string{0: "bidirectional", 1: "upgrade", 2: "downgrade", 3: "disabled"}[p] {
			t.Errorf("String() = %q", p.String())
		}
	}
	if _, err := ParseMigrationPolicy("sideways"); err == nil || !strings.Contains(err.Error(), `"sideways"`) {
		t.Errorf("unknown policy: err = %v, want one naming it", err)
	}
	for _, p := range []MigrationPolicy{4, 9, -1} {
		if want := "MigrationPolicy(" + itoa(impl.Epoch(p)) + ")"; p.String() != want {
			t.Errorf("out-of-range String() = %q, want %q", p.String(), want)
		}
	}
	var zero Config
	if zero.MigrationPolicy != MigrationBidirectional {
		t.Errorf("the zero Config's policy is %s, want Kafka's default bidirectional", zero.MigrationPolicy)
	}
}

// A classic member encodes differently from the same member without classic metadata, each
// field of the metadata counts, and a consumer-protocol member encodes as before.
func TestClassicEncoding(t *testing.T) {
	g := mixed(t, Config{})
	c := member(t, g, "c")
	variants := map[string]Member{}
	plain := c
	plain.Classic = nil
	variants["no classic metadata"] = plain
	for name, f := range map[string]func(*ClassicMetadata){
		"join timer": func(m *ClassicMetadata) { m.JoinTimer = true },
		"sync timer": func(m *ClassicMetadata) { m.SyncTimer = false },
		"protocol": func(m *ClassicMetadata) {
			m.Protocols = []impl.GroupProtocol{{Name: "range", Metadata: m.Protocols[0].Metadata}}
		},
		"owned": func(m *ClassicMetadata) {
			m.Protocols = []impl.GroupProtocol{{Name: coop, Metadata: impl.NewSubscription(2, []string{"t"}, ps("t-0"), -1)}}
		},
		"generation": func(m *ClassicMetadata) {
			m.Protocols = []impl.GroupProtocol{{Name: coop, Metadata: impl.NewSubscription(2, []string{"t"}, ps(""), 4)}}
		},
		"no protocols": func(m *ClassicMetadata) { m.Protocols = nil },
	} {
		m := c
		cm := *c.Classic
		f(&cm)
		m.Classic = &cm
		variants[name] = m
	}
	id := func(b []byte, e impl.Epoch) []byte { return append(b, byte(e)) }
	for name, m := range variants {
		ng := g.withMember(m)
		if cmp.Equal(g.AppendEncoding(nil), ng.AppendEncoding(nil)) || cmp.Equal(g.AppendCanonical(nil, id), ng.AppendCanonical(nil, id)) {
			t.Errorf("%s: same encoding", name)
		}
	}
	a := member(t, g, "a")
	if tail := a.appendClassic(nil, id); len(tail) != 0 { // nothing after AssignedAt
		t.Errorf("a consumer-protocol member's encoding gained a tail: %v", tail)
	}
}
