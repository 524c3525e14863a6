package main

import (
	"strings"
	"testing"

	"github.com/groupcheck/groupcheck/explorer"
	"github.com/groupcheck/groupcheck/spec"
)

// A run's output opens with its answer: the summary line, then each violation with its
// counterexample (once per distinct path), then the expected violations in one line each,
// then the verdicts by origin, promises first.
func TestExploreOpensWithItsAnswer(t *testing.T) {
	code, out, errs := runCLI(t, "explore", "--config", writeConfig(t, buggy))
	if code != 1 {
		t.Fatalf("exit %d, want 1\n%s%s", code, out, errs)
	}
	first, _, _ := strings.Cut(out, "\n")
	if want := "world.conf: 33 hold, 1 expected, 5 violated, 0 unknown; exhaustive (3,330 states, depth 40, "; !strings.HasPrefix(first, want) {
		t.Errorf("first line %q, want it to start %q", first, want)
	}
	order := []string{
		"\nVIOLATED exclusive-ownership (promise): (t-1) owned by a",
		"\nshortest counterexample, 26 steps:\n",
		"\nVIOLATED exclusive-ownership-strict (promise)",
		"\nthe same counterexample as exclusive-ownership, 26 steps\n",
		"\nexpected no-orphan-member: a crashed process's member waits for its session timer\n",
		"--show-expected prints their counterexamples",
		"\nProtocol promises:\n",
		"\nConformance to the Apache Kafka broker's group coordinator:\n",
		"\nVacuity guards:\n",
		"\nactions never enabled: ",
		"\nworld world.conf: 3330 distinct states",
	}
	inOrder(t, out, order)
	if strings.Contains(out, "expected (does not fail the run): no-orphan-member") {
		t.Errorf("an expected violation's counterexample printed without --show-expected")
	}
	if !strings.Contains(out, "  expected   always     no-orphan-member ") {
		t.Errorf("the verdict row of an expected violation does not say expected")
	}
	for _, l := range strings.Split(out, "\n") {
		if strings.HasPrefix(l, "  holds ") && len([]rune(l)) > rowWidth+1 {
			t.Errorf("verdict row %d wide, want at most %d: %s", len([]rune(l)), rowWidth+1, l)
		}
	}
}

// --show-expected prints an expected violation's counterexample, marked as not failing.
func TestExploreShowExpected(t *testing.T) {
	_, out, _ := runCLI(t, "explore", "--config", writeConfig(t, buggy), "--show-expected", "--property", "no-orphan-member")
	for _, want := range []string{
		"world.conf: 0 hold, 1 expected, 0 violated, 0 unknown; stopped early: every always-property is violated (57 states, depth 5, ",
		"\nexpected (does not fail the run): no-orphan-member (promise): ",
		"shortest counterexample, ",
		"  why expected: a crashed process's member waits for its session timer\n",
	} {
		if !strings.Contains(out, want) {
			t.Errorf("output lacks %q:\n%s", want, out)
		}
	}
}

// A bounded run explains unknown and the actions never enabled where they appear; it exits 0
// when it decided something, and exitUndecided when it decided nothing.
func TestExploreBoundedExplainsUnknown(t *testing.T) {
	for _, tc := range []struct {
		depth, code int
		first       string
	}{
		{10, exitUndecided, "world.conf: 0 hold, 0 expected, 0 violated, 39 unknown; BOUNDED by max-depth, no property decided (70 states, depth 10, "},
		{20, 0, "world.conf: 1 hold, 0 expected, 0 violated, 38 unknown; BOUNDED by max-depth (206 states, depth 20, "},
	} {
		code, out, _ := runCLI(t, "explore", "--config", writeConfig(t, tiny), "--max-depth", itoa(tc.depth))
		if code != tc.code || !strings.HasPrefix(out, tc.first) {
			t.Errorf("--max-depth %d: exit %d, first line %q; want %d, %q", tc.depth, code, strings.SplitN(out, "\n", 2)[0], tc.code, tc.first)
		}
		for _, want := range []string{
			"(unknown: the search stopped at its bound first; an always-property held in every state explored, a sometimes-property was not reached in them)",
			"(no state explored enables them: ",
		} {
			if !strings.Contains(out, want) {
				t.Errorf("--max-depth %d: output lacks %q", tc.depth, want)
			}
		}
	}
}

// --property narrows a run to the named properties, in report order whatever the order of the
// flags; a name that is no property, does not apply, or needs --liveness is an error.
func TestExploreProperty(t *testing.T) {
	code, out, errs := runCLI(t, "explore", "--config", writeConfig(t, tiny), "--property", "converged-reachable", "--property", "join-answer,exclusive-ownership")
	if code != 0 || !strings.HasPrefix(out, "world.conf: 3 hold, 0 expected, 0 violated, 0 unknown; exhaustive") {
		t.Fatalf("exit %d\n%s%s", code, out, errs)
	}
	rows := []string{"holds      always     exclusive-ownership ", "holds      always     join-answer ", "holds      sometimes  converged-reachable "}
	at := 0
	for _, r := range rows {
		i := strings.Index(out[at:], r)
		if i < 0 {
			t.Fatalf("no row %q after byte %d:\n%s", r, at, out)
		}
		at += i
	}
	if strings.Count(out, "\n  holds ") != 3 {
		t.Errorf("want 3 verdict rows:\n%s", out)
	}
	// A liveness property named with --liveness is the only one reported.
	code, out, errs = runCLI(t, "explore", "--config", writeConfig(t, tiny), "--liveness", "--property", "converges")
	if code != 0 || !strings.HasPrefix(out, "world.conf: 1 hold, 0 expected, 0 violated, 0 unknown; exhaustive") || !strings.Contains(out, "  holds      eventually converges ") {
		t.Errorf("--liveness --property converges: exit %d\n%s%s", code, out, errs)
	}
	for _, tc := range []struct{ name, want string }{
		{"exclusive-ownershp", "groupcheck explore: --property exclusive-ownershp: no such property (did you mean exclusive-ownership?); groupcheck properties lists them\n"},
		{"kip848-epoch-monotonic", "groupcheck explore: --property kip848-epoch-monotonic: does not apply to world world.conf"},
		{"converges", "groupcheck explore: --property converges: it is decided by the liveness check: add --liveness\n"},
	} {
		code, _, errs := runCLI(t, "explore", "--config", writeConfig(t, tiny), "--property", tc.name)
		if code != 2 || !strings.HasPrefix(errs, tc.want) {
			t.Errorf("--property %s: exit %d, stderr %q; want 2, %q", tc.name, code, errs, tc.want)
		}
	}
}

// simulate opens with its answer too: the violations counted, each unexpected one with its
// trace, each expected one in one line unless --show-expected, the walks' figures last.
func TestSimulateOpensWithItsAnswer(t *testing.T) {
	conf := writeConfig(t, buggy)
	code, out, errs := runCLI(t, "simulate", "--config", conf, "--walks", "50", "--seed", "1")
	if code != 1 {
		t.Fatalf("exit %d\n%s%s", code, out, errs)
	}
	order := []string{
		"world.conf: 1 violated, 1 expected in 50 random walks of seed 1; a sample: what no walk violated is not proven\n",
		"\nrevoke-before-reassign violated in 5 walk(s), first in walk 7; shrunk to 17 steps:\n",
		"\nexpected no-orphan-member (in ",
		"--show-expected prints their traces",
		"\nworld world.conf: 50 random walks (seed 1), ",
	}
	inOrder(t, out, order)
	if strings.Contains(out, "no-orphan-member violated in") {
		t.Error("an expected violation's trace printed without --show-expected")
	}
	_, out, _ = runCLI(t, "simulate", "--config", conf, "--walks", "50", "--seed", "1", "--show-expected")
	if !strings.Contains(out, "no-orphan-member violated in ") || strings.Contains(out, "\nexpected no-orphan-member (in ") {
		t.Errorf("--show-expected does not print the expected violation's trace:\n%s", out)
	}
}

// inOrder fails the test unless out holds each of wants, in that order.
func inOrder(t *testing.T, out string, wants []string) {
	t.Helper()
	at := 0
	for _, want := range wants {
		i := strings.Index(out[at:], want)
		if i < 0 {
			t.Fatalf("after byte %d the output lacks %q:\n%s", at, want, out)
		}
		at += i + len(want)
	}
}

// An unreached vacuity guard is a failure the output names at its top, with what it means.
func TestUnreachedIsNamed(t *testing.T) {
	p := propertyReport{Name: "converged-reachable", Kind: "sometimes", Status: "unreached", Statement: "a converged group is reachable", Source: "the model's own guard"}
	p.setOrigin()
	r := &report{Config: "w", Exhaustive: true, Distinct: 7, Properties: []propertyReport{p}, paths: make([]*explorer.Path[spec.World, spec.Action], 1)}
	var b strings.Builder
	r.writeText(&b, false)
	inOrder(t, b.String(), []string{
		"w: 0 hold, 0 expected, 0 violated, 1 unreached, 0 unknown; exhaustive (7 states, ",
		"\nUNREACHED converged-reachable (vacuity guard): no reachable state satisfies it, so what it guards may hold vacuously\n  a converged group is reachable\n",
		"\nVacuity guards:\n  unreached  sometimes  converged-reachable ",
	})
	if !r.failed() {
		t.Error("an unreached guard does not fail the run")
	}
}
