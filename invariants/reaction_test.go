package invariants

import (
	"slices"
	"strings"
	"testing"

	"github.com/groupcheck/groupcheck/explorer"
	"github.com/groupcheck/groupcheck/impl"
	"github.com/groupcheck/groupcheck/impl/consumer"
	"github.com/groupcheck/groupcheck/spec"
)

// reactionProps are the properties about reaction, each of which holds on every preset or
// is violated there only for a reason it names (Expected).
var reactionProps = []string{"fenced-means-stop", "no-orphan-member", "answers-expected", "commit-before-revoke"}

// TestReactionPropertiesHoldOnPresets explores the presets with the reaction properties
// alone (a state property never changes the state space, and a step property only when it
// fails): each holds, or fails only where it expects to. The small presets run by default,
// all of them under GROUPCHECK_LONG.
func TestReactionPropertiesHoldOnPresets(t *testing.T) {
	t.Parallel()
	small := map[string]bool{"upgrade-v0-leader": true, "upgrade-bounce1": true, "kip848-kafka": true, "kip848-kip": true, "kip848-static": true}
	for _, p := range spec.Presets {
		if !small[p.Name] && !long() {
			continue
		}
		t.Run(p.Name, func(t *testing.T) {
			c, err := p.Config()
			if err != nil {
				t.Fatal(err)
			}
			var props []Property
			for _, name := range reactionProps {
				q, _ := Lookup(name)
				props = append(props, q)
			}
			m := NewModelWith(c, props)
			// The three-member presets are not exhaustive within any test's time (README
			// Results): they are judged on their first 3 M states, and the test says so.
			r := explorer.Check[spec.World, spec.Action](m, m.Properties(), explorer.Options{MaxStates: 3_000_000})
			if !r.Exhaustive {
				t.Logf("bounded (%s at %d states): holds means held in the states explored", r.StoppedBy, r.Distinct)
			}
			for _, q := range r.Properties {
				p, _ := Lookup(q.Name)
				if q.Status != explorer.Holds && (q.Status != explorer.Violated || p.ExpectedViolation(c) == "") {
					t.Errorf("%s: %s, want holds (%v)", q.Name, q.Status, pathText(c, q.Path))
				}
			}
		})
	}
}

// TestFencedMeansStopIsTheOnlyCatch: the two classic reaction mutants (sarama's handling of
// a fencing answer on Heartbeat and on OffsetCommit) still converge, with the rounds bounded;
// with fenced-means-stop they are caught, and TestMutantsAreCaught checks that no other
// safety property is. Before it, nothing noticed them. The KIP-848 one loops (its fenced
// epoch is never accepted again), so converges catches it too, later in the trace.
func TestFencedMeansStopIsTheOnlyCatch(t *testing.T) {
	if !long() {
		t.Skip("builds two liveness graphs of 70k and 145k states (GROUPCHECK_LONG)")
	}
	for _, f := range []impl.Fault{impl.FaultHeartbeatFencingAsRebalance, impl.FaultCommitIgnoresFencing} {
		m, _ := LookupMutant(f.String())
		c, err := m.Config()
		if err != nil {
			t.Fatal(err)
		}
		l := Liveness(c, 1_000_000)
		if l.Status != explorer.Holds || l.Rounds.Rebalances == Unbounded {
			t.Errorf("%s: converges %s, rounds %d; want holds and bounded", f, l.Status, l.Rounds.Rebalances)
		}
	}
}

// TestKIP848CommitFencingKeepsEpoch pins why fenced-means-stop leaves the KIP-848 OffsetCommit
// out: Java's KIP-848 consumer (CommitRequestManager) answers a commit's UNKNOWN_MEMBER_ID with
// a failed commit only, so a removed member keeps its epoch and partition until its next
// heartbeat, which fences it. The classic consumer resets on the same answer.
func TestKIP848CommitFencingKeepsEpoch(t *testing.T) {
	c := config(t, "protocol consumer\nconsumer kafka\ncoordinator kafka\nassignor uniform\ntopic t 1\nmember a topics=t\nmember b topics=t\nbudget session-timeouts=1\ncommits on\n")
	ws := walk(t, c, "deliver-request a", "deliver-response a", "deliver-request a", "deliver-response a",
		"commit a", "session-expiry a#1", "deliver-request a", "deliver-response a")
	a := ws[len(ws)-1].Slots[0].Member
	if a.Epoch() != 1 || !a.Owned().Equal(impl.NewPartitionSet(impl.TopicPartition{Topic: "t", Partition: 0})) {
		t.Fatalf("after the commit's UNKNOWN_MEMBER_ID a holds epoch %d and %s; want Java's: epoch 1, (t-0)", a.Epoch(), a.Owned())
	}
	if why := fencedMeansStop.Step(&ws[len(ws)-2], stepEvents(t, ws[len(ws)-2], "deliver-response a"), &ws[len(ws)-1]); why != "" {
		t.Errorf("fenced-means-stop judges the KIP-848 commit: %s", why)
	}
	// The heartbeat that follows is fenced, and then a gives the epoch up.
	ws = walk(t, c, append([]string{"deliver-request a", "deliver-response a", "deliver-request a", "deliver-response a",
		"commit a", "session-expiry a#1", "deliver-request a", "deliver-response a"}, "heartbeat a", "deliver-request a", "deliver-response a")...)
	if e := ws[len(ws)-1].Slots[0].Member.Epoch(); e == 1 {
		t.Errorf("the fenced heartbeat left a at epoch 1")
	}
}

// stepEvents are the events of action s in w.
func stepEvents(t *testing.T, w spec.World, s string) []spec.Event {
	t.Helper()
	a, err := spec.ParseAction(w.Config(), s)
	if err != nil {
		t.Fatal(err)
	}
	_, ev, ok := spec.Step(w, a)
	if !ok {
		t.Fatalf("%q is not enabled", s)
	}
	return ev
}

// TestFencedMeansStopReasons: on the classic heartbeat the correct consumer resets in the step
// that delivers UNKNOWN_MEMBER_ID (the property holds on that step), and the faulty one keeps
// a#1 at generation 1, which the property names.
func TestFencedMeansStopReasons(t *testing.T) {
	script := append(append([]string{}, stableScript...), "session-expiry a#1", "heartbeat a", "deliver-request a")
	for _, tc := range []struct {
		fault bool
		want  string
	}{
		{false, ""},
		{true, "a is told UNKNOWN_MEMBER_ID for its Heartbeat under a#1@1, and keeps that identity"},
	} {
		c := config(t, twoMembers+"budget session-timeouts=1\n")
		if tc.fault {
			c.Faults = c.Faults.With(impl.FaultHeartbeatFencingAsRebalance)
		}
		ws := walk(t, c, script...)
		pre := ws[len(ws)-1]
		ev := stepEvents(t, pre, "deliver-response a")
		post := walk(t, c, append(script, "deliver-response a")...)
		if got := fencedMeansStop.Step(&pre, ev, &post[len(post)-1]); got != tc.want {
			t.Errorf("fault %v: %q, want %q", tc.fault, got, tc.want)
		}
	}
}

// TestOrphanCauses: in two-member worlds with one kind of environment event, no-orphan-member
// is violated exactly where orphanCauses names a cause (and its shortest counterexample is
// short), and holds elsewhere: a classic dynamic member's lost JoinGroup answer orphans
// nothing (KIP-394 names the member first), a KIP-848 member's lost first heartbeat answer
// does (KAFKA-17116), and a pause orphans nothing in either protocol, with or without commits
// (the paused process goes on under its id: spec.World.Orphans).
func TestOrphanCauses(t *testing.T) {
	t.Parallel()
	kip848 := "protocol consumer\nconsumer kafka\ncoordinator kafka\nassignor uniform\ntopic t 2\nmember a topics=t\nmember b topics=t\n"
	static := "protocol consumer\nconsumer kafka\ncoordinator kafka\nassignor uniform\ntopic t 2\nmember a topics=t static\nmember b topics=t static\n"
	for _, tc := range []struct {
		name, world string
		orphan      bool
		steps       int // of the shortest counterexample
	}{
		{"classic, a crash", twoMembers + "budget crashes=1\n", true, 5},
		{"classic, a leave", twoMembers + "budget leaves=1\n", false, 0},
		{"classic static, a leave", strings.Replace(twoMembers, "member b topics=t", "member b topics=t static", 1) + "budget leaves=1\n", true, 3},
		{"classic, a lost response", twoMembers + "budget lost-responses=1\n", false, 0},
		{"classic, a hang", twoMembers + "budget hangs=1\n", false, 0},
		{"classic, a pause", twoMembers + "budget pauses=1\n", false, 0},
		{"KIP-848, a crash", kip848 + "budget crashes=1\n", true, 2},
		{"KIP-848, a lost response", kip848 + "budget lost-responses=1\n", true, 2},
		{"KIP-848, a pause", kip848 + "budget pauses=1\n", false, 0},
		{"KIP-848, a pause, commits", kip848 + "budget pauses=1\ncommits on\n", false, 0},
		{"KIP-848, a pause, commits at the exact epoch", kip848 + "budget pauses=1\ncommits on\ncommit-epochs exact\n", false, 0},
		{"KIP-848 static, a restart", static + "budget restarts=1\n", true, 2},
		{"KIP-848 static, a lost response", static + "budget lost-responses=1\n", true, 2},
		{"KIP-848, an unsubscribe", strings.Replace(kip848, "member a topics=t\n", "member a topics=t alt-topics=-\n", 1) + "budget subscription-changes=1\n", true, 3},
		{"mixed, a dynamic bounce", twoMembers + "budget bounces=1\n", false, 0},
		{"mixed static, a bounce", strings.Replace(twoMembers, "member a topics=t", "member a topics=t static", 1) + "budget bounces=1\n", true, 3},
	} {
		t.Run(tc.name, func(t *testing.T) {
			c := config(t, tc.world)
			m := NewModelWith(c, []Property{noOrphanMember})
			r := explorer.Check[spec.World, spec.Action](m, m.Properties(), explorer.Options{})
			p := r.Properties[0]
			if got := p.Status == explorer.Violated; got != tc.orphan {
				t.Fatalf("violated %v, want %v", got, tc.orphan)
			}
			if (orphanCauses(c) != "") != tc.orphan {
				t.Errorf("orphanCauses %q disagrees", orphanCauses(c))
			}
			if tc.orphan && len(p.Path.Steps) != tc.steps {
				t.Errorf("shortest counterexample %v, want %d steps", pathText(c, p.Path), tc.steps)
			}
		})
	}
}

// TestFencedMeansStopLeavesAndFranzGoCommits: a classic member's LeaveGroup (here a poll
// timeout's) gives its member id up in the same step, and franz-go's reaction to a commit
// answered UNKNOWN_MEMBER_ID is a rejoin; the property holds on the model's steps and names a
// member that keeps its member id after leaving, or a franz-go client that ignores the answer.
func TestFencedMeansStopLeavesAndFranzGoCommits(t *testing.T) {
	forge := func(w spec.World, change func(*consumer.Consumer)) spec.World {
		s := *w.Slots[0]
		c := *s.Client
		change(&c)
		s.Client = &c
		w.Slots = slices.Clone(w.Slots)
		w.Slots[0] = &s
		return w
	}
	for _, tc := range []struct {
		name, world string
		script      []string
		step        string
		forge       func(pre spec.World) func(*consumer.Consumer)
		want        string
	}{
		{"leave", twoMembers + "budget poll-timeouts=1\n", stableScript, "poll-timeout a",
			func(pre spec.World) func(*consumer.Consumer) {
				return func(c *consumer.Consumer) { c.Gen = pre.Slots[0].Client.Gen }
			}, "a leaves the group as a#1 and keeps that member id"},
		{"franz-go commit", twoMembers + "budget session-timeouts=1\ncommits franz-go\n",
			append(append([]string{}, stableScript...), "commit a", "session-expiry a#1", "deliver-request a"), "deliver-response a",
			func(spec.World) func(*consumer.Consumer) {
				return func(c *consumer.Consumer) { c.RejoinNeeded = false }
			}, "a is told UNKNOWN_MEMBER_ID for its OffsetCommit under a#1@1, and keeps that identity"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			c := config(t, tc.world)
			ws := walk(t, c, tc.script...)
			pre := ws[len(ws)-1]
			ev := stepEvents(t, pre, tc.step)
			post := walk(t, c, append(tc.script, tc.step)...)
			good := post[len(post)-1]
			if got := fencedMeansStop.Step(&pre, ev, &good); got != "" {
				t.Errorf("the model's step: %q", got)
			}
			if got := fencedMeansStop.Step(&pre, ev, ptr(forge(good, tc.forge(pre)))); got != tc.want {
				t.Errorf("forged: %q, want %q", got, tc.want)
			}
		})
	}
}

// TestAnswersExpected: the model hands a classic client only answers to requests it has in
// flight (the SyncGroup answer of stableScript's first member), and the property names a
// client handed one whose request it no longer tracks.
func TestAnswersExpected(t *testing.T) {
	c := config(t, twoMembers)
	ws := walk(t, c, stableScript[:len(stableScript)-2]...)
	pre := ws[len(ws)-1]
	ev := stepEvents(t, pre, "deliver-response a")
	post := walk(t, c, stableScript[:len(stableScript)-1]...)
	if got := answersExpected.Step(&pre, ev, &post[len(post)-1]); got != "" {
		t.Errorf("the model's step: %q", got)
	}
	s := *pre.Slots[0]
	s.Client.Requests[consumer.KindSync] = consumer.Pending{}
	forged := pre
	forged.Slots = slices.Clone(pre.Slots)
	forged.Slots[0] = &s
	want := "a is handed a SyncGroup answer (NONE) with no SyncGroup in flight"
	if got := answersExpected.Step(&forged, ev, &post[len(post)-1]); got != want {
		t.Errorf("forged: %q, want %q", got, want)
	}
}
