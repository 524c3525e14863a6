package java

import (
	"os"
	"path/filepath"
	"slices"
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
	f, err := os.Open(filepath.Join("testdata", "kfake-static-leave-never-expires-kip848.jsonl"))
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	hist, err := history.Read(f)
	if err != nil {
		t.Fatal(err)
	}
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
