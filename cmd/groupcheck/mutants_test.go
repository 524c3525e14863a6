package main

import (
	"bytes"
	"strings"
	"testing"

	"github.com/groupcheck/groupcheck/invariants"
)

// TestMutantsListing: `groupcheck mutants` names every registered fault with its bug id and
// says what catches it — a property, the bound on rounds — or why nothing does.
func TestMutantsListing(t *testing.T) {
	var out bytes.Buffer
	if code := mutants(&out); code != 0 {
		t.Fatalf("exit %d", code)
	}
	lines := strings.Split(out.String(), "\n")
	for _, m := range invariants.Mutants {
		i := 0
		for i < len(lines) && !strings.HasPrefix(lines[i], m.Fault.String()+" ") {
			i++
		}
		if i+1 >= len(lines) || !strings.Contains(lines[i], " "+m.Bug+" ") {
			t.Errorf("%s (%s) is not listed", m.Fault, m.Bug)
			continue
		}
		verdict := strings.TrimSpace(lines[i+1])
		switch {
		case len(m.Catches) > 0 && !strings.HasPrefix(verdict, "caught by: "+m.Catches[0]):
			t.Errorf("%s: %q, want caught by %s", m.Fault, verdict, m.Catches[0])
		case m.MaxRounds > 0 && !strings.Contains(verdict, "--max-rounds"):
			t.Errorf("%s: %q, want the bound on rounds", m.Fault, verdict)
		case len(m.Catches) == 0 && m.MaxRounds == 0 && verdict != "not caught: "+m.Uncaught:
			t.Errorf("%s: %q, want why it is not caught", m.Fault, verdict)
		}
	}
}

// TestMutantWorldBound: a mutant whose fault grows its world without end (B1's eviction loop)
// runs under its registered state bound when none is given, and says it was bounded.
func TestMutantWorldBound(t *testing.T) {
	var out, errb strings.Builder
	code := run([]string{"explore", "--mutant", "join-timer-zero", "--json"}, &out, &errb)
	if code != 1 || !strings.Contains(out.String(), `"stopped_by": "max-states"`) {
		t.Errorf("exit %d, want 1 and stopped_by max-states:\n%s%s", code, out.String(), errb.String())
	}
}

// TestMutantRunsItsCatch: `explore --mutant NAME` alone runs what catches the mutant, so a
// fault only liveness catches (B21) fails the run instead of exiting 0 as if it were missed.
func TestMutantRunsItsCatch(t *testing.T) {
	var out, errb strings.Builder
	code := run([]string{"explore", "--mutant", "in-flight-stuck-on-error", "--json"}, &out, &errb)
	if code != 1 || !strings.Contains(out.String(), `"name": "converges"`) || !strings.Contains(errb.String(), "--liveness") {
		t.Errorf("exit %d, want 1 with converges checked and said so:\n%s%s", code, out.String(), errb.String())
	}
}

// TestMutantChecks: which checks a mutant's own world switches on — liveness for a converges
// catch, its bound on rounds for B27 — and that an explicit flag is kept.
func TestMutantChecks(t *testing.T) {
	for _, tc := range []struct {
		name         string
		live         bool
		rounds       int
		wantLive     bool
		wantRounds   int
		wantSaysWhat string
	}{
		{name: "in-flight-stuck-on-error", wantLive: true, wantSaysWhat: "--liveness"},
		{name: "balance-moves-owned", wantRounds: 2, wantSaysWhat: "--max-rounds 2"},
		{name: "balance-moves-owned", rounds: 5, wantRounds: 5},
		{name: "eager-keeps-owned-list"},
		{name: "no-such-mutant", live: true, wantLive: true},
	} {
		var errb strings.Builder
		live, rounds := mutantChecks(tc.name, tc.live, tc.rounds, &errb)
		if live != tc.wantLive || rounds != tc.wantRounds || !strings.Contains(errb.String(), tc.wantSaysWhat) {
			t.Errorf("%s (%v, %d): got %v, %d, %q; want %v, %d, saying %q", tc.name, tc.live, tc.rounds, live, rounds, errb.String(), tc.wantLive, tc.wantRounds, tc.wantSaysWhat)
		}
		if tc.wantSaysWhat == "" && errb.Len() > 0 {
			t.Errorf("%s: says %q, want nothing", tc.name, errb.String())
		}
	}
}
