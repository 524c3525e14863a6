package traces

import (
	"fmt"
	"slices"
	"testing"

	"github.com/groupcheck/groupcheck/impl"
	"github.com/groupcheck/groupcheck/impl/kip848"
	"github.com/groupcheck/groupcheck/spec"
)

// kip1251World is worlds/tests/two-kip848-crash-commits: two KIP-848 members, a crash,
// commits, under KIP-1251's commit rule (the default).
const kip1251World = "protocol consumer\nconsumer kafka\ncoordinator kafka\nassignor uniform\ntopic t 2\n" +
	"member a topics=t\nmember b topics=t\nbudget crashes=1\ncommits on\n"

// olderCommitAccepted is the scenario's goal: the coordinator accepts an OffsetCommit whose
// member epoch is older than the member's (KIP-1251; docs/protocol.md §3.1).
func olderCommitAccepted(s step) bool {
	for _, e := range s.ev {
		if c, ok := e.(spec.CommitEvent); ok && c.Error == impl.None {
			if m, ok := s.pre.Group.Member(c.MemberID); ok && impl.Epoch(c.Generation) < m.MemberEpoch {
				return true
			}
		}
	}
	return false
}

// The scenario's traces: the same actions under each commit rule.
const (
	kip1251Trace = "scenarios/kip1251-older-epoch-commit.trace"
	exactTrace   = "scenarios/kip1251-older-epoch-commit-exact.trace"
)

// TestKIP1251Scenario: the explorer's shortest behaviour in which a commit at an older epoch
// is accepted (KIP-1251, Kafka 4.3 on) is kept in scenarios/kip1251-older-epoch-commit.trace;
// the same actions under the rule of Kafka 4.0 to 4.2 (commit-epochs exact) refuse that
// commit with STALE_MEMBER_EPOCH (…-exact.trace). Regenerate both with go test ./traces -run
// TestKIP1251Scenario -rewrite. Reference: docs/protocol.md §3.1.
func TestKIP1251Scenario(t *testing.T) {
	c, err := spec.ParseConfigString("kip1251-older-epoch-commit", "name kip1251-older-epoch-commit\n"+kip1251World)
	if err != nil {
		t.Fatal(err)
	}
	acts, _, ok := bfsPath(spec.Init(c), olderCommitAccepted)
	if !ok {
		t.Fatal("no older-epoch commit is accepted")
	}
	exact := c
	exact.Name, exact.CommitRule = "kip1251-older-epoch-commit-exact", kip848.CommitExactEpoch
	// The goal's commit is the last step's: accepted under KIP-1251, refused under exact.
	for _, tc := range []struct {
		cfg  spec.Config
		want impl.ErrorCode
	}{{c, impl.None}, {exact, impl.StaleMemberEpoch}} {
		if got := lastCommit(t, tc.cfg, acts); got != tc.want {
			t.Errorf("%s: the last step's commit answered %s, want %s", tc.cfg.CommitRule, got, tc.want)
		}
	}
	found := fmt.Sprintf("bfs shortest, %d steps to an OffsetCommit accepted at an epoch older than the member's (TestKIP1251Scenario's goal), then a's two answers delivered", len(acts))
	// Then a reads its answers: the heartbeat's (epoch 3), then the commit's, which tells the
	// application whether its offsets were stored.
	for range 2 {
		a, err := spec.ParseAction(&c, "deliver-response a")
		if err != nil {
			t.Fatal(err)
		}
		acts = append(acts, a)
	}
	if *rewrite {
		writeScenario(t, kip1251Trace, c, acts, found, "the commit is accepted: each partition in it was assigned to the member at or before the commit's epoch (ConsumerGroup.createAssignmentEpochValidator)")
		writeScenario(t, exactTrace, exact, acts, found+", under commit-epochs exact", "the commit is refused with STALE_MEMBER_EPOCH: Kafka 4.0 to 4.2 accept only the member's epoch (ConsumerGroup.validateOffsetCommit)")
	}
	for _, f := range []string{kip1251Trace, exactTrace} {
		tr := parseFile(t, f)
		if got, want := actionTexts(tr.Config, tr.Actions()), actionTexts(c, acts); !slices.Equal(got, want) {
			t.Errorf("%s is not the shortest behaviour (regenerate with -rewrite): %v, want %v", f, got, want)
		}
	}
}

// lastCommit runs acts in cfg and returns the answer to the commit of the last step.
func lastCommit(t *testing.T, cfg spec.Config, acts []spec.Action) impl.ErrorCode {
	t.Helper()
	w := spec.Init(cfg)
	var ev []spec.Event
	for _, a := range acts {
		var ok bool
		if w, ev, ok = spec.Step(w, a); !ok {
			t.Fatalf("%s: %s not enabled", cfg.CommitRule, a.Text(&cfg))
		}
	}
	for _, e := range ev {
		if c, ok := e.(spec.CommitEvent); ok {
			return c.Error
		}
	}
	t.Fatalf("%s: the last step commits nothing: %v", cfg.CommitRule, ev)
	return 0
}

func actionTexts(cfg spec.Config, acts []spec.Action) []string {
	out := make([]string, len(acts))
	for i, a := range acts {
		out[i] = a.Text(&cfg)
	}
	return out
}

func writeScenario(t *testing.T, path string, c spec.Config, acts []spec.Action, found, outcome string) {
	t.Helper()
	h := Header{
		About: []string{
			"KIP-1251 (Kafka 4.3 on): a member's commit sent at one epoch reaches the coordinator after",
			"the member has moved to a newer one, for partitions it still holds; " + outcome + ".",
			"docs/protocol.md §3.1 (OffsetCommit; KIP-1251).",
		},
		Found: found,
	}
	rewriteFile(t, path, New(c.Name, h, c, acts))
}
