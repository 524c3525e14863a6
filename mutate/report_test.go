package mutate

import (
	"slices"
	"testing"
)

// TestMergeResults: a rerun's verdicts replace a stopped run's, but its kills stand, and
// mutants keep the order they first appeared in.
func TestMergeResults(t *testing.T) {
	r := func(key, status string) Result {
		return Result{Mutant: Mutant{Key: key}, Verdict: Verdict{Status: status}}
	}
	first := []Result{r("a", Killed), r("b", Survived), r("c", NotReached)}
	rerun := []Result{r("b", Killed), r("a", Survived), r("d", NotInfected)}
	var got []string
	for _, x := range MergeResults(first, rerun) {
		got = append(got, x.Key+"="+x.Status)
	}
	want := []string{"a=killed", "b=killed", "c=not-reached", "d=not-infected"}
	if !slices.Equal(got, want) {
		t.Errorf("merged %v, want %v", got, want)
	}
}
