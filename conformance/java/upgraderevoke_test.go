package java

import (
	"cmp"
	"context"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	h "github.com/groupcheck/groupcheck/conformance/harness"
	"github.com/groupcheck/groupcheck/oracle"
	"github.com/groupcheck/groupcheck/oracle/history"
)

// TestRealKafkaUpgradeDuringRevocation runs, with Kafka's own consumers, the seam the probe's
// upgrade-withheld schedule shows on the wire (docs/real-kafka.md, "Mixed groups" (a)): a
// classic cooperative-sticky group of two, a and b, takes a third member c; the leader's
// first round withholds the partitions that move to c, and the member giving one up revokes
// it in onPartitionsRevoked. While that callback runs (the test holds it), a consumer-protocol
// member w joins, and Kafka converts the group (GroupMetadataManager.convertToConsumerGroup):
// ConsumerGroup.fromClassicGroup takes every classic member's assignment from its last
// SyncGroup, where the revoking partition is no longer listed, so the consumer group holds
// it as free, and the uniform assignor hands it to w (or c) at once, while its owner is
// still inside onPartitionsRevoked, about to commit it. KIP-429 (and KIP-848 between its own
// members) promise that a partition is assigned only after its owner revoked it.
//
// The test passes when the double ownership happens and the oracle reports it as
// exclusive-ownership or revoke-before-assign on the held partition: it is Kafka's finding
// (docs/findings.md), and the test fails when Kafka stops doing it. It runs against
// $KAFKA_BOOTSTRAP (skipped without it).
func TestRealKafkaUpgradeDuringRevocation(t *testing.T) {
	env := newRealKafka(t, "java-upgrade-revoking-")
	for i := range h.Runs() { // -soak N: N runs
		t.Run(fmt.Sprintf("run%d", i), func(t *testing.T) { upgradeDuringRevocation(t, env) })
	}
}

// heldRevoke is the revoke callback the test holds: whose, and what it revokes.
type heldRevoke struct {
	name  string
	parts history.Parts
}

func upgradeDuringRevocation(t *testing.T, env *realKafka) {
	r := env.newRun(t, "java-upgrade-revoking")
	defer r.close()
	// The held member must not exceed its poll interval inside the callback (it would leave
	// the group): 30 s, past every wait below.
	classic := options{settings: append(append([]string(nil), bounceSettings[history.Classic]...), "max.poll.interval.ms=30000")}
	consumer := options{settings: bounceSettings[history.Consumer]}
	held := make(chan heldRevoke, 1)
	release := make(chan struct{})
	var once sync.Once
	var armed atomic.Bool // from c's start: the revokes before are b's join's
	r.hold = func(name string, kind history.Kind, parts history.Parts) {
		if !armed.Load() || kind != history.Revoke || name == "c" || len(parts) == 0 {
			return
		}
		first := false
		once.Do(func() { first = true })
		if !first {
			return
		}
		held <- heldRevoke{name, parts}
		<-release
	}
	releaseOnce := sync.OnceFunc(func() { close(release) })
	defer releaseOnce()
	r.start("a", history.Classic, classic)
	r.start("b", history.Classic, classic)
	r.settle("a", "b")
	armed.Store(true)
	r.start("c", history.Classic, classic)
	var h heldRevoke
	select {
	case h = <-held:
	case <-time.After(30 * time.Second):
		t.Fatalf("no member revoked a partition in c's first round; owned: %s", r.g.String())
	}
	t.Logf("holding %s inside onPartitionsRevoked(%v); the group type is %s", h.name, h.parts, r.groupType())
	r.start("w", history.Consumer, consumer)
	other, p := r.g.waitOwnedByOther(r.ctx, h, 20*time.Second)
	if other != "" {
		t.Logf("%s owns %s while %s is still inside onPartitionsRevoked for it (group type %s)", other, p, h.name, r.groupType())
	} else {
		t.Logf("nobody else took %v within 20 s; owned: %s", h.parts, r.g.String())
	}
	releaseOnce()
	r.settle("a", "b", "c", "w")
	for _, n := range []string{"w", "c", "b", "a"} {
		r.leave(n)
	}
	hist := r.g.rec.History()
	revokeCommits := map[int64]history.Parts{} // the held member's commits from its revoke callbacks, by id
	for _, e := range hist {
		switch {
		case e.Kind == history.Commit && e.Phase == history.Begin && e.Node == h.name && e.Note == "revoke":
			revokeCommits[e.ID] = e.Parts
		case e.Kind == history.Commit && e.Phase == history.End && revokeCommits[e.ID] != nil:
			t.Logf("%s's commit of %v in onPartitionsRevoked (seq %d): %s", h.name, revokeCommits[e.ID], e.Seq, cmp.Or(e.Err, "accepted"))
		}
	}
	if f, err := os.Create(filepath.Join(r.logs, r.run+".jsonl")); err == nil {
		hist.Write(f)
		f.Close()
		t.Logf("history in %s", f.Name())
	}
	rep := oracle.Check(hist, oracle.Options{})
	var found []string
	for _, v := range rep.Violations {
		if (v.Property == oracle.ExclusiveOwnership || v.Property == oracle.RevokeBeforeAssign) && strings.Contains(v.Message, p) {
			found = append(found, v.Property+": "+v.Message)
		}
	}
	t.Logf("oracle: %d events, %d violations, %d zombies; on %s: %s", rep.Events, len(rep.Violations), len(rep.Zombies), p, strings.Join(found, "; "))
	if other == "" || len(found) == 0 {
		t.Errorf("Kafka no longer hands a revoking partition to another member at the upgrade (or the oracle misses it):\n%s", rep)
	}
}

// waitOwnedByOther waits until some member other than h.name owns one of h.parts (by its
// callbacks), and returns it and the partition ("topic-p"); "" when it did not happen within d.
func (g *group) waitOwnedByOther(ctx context.Context, h heldRevoke, d time.Duration) (string, string) {
	deadline := time.NewTimer(d)
	defer deadline.Stop()
	for {
		g.mu.Lock()
		for tp, ps := range h.parts {
			for _, q := range ps {
				if m := g.owned[tp][q]; m != "" && m != h.name {
					g.mu.Unlock()
					return m, fmt.Sprintf("%s-%d", tp, q)
				}
			}
		}
		g.mu.Unlock()
		select {
		case <-g.changed:
		case <-deadline.C:
			return "", ""
		case <-ctx.Done():
			return "", ""
		}
	}
}
