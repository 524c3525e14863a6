package oracle

import (
	"bytes"
	"flag"
	"os"
	"path/filepath"
	"slices"
	"testing"
	"time"

	"github.com/groupcheck/groupcheck/oracle/history"
)

var update = flag.Bool("update", false, "rewrite testdata/*.jsonl from their builders")

// call records a coordinator request and its answer.
func (b *hb) call(begin, end history.Event) {
	begin.Kind = history.Request
	b.end(b.begin(begin), end)
}

// cbAs records a whole callback as member/gen.
func (b *hb) cbAs(node, member string, gen int32, k history.Kind, ps history.Parts) {
	b.end(b.begin(history.Event{Kind: k, Node: node, Member: member, Gen: gen, Parts: ps}), history.Event{})
}

func (b *hb) commitAs(node, member string, gen int32, ps history.Parts, errName string) {
	b.end(b.begin(history.Event{Kind: history.Commit, Node: node, Member: member, Gen: gen, Parts: ps}), history.Event{Err: errName})
}

// syncTwo records generation g's SyncGroups of classic members m1 on c1, the leader, given a1,
// and m2 on c2 given a2, and both observing the generation.
func (b *hb) syncTwo(g int32, a1, a2 history.Parts) {
	c := history.Classic
	b.call(history.Event{Node: "c1", Proto: c, Op: history.SyncGroup, Member: "m1", Gen: g, Assignments: map[string]history.Parts{"m1": a1, "m2": a2}}, history.Event{Parts: a1})
	b.call(history.Event{Node: "c2", Proto: c, Op: history.SyncGroup, Member: "m2", Gen: g}, history.Event{Parts: a2})
	b.gen("c1", "m1", g)
	b.gen("c2", "m2", g)
}

// cooperativeClean is two kgo-like classic cooperative-sticky members: c2 joins, c1 gives
// t-2 and t-3 up in the first round and c2 takes them in the second, then c1 closes and c2
// takes everything. Requests are as a wire tap sees them (docs/clients.md §2 order within a session).
func cooperativeClean() history.History {
	b := newHB()
	b.step = int64(3 * time.Millisecond)
	all, low, high := parts("t", 0, 1, 2, 3), parts("t", 0, 1), parts("t", 2, 3)
	c := history.Classic
	b.start("c1", c)
	b.call(history.Event{Node: "c1", Proto: c, Op: history.JoinGroup, Gen: -1, Protocols: []string{"cooperative-sticky"}}, history.Event{Err: "MEMBER_ID_REQUIRED", Member: "m1"})
	b.call(history.Event{Node: "c1", Proto: c, Op: history.JoinGroup, Member: "m1", Gen: -1, Protocols: []string{"cooperative-sticky"}}, history.Event{Member: "m1", Gen: 1, Leader: "m1", Members: []string{"m1"}})
	b.call(history.Event{Node: "c1", Proto: c, Op: history.SyncGroup, Member: "m1", Gen: 1, Assignments: map[string]history.Parts{"m1": all}}, history.Event{Parts: all})
	b.gen("c1", "m1", 1)
	b.cbAs("c1", "m1", 1, history.Assign, all)
	b.commitAs("c1", "m1", 1, all, "")
	b.start("c2", c)
	b.call(history.Event{Node: "c2", Proto: c, Op: history.JoinGroup, Gen: -1}, history.Event{Err: "MEMBER_ID_REQUIRED", Member: "m2"})
	// KIP-394: the rebalance begins when m2 rejoins with its member id, not at its first join.
	j2 := b.begin(history.Event{Kind: history.Request, Node: "c2", Proto: c, Op: history.JoinGroup, Member: "m2", Gen: -1})
	b.call(history.Event{Node: "c1", Proto: c, Op: history.Heartbeat, Member: "m1", Gen: 1}, history.Event{Err: "REBALANCE_IN_PROGRESS"})
	b.call(history.Event{Node: "c1", Proto: c, Op: history.JoinGroup, Member: "m1", Gen: 1, Owned: all}, history.Event{Member: "m1", Gen: 2, Leader: "m1", Members: []string{"m1", "m2"}})
	b.end(j2, history.Event{Member: "m2", Gen: 2, Leader: "m1"})
	b.syncTwo(2, low, history.Parts{})
	b.cbAs("c2", "m2", 2, history.Assign, nil) // kgo calls assigned on every session, even empty
	rv := b.begin(history.Event{Kind: history.Revoke, Node: "c1", Member: "m1", Gen: 2, Parts: high})
	b.commitAs("c1", "m1", 2, high, "")
	b.end(rv, history.Event{})
	j2 = b.begin(history.Event{Kind: history.Request, Node: "c2", Proto: c, Op: history.JoinGroup, Member: "m2", Gen: 2})
	b.call(history.Event{Node: "c1", Proto: c, Op: history.JoinGroup, Member: "m1", Gen: 2, Owned: low}, history.Event{Member: "m1", Gen: 3, Leader: "m1", Members: []string{"m1", "m2"}})
	b.end(j2, history.Event{Member: "m2", Gen: 3, Leader: "m1"})
	b.syncTwo(3, low, high)
	b.cbAs("c1", "m1", 3, history.Assign, nil)
	b.cbAs("c2", "m2", 3, history.Assign, high)
	b.commitAs("c2", "m2", 3, high, "")
	b.commitAs("c1", "m1", 3, low, "")
	cl := b.begin(history.Event{Kind: history.Close, Node: "c1"})
	rv = b.begin(history.Event{Kind: history.Revoke, Node: "c1", Member: "m1", Gen: 3, Parts: low})
	b.commitAs("c1", "m1", 3, low, "")
	b.end(rv, history.Event{})
	b.call(history.Event{Node: "c1", Proto: c, Op: history.LeaveGroup, Member: "m1", Gen: -1}, history.Event{})
	b.end(cl, history.Event{})
	b.call(history.Event{Node: "c2", Proto: c, Op: history.Heartbeat, Member: "m2", Gen: 3}, history.Event{Err: "REBALANCE_IN_PROGRESS"})
	b.cbAs("c2", "m2", 3, history.Revoke, nil) // the end of a session, often empty (docs/clients.md §2)
	b.call(history.Event{Node: "c2", Proto: c, Op: history.JoinGroup, Member: "m2", Gen: 3, Owned: high}, history.Event{Member: "m2", Gen: 4, Leader: "m2", Members: []string{"m2"}})
	b.call(history.Event{Node: "c2", Proto: c, Op: history.SyncGroup, Member: "m2", Gen: 4, Assignments: map[string]history.Parts{"m2": all}}, history.Event{Parts: all})
	b.gen("c2", "m2", 4)
	b.cbAs("c2", "m2", 4, history.Assign, low)
	b.commitAs("c2", "m2", 4, all, "")
	return b.h
}

// consumerZombie is kgo's KIP-848 zombie (docs/clients.md §2): c1 is cut off from the coordinator,
// kfake fences it on its session timeout and hands its partitions to c2, c1's commits are
// rejected, and after the heal c1 is told UNKNOWN_MEMBER_ID, calls onPartitionsLost and
// rejoins with a new member ID. With skipLost, c1 rejoins without calling it (issue 7 item 3).
func consumerZombie(skipLost bool) history.History {
	b := newHB()
	b.step = int64(5 * time.Millisecond)
	all, low, high := parts("t", 0, 1, 2, 3), parts("t", 0, 1), parts("t", 2, 3)
	k := history.Consumer
	cgh := func(node, member string, epoch int32, owned history.Parts, ansEpoch int32, assigned history.Parts, errName string) {
		b.call(history.Event{Node: node, Proto: k, Op: history.ConsumerGroupHeartbeat, Member: member, Gen: epoch, Owned: owned},
			history.Event{Member: member, Gen: ansEpoch, Parts: assigned, Err: errName})
	}
	b.start("c1", k)
	cgh("c1", "m1", 0, history.Parts{}, 1, all, "")
	b.gen("c1", "m1", 1)
	b.cbAs("c1", "m1", 1, history.Assign, all)
	b.start("c2", k)
	cgh("c2", "m2", 0, history.Parts{}, 2, history.Parts{}, "")
	b.gen("c2", "m2", 2)
	cgh("c1", "m1", 1, all, 1, low, "")
	rv := b.begin(history.Event{Kind: history.Revoke, Node: "c1", Member: "m1", Gen: 1, Parts: high})
	b.commitAs("c1", "m1", 1, high, "")
	b.end(rv, history.Event{})
	cgh("c1", "m1", 1, low, 2, nil, "")
	b.gen("c1", "m1", 2)
	cgh("c2", "m2", 2, history.Parts{}, 2, high, "")
	b.cbAs("c2", "m2", 2, history.Assign, high)
	b.commitAs("c1", "m1", 2, low, "")
	b.commitAs("c2", "m2", 2, high, "")
	b.instant(history.Cut, "c1")
	lostHB := b.begin(history.Event{Kind: history.Request, Node: "c1", Proto: k, Op: history.ConsumerGroupHeartbeat, Member: "m1", Gen: 2})
	b.add(history.Event{Kind: history.Fenced, Node: "c1", Proto: k, Member: "m1", Gen: 2, Note: "kfake session timeout"})
	cgh("c2", "m2", 2, high, 3, all, "")
	b.gen("c2", "m2", 3)
	b.cbAs("c2", "m2", 3, history.Assign, low)
	b.commitAs("c1", "m1", 2, low, "UNKNOWN_MEMBER_ID")
	b.commitAs("c2", "m2", 3, all, "")
	b.instant(history.Heal, "c1")
	cgh("c1", "m1", 2, low, 0, nil, "UNKNOWN_MEMBER_ID")
	if !skipLost {
		b.cbAs("c1", "m1", 2, history.Lost, low)
	}
	cgh("c1", "m1b", 0, history.Parts{}, 4, history.Parts{}, "")
	b.gen("c1", "m1b", 4)
	b.cbAs("c1", "m1b", 4, history.Assign, nil)
	b.commitAs("c2", "m2", 3, all, "")
	b.end(lostHB, history.Event{Note: history.Unfinished}) // as Recorder.History closes it
	return b.h
}

// classicCrashNeverExpired is a classic eager group of two whose broker never expires a
// crashed member's session: c2 crashes owning t-2 and t-3, and for 42 s c1 heartbeats and
// commits at generation 1 and nothing else happens. Every plain property holds; with a settle
// bound under 42 s rebalance-completes does not.
func classicCrashNeverExpired() history.History {
	b := newHB()
	c := history.Classic
	low, high := parts("t", 0, 1), parts("t", 2, 3)
	b.start("c1", c)
	b.start("c2", c)
	j1 := b.begin(history.Event{Kind: history.Request, Node: "c1", Proto: c, Op: history.JoinGroup, Gen: -1})
	j2 := b.begin(history.Event{Kind: history.Request, Node: "c2", Proto: c, Op: history.JoinGroup, Gen: -1})
	b.end(j1, history.Event{Member: "m1", Gen: 1, Leader: "m1", Members: []string{"m1", "m2"}})
	b.end(j2, history.Event{Member: "m2", Gen: 1, Leader: "m1"})
	b.syncTwo(1, low, high)
	b.cbAs("c1", "m1", 1, history.Assign, low)
	b.cbAs("c2", "m2", 1, history.Assign, high)
	b.instant(history.Crash, "c2")
	for range 14 {
		b.t += int64(3 * time.Second)
		b.call(history.Event{Node: "c1", Proto: c, Op: history.Heartbeat, Member: "m1", Gen: 1}, history.Event{})
		b.commitAs("c1", "m1", 1, low, "")
	}
	return b.h
}

var fixtures = []struct {
	file                string
	build               func() history.History
	ok                  bool
	violations, zombies []string
}{
	{"cooperative-clean.jsonl", cooperativeClean, true, nil, nil},
	{"consumer-zombie.jsonl", func() history.History { return consumerZombie(false) }, true,
		nil, []string{ExclusiveOwnership, RevokeBeforeAssign, CommitFromOwner}},
	{"consumer-skip-lost.jsonl", func() history.History { return consumerZombie(true) }, false,
		[]string{ExclusiveOwnership}, []string{RevokeBeforeAssign, CommitFromOwner}},
	{"classic-crash-never-expired.jsonl", classicCrashNeverExpired, true, nil, nil},
}

func TestFixtures(t *testing.T) {
	for _, fx := range fixtures {
		t.Run(fx.file, func(t *testing.T) {
			var buf bytes.Buffer
			if err := fx.build().Write(&buf); err != nil {
				t.Fatal(err)
			}
			path := filepath.Join("testdata", fx.file)
			if *update {
				if err := os.WriteFile(path, buf.Bytes(), 0o644); err != nil {
					t.Fatal(err)
				}
			}
			data, err := os.ReadFile(path)
			if err != nil {
				t.Fatal(err)
			}
			if !bytes.Equal(data, buf.Bytes()) {
				t.Fatalf("%s differs from its builder; run go test ./oracle -run TestFixtures -update and review the diff", path)
			}
			r, err := CheckReader(bytes.NewReader(data), Options{})
			if err != nil {
				t.Fatal(err)
			}
			var vs, zs []string
			for _, v := range r.Violations {
				vs = append(vs, v.Property)
			}
			for _, v := range r.Zombies {
				zs = append(zs, v.Property)
			}
			if r.OK() != fx.ok || !slices.Equal(vs, fx.violations) || !slices.Equal(zs, fx.zombies) {
				t.Errorf("OK %v violations %v zombies %v, want %v %v %v\n%s", r.OK(), vs, zs, fx.ok, fx.violations, fx.zombies, r)
			}
		})
	}
}
