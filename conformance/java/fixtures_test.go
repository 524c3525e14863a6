package java

import (
	"path/filepath"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/groupcheck/groupcheck/oracle"
	"github.com/groupcheck/groupcheck/oracle/history"
)

// TestKfakeStaticLeaveNeverExpires replays a kip848-uniform-static churn run against kfake
// (commits left out, cut 4.5 s after the leave; the run went on 30 s more the same way):
// Kafka's consumer b closes, and as a static member leaves with member epoch -2. Kafka keeps
// such a member until its session expires ("would be back within session timeout":
// GroupMetadataManager.consumerGroupStaticMemberGroupLeave writes epoch -2 and cancels no
// timer, so the session timeout scheduled by its last heartbeat fences it and its partitions
// move). kfake stops the member's session timer (groups.go consumerStaticLeave, m.t.Stop()),
// so b's partition t1/3 stays reserved and unowned for ever; the harness's settle times out.
// It is a kfake finding, not the client's: the oracle sees nothing wrong in the history.
func TestKfakeStaticLeaveNeverExpires(t *testing.T) {
	hist := readFixture(t, "kfake-static-leave-never-expires-kip848.jsonl")
	at := slices.IndexFunc(hist, func(e history.Event) bool {
		return e.Node == "b" && e.Op == history.ConsumerGroupHeartbeat && e.Phase == history.End && e.Gen == -2
	})
	if at < 0 {
		t.Fatal("b never left with member epoch -2")
	}
	session := 1500 * time.Millisecond // harness.DefaultTiming: group.consumer.session.timeout.ms
	if after := time.Duration(hist[len(hist)-1].T - hist[at].T); after < 2*session {
		t.Fatalf("the history ends %v after the leave, less than two sessions", after)
	}
	for _, e := range hist[at:] {
		if e.Kind == history.Assign && slices.Contains(e.Parts["t1"], 3) {
			t.Errorf("%s was assigned t1/3 at seq %d: kfake released the static member's partition", e.Node, e.Seq)
		}
	}
	rep := oracle.Check(hist, oracle.Options{Linearizability: oracle.Linearizable(time.Minute)})
	if !rep.OK() {
		t.Errorf("the oracle finds fault with the history, but only kfake's timer is wrong:\n%s", rep)
	}
}

// TestUpgradeDuringRevocationHistory replays a TestRealKafkaUpgradeDuringRevocation run
// against Kafka 4.4.0 (kafka-clients 4.4.0; the topic renamed t): classic cooperative-sticky
// a, b and c at generation 4, where a revokes t-1 (seq 57, held inside onPartitionsRevoked);
// w joins with group.protocol=consumer (seq 61), the group converts, and w is assigned t-1
// at epoch 5 (seq 89) while a is still in its revoke callback, whose commit of t-0 t-1 is
// then accepted (seq 91–92). The oracle must report the double ownership; it is Kafka's
// (docs/findings.md, "An online upgrade during a cooperative revocation").
func TestUpgradeDuringRevocationHistory(t *testing.T) {
	hist := readFixture(t, "kafka-upgrade-during-revocation.jsonl")
	rep := oracle.Check(hist, oracle.Options{})
	var overlap *oracle.Violation
	for i, v := range rep.Violations {
		if v.Property == oracle.ExclusiveOwnership && strings.Contains(v.Message, "a and w both owned t-1") {
			overlap = &rep.Violations[i]
		}
	}
	if overlap == nil {
		t.Fatalf("the oracle does not report a and w owning t-1 together:\n%s", rep)
	}
	// The commit a's revoke callback sends after w was assigned t-1 is accepted.
	var assigned, committed int64
	for _, e := range hist {
		switch {
		case e.Kind == history.Assign && e.Phase == history.Begin && e.Node == "w" && slices.Contains(e.Parts["t"], 1):
			assigned = e.Seq
		case assigned > 0 && e.Kind == history.Commit && e.Phase == history.End && e.Node == "a" && e.Err == "":
			committed = e.Seq
		}
		if committed > 0 {
			break
		}
	}
	if assigned == 0 || committed == 0 {
		t.Errorf("want w assigned t-1 and then a's commit accepted; seq %d, %d", assigned, committed)
	}
	t.Logf("%s; a's commit accepted at seq %d", overlap.Message, committed)
}

// readFixture reads testdata/name, a history.
func readFixture(t *testing.T, name string) history.History {
	t.Helper()
	hist, err := history.ReadFile(filepath.Join("testdata", name))
	if err != nil {
		t.Fatal(err)
	}
	return hist
}
