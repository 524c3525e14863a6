package mutate

import (
	"io"
	"os"
	"slices"
	"testing"

	"github.com/groupcheck/groupcheck/invariants"
)

// TestKillableKilledEquivalentSurvives builds the coordinator's schemata and runs two of its
// mutants on the tiny world of B3 (a leader hangs in its assignor; the sync timer removes it):
// a completed sync that never makes the group Stable is caught, and swapping the arguments of
// sameProtocols, an equality, changes nothing. It builds the whole binary, so it runs only
// under GROUPCHECK_LONG.
func TestKillableKilledEquivalentSurvives(t *testing.T) {
	if os.Getenv("GROUPCHECK_LONG") == "" {
		t.Skip("builds the mutated binary; set GROUPCHECK_LONG=1")
	}
	m, _ := invariants.LookupMutant("no-sync-timer")
	const (
		killable   = "impl/coordinator/sync.go|(step).completeSync|drop|s.transition(Stable)"
		equivalent = "impl/coordinator/join.go|(step).knownMemberJoin|swap|sameProtocols(m.Protocols, req.Protocols)"
	)
	rep, err := Run(Options{Root: "..", Packages: []string{"impl/coordinator"}, Exclude: []string{"encode.go"}, Jobs: 2,
		Suite:  []World{{Name: "hang", Text: m.World}},
		Select: func(m Mutant) bool { return m.Key == killable || m.Key == equivalent },
		Log:    io.Discard})
	if err != nil {
		t.Fatal(err)
	}
	got := map[string]Result{}
	for _, r := range rep.Results {
		got[r.Key] = r
	}
	if r := got[killable]; r.Status != Killed {
		t.Errorf("%s: %s, want killed", killable, r.Verdict)
	}
	if r := got[equivalent]; r.Status != Survived {
		t.Errorf("%s: %s, want survived (reached, and an equality is symmetric)", equivalent, r.Verdict)
	}
	if len(got) != 2 {
		t.Errorf("%d mutants run, want 2: %v", len(got), got)
	}
}

// TestGroupMaxSizeBites: the group-max-size property catches an off-by-one in the classic
// capacity check (a second member admitted to a group of at most one) in the suite's
// eager/group-max-size world, where no other property does. Long, as above.
func TestGroupMaxSizeBites(t *testing.T) {
	if os.Getenv("GROUPCHECK_LONG") == "" {
		t.Skip("builds the mutated binary; set GROUPCHECK_LONG=1")
	}
	const offByOne = "impl/coordinator/join.go|(step).acceptJoiningMember|boundary|s.g.numAwaitingJoin() < max"
	var world World
	for _, w := range Suite() {
		if w.Name == "eager/group-max-size" {
			world = w
		}
	}
	rep, err := Run(Options{Root: "..", Packages: []string{"impl/coordinator"}, Exclude: []string{"encode.go"}, Jobs: 1,
		Suite: []World{world}, Select: func(m Mutant) bool { return m.Key == offByOne }, Log: io.Discard})
	if err != nil {
		t.Fatal(err)
	}
	if len(rep.Results) != 1 || rep.Results[0].Status != Killed || !slices.Equal(rep.Results[0].Killers, []string{"group-max-size"}) {
		t.Errorf("%s: %+v, want killed by group-max-size alone", offByOne, rep.Results)
	}
}
