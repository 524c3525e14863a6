package kip848

import (
	"testing"

	"github.com/google/go-cmp/cmp"
	"github.com/groupcheck/groupcheck/impl"
)

// Reference: GroupMetadataManager.classicGroupJoinToConsumerGroup (apache/kafka
// group-coordinator 4.4.0): a classic member joining a consumer group bumps the group epoch,
// the server assignor computes the target and the member reconciles at once; the response's
// generation is the member epoch, with no leader and no member list. No rebalance timer is
// armed for it (maybeReconcile arms one for consumer-protocol members only); the sync timer is.
func TestClassicJoinNewMember(t *testing.T) {
	g := mixed(t, Config{})
	c := member(t, g, "c")
	if g.GroupEpoch() != 2 || g.AssignmentEpoch() != 2 || !g.TargetOf("c").Equal(ps("t-0 t-1")) {
		t.Errorf("group = %s, want epoch 2 with target c:(t-0 t-1)", g)
	}
	if c.State != UnreleasedPartitions || c.MemberEpoch != 2 || !c.AssignedPartitions.IsEmpty() {
		t.Errorf("c = %s, want UNRELEASED_PARTITIONS at 2 holding nothing (a still holds its target)", c)
	}
	if c.RebalanceTimer.Armed || !c.Classic.SyncTimer || c.Classic.JoinTimer {
		t.Errorf("c = %s, want the sync timer alone", c)
	}
	if d := cmp.Diff([]impl.GroupProtocol{cjoin("c", "", "", "t").Protocols[0]}, c.Classic.Protocols, cmpOpts); d != "" {
		t.Errorf("supported protocols (-want +got):\n%s", d)
	}
	_, out, _ := g.ClassicJoinGroup(cjoin("c", "", "", "t"), "")
	want := impl.JoinGroupResponse{MemberID: "c", Generation: 2, ProtocolName: coop}
	if d := cmp.Diff(want, joinResp(t, out)); d != "" {
		t.Errorf("rejoin response (-want +got):\n%s", d)
	}
	if out[0].To != 3 {
		t.Errorf("reply to conn %d, want 3", out[0].To)
	}
	// The same subscription again: no bump.
	if ng, _ := classicStep(t, g, cjoin("c", "", "", "t"), ""); ng.GroupEpoch() != 2 {
		t.Errorf("unchanged rejoin bumped the group epoch: %s", ng)
	}
}

// Reference: classicGroupJoinToConsumerGroup: the owned partitions of the subscription are the
// member's acknowledgement — a cooperative member that no longer lists a revoked partition
// moves on (CurrentAssignmentBuilder, UNREVOKED_PARTITIONS), one that still lists it stays.
func TestClassicJoinOwnedPartitionsAcknowledge(t *testing.T) {
	// c holds t-0 t-1 at epoch 2; b joins, the target takes t-1 from c.
	g := settledMixed(t)
	g, _ = step(t, g, joinReq("b", "t"), "")
	g, out := g.ClassicHeartbeat(cbeat("c", 2))
	if beatCode(t, out) != impl.RebalanceInProgress {
		t.Fatalf("c behind the assignment epoch: want REBALANCE_IN_PROGRESS")
	}
	still, _ := classicStep(t, g, cjoin("c", "", "t-0 t-1", "t"), "")
	c := member(t, still, "c")
	if c.State != UnrevokedPartitions || c.PartitionsPendingRevocation.IsEmpty() || c.MemberEpoch != 2 {
		t.Fatalf("c = %s, want UNREVOKED_PARTITIONS at 2", c)
	}
	if c.Classic.JoinTimer || !c.Classic.SyncTimer {
		t.Errorf("c = %s: the join cancels the join timer and arms the sync timer", c)
	}
	ack := cjoin("c", "", "", "t")
	ack.Protocols[0].Metadata.OwnedPartitions = c.AssignedPartitions
	acked, _ := classicStep(t, still, ack, "")
	if a := member(t, acked, "c"); a.State == UnrevokedPartitions || !a.PartitionsPendingRevocation.IsEmpty() || a.MemberEpoch != 3 {
		t.Errorf("after the acknowledgement c = %s, want at epoch 3 with nothing pending", a)
	}
}

// settledMixed: a (consumer protocol) holds t-2 t-3, c (classic) t-0 t-1, both STABLE at 2.
func settledMixed(t *testing.T) Group {
	t.Helper()
	g := mixed(t, Config{})
	g, _ = step(t, g, hb("a", 1, nil), "")
	g, _ = step(t, g, hb("a", 1, owned("t-2 t-3")), "")
	g, _ = classicStep(t, g, cjoin("c", "", "", "t"), "")
	if c := member(t, g, "c"); !c.IsStableAt(2) || !c.AssignedPartitions.Equal(ps("t-0 t-1")) {
		t.Fatalf("c = %s, want STABLE at 2 with t-0 t-1", c)
	}
	return g
}

func TestClassicJoinRefusals(t *testing.T) {
	g := mixed(t, Config{})
	full := mixed(t, Config{MaxSize: 2})
	other := cjoin("d", "", "", "t")
	other.Protocols[0].Name = "range"
	both := cjoin("d", "", "", "t")
	both.Protocols = append([]impl.GroupProtocol{other.Protocols[0]}, both.Protocols...)
	noID := cjoin("", "", "", "t")
	v4NoID := noID
	v4NoID.Version = 4
	oldNoID := noID
	oldNoID.Version = 3
	static := settledStatic(t)
	for _, tc := range []struct {
		name   string
		g      Group
		req    impl.JoinGroupRequest
		want   impl.ErrorCode
		wantID impl.MemberID
	}{
		// Reference: GroupMetadataManager.throwIfClassicMemberCannotJoinConsumerGroup.
		{"policy disabled", withPolicy(g, MigrationDisabled), cjoin("c", "", "", "t"), impl.InconsistentGroupProtocol, "c"},
		// Reference: GroupMetadataManager.throwIfConsumerGroupIsFull.
		{"group full", full, cjoin("d", "", "", "t"), impl.GroupMaxSizeReached, "d"},
		// Reference: ConsumerGroup.supportsClassicProtocols: c supports only cooperative-sticky.
		{"protocol no classic member supports", g, other, impl.InconsistentGroupProtocol, "d"},
		{"no protocol at all", g, impl.JoinGroupRequest{MemberID: "d", Version: 9}, impl.InconsistentGroupProtocol, "d"},
		// Reference: JoinGroupRequest.requiresKnownMemberId (KIP-394): v4+ dynamic without id.
		{"member id required", g, noID, impl.MemberIDRequired, "fresh"},
		{"member id required from v4", g, v4NoID, impl.MemberIDRequired, "fresh"},
		// Reference: getOrMaybeSubscribeStaticConsumerGroupMember → throwIfStaticMemberIsUnknown.
		{"static with id, instance not held", g, cjoin("d", "i9", "", "t"), impl.UnknownMemberID, "d"},
		// Reference: … → throwIfInstanceIdIsFenced.
		{"static with another member's id", static, cjoin("zz", "i1", "", "t"), impl.FencedInstanceID, "zz"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			ng, out, d := tc.g.ClassicJoinGroup(tc.req, "fresh")
			r := joinResp(t, out)
			if r.Error != tc.want || r.MemberID != tc.wantID || d != nil {
				t.Errorf("got %s for %q (downgrade %v), want %s for %q", r.Error, r.MemberID, d, tc.want, tc.wantID)
			}
			if !cmp.Equal(tc.g.AppendEncoding(nil), ng.AppendEncoding(nil)) {
				t.Errorf("a refused join changed the group: %s", ng)
			}
		})
	}
	// The accepted neighbours of the refusals.
	for name, tc := range map[string]struct {
		g   Group
		req impl.JoinGroupRequest
	}{
		"a member of a full group rejoins":          {full, cjoin("c", "", "", "t")},
		"a protocol every classic member supports":  {g, both},
		"v3 without member id":                      {g, oldNoID},
		"the static holder with its own id":         {static, cjoin("s1", "i1", "", "t")},
		"policy upgrade still admits classic joins": {mixed(t, Config{MigrationPolicy: MigrationUpgrade}), cjoin("c", "", "", "t")},
	} {
		t.Run(name, func(t *testing.T) { classicStep(t, tc.g, tc.req, "fresh") })
	}
}

// withPolicy is the group under another migration policy, as after a broker restart with a
// changed group.consumer.migration.policy.
func withPolicy(g Group, p MigrationPolicy) Group {
	g.cfg.MigrationPolicy = p
	return g
}

// settledStatic: consumer-protocol member a, classic static member s1 (instance i1).
func settledStatic(t *testing.T) Group {
	t.Helper()
	g := New(Config{}, cluster)
	g, _ = step(t, g, joinReq("a", "t"), "")
	g, _ = classicStep(t, g, cjoin("", "i1", "", "t"), "s1")
	return g
}

// Reference: getOrMaybeSubscribeStaticConsumerGroupMember with useClassicProtocol: a static
// classic join without member id replaces the holder — whatever its epoch, never
// UNRELEASED_INSTANCE_ID — under the new id with epochs reset to 0, taking over its target.
func TestClassicStaticReplacement(t *testing.T) {
	g := settledStatic(t)
	old := member(t, g, "s1")
	target := g.TargetOf("s1")
	ng, r := classicStep(t, g, cjoin("", "i1", "", "t"), "s2")
	if _, ok := ng.Member("s1"); ok {
		t.Errorf("replaced member s1 still present: %s", ng)
	}
	s2 := member(t, ng, "s2")
	if s2.InstanceID != "i1" || !ng.TargetOf("s2").Equal(target) || r.MemberID != "s2" {
		t.Errorf("s2 = %s target %s, want instance i1 with s1's target %s", s2, ng.TargetOf("s2"), target)
	}
	if ng.GroupEpoch() != g.GroupEpoch() {
		t.Errorf("a replacement with the same subscription bumped the epoch: %s", ng)
	}
	if old.MemberEpoch == 0 {
		t.Fatalf("setup: s1 at epoch 0")
	}
	// Reference: the consumer protocol's own replacement skips throwIfInstanceIdIsUnreleased for
	// a classic holder: a KIP-848 static join takes over i1 from the classic s1 (epoch ≠ -2).
	cg, out := g.Heartbeat(staticJoin("", "i1", "t"), "k1")
	if r := resp(t, out); r.Error != impl.None || r.MemberID != "k1" {
		t.Fatalf("consumer-protocol replacement of a classic holder: %+v", r)
	}
	if k := member(t, cg, "k1"); k.UsesClassicProtocol() {
		t.Errorf("k1 = %s: a consumer-protocol heartbeat clears the classic metadata", k)
	}
	// Against a consumer-protocol holder the old rule stands.
	kg, _ := step(t, New(Config{}, cluster), staticJoin("", "i1", "t"), "k1")
	if _, out := kg.Heartbeat(staticJoin("", "i1", "t"), "k2"); resp(t, out).Error != impl.UnreleasedInstanceID {
		t.Errorf("consumer-protocol holder at epoch ≠ -2: want UNRELEASED_INSTANCE_ID")
	}
}

// Reference: GroupMetadataManager.classicGroupSyncToConsumerGroup.
func TestClassicSyncGroup(t *testing.T) {
	g := settledMixed(t)
	behind, _ := step(t, g, joinReq("b", "t"), "") // assignment epoch 3, c still at 2 and STABLE
	revoking, _ := classicStep(t, behind, cjoin("c", "", "t-0 t-1", "t"), "")
	wrongName := csync("c", 2)
	wrongName.ProtocolName = "range"
	noName := csync("c", 2)
	noName.ProtocolName = ""
	for _, tc := range []struct {
		name      string
		g         Group
		req       impl.SyncGroupRequest
		want      impl.ErrorCode
		assigned  impl.PartitionSet
		joinTimer bool
	}{
		{"success: the reconciled assignment", g, csync("c", 2), impl.None, ps("t-0 t-1"), false},
		{"no protocol name given", g, noName, impl.None, ps("t-0 t-1"), false},
		// validateConsumerGroupMember.
		{"unknown member", g, csync("zz", 2), impl.UnknownMemberID, ps(""), false},
		// throwIfMemberDoesNotUseClassicProtocol.
		{"consumer-protocol member", g, csync("a", 2), impl.UnknownMemberID, ps(""), false},
		// throwIfGenerationIdUnmatched.
		{"generation below the member epoch", g, csync("c", 1), impl.IllegalGeneration, ps(""), false},
		{"generation above the member epoch", g, csync("c", 3), impl.IllegalGeneration, ps(""), false},
		// throwIfClassicProtocolUnmatched.
		{"another protocol name", g, wrongName, impl.InconsistentGroupProtocol, ps(""), false},
		// throwIfRebalanceInProgress: behind and not revoking → rejoin, join timer armed.
		{"behind the assignment epoch", behind, csync("c", 2), impl.RebalanceInProgress, ps(""), true},
		// … but a revoking member gets what it keeps.
		{"revoking: the partitions it keeps", revoking, csync("c", 2), impl.None, member(t, revoking, "c").AssignedPartitions, false},
	} {
		t.Run(tc.name, func(t *testing.T) {
			ng, out := tc.g.ClassicSyncGroup(tc.req)
			r := syncResp(t, out)
			if r.Error != tc.want || !r.Assignment.Partitions.Equal(tc.assigned) {
				t.Errorf("got %s %s, want %s %s", r.Error, r.Assignment.Partitions, tc.want, tc.assigned)
			}
			if tc.want == impl.None {
				if r.ProtocolName != tc.req.ProtocolName || member(t, ng, "c").Classic.SyncTimer {
					t.Errorf("success: protocol %q (want %q echoed), sync timer must be cancelled: %s", r.ProtocolName, tc.req.ProtocolName, ng)
				}
				return
			}
			if m, ok := ng.Member("c"); ok && m.Classic.JoinTimer != tc.joinTimer {
				t.Errorf("join timer = %v, want %v", m.Classic.JoinTimer, tc.joinTimer)
			}
			if !tc.joinTimer && !cmp.Equal(tc.g.AppendEncoding(nil), ng.AppendEncoding(nil)) {
				t.Errorf("a refused sync changed the group")
			}
		})
	}
}

// Reference: GroupMetadataManager.classicGroupHeartbeatToConsumerGroup: REBALANCE_IN_PROGRESS
// when the member must run another round — behind the assignment epoch, revoking, or waiting
// for partitions that are all free by now; NONE while it waits for a partition still held.
func TestClassicHeartbeat(t *testing.T) {
	waiting := mixed(t, Config{}) // c UNRELEASED at 2, a holds c's target
	released, _ := step(t, waiting, hb("a", 1, nil), "")
	released, _ = step(t, released, hb("a", 1, owned("t-2 t-3")), "")
	settled := settledMixed(t)
	behind, _ := step(t, settled, joinReq("b", "t"), "")
	revoking, _ := classicStep(t, behind, cjoin("c", "", "t-0 t-1", "t"), "")
	armed, _ := behind.ClassicHeartbeat(cbeat("c", 2))
	static := settledStatic(t)
	for _, tc := range []struct {
		name string
		g    Group
		req  impl.HeartbeatRequest
		want impl.ErrorCode
	}{
		{"stable", settled, cbeat("c", 2), impl.None},
		{"waiting on a partition still held", waiting, cbeat("c", 2), impl.None},
		{"waiting, all released", released, cbeat("c", 2), impl.RebalanceInProgress},
		{"behind the assignment epoch", behind, cbeat("c", 2), impl.RebalanceInProgress},
		{"revoking", revoking, cbeat("c", 2), impl.RebalanceInProgress},
		{"join timer already armed", armed, cbeat("c", 2), impl.RebalanceInProgress},
		{"unknown member", settled, cbeat("zz", 2), impl.UnknownMemberID},
		{"consumer-protocol member", settled, cbeat("a", 2), impl.UnknownMemberID},
		{"wrong generation", settled, cbeat("c", 1), impl.IllegalGeneration},
		{"static: not the holder", static, impl.HeartbeatRequest{MemberID: "zz", InstanceID: "i1", Generation: 2}, impl.FencedInstanceID},
		{"static: instance not held", static, impl.HeartbeatRequest{MemberID: "s1", InstanceID: "i9", Generation: 2}, impl.UnknownMemberID},
		{"static: the holder", static, impl.HeartbeatRequest{MemberID: "s1", InstanceID: "i1", Generation: impl.Generation(member(t, static, "s1").MemberEpoch)}, impl.None},
	} {
		t.Run(tc.name, func(t *testing.T) {
			ng, out := tc.g.ClassicHeartbeat(tc.req)
			if got := beatCode(t, out); got != tc.want {
				t.Fatalf("got %s, want %s", got, tc.want)
			}
			m, ok := ng.Member(tc.req.MemberID)
			if tc.want == impl.RebalanceInProgress && !m.Classic.JoinTimer {
				t.Errorf("REBALANCE_IN_PROGRESS must arm the join timer: %s", ng)
			}
			if tc.want != impl.RebalanceInProgress && !cmp.Equal(tc.g.AppendEncoding(nil), ng.AppendEncoding(nil)) {
				t.Errorf("heartbeat changed the group (%v): %s", ok, ng)
			}
		})
	}
	if !cmp.Equal(armed.AppendEncoding(nil), func() []byte { g, _ := armed.ClassicHeartbeat(cbeat("c", 2)); return g.AppendEncoding(nil) }()) {
		t.Errorf("an armed join timer is not re-armed (scheduleIfAbsent)")
	}
}

// Reference: ConsumerGroup.validateOffsetCommit: a classic member's refused commit is
// ILLEGAL_GENERATION, a consumer-protocol member's STALE_MEMBER_EPOCH.
func TestClassicOffsetCommit(t *testing.T) {
	g := settledMixed(t) // a, c at 2
	for _, tc := range []struct {
		id   impl.MemberID
		gen  impl.Generation
		want impl.ErrorCode
	}{
		{"c", 2, impl.None},
		{"c", 3, impl.IllegalGeneration},
		{"c", 1, impl.IllegalGeneration},
		{"a", 3, impl.StaleMemberEpoch},
		{"zz", 2, impl.UnknownMemberID},
	} {
		_, out := g.ClassicOffsetCommit(impl.OffsetCommitRequest{Conn: 7, MemberID: tc.id, Generation: tc.gen, Partitions: ps("t-0")})
		if got := out[0].Response.Code(); got != tc.want || out[0].To != 7 {
			t.Errorf("%s at %d: %s, want %s", tc.id, tc.gen, got, tc.want)
		}
	}
}
