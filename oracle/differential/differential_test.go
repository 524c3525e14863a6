package differential

import (
	"fmt"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"
	"github.com/groupcheck/groupcheck/impl"
)

var setComparer = cmp.Comparer(func(a, b impl.PartitionSet) bool { return a.Equal(b) })

func TestToSetErrors(t *testing.T) {
	cluster := impl.NewCluster(impl.TopicMetadata{Name: "t", Partitions: 2})
	for _, tc := range []struct {
		name string
		p    map[string][]int32
		in   bool // check against the cluster
		want string
	}{
		{"empty topic", map[string][]int32{"": {0}}, false, "empty topic name"},
		{"negative partition", map[string][]int32{"t": {0, -1}}, false, "negative partition t/-1"},
		{"duplicate partition", map[string][]int32{"t": {1, 1}}, false, "partition t/1 listed twice"},
		{"unknown topic", map[string][]int32{"u": {0}}, true, `unknown topic "u"`},
		{"beyond count", map[string][]int32{"t": {2}}, true, "partition t/2 beyond the topic's 2 partitions"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			var err error
			if tc.in {
				_, err = ToSetIn(tc.p, cluster)
			} else {
				_, err = ToSet(tc.p)
			}
			if err == nil || !strings.Contains(err.Error(), tc.want) {
				t.Fatalf("err = %v, want one containing %q", err, tc.want)
			}
		})
	}
}

func TestToSetFromSetRoundTrip(t *testing.T) {
	p := map[string][]int32{"b": {2, 0}, "a": {1}}
	s, err := ToSetIn(p, impl.NewCluster(impl.TopicMetadata{Name: "a", Partitions: 2}, impl.TopicMetadata{Name: "b", Partitions: 3}))
	if err != nil {
		t.Fatal(err)
	}
	if got := s.String(); got != "(a-1 b-0 b-2)" {
		t.Fatalf("set = %s", got)
	}
	want := map[string][]int32{"a": {1}, "b": {0, 2}}
	if d := cmp.Diff(want, FromSet(s)); d != "" {
		t.Fatalf("FromSet (-want +got):\n%s", d)
	}
	if got := FromSet(impl.PartitionSet{}); got == nil || len(got) != 0 {
		t.Fatalf("FromSet(empty) = %#v, want an empty non-nil map", got)
	}
}

func TestNewClusterErrors(t *testing.T) {
	if _, err := NewCluster(map[string]int32{"": 1}); err == nil || !strings.Contains(err.Error(), "empty topic") {
		t.Fatalf("empty name: %v", err)
	}
	if _, err := NewCluster(map[string]int32{"t": 0}); err == nil || !strings.Contains(err.Error(), `topic "t" has 0 partitions`) {
		t.Fatalf("zero partitions: %v", err)
	}
	c, err := NewCluster(map[string]int32{"u": 1, "t": 3})
	if err != nil || c.PartitionCount("t") != 3 || c.Topics[0].Name != "t" {
		t.Fatalf("cluster = %+v, %v", c, err)
	}
}

func TestParseError(t *testing.T) {
	for name, want := range map[string]impl.ErrorCode{"": impl.None, "NONE": impl.None,
		"ILLEGAL_GENERATION": impl.IllegalGeneration, "FENCED_MEMBER_EPOCH": impl.FencedMemberEpoch} {
		got, err := ParseError(name)
		if err != nil || got != want {
			t.Errorf("ParseError(%q) = %v, %v; want %v", name, got, err, want)
		}
	}
	if _, err := ParseError("context deadline exceeded"); err == nil {
		t.Error("an unknown name must be an error, not a success")
	}
	if ErrorName(impl.None) != "" || ErrorName(impl.RebalanceInProgress) != "REBALANCE_IN_PROGRESS" {
		t.Error("ErrorName")
	}
}

// Source: docs/protocol.md §2.2 (which subscription version carries which field).
func TestMemberSubscription(t *testing.T) {
	for _, tc := range []struct {
		name string
		m    Member
		want string // error substring, or the subscription's owned set and generation
	}{
		{"v2 carries owned and generation", Member{ID: "a", Version: 2, Topics: []string{"t"}, Owned: map[string][]int32{"t": {1}}, Generation: 4}, "(t-1) gen 4"},
		{"v1 has no generation field", Member{ID: "a", Version: 1, Topics: []string{"t"}, Owned: map[string][]int32{"t": {1}}, Generation: 4}, "(t-1) gen -1"},
		{"v0 cannot carry owned", Member{ID: "a", Version: 0, Topics: []string{"t"}, Owned: map[string][]int32{"t": {1}}}, "version 0 subscription cannot carry owned partitions (t-1)"},
		{"unknown version", Member{ID: "a", Version: 3, Topics: []string{"t"}}, "version 3 outside 0..2"},
		{"topic twice", Member{ID: "a", Version: 1, Topics: []string{"t", "t"}}, `topic "t" listed twice`},
		{"bad owned", Member{ID: "a", Version: 1, Topics: []string{"t"}, Owned: map[string][]int32{"t": {-2}}}, "owned: partition map: negative partition t/-2"},
		{"bad user data", Member{ID: "a", Version: 1, Topics: []string{"t"}, UserData: &UserData{Previous: map[string][]int32{"t": {0, 0}}}}, "user data: partition map: partition t/0 listed twice"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			s, err := tc.m.Subscription()
			got := ""
			if err != nil {
				got = err.Error()
			} else {
				got = fmt.Sprintf("%s gen %d", s.OwnedPartitions, s.Generation)
			}
			if !strings.Contains(got, tc.want) {
				t.Fatalf("got %q, want %q", got, tc.want)
			}
		})
	}
}

func TestJoinGroupMembers(t *testing.T) {
	if _, err := JoinGroupMembers([]Member{{ID: "a", Topics: []string{"t"}}, {ID: "a", Topics: []string{"t"}}}); err == nil || !strings.Contains(err.Error(), `member "a" listed twice`) {
		t.Fatalf("duplicate: %v", err)
	}
	if _, err := (Member{Topics: []string{"t"}}).JoinGroupMember(); err == nil {
		t.Fatal("a member without id must be refused")
	}
	m := Member{ID: "a", InstanceID: "i", Version: 2, Topics: []string{"t"}, Owned: map[string][]int32{"t": {0}},
		Generation: 3, UserData: &UserData{Previous: map[string][]int32{"t": {0}}, Generation: 3}}
	j, err := m.JoinGroupMember()
	if err != nil {
		t.Fatal(err)
	}
	if d := cmp.Diff(m, FromJoinGroupMember(j)); d != "" {
		t.Fatalf("round trip (-want +got):\n%s", d)
	}
}

func TestResponsesRoundTrip(t *testing.T) {
	a := impl.NewPartitionSet(impl.TP("t", 0), impl.TP("t", 2))
	sub := impl.NewSubscription(2, []string{"t"}, a, 5)
	sub.UserData = impl.UserData{Generation: impl.NoGeneration}
	jg := impl.JoinGroupResponse{Error: impl.None, Generation: 6, ProtocolName: "cooperative-sticky", Leader: "a",
		MemberID: "a", Members: []impl.JoinGroupMember{{MemberID: "a", Metadata: sub}}}
	back, err := FromJoinGroupResponse(jg).Impl()
	if err != nil {
		t.Fatal(err)
	}
	if d := cmp.Diff(jg, back, setComparer); d != "" {
		t.Errorf("JoinGroup (-want +got):\n%s", d)
	}
	sg := impl.SyncGroupResponse{ProtocolName: "range", Assignment: impl.Assignment{Partitions: a}}
	sback, err := FromSyncGroupResponse(sg).Impl()
	if err != nil || !sback.Assignment.Equal(sg.Assignment) {
		t.Errorf("SyncGroup round trip: %+v, %v", sback, err)
	}
	for _, asg := range []*impl.PartitionSet{nil, &impl.PartitionSet{}, &a} {
		hb := impl.ConsumerGroupHeartbeatResponse{MemberID: "m", MemberEpoch: 3, Assignment: asg}
		hback, err := FromHeartbeatResponse(hb).Impl()
		if err != nil {
			t.Fatal(err)
		}
		if d := cmp.Diff(hb, hback, setComparer); d != "" {
			t.Errorf("heartbeat with assignment %v (-want +got):\n%s", asg, d)
		}
	}
	for _, bad := range []func() error{
		func() error { _, err := (JoinGroupResponse{Error: "NOPE"}).Impl(); return err },
		func() error {
			_, err := (JoinGroupResponse{Members: []Member{{ID: "a"}, {ID: "a"}}}).Impl()
			return err
		},
		func() error { _, err := (SyncGroupResponse{Error: "NOPE"}).Impl(); return err },
		func() error {
			_, err := (SyncGroupResponse{Assignment: map[string][]int32{"t": {-1}}}).Impl()
			return err
		},
		func() error { _, err := (HeartbeatResponse{Error: "NOPE"}).Impl(); return err },
		func() error {
			_, err := (HeartbeatResponse{Assignment: map[string][]int32{"": {0}}}).Impl()
			return err
		},
	} {
		if bad() == nil {
			t.Error("bad response accepted")
		}
	}
}

// A third member joins a converged cooperative group. Source: traces/scenarios/
// cooperative-join-kafka.trace and docs/protocol.md §2.5: Kafka's cooperative-sticky withholds the
// partition that moves (nobody gets it this round); the KIP variant's plan withholds it too and
// sets NEEDS_REJOIN (KIP-429 §2.6).
func TestLeadCooperativeJoin(t *testing.T) {
	res, err := Lead(Round{
		Assignor: "cooperative-sticky",
		Cluster:  map[string]int32{"t": 3},
		Members: []Member{
			{ID: "a", Version: 2, Topics: []string{"t"}, Owned: map[string][]int32{"t": {0, 1}}, Generation: 1},
			{ID: "b", Version: 2, Topics: []string{"t"}, Owned: map[string][]int32{"t": {2}}, Generation: 1},
			{ID: "c", Version: 2, Topics: []string{"t"}, Generation: -1},
		},
	})
	if err != nil {
		t.Fatal(err)
	}
	if res.Failed != "" {
		t.Fatalf("leader failed: %s", res.Failed)
	}
	moved := res.Revoke["a"]
	if len(moved["t"]) != 1 {
		t.Fatalf("a must revoke exactly one partition, revokes %v (assignments %v)", moved, res.Assignments)
	}
	if d := DiffParts(map[string][]int32{}, res.Add["c"]); d != "" {
		t.Errorf("c must get nothing in the first round (withheld):\n%s", d)
	}
	if res.Plan == nil || !res.Plan.NeedsRejoin {
		t.Fatalf("the KIP variant's plan must withhold and set NEEDS_REJOIN: %+v", res.Plan)
	}
	if d := DiffParts(moved, res.Plan.Withheld); d != "" {
		t.Errorf("plan withholds something else than what Kafka revokes (-kafka +plan):\n%s", d)
	}
	if d := DiffParts(map[string][]int32{"t": {0, 1, 2}}, res.Plan.MaybeRevoking); d != "" {
		t.Errorf("maybe-revoking:\n%s", d)
	}
}

func TestLeadEagerHasNoPlan(t *testing.T) {
	res, err := Lead(Round{Assignor: "range", Cluster: map[string]int32{"t": 3},
		Members: []Member{{ID: "b", Topics: []string{"t"}}, {ID: "a", Topics: []string{"t"}}}})
	if err != nil {
		t.Fatal(err)
	}
	// Range: the first member in id order gets the extra partition (docs/protocol.md §2.4).
	want := map[string]map[string][]int32{"a": {"t": {0, 1}}, "b": {"t": {2}}}
	if d := DiffAssignments(want, res.Assignments); d != "" || res.Plan != nil {
		t.Fatalf("range (-want +got):\n%s plan %v", d, res.Plan)
	}
}

func TestLeadErrors(t *testing.T) {
	ok := []Member{{ID: "a", Topics: []string{"t"}}}
	for _, tc := range []struct {
		r    Round
		want string
	}{
		{Round{Assignor: "best", Cluster: map[string]int32{"t": 1}, Members: ok}, `unknown assignor "best"`},
		{Round{Assignor: "range", Cluster: map[string]int32{"t": -1}, Members: ok}, "has -1 partitions"},
		{Round{Assignor: "range", Cluster: map[string]int32{"t": 1}}, "no members"},
		{Round{Assignor: "range", Cluster: map[string]int32{"t": 1}, Members: append(ok, ok...)}, `member "a" listed twice`},
	} {
		if _, err := Lead(tc.r); err == nil || !strings.Contains(err.Error(), tc.want) {
			t.Errorf("Lead(%+v) err = %v, want %q", tc.r, err, tc.want)
		}
	}
}

// Source: docs/protocol.md §3.4 (CurrentAssignmentBuilder): revoke at the old epoch, then move to
// the target epoch once the revocation is acknowledged; a partition another member holds
// is unreleased.
func TestReconcile(t *testing.T) {
	base := ReconcileInput{MemberEpoch: 1, Assigned: map[string][]int32{"t": {0, 1}},
		SubscribedTopics: []string{"t"}, TargetEpoch: 2, Target: map[string][]int32{"t": {0, 2}},
		Owned: map[string][]int32{"t": {0, 1}}, HeldByOthers: map[string][]int32{"t": {2}}}
	got, err := Reconcile(base)
	if err != nil {
		t.Fatal(err)
	}
	want := ReconcileResult{State: StateUnrevokedPartitions, MemberEpoch: 1,
		Assigned: map[string][]int32{"t": {0}}, PendingRevocation: map[string][]int32{"t": {1}}}
	if d := DiffReconcile(want, got); d != "" {
		t.Fatalf("revoke step (-want +got):\n%s", d)
	}
	ack := base
	ack.State, ack.Assigned, ack.PendingRevocation = got.State, got.Assigned, got.PendingRevocation
	ack.Owned = map[string][]int32{"t": {0}}
	got, err = Reconcile(ack)
	if err != nil {
		t.Fatal(err)
	}
	want = ReconcileResult{State: StateUnreleasedPartitions, MemberEpoch: 2, Assigned: map[string][]int32{"t": {0}}}
	if d := DiffReconcile(want, got); d != "" {
		t.Fatalf("acknowledged, t-2 still held (-want +got):\n%s", d)
	}
	ack.State, ack.MemberEpoch, ack.Assigned, ack.PendingRevocation, ack.HeldByOthers = got.State, 2, got.Assigned, nil, nil
	got, err = Reconcile(ack)
	if err != nil {
		t.Fatal(err)
	}
	want = ReconcileResult{MemberEpoch: 2, Assigned: map[string][]int32{"t": {0, 2}}}
	if d := DiffReconcile(want, got); d != "" {
		t.Fatalf("released (-want +got):\n%s", d)
	}
}

func TestReconcileErrors(t *testing.T) {
	for _, tc := range []struct {
		in   ReconcileInput
		want string
	}{
		{ReconcileInput{State: "REVOKING"}, `unknown member state "REVOKING"`},
		{ReconcileInput{Assigned: map[string][]int32{"t": {0}}, PendingRevocation: map[string][]int32{"t": {0}}}, "(t-0) both assigned and pending revocation"},
		{ReconcileInput{Target: map[string][]int32{"t": {-1}}}, "target: partition map: negative"},
		{ReconcileInput{Owned: map[string][]int32{"t": {1, 1}}}, "owned: partition map"},
		{ReconcileInput{SubscribedTopics: []string{""}}, "empty topic name"},
	} {
		if _, err := Reconcile(tc.in); err == nil || !strings.Contains(err.Error(), tc.want) {
			t.Errorf("err = %v, want %q", err, tc.want)
		}
	}
}

// Source: docs/protocol.md §3.3 step 5 (range: contiguous ranges in member id order; uniform: sticky
// to the previous target).
func TestServerAssign(t *testing.T) {
	ms := []ServerMember{{ID: "b", Topics: []string{"t"}}, {ID: "a", Topics: []string{"t"}}}
	got, err := ServerAssign("range", map[string]int32{"t": 3}, ms, nil)
	if err != nil {
		t.Fatal(err)
	}
	if d := DiffAssignments(map[string]map[string][]int32{"a": {"t": {0, 1}}, "b": {"t": {2}}}, got); d != "" {
		t.Errorf("range (-want +got):\n%s", d)
	}
	prev := map[string]map[string][]int32{"b": {"t": {0, 1}}, "a": {"t": {2}}}
	got, err = ServerAssign("uniform", map[string]int32{"t": 3}, ms, prev)
	if err != nil {
		t.Fatal(err)
	}
	if d := DiffAssignments(prev, got); d != "" {
		t.Errorf("uniform is sticky to a balanced previous target (-want +got):\n%s", d)
	}
	for _, bad := range []func() error{
		func() error { _, err := ServerAssign("sticky", map[string]int32{"t": 1}, ms, nil); return err },
		func() error { _, err := ServerAssign("range", map[string]int32{"t": 0}, ms, nil); return err },
		func() error {
			_, err := ServerAssign("range", map[string]int32{"t": 1}, append(ms, ms[0]), nil)
			return err
		},
		func() error {
			_, err := ServerAssign("range", map[string]int32{"t": 1}, []ServerMember{{ID: "a", Topics: []string{""}}}, nil)
			return err
		},
		func() error {
			_, err := ServerAssign("range", map[string]int32{"t": 1}, ms, map[string]map[string][]int32{"a": {"t": {-1}}})
			return err
		},
	} {
		if bad() == nil {
			t.Error("bad server-assignor input accepted")
		}
	}
}

func TestDiffsNormalize(t *testing.T) {
	if d := DiffParts(map[string][]int32{"t": {1, 0}, "u": nil}, map[string][]int32{"t": {0, 1}}); d != "" {
		t.Errorf("order and empty topics must not matter:\n%s", d)
	}
	if d := DiffParts(map[string][]int32{"t": {0}}, map[string][]int32{"t": {1}}); d == "" {
		t.Error("a different partition must be reported")
	}
	if d := DiffAssignments(map[string]map[string][]int32{"a": {"t": {0}}, "b": {}}, map[string]map[string][]int32{"a": {"t": {0}}}); d != "" {
		t.Errorf("a missing member is assigned nothing:\n%s", d)
	}
	if d := DiffAssignments(map[string]map[string][]int32{"a": {"t": {0}}}, map[string]map[string][]int32{"b": {"t": {0}}}); d == "" {
		t.Error("a partition given to another member must be reported")
	}
	if d := DiffReconcile(ReconcileResult{State: "", Assigned: nil}, ReconcileResult{State: StateStable, Assigned: map[string][]int32{}}); d != "" {
		t.Errorf("stable and empty normalize:\n%s", d)
	}
}

// A client's own cooperative assignor output checked with the KIP variant's plan and Kafka's
// validation. Source: KIP-429 §2.6 (a partition moving between members is withheld);
// docs/protocol.md §2.4 step 4 (an assignment that moves a partition in one round is invalid).
func TestPlanForAndValidateCooperative(t *testing.T) {
	members := []Member{
		{ID: "a", Version: 2, Topics: []string{"t"}, Owned: map[string][]int32{"t": {0, 1}}, Generation: 1},
		{ID: "b", Version: 2, Topics: []string{"t"}, Generation: -1},
	}
	moves := map[string]map[string][]int32{"a": {"t": {0}}, "b": {"t": {1}}}
	p, err := PlanFor(members, moves)
	if err != nil {
		t.Fatal(err)
	}
	if d := DiffParts(map[string][]int32{"t": {1}}, p.Withheld); d != "" || !p.NeedsRejoin {
		t.Errorf("withheld (-want +got):\n%s needs rejoin %t", d, p.NeedsRejoin)
	}
	if d := DiffAssignments(map[string]map[string][]int32{"a": {"t": {0}}, "b": {}}, p.Final); d != "" {
		t.Errorf("final (-want +got):\n%s", d)
	}
	bad, err := ValidateCooperative(members, moves)
	if err != nil {
		t.Fatal(err)
	}
	if d := DiffParts(map[string][]int32{"t": {1}}, bad); d != "" {
		t.Errorf("validation (-want +got):\n%s", d)
	}
	if bad, _ := ValidateCooperative(members, map[string]map[string][]int32{"a": {"t": {0, 1}}}); len(bad) != 0 {
		t.Errorf("a sticky assignment is valid, got %v", bad)
	}
	for _, tc := range []struct {
		assigned map[string]map[string][]int32
		want     string
	}{
		{map[string]map[string][]int32{"c": {"t": {0}}}, `assignment for "c", which is not a member`},
		{map[string]map[string][]int32{"": {"t": {0}}}, "empty member id"},
		{map[string]map[string][]int32{"a": {"t": {-1}}}, `assignment of "a": partition map: negative`},
	} {
		if _, err := PlanFor(members, tc.assigned); err == nil || !strings.Contains(err.Error(), tc.want) {
			t.Errorf("PlanFor err = %v, want %q", err, tc.want)
		}
		if _, err := ValidateCooperative(members, tc.assigned); err == nil {
			t.Errorf("ValidateCooperative accepted %v", tc.assigned)
		}
	}
	if _, err := PlanFor(append(members, members[0]), moves); err == nil {
		t.Error("duplicate members accepted")
	}
	as, err := MemberAssignments(moves)
	if err != nil || DiffAssignments(moves, FromMemberAssignments(as)) != "" {
		t.Errorf("round trip: %v %v", as, err)
	}
}
