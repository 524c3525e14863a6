package harness

import (
	"context"
	"errors"
	"path/filepath"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/groupcheck/groupcheck/oracle"
	"github.com/groupcheck/groupcheck/oracle/history"

	"github.com/twmb/franz-go/pkg/kerr"
	"github.com/twmb/franz-go/pkg/kfake"
	"github.com/twmb/franz-go/pkg/kgo"
	"github.com/twmb/franz-go/pkg/kmsg"
	"github.com/twmb/franz-go/pkg/kversion"
)

// TestKfakeExpiresParkedSync reproduces on kfake alone the deviation behind
// conformance/confluent/testdata/kfake-illegal-generation-crash-mid-join-cooperative-sticky.jsonl,
// and with -bootstrap shows a broker's answers to the same requests. b leads generation 2 and
// never syncs (it crashed mid-join); a's SyncGroup waits for it. Kafka keeps a member awaiting
// sync alive (ClassicGroupMember.hasSatisfiedHeartbeat, read by
// GroupMetadataManager.expireClassicGroupMemberHeartbeat): b's session (2 s) removes b, and
// the rebalance that starts answers a's SyncGroup REBALANCE_IN_PROGRESS. kfake's session timer
// (groups.go updateHeartbeat) removes a (500 ms) while it waits, and removeMember never
// answers its SyncGroup. Once the group is empty, kfake answers a's OffsetCommit at
// generation 2 ILLEGAL_GENERATION (handleOffsetCommit checks the member only when the group
// has members); Kafka answers UNKNOWN_MEMBER_ID (ClassicGroup.validateOffsetCommit calls
// validateMember first): the probe's kfake-commit-unknown-member. a's session is shorter than
// the sync deadline (the group's largest rebalance timeout, a's 10 s, which is also kgo's read
// timeout for a's SyncGroup), so the order does not depend on timers of one length racing.
// librdkafka's rebalance timeout is max.poll.interval.ms, never below its session timeout, so
// on kfake the race can be lost whenever a librdkafka member's SyncGroup waits out a crashed
// leader. Against Kafka 4.4.0 (conformance/kafka's broker, 4 December 2026) a's SyncGroup was
// answered REBALANCE_IN_PROGRESS at 2.17 s and the commit UNKNOWN_MEMBER_ID; on kfake a was
// gone at 0.57 s, its SyncGroup unanswered, and the commit ILLEGAL_GENERATION.
func TestKfakeExpiresParkedSync(t *testing.T) {
	kafka := Bootstrap() != ""
	addrs, group := []string{Bootstrap()}, "g"
	if kafka {
		group = "parked-sync-" + strconv.FormatInt(time.Now().UnixNano(), 36) // a broker keeps its groups
	} else {
		c, err := kfake.NewCluster(kfake.NumBrokers(1), kfake.SeedTopics(1, "t"),
			kfake.GroupMinSessionTimeout(100*time.Millisecond))
		if err != nil {
			t.Fatal(err)
		}
		defer c.Close()
		addrs = c.ListenAddrs()
	}
	ctx, cancel := context.WithTimeout(context.Background(), 30*time.Second)
	defer cancel()
	client := func(opts ...kgo.Opt) *kgo.Client {
		cl, err := kgo.NewClient(append(opts, kgo.SeedBrokers(addrs...))...)
		if err != nil {
			t.Fatal(err)
		}
		t.Cleanup(cl.Close)
		return cl
	}
	// The committer speaks Kafka 4.0's versions: OffsetCommit v9 names topics, not topic ids.
	a, b, admin := client(), client(), client(kgo.MaxVersions(kversion.V4_0_0()))
	if kafka {
		ct := kmsg.NewPtrCreateTopicsRequest()
		topic := kmsg.NewCreateTopicsRequestTopic()
		topic.Topic, topic.NumPartitions, topic.ReplicationFactor = "t", 1, 1
		ct.Topics = append(ct.Topics, topic)
		resp, err := ct.RequestWith(ctx, admin)
		if err != nil {
			t.Fatal(err)
		}
		if code := resp.Topics[0].ErrorCode; code != 0 && code != kerr.TopicAlreadyExists.Code {
			t.Fatalf("CreateTopics t: %v", kerr.ErrorForCode(code))
		}
	}
	join := func(cl *kgo.Client, member string, session, rebalance time.Duration) *kmsg.JoinGroupResponse {
		for range 2 {
			req := kmsg.NewPtrJoinGroupRequest()
			req.Group, req.MemberID, req.ProtocolType = group, member, "consumer"
			req.SessionTimeoutMillis, req.RebalanceTimeoutMillis = int32(session.Milliseconds()), int32(rebalance.Milliseconds())
			p := kmsg.NewJoinGroupRequestProtocol()
			p.Name, p.Metadata = "range", []byte{0}
			req.Protocols = append(req.Protocols, p)
			resp, err := req.RequestWith(ctx, cl)
			if err != nil {
				t.Fatalf("JoinGroup %q: %v", member, err)
			}
			if resp.ErrorCode != kerr.MemberIDRequired.Code {
				if err := kerr.ErrorForCode(resp.ErrorCode); err != nil {
					t.Fatalf("JoinGroup %q: %v", member, err)
				}
				return resp
			}
			member = resp.MemberID
		}
		t.Fatalf("JoinGroup: MEMBER_ID_REQUIRED twice")
		return nil
	}
	sync := func(cl *kgo.Client, member string, gen int32, assign bool) (*kmsg.SyncGroupResponse, error) {
		req := kmsg.NewPtrSyncGroupRequest()
		req.Group, req.MemberID, req.Generation = group, member, gen
		req.ProtocolType, req.Protocol = kmsg.StringPtr("consumer"), kmsg.StringPtr("range") // Kafka checks them from v5
		if assign {
			a := kmsg.NewSyncGroupRequestGroupAssignment()
			a.MemberID, a.MemberAssignment = member, []byte{0}
			req.GroupAssignment = append(req.GroupAssignment, a)
		}
		return req.RequestWith(ctx, cl)
	}
	// waitGroup polls DescribeGroups until ok accepts the group, or fails the test at deadline.
	waitGroup := func(what string, deadline time.Duration, ok func(kmsg.DescribeGroupsResponseGroup) bool) {
		stop := time.Now().Add(deadline)
		for {
			req := kmsg.NewPtrDescribeGroupsRequest()
			req.Groups = []string{group}
			resp, err := req.RequestWith(ctx, admin)
			if err == nil && len(resp.Groups) == 1 && ok(resp.Groups[0]) {
				return
			}
			if time.Now().After(stop) {
				t.Fatalf("%s: not within %v (%v, %+v)", what, deadline, err, resp)
			}
			time.Sleep(20 * time.Millisecond)
		}
	}

	// b joins alone and leads generation 1.
	jb := join(b, "", 2*time.Second, 2*time.Second)
	if _, err := sync(b, jb.MemberID, jb.Generation, true); err != nil {
		t.Fatal(err)
	}
	// a joins (parked until b rejoins); b rejoins: generation 2, b leader.
	ja := make(chan *kmsg.JoinGroupResponse, 1)
	go func() { ja <- join(a, "", 500*time.Millisecond, 10*time.Second) }()
	waitGroup("a's join starts a rebalance", 5*time.Second, func(g kmsg.DescribeGroupsResponseGroup) bool {
		return g.State == "PreparingRebalance"
	})
	jb2 := join(b, jb.MemberID, 2*time.Second, 2*time.Second)
	aj := <-ja
	if aj.Generation != jb2.Generation || jb2.LeaderID != jb.MemberID {
		t.Fatalf("generation %d (a) and %d (b), leader %s: want one generation led by b", aj.Generation, jb2.Generation, jb2.LeaderID)
	}
	// a's SyncGroup waits for the leader's, which never comes.
	synced := make(chan error, 1)
	go func() {
		resp, err := sync(a, aj.MemberID, aj.Generation, false)
		if err == nil {
			err = kerr.ErrorForCode(resp.ErrorCode)
		}
		synced <- err
	}()
	if !kafka {
		waitGroup("kfake removes a while its SyncGroup waits", 5*time.Second, func(g kmsg.DescribeGroupsResponseGroup) bool {
			return len(g.Members) == 1 && g.Members[0].MemberID == jb.MemberID
		})
	}
	waitGroup("the group empties (the sessions remove b, then a)", 10*time.Second, func(g kmsg.DescribeGroupsResponseGroup) bool {
		return g.State == "Empty"
	})
	select {
	case err := <-synced:
		if !kafka {
			t.Fatalf("a's SyncGroup was answered (%v): kfake answers a parked SyncGroup when it removes the member; update the finding", err)
		}
		if !errors.Is(err, kerr.RebalanceInProgress) {
			t.Errorf("a's SyncGroup: %v, want REBALANCE_IN_PROGRESS", err)
		}
	default:
		if kafka {
			t.Error("a's SyncGroup unanswered with the group empty, want REBALANCE_IN_PROGRESS")
		}
	}
	oc := kmsg.NewPtrOffsetCommitRequest()
	oc.Group, oc.MemberID, oc.Generation = group, aj.MemberID, aj.Generation
	ot := kmsg.NewOffsetCommitRequestTopic()
	ot.Topic = "t"
	op := kmsg.NewOffsetCommitRequestTopicPartition()
	ot.Partitions = append(ot.Partitions, op)
	oc.Topics = append(oc.Topics, ot)
	resp, err := oc.RequestWith(ctx, admin)
	if err != nil {
		t.Fatal(err)
	}
	if len(resp.Topics) != 1 || len(resp.Topics[0].Partitions) != 1 {
		t.Fatalf("OffsetCommit answer %+v", resp)
	}
	want := kerr.IllegalGeneration // kfake's; Kafka's is UNKNOWN_MEMBER_ID
	if kafka {
		want = kerr.UnknownMemberID
	}
	if got := resp.Topics[0].Partitions[0].ErrorCode; got != want.Code {
		t.Errorf("a's commit to the empty group: %v, want %v", kerr.ErrorForCode(got), want)
	}
}

// TestAbandonedParked: of every kept history, abandonedParked names exactly the two runs in
// which kfake expired a member parked in a request — c's SyncGroup in librdkafka's crash-mid-join
// (seq 180), a's follow-up JoinGroup in Sarama's cooperative run (seq 597) — and none of the
// others, the runs against Kafka among them.
func TestAbandonedParked(t *testing.T) {
	want := map[string]int64{
		"confluent/testdata/kfake-illegal-generation-crash-mid-join-cooperative-sticky.jsonl": 180,
		"sarama/testdata/kfake-join-expiry-cooperative-sticky.jsonl":                          597,
	}
	for _, f := range fixtureFiles(t) {
		hist := readHistory(t, f)
		name := filepath.ToSlash(strings.TrimPrefix(f, ".."+string(filepath.Separator)))
		seq, ok := abandonedParked(hist)
		if w, named := want[name]; ok != named || seq != w {
			t.Errorf("%s: abandonedParked = %d, %v; want %d, %v", name, seq, ok, w, named)
		}
	}
}

// TestParkedExpiryCoversTheReferenceSearch: in a run that shows kfake's parked expiry, the
// reference search's violation at or after its first event is known (the run is not failed),
// one before it is not, nor is a plain violation; a run without it excuses nothing.
func TestParkedExpiryCoversTheReferenceSearch(t *testing.T) {
	hist := readHistory(t, filepath.Join("..", "confluent", "testdata", "kfake-illegal-generation-crash-mid-join-cooperative-sticky.jsonl"))
	at := func(seq int64) []history.Event { return []history.Event{{Seq: seq}} }
	for _, tc := range []struct {
		hist  history.History
		x     oracle.Violation
		known bool
	}{
		{hist, oracle.Violation{Property: oracle.ReferenceSearch, Message: "seq 195: no behaviour answers", Events: at(195)}, true},
		{hist, oracle.Violation{Property: oracle.ReferenceSearch, Message: "seq 180: no behaviour answers", Events: at(180)}, true},
		{hist, oracle.Violation{Property: oracle.ReferenceSearch, Message: "seq 179: no behaviour answers", Events: at(179)}, false},
		{hist, oracle.Violation{Property: oracle.ExclusiveOwnership, Message: "owned twice", Events: at(300)}, false},
		{hist[:179], oracle.Violation{Property: oracle.ReferenceSearch, Message: "no behaviour answers", Events: at(150)}, false},
	} {
		v := Verdict{History: tc.hist, Report: oracle.Report{Violations: []oracle.Violation{tc.x}}}
		v.ClassifyKnown()
		if v.Report.OK() != tc.known || tc.known != (len(v.Known) == 1 && strings.HasPrefix(v.Known[0], kfakeParkedExpiry)) {
			t.Errorf("%s at seq %d in %d events: report ok %v, known %q; want known %v", tc.x.Property, tc.x.Events[0].Seq, len(tc.hist), v.Report.OK(), v.Known, tc.known)
		}
	}
}

// A linearizability check that did not run is no "no": a known deviation leaves it as it was.
func TestKnownLeavesNotChecked(t *testing.T) {
	x := oracle.Violation{Property: oracle.OneLeaderPerGeneration, Message: "generation 3 has two leaders"}
	v := Verdict{Report: oracle.Report{Violations: []oracle.Violation{x}, Linearizable: oracle.LinNotChecked}}
	if v.ClassifyKnown(); v.Report.Linearizable != oracle.LinNotChecked || len(v.Known) != 1 {
		t.Errorf("linearizable %q, known %q; want it not checked, one known", v.Report.Linearizable, v.Known)
	}
}
