package coordinator

import (
	"fmt"
	"testing"

	"github.com/google/go-cmp/cmp"
)

// allowed is docs/protocol.md §1.3's predecessor table written out as edges, independently of the code.
var allowed = map[[2]State]bool{
	{PreparingRebalance, Empty}:               true,
	{Stable, PreparingRebalance}:              true,
	{CompletingRebalance, PreparingRebalance}: true,
	{Empty, PreparingRebalance}:               true,
	{PreparingRebalance, CompletingRebalance}: true,
	{CompletingRebalance, Stable}:             true,
	{Stable, Dead}:                            true,
	{PreparingRebalance, Dead}:                true,
	{CompletingRebalance, Dead}:               true,
	{Empty, Dead}:                             true,
	{Dead, Dead}:                              true,
}

func TestCanTransition(t *testing.T) {
	// Reference: docs/protocol.md §1.3 (ClassicGroupState allowed predecessors).
	for from := Empty; from <= Dead+1; from++ {
		for to := Empty; to <= Dead+1; to++ {
			if got, want := CanTransition(from, to), allowed[[2]State{from, to}]; got != want {
				t.Errorf("CanTransition(%v, %v) = %v, want %v", from, to, got, want)
			}
		}
	}
	if d := cmp.Diff([]State{Stable, CompletingRebalance, Empty}, Predecessors(PreparingRebalance)); d != "" {
		t.Errorf("Predecessors(PreparingRebalance) (-want +got):\n%s", d)
	}
	if Predecessors(State(9)) != nil || State(9).String() != "State(9)" {
		t.Errorf("invalid state handling")
	}
}

func TestIllegalTransitionPanics(t *testing.T) {
	// Reference: docs/protocol.md §1.3 ("enforced by an assertion on transition").
	defer func() {
		r := recover()
		if r != "coordinator: illegal transition Empty -> Stable" {
			t.Errorf("panic = %v", r)
		}
	}()
	s := Group{}.begin()
	s.transition(Stable)
}

func TestBrokenContractsPanic(t *testing.T) {
	for name, f := range map[string]func(){
		"select protocol without members": func() { Group{}.selectProtocol() },
		"select protocol without a shared assignor": func() {
			Group{members: []Member{{ID: "a", Protocols: protos("x")}, {ID: "b", Protocols: protos("y")}}}.selectProtocol()
		},
		"metadata for an unlisted assignor": func() { dyn("a").metadataFor("zz") },
		"insert an existing id":             func() { s := stable(dyn("a")).begin(); s.insert(dyn("a")) },
		"insert a mapped instance":          func() { s := stable(static("a", "i")).begin(); s.insert(static("b", "i")) },
		"extract a non-member":              func() { s := stable(dyn("a")).begin(); s.extract("b") },
		"unknown request type":              func() { Group{}.Handle(nil, "") },
		"replace static in Empty": func() {
			s := stable(static("a", "i")).begin()
			s.g.state = Empty
			s.replaceStatic(jgr(1, 9, "", "i", rng), "a", "n")
		},
	} {
		t.Run(name, func(t *testing.T) {
			defer func() {
				if r := recover(); r == nil || fmt.Sprint(r) == "" {
					t.Errorf("want a panic")
				}
			}()
			f()
		})
	}
}
