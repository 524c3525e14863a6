package franzgo

import (
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	h "github.com/groupcheck/groupcheck/conformance/harness"
	"github.com/groupcheck/groupcheck/oracle"
	"github.com/groupcheck/groupcheck/oracle/search"
)

// fixtures are failing histories recorded from real runs (kgo against kfake), replayed through
// the oracle: each must still be reported with its property, naming its node. The broken
// clients' histories are written by `go test -run TestOracleBites -fixtures`.
var fixtures = []struct {
	file, property, node string
}{
	// Source: TestOracleBites, EarlyRevokeAck (fault.go).
	{"early-revoke-ack-cooperative.jsonl", oracle.RevokeBeforeAssign, broken},
	{"early-revoke-ack-eager.jsonl", oracle.RevokeBeforeAssign, broken},
	{"early-revoke-ack-kip848.jsonl", oracle.RevokeBeforeAssign, broken},
	// Source: TestOracleBites, SkipLost (fault.go).
	{"skip-lost-cooperative.jsonl", oracle.ExclusiveOwnership, broken},
	{"skip-lost-eager.jsonl", oracle.ExclusiveOwnership, broken},
	{"skip-lost-kip848.jsonl", oracle.ExclusiveOwnership, broken},
	// Source: TestOracleBites, LateCommit (fault.go).
	{"late-commit-cooperative.jsonl", oracle.CommitFromOwner, broken},
	{"late-commit-eager.jsonl", oracle.CommitFromOwner, broken},
	{"late-commit-kip848.jsonl", oracle.CommitFromOwner, broken},
	// Source: delayed-commit against Kafka 4.4.0 (docs/real-kafka.md), 1 run of 2: b's
	// OffsetCommit, made in its end-of-session revoke callback after REBALANCE_IN_PROGRESS,
	// was held across the rebalance; Kafka removed b from generation 5, and the heartbeat
	// answered UNKNOWN_MEMBER_ID while the revoke still ran. kgo logs "heartbeat errored
	// again while waiting for user revoke to finish" and, on that path, never calls
	// OnPartitionsLost (consumer_group.go, the heartbeat loop's `revoked != nil` branch,
	// v1.22.3): it rejoined with a new member ID claiming t1/1 and t2/1 as owned and kept
	// them until generation 6 revoked them, 191 ms after a and d were assigned them.
	{"unknown-member-rejoin-owning-delayed-commit-cooperative.jsonl", oracle.ExclusiveOwnership, "b"},
}

// linFixtures are real runs whose coordinator answers no reference coordinator could give:
// findings about kfake, caught by the reference search (at seq, the first answer no
// behaviour gives), the linearizability check (want) and, where they need no search, by a
// plain coordinator check (property).
var linFixtures = []struct {
	file, want, property string
	seq                  int64
}{
	// Source: a soak run of cooperative/crash. The crashed member b led generation 3; when
	// generation 4 completed without it, kfake's completeRebalance (groups.go) picks a new
	// leader inside its loop over the members without remembering it found one, so it makes
	// every member leader in turn and sends each its JoinGroup response as it goes: a and c
	// were both told they lead generation 4 (and both got the member list).
	// The plain check's one-leader-per-generation sees it too.
	// The search stops at a's answer, the first of the two; the linearizability check, whose
	// porcupine orders them either way, names c's among the requests no order places next.
	{"kfake-two-leaders-cooperative.jsonl", "- id=131 c JoinGroup", oracle.OneLeaderPerGeneration, 276},
}

func TestLinearizabilityFixtures(t *testing.T) {
	for _, fx := range linFixtures {
		f, err := os.Open(filepath.Join("testdata", fx.file))
		if err != nil {
			t.Fatal(err)
		}
		rep, err := oracle.CheckReader(f, oracle.Options{Linearizability: oracle.Linearizable(time.Minute)})
		f.Close()
		if err != nil {
			t.Fatal(err)
		}
		if rep.Linearizable == oracle.LinYes || !strings.Contains(rep.Linearizable, fx.want) {
			t.Errorf("%s: linearizable %q, want a failure saying %q", fx.file, rep.Linearizable, fx.want)
		}
		if want := fmt.Sprintf("%s at event %d:", search.Violated, fx.seq); !strings.HasPrefix(rep.Reference, want) {
			t.Errorf("%s: reference %q, want %q", fx.file, rep.Reference, want)
		}
		v := h.Verdict{Report: rep}
		if !v.Has(fx.property, oracle.ClassViolation, "") {
			t.Errorf("%s: the plain check misses the coordinator's %s:\n%s", fx.file, fx.property, rep)
		}
		// The group kfake broke may never settle (sarama, cooperative-sticky/burst): that
		// timeout is the deviation's too; any other run error is not.
		v.RunErr = fmt.Errorf("step 9 (settle): %w after 30s: still changing", h.ErrNotSettled)
		v.ClassifyKnown()
		// Known: the linearizability check's failure, the plain finding, the search's, the timeout.
		if len(v.Report.Violations) != 0 || len(v.Known) != 4 || !v.OK() {
			t.Errorf("%s: the clients did nothing wrong, yet %d violations, run error %v (known: %q):\n%s", fx.file, len(v.Report.Violations), v.RunErr, v.Known, rep)
		}
		other := h.Verdict{Report: rep, RunErr: errors.New("step 3 (leave b): hung")}
		if other.ClassifyKnown(); other.OK() {
			t.Errorf("%s: a hung leave was taken for the kfake deviation", fx.file)
		}
	}
}

func TestFixtures(t *testing.T) {
	listed := map[string]bool{}
	for _, fx := range linFixtures {
		listed[fx.file] = true
	}
	for _, fx := range fixtures {
		listed[fx.file] = true
		t.Run(strings.TrimSuffix(fx.file, ".jsonl"), func(t *testing.T) {
			f, err := os.Open(filepath.Join("testdata", fx.file))
			if err != nil {
				t.Fatal(err)
			}
			defer f.Close()
			rep, err := oracle.CheckReader(f, oracle.Options{Linearizability: oracle.Linearizable(time.Minute)})
			if err != nil {
				t.Fatal(err)
			}
			if !(h.Verdict{Report: rep}).Has(fx.property, oracle.ClassViolation, fx.node) {
				t.Errorf("want a %s violation naming %s:\n%s", fx.property, fx.node, rep)
			}
			// The faults are the client's: kfake's coordinator still answers as the
			// reference coordinator could have.
			if rep.Linearizable != oracle.LinYes {
				t.Errorf("coordinator operations: linearizable %q, want %q", rep.Linearizable, oracle.LinYes)
			}
		})
	}
	// Every history in testdata/ must be listed with what it shows.
	files, err := filepath.Glob(filepath.Join("testdata", "*.jsonl"))
	if err != nil {
		t.Fatal(err)
	}
	for _, f := range files {
		if !listed[filepath.Base(f)] {
			t.Errorf("%s is not listed in fixtures", f)
		}
	}
}
