package mutate

import (
	"testing"

	"github.com/groupcheck/groupcheck/explorer"
	"github.com/groupcheck/groupcheck/invariants"
	"github.com/groupcheck/groupcheck/spec"
)

// TestPassDecidesAsTheExplorer: the one pass that builds the liveness graph decides every
// property as explorer.Check does, on the worlds of named mutants with their fault on (so
// that some properties fail, state and step ones) and off; and a stopping pass ends at its
// first violation with fewer worlds than the whole graph.
func TestPassDecidesAsTheExplorer(t *testing.T) {
	stopped := 0
	for _, m := range invariants.Mutants {
		if m.World == "" || m.MaxStates > 0 || len(m.Base) > 0 {
			continue
		}
		for _, faulty := range []bool{false, true} {
			cfg, err := m.BaseConfig()
			if faulty {
				cfg, err = m.Config()
			}
			if err != nil {
				t.Fatal(err)
			}
			probe := invariants.NewModel(cfg)
			if r := explorer.Check[spec.World, spec.Action](probe, probe.Properties(), explorer.Options{Workers: 1, MaxStates: 6000}); !r.Exhaustive {
				continue // keep the test quick: small worlds only
			}
			props := invariants.For(cfg)
			model := invariants.NewModelWith(cfg, props)
			want := explorer.Check[spec.World, spec.Action](model, model.Properties(), explorer.Options{Workers: 1})
			p := newPass(props, false)
			lr := invariants.LivenessWithin(cfg, p.bounds(0))
			if lr.StoppedBy != "" {
				t.Fatalf("%s: stopped by %s", m.Fault, lr.StoppedBy)
			}
			for i, pr := range props {
				if got, w := p.status(i), want.Properties[i].Status; got != w {
					t.Errorf("%s (fault %v): %s is %s in one pass, %s by the explorer", m.Fault, faulty, pr.Name, got, w)
				}
			}
			if faulty && len(p.caught(true)) > 0 {
				q := newPass(props, true)
				short := invariants.LivenessWithin(cfg, q.bounds(0))
				if short.StoppedBy != invariants.StopCaller || short.Distinct >= lr.Distinct || len(q.caught(false)) == 0 {
					t.Errorf("%s: a stopping pass: %s after %d of %d worlds, caught %v", m.Fault, short.StoppedBy, short.Distinct, lr.Distinct, q.caught(false))
				}
				stopped++
			}
		}
	}
	t.Logf("%d faulty worlds compared and stopped early", stopped)
	if stopped < 3 {
		t.Errorf("only %d faulty worlds were small enough to compare: the test checks too little", stopped)
	}
}

// TestPassBoundsHeldIDs: the pass records the most member ids the coordinator holds at once —
// members and the pending ids of KIP-394's two-step join, so more than the members a world
// configures once a lost MEMBER_ID_REQUIRED answer leaves a pending id behind its retry's — and a
// pass bounded below that stops as over the limit (a leak of ids: RoundsName).
func TestPassBoundsHeldIDs(t *testing.T) {
	cfg, err := spec.ParseConfigString("held", `
protocol cooperative
consumer kafka
coordinator kafka
assignor cooperative-sticky
topic t 1
member a topics=t
member b topics=t
budget lost-responses=1
`)
	if err != nil {
		t.Fatal(err)
	}
	props := invariants.For(cfg)
	ref := newPass(props, false)
	if lr := invariants.LivenessWithin(cfg, ref.bounds(0)); lr.StoppedBy != "" {
		t.Fatalf("reference: stopped by %s", lr.StoppedBy)
	}
	if ref.maxHeld <= len(cfg.Members) {
		t.Fatalf("the reference holds at most %d ids with %d members: pending or outlived ids are not counted", ref.maxHeld, len(cfg.Members))
	}
	for _, limit := range []int{ref.maxHeld, ref.maxHeld - 1} {
		p := newPass(props, true)
		p.heldLimit = limit
		invariants.LivenessWithin(cfg, p.bounds(0))
		if p.overLimit != (limit < ref.maxHeld) {
			t.Errorf("bound %d against the reference's %d: over the limit %v", limit, ref.maxHeld, p.overLimit)
		}
	}
}
