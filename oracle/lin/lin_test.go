package lin

import (
	"bytes"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/groupcheck/groupcheck/oracle/history"
)

// Classic histories. Each case cites the docs/protocol.md section of the rule that decides it.
func TestClassic(t *testing.T) {
	for _, tc := range []struct {
		name string
		h    history.History
		ok   bool
		want string // in Detail when not linearizable
	}{
		{"a group forms and syncs (§1.3–1.5)", group2().history(), true, ""},
		{"a follower's SyncGroup parked until the leader's (§1.5)", func() history.History {
			b := group2()
			b.evs = b.evs[:len(b.evs)-6] // drop both syncs and the heartbeat
			b.req("b", history.SyncGroup, 31, 45, rq("b1", 1), synced(tp(1)))
			b.req("a", history.SyncGroup, 40, 44, leaderSync("a1", 1, map[string]history.Parts{"a1": tp(0), "b1": tp(1)}), synced(tp(0)))
			return b.history()
		}(), true, ""},
		{"the leader's SyncGroup without an answer may have completed the round (§1.5)", func() history.History {
			b := group2()
			b.evs = b.evs[:len(b.evs)-6]
			b.req("a", history.SyncGroup, 31, -1, leaderSync("a1", 1, map[string]history.Parts{"a1": tp(0), "b1": tp(1)}), ok())
			b.req("b", history.SyncGroup, 32, 41, rq("b1", 1), synced(tp(1)))
			return b.history()
		}(), true, ""},
		{"a rebalance, then the next generation (§1.3, §1.6)", func() history.History {
			b := group2()
			b.req("b", history.Heartbeat, 61, 62, rq("b1", 1), fail("REBALANCE_IN_PROGRESS"))
			b.req("a", history.JoinGroup, 63, 80, rq("a1", 1), joined("a1", 2, "a1", "a1", "b1"))
			b.req("b", history.JoinGroup, 64, 80, rq("b1", 1), joined("b1", 2, "a1"))
			b.req("b", history.Heartbeat, 81, 82, rq("b1", 1), fail("ILLEGAL_GENERATION"))
			b.req("a", history.OffsetCommit, 83, 84, rq("a1", 2), fail("REBALANCE_IN_PROGRESS"))
			return b.history()
		}(), true, ""},
		{"transport errors are no answer (§1.11)", func() history.History {
			b := group2()
			b.req("b", history.Heartbeat, 61, 62, rq("b1", 7), fail("context deadline exceeded"))
			return b.history()
		}(), true, ""},
		{"two SyncGroup answers for one member and generation differ (§1.5)", func() history.History {
			b := group2()
			b.req("b", history.SyncGroup, 61, 62, rq("b1", 1), synced(tp(0, 1)))
			return b.history()
		}(), false, "the leader assigned (t-1) to b1 for generation 1"},
		{"a follower gets something else than the leader sent (§1.5)", func() history.History {
			b := group2()
			b.evs = b.evs[:len(b.evs)-6]
			b.req("a", history.SyncGroup, 31, 40, leaderSync("a1", 1, map[string]history.Parts{"a1": tp(0), "b1": tp(1)}), synced(tp(0)))
			b.req("b", history.SyncGroup, 41, 42, rq("b1", 1), synced(tp(2)))
			return b.history()
		}(), false, "the leader assigned (t-1) to b1"},
		{"a follower's SyncGroup succeeds before the leader synced (§1.5)", func() history.History {
			b := group2()
			b.evs = b.evs[:len(b.evs)-6]
			b.req("b", history.SyncGroup, 31, 32, rq("b1", 1), synced(tp(1)))
			b.req("a", history.SyncGroup, 33, 40, leaderSync("a1", 1, map[string]history.Parts{"a1": tp(0), "b1": tp(1)}), synced(tp(0)))
			return b.history()
		}(), false, "the round of generation 1 is not complete: its leader a1 has not synced"},
		{"a JoinGroup answers a generation lower than one already answered (§1.3)", func() history.History {
			b := group2()
			b.req("b", history.JoinGroup, 61, 70, rq("b1", 1), joined("b1", 2, "a1"))
			b.req("b", history.JoinGroup, 71, 72, rq("b1", 2), joined("b1", 1, "a1"))
			return b.history()
		}(), false, "generation 1 answered after generation 2 existed"},
		{"a heartbeat answered NONE after the generation was seen rebalancing (§1.3, §1.6)", func() history.History {
			b := group2()
			b.req("b", history.Heartbeat, 61, 62, rq("b1", 1), fail("REBALANCE_IN_PROGRESS"))
			b.req("a", history.Heartbeat, 63, 64, rq("a1", 1), ok())
			return b.history()
		}(), false, "cannot answer Heartbeat NONE at generation 1: it is PreparingRebalance"},
		{"a removed member is answered again (§1.7, §1.9)", func() history.History {
			b := group2()
			b.req("b", history.Heartbeat, 61, 62, rq("b1", 1), fail("UNKNOWN_MEMBER_ID"))
			b.req("b", history.OffsetCommit, 63, 64, rq("b1", 1), ok())
			return b.history()
		}(), false, "member b1 was removed"},
		{"a member that left is answered again (§1.7)", func() history.History {
			b := group2()
			b.req("b", history.LeaveGroup, 61, 62, rq("b1", 0), ok())
			b.req("b", history.Heartbeat, 63, 64, rq("b1", 1), ok())
			return b.history()
		}(), false, "member b1 was removed"},
		{"a member id handed out twice (§1.4, KIP-394)", func() history.History {
			b := group2()
			b.req("c", history.JoinGroup, 61, 62, rq("", -1), history.Event{Err: "MEMBER_ID_REQUIRED", Member: "b1"})
			return b.history()
		}(), false, "member id b1 handed out again"},
		{"one generation, two leaders (§1.3)", func() history.History {
			b := group2()
			b.req("c", history.JoinGroup, 0, 30, rq("", -1), joined("c1", 1, "c1"))
			return b.history()
		}(), false, "generation 1 has two leaders"},
		{"a member of the generation missing from the leader's list (§1.3)", func() history.History {
			b := group2()
			b.req("c", history.JoinGroup, 0, 30, rq("", -1), joined("c1", 1, "a1"))
			return b.history()
		}(), false, "member list [a1 b1]"},
		{"a commit accepted at a generation that is over (§1.8)", func() history.History {
			b := group2()
			b.req("a", history.JoinGroup, 61, 80, rq("a1", 1), joined("a1", 2, "a1", "a1"))
			b.req("b", history.OffsetCommit, 81, 82, rq("b1", 1), ok())
			return b.history()
		}(), false, "generation 1 is over: generation 2 exists"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			r, err := Check(tc.h, 0)
			if err != nil {
				t.Fatal(err)
			}
			if r.OK != tc.ok || !strings.Contains(r.Detail, tc.want) {
				t.Fatalf("OK = %t, want %t; detail must contain %q:\n%s", r.OK, tc.ok, tc.want, r.Detail)
			}
			if r.Operations == 0 || r.Partitions != 1 {
				t.Fatalf("operations %d partitions %d", r.Operations, r.Partitions)
			}
		})
	}
}

// KIP-848 histories. Sources: docs/protocol.md §3.1 (commits), §3.3–3.4 (epochs, reconciliation).
func TestConsumer(t *testing.T) {
	cgh := history.ConsumerGroupHeartbeat
	base := func() *builder {
		b := &builder{}
		b.req("a", cgh, 0, 10, rq("", 0), epoch("a1", 1, tp(0, 1)))
		b.req("b", cgh, 11, 12, rq("", 0), epoch("b1", 2, tp()))
		b.req("a", cgh, 13, 14, rq("a1", 1), epoch("a1", 1, tp(0))) // revoke t-1 first
		b.req("a", cgh, 15, 16, rq("a1", 1), epoch("a1", 2, nil))   // acknowledged
		b.req("b", cgh, 17, 18, rq("b1", 2), epoch("b1", 2, tp(1)))
		return b
	}
	for _, tc := range []struct {
		name string
		h    history.History
		ok   bool
		want string
	}{
		{"a partition moves after its revocation (§3.4)", base().history(), true, ""},
		{"commits at the current epoch, a stale one refused (§3.1)", func() history.History {
			b := base()
			b.req("a", history.OffsetCommit, 20, 21, rq("a1", 2), ok())
			b.req("b", history.OffsetCommit, 20, 21, rq("b1", 1), fail("STALE_MEMBER_EPOCH"))
			return b.history()
		}(), true, ""},
		{"a fenced member rejoins (§3.3)", func() history.History {
			b := base()
			b.req("a", cgh, 20, 21, rq("a1", 2), fail("UNKNOWN_MEMBER_ID"))
			b.req("a", cgh, 22, 23, rq("a1", 0), epoch("a1", 3, tp(0)))
			return b.history()
		}(), true, ""},
		{"a heartbeat without answer may have moved the epoch (§3.3)", func() history.History {
			b := base()
			b.req("b", cgh, 20, -1, rq("b1", 2), ok())
			b.req("b", history.OffsetCommit, 30, 31, rq("b1", 3), ok())
			return b.history()
		}(), true, ""},
		{"a partition given to a second member while the first still holds it (§3.2)", func() history.History {
			b := &builder{}
			b.req("a", cgh, 0, 10, rq("", 0), epoch("a1", 1, tp(0, 1)))
			b.req("b", cgh, 11, 12, rq("", 0), epoch("b1", 2, tp(1)))
			b.req("a", cgh, 13, 14, rq("a1", 1), epoch("a1", 1, nil))
			return b.history()
		}(), false, "member a1 was removed (inferred: it held (t-1)"},
		{"an epoch goes back (§3.4)", func() history.History {
			b := base()
			b.req("a", cgh, 20, 21, rq("a1", 2), epoch("a1", 1, nil))
			return b.history()
		}(), false, "epoch 1 answered to a heartbeat at epoch 2"},
		{"a member's epoch goes back across a rejoin (§3.3)", func() history.History {
			b := base()
			b.req("a", cgh, 20, 21, rq("a1", 0), epoch("a1", 1, tp(0)))
			return b.history()
		}(), false, "member a1's epoch went back from 2"},
		{"a commit accepted at an epoch the member has not reached (§3.1)", func() history.History {
			b := base()
			b.req("a", history.OffsetCommit, 20, 21, rq("a1", 3), ok())
			return b.history()
		}(), false, "a commit at epoch 3 accepted while a1's epoch is 2"},
		{"a commit accepted at an older epoch (KIP-1251, apache/kafka#21692)", func() history.History {
			b := base()
			b.req("a", history.OffsetCommit, 20, 21, rq("a1", 1), ok())
			return b.history()
		}(), true, ""},
		{"STALE_MEMBER_EPOCH at the current epoch (§3.1)", func() history.History {
			b := base()
			b.req("a", history.OffsetCommit, 20, 21, rq("a1", 2), fail("STALE_MEMBER_EPOCH"))
			return b.history()
		}(), false, "STALE_MEMBER_EPOCH at epoch 2"},
		{"FENCED_MEMBER_EPOCH at the current epoch (§3.3)", func() history.History {
			b := base()
			b.req("b", cgh, 20, 21, rq("b1", 2), fail("FENCED_MEMBER_EPOCH"))
			return b.history()
		}(), false, "epoch 2 is b1's current epoch"},
		{"a removed member's heartbeat succeeds (§3.5)", func() history.History {
			b := base()
			b.req("b", history.OffsetCommit, 20, 21, rq("b1", 2), fail("UNKNOWN_MEMBER_ID"))
			b.req("b", cgh, 22, 23, rq("b1", 2), epoch("b1", 2, nil))
			return b.history()
		}(), false, "member b1 was removed"},
		{"a member that left commits (§3.6)", func() history.History {
			b := base()
			b.req("b", cgh, 20, 21, rq("b1", -1), epoch("b1", -1, nil))
			b.req("b", history.OffsetCommit, 22, 23, rq("b1", 2), ok())
			return b.history()
		}(), false, "member b1 was removed"},
		{"a join handed an id in use (§3.3)", func() history.History {
			b := base()
			b.req("c", cgh, 20, 21, rq("", 0), epoch("a1", 3, tp()))
			return b.history()
		}(), false, "a join without member id was given a1"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			r, err := Check(tc.h, 0)
			if err != nil {
				t.Fatal(err)
			}
			if r.OK != tc.ok || !strings.Contains(r.Detail, tc.want) {
				t.Fatalf("OK = %t, want %t; detail must contain %q:\n%s", r.OK, tc.ok, tc.want, r.Detail)
			}
		})
	}
}

func TestDetailNamesTheEvents(t *testing.T) {
	b := group2()
	b.req("b", history.SyncGroup, 61, 62, rq("b1", 1), synced(tp(0, 1)))
	h := b.history()
	r, err := Check(h, 0)
	if err != nil || r.OK {
		t.Fatalf("%+v %v", r, err)
	}
	// The failing SyncGroup is the last two events; the leader's the one it contradicts.
	for _, want := range []string{"SyncGroup by b (member b1, gen 1) → NONE (t-0 t-1) [seq 15–16]", "SyncGroup by a (member a1, gen 1) → NONE (t-0) [seq 9–11]"} {
		if !strings.Contains(r.Detail, want) {
			t.Errorf("detail lacks %q:\n%s", want, r.Detail)
		}
	}
}

func TestVisualizeOnFailure(t *testing.T) {
	b := group2()
	b.req("b", history.Heartbeat, 61, 62, rq("b1", 1), fail("UNKNOWN_MEMBER_ID"))
	b.req("b", history.Heartbeat, 63, 64, rq("b1", 1), ok())
	var buf bytes.Buffer
	r, err := CheckAndVisualize(b.history(), 0, &buf)
	if err != nil || r.OK {
		t.Fatalf("%+v %v", r, err)
	}
	path := filepath.Join(t.TempDir(), "lin.html")
	if err := os.WriteFile(path, buf.Bytes(), 0o644); err != nil {
		t.Fatal(err)
	}
	got, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	s := string(got)
	if len(got) < 1000 || !strings.Contains(strings.ToLower(s), "<html") || !strings.Contains(s, "Heartbeat by b") {
		t.Fatalf("not porcupine's visualization of this history (%d bytes): %.200s", len(got), s)
	}
}

func TestBadInput(t *testing.T) {
	bad := group2().history()
	bad[3].Seq = 1
	if _, err := Check(bad, 0); err == nil || !strings.Contains(err.Error(), "seq") {
		t.Errorf("invalid history: %v", err)
	}
	b := group2()
	b.req("c", history.ConsumerGroupHeartbeat, 61, 62, rq("", 0), epoch("c1", 1, nil))
	if _, err := Check(b.history(), 0); err == nil || !strings.Contains(err.Error(), "mixes the classic protocol") {
		t.Errorf("mixed protocols: %v", err)
	}
	if _, err := CheckAndVisualize(bad, 0, &bytes.Buffer{}); err == nil {
		t.Error("CheckAndVisualize accepted an invalid history")
	}
	r, err := Check(nil, 0)
	if err != nil || !r.OK || r.Operations != 0 || r.Partitions != 0 {
		t.Errorf("empty history: %+v %v", r, err)
	}
}

// The visualization of a KIP-848 history describes the knowledge states.
func TestVisualizeConsumer(t *testing.T) {
	cgh := history.ConsumerGroupHeartbeat
	b := &builder{}
	b.req("a", cgh, 0, 10, rq("", 0), epoch("a1", 1, tp(0, 1)))
	b.req("b", cgh, 11, 12, rq("", 0), epoch("b1", 2, tp(1)))
	b.req("a", cgh, 13, 14, rq("a1", 1), epoch("a1", 1, nil))
	var buf bytes.Buffer
	r, err := CheckAndVisualize(b.history(), 0, &buf)
	if err != nil || r.OK {
		t.Fatalf("%+v %v", r, err)
	}
	if s := buf.String(); !strings.Contains(s, "a1 epoch 1 (t-0 t-1)") || !strings.Contains(s, "ConsumerGroupHeartbeat by b") {
		t.Fatalf("visualization lacks the states or operations (%d bytes)", len(s))
	}
}

// Retries of a request that never got an answer are one operation: a member cut off from
// the coordinator must not make the check exponential.
func TestUnansweredRetriesMerged(t *testing.T) {
	cgh := history.ConsumerGroupHeartbeat
	b := &builder{}
	b.req("a", cgh, 0, 10, rq("", 0), epoch("a1", 1, tp(0)))
	for i := range int64(30) {
		b.req("c", cgh, 20+10*i, -1, rq("c1", 3), ok())
		b.req("a", cgh, 21+10*i, 22+10*i, rq("a1", 1), epoch("a1", 1, nil))
	}
	b.req("a", history.OffsetCommit, 400, 401, rq("a1", 5), ok())
	h := b.history()
	r, err := Check(h, 0)
	if err != nil || r.OK || !strings.Contains(r.Detail, "a commit at epoch 5 accepted while a1's epoch is 1") {
		t.Fatalf("%+v %v", r, err)
	}
	p, err := parse(h)
	if err != nil {
		t.Fatal(err)
	}
	if r.Operations != 33 || p.ops[1].merged != 29 || !strings.Contains(p.ops[1].label(), "no answer [seq 3, no end] and 29 retries") {
		t.Fatalf("operations %d (want 1 + 30 + 1 for 30 retries + 1); %s", r.Operations, p.ops[1].label())
	}
}
