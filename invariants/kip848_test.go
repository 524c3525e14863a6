package invariants

import (
	"strings"
	"testing"

	"github.com/groupcheck/groupcheck/explorer"
	"github.com/groupcheck/groupcheck/impl"
	"github.com/groupcheck/groupcheck/impl/kip848"
	"github.com/groupcheck/groupcheck/spec"
)

// graph is the whole reachable graph of a small world: worlds by index, successors by index.
type graph struct {
	worlds []spec.World
	next   [][]int
}

func explore(t *testing.T, c spec.Config, limit int) graph {
	t.Helper()
	var g graph
	index := map[string]int{}
	add := func(w spec.World) int {
		k := string(w.Encode(nil))
		if i, ok := index[k]; ok {
			return i
		}
		index[k] = len(g.worlds)
		g.worlds = append(g.worlds, w)
		g.next = append(g.next, nil)
		return len(g.worlds) - 1
	}
	add(spec.Init(c))
	for i := 0; i < len(g.worlds); i++ {
		if len(g.worlds) > limit {
			t.Fatalf("more than %d worlds", limit)
		}
		for _, a := range spec.Actions(g.worlds[i], nil) {
			if n, ok := spec.Next(g.worlds[i], a); ok {
				g.next[i] = append(g.next[i], add(n))
			}
		}
	}
	return g
}

// stuck counts the worlds from which no world satisfying goal is reachable.
func (g graph) stuck(goal func(*spec.World) bool) int {
	prev := make([][]int, len(g.worlds))
	for i, ns := range g.next {
		for _, j := range ns {
			prev[j] = append(prev[j], i)
		}
	}
	can := make([]bool, len(g.worlds))
	var queue []int
	for i, w := range g.worlds {
		if goal(&w) {
			can[i] = true
			queue = append(queue, i)
		}
	}
	for len(queue) > 0 {
		j := queue[0]
		queue = queue[1:]
		for _, i := range prev[j] {
			if !can[i] {
				can[i] = true
				queue = append(queue, i)
			}
		}
	}
	n := 0
	for _, ok := range can {
		if !ok {
			n++
		}
	}
	return n
}

// TestLivenessMutants: the KIP-848 mutants that no safety property catches are liveness
// bugs. In their worlds, without the fault a converged group stays reachable from every
// reachable world; with it, some worlds can never converge again — and the state counts
// differ, as the registry says.
func TestLivenessMutants(t *testing.T) {
	t.Parallel()
	for _, tc := range []struct {
		fault           impl.Fault
		faulty, correct int
	}{
		{impl.FaultRecomputeWhileRevoking, 8326, 5446},
		{impl.FaultInFlightStuckOnError, 1811, 5653},
	} {
		t.Run(tc.fault.String(), func(t *testing.T) {
			m, _ := LookupMutant(tc.fault.String())
			c, err := m.Config()
			if err != nil {
				t.Fatal(err)
			}
			bad := explore(t, c, 100000)
			c.Faults = 0
			good := explore(t, c, 100000)
			if len(bad.worlds) != tc.faulty || len(good.worlds) != tc.correct {
				t.Errorf("states: %d with the fault, %d without; want %d and %d", len(bad.worlds), len(good.worlds), tc.faulty, tc.correct)
			}
			if n := good.stuck(ConvergedKIP848); n != 0 {
				t.Errorf("without the fault %d worlds cannot converge", n)
			}
			if n := bad.stuck(ConvergedKIP848); n == 0 {
				t.Errorf("with the fault every world can still converge")
			} else {
				t.Logf("%s: %d of %d worlds can never converge", tc.fault, n, len(bad.worlds))
			}
		})
	}
}

// find is the first world in BFS order satisfying pred. It stops there: a whole graph of the
// static worlds costs 580 MB and 12 s of CPU where the world sought is among its first hundreds.
func find(t *testing.T, c spec.Config, pred func(spec.World) bool) spec.World {
	t.Helper()
	const limit = 200000
	seen := map[string]bool{}
	queue := []spec.World{spec.Init(c)}
	seen[string(queue[0].Encode(nil))] = true
	for i := 0; i < len(queue); i++ {
		if pred(queue[i]) {
			return queue[i]
		}
		if len(queue) > limit {
			t.Fatalf("more than %d worlds", limit)
		}
		for _, a := range spec.Actions(queue[i], nil) {
			if n, ok := spec.Next(queue[i], a); ok {
				if k := string(n.Encode(nil)); !seen[k] {
					seen[k] = true
					queue = append(queue, n)
				}
			}
		}
	}
	t.Fatal("no such world")
	return spec.World{}
}

// convergedTwo is a converged two-member KIP-848 world: a and b each own one partition.
func convergedTwo(t *testing.T) spec.World {
	return find(t, config(t, twoKIP848+"commits on\n"), func(w spec.World) bool {
		return ConvergedKIP848(&w) && w.Owned(0).Len() == 1 && w.Owned(1).Len() == 1
	})
}

// TestKIP848StatePropertiesBite gives each KIP-848 state property a violating input.
func TestKIP848StatePropertiesBite(t *testing.T) {
	w := convergedTwo(t)
	for _, p := range For(*w.Config()) {
		if p.State != nil && p.Kind == explorer.Always {
			if why := p.State(&w); why != "" {
				t.Errorf("%s flags the converged world: %s", p.Name, why)
			}
		}
	}
	t0 := impl.NewPartitionSet(impl.TP("t", 0))
	// The coordinator panics before it builds a double holder or a bad target, so the
	// property's judges are fed hand-made records.
	ms := w.Group.Members()
	ms[1].PartitionsPendingRevocation = ms[1].PartitionsPendingRevocation.Union(ms[0].AssignedPartitions)
	if why := partitionEpochConflict(ms); !strings.Contains(why, "held by both a#1") {
		t.Errorf("partition epochs: reason %q", why)
	}
	bad := kip848.NewTarget(kip848.MemberTarget{ID: "a#1", Partitions: t0}, kip848.MemberTarget{ID: "b#1", Partitions: t0})
	member := func(impl.MemberID) bool { return true }
	if why := targetConflict(bad, member); !strings.Contains(why, "t-0 to both a#1 and b#1") {
		t.Errorf("target: reason %q", why)
	}
	if why := targetConflict(w.Group.Target(), func(id impl.MemberID) bool { return id == "a#1" }); !strings.Contains(why, "b#1, which is not a member") {
		t.Errorf("target naming a non-member: reason %q", why)
	}
	// b's client believes it also owns a's partition: both are current, so both forms fail.
	dbl := ownSlots(w)
	dbl.Slots[1].Member.OwnedPartitions = dbl.Slots[1].Member.OwnedPartitions.Union(w.Owned(0))
	for _, name := range []string{"kip848-exclusive-ownership", "kip848-exclusive-ownership-strict"} {
		p, _ := Lookup(name)
		if why := p.State(&dbl); !strings.Contains(why, "owned by a (a#1 epoch") {
			t.Errorf("%s: reason %q", name, why)
		}
	}
	// A stale b (its epoch behind its server record) is not current: only the strict form fails.
	stale := dbl
	stale.Slots[1].Member.MemberEpoch--
	if p, _ := Lookup("kip848-exclusive-ownership"); p.State(&stale) != "" {
		t.Errorf("a stale client is judged current")
	}
	p, _ := Lookup("kip848-converged-reachable")
	if p.State(&w) != "" || p.State(&dbl) == "" || p.State(ptr(spec.Init(*w.Config()))) == "" {
		t.Errorf("kip848-converged-reachable judges the worlds wrongly")
	}
}

// TestKIP848StepPropertiesBite feeds each KIP-848 step property a violating transition.
func TestKIP848StepPropertiesBite(t *testing.T) {
	w := convergedTwo(t)
	init := spec.Init(*w.Config())
	a := w.Slots[0].Member
	epoch := a.Epoch()
	lower := ownSlots(w)
	lower.Slots[0].Member.MemberEpoch = epoch - 1
	if epoch-1 <= 0 {
		lower.Slots[0].Member.MemberEpoch = epoch
		w = ownSlots(w)
		w.Slots[0].Member.MemberEpoch = epoch + 1
	}
	other := w.Owned(1)
	for _, tc := range []struct {
		prop      string
		pre, post spec.World
		bad, good []spec.Event
		want      string
	}{{
		// Reference: docs/protocol.md §3.9: the group epoch never decreases.
		prop: "kip848-epoch-monotonic", pre: w, post: init, want: "group epoch",
	}, {
		// Reference: docs/protocol.md §3.9: the client epoch only drops to 0, -1 or -2.
		prop: "kip848-epoch-monotonic", pre: w, post: lower, want: "client a (a#1) went from epoch",
	}, {
		// Reference: docs/protocol.md §3.1: a commit is accepted only at the member's epoch.
		prop: "kip848-commit-fencing", pre: w, post: w, want: "no such member at that epoch",
		bad:  []spec.Event{spec.CommitEvent{Slot: 0, Name: "a", MemberID: "a#1", Generation: impl.Generation(epoch + 7), Partitions: a.Owned()}},
		good: []spec.Event{spec.CommitEvent{Slot: 0, Name: "a", MemberID: "a#1", Generation: impl.Generation(w.Group.GroupEpoch()), Partitions: w.Owned(0)}},
	}, {
		// Reference: docs/protocol.md §3.9: an accepted commit is for partitions the member holds.
		prop: "kip848-commit-fencing", pre: w, post: w, want: "is no longer its",
		bad: []spec.Event{spec.CommitEvent{Slot: 0, Name: "a", MemberID: "a#1", Generation: impl.Generation(w.Group.GroupEpoch()), Partitions: w.Owned(0).Union(other)}},
	}} {
		t.Run(tc.prop, func(t *testing.T) {
			p, ok := Lookup(tc.prop)
			if !ok || p.Step == nil {
				t.Fatalf("no step property %q", tc.prop)
			}
			if why := p.Step(&tc.pre, tc.bad, &tc.post); !strings.Contains(why, tc.want) {
				t.Errorf("violating step: reason %q, want it to contain %q", why, tc.want)
			}
			if tc.good != nil {
				if why := p.Step(&tc.pre, tc.good, &tc.pre); why != "" {
					t.Errorf("harmless step flagged: %s", why)
				}
			}
			if why := p.Step(&tc.pre, nil, &tc.pre); why != "" {
				t.Errorf("a step that changes nothing is flagged: %s", why)
			}
		})
	}
}

// TestPropertiesApplyToTheirProtocol: classic properties never apply under protocol consumer
// and KIP-848 ones never apply to the classic protocols (revoke-before-reassign and the
// reaction properties are shared — leave-applied, commit-reported and fatal-reported among
// them — prompt is stated for both, and
// commit-accepted guards both protocols' commit properties).
func TestPropertiesApplyToTheirProtocol(t *testing.T) {
	classicCfg, kipCfg := config(t, twoMembers+"commits on\n"), config(t, twoKIP848+"commits on\n")
	shared := map[string]bool{"revoke-before-reassign": true, "fenced-means-stop": true, "no-orphan-member": true, "commit-accepted": true,
		"leave-applied": true, "commit-reported": true, "fatal-reported": true, PromptName: true}
	for _, p := range For(classicCfg) {
		if strings.HasPrefix(p.Name, "kip848-") {
			t.Errorf("%s applies to a classic world", p.Name)
		}
	}
	for _, p := range For(kipCfg) {
		if !strings.HasPrefix(p.Name, "kip848-") && !shared[p.Name] {
			t.Errorf("%s applies to a KIP-848 world", p.Name)
		}
	}
}

// TestKIP848CommitFencingKIP1251: under KIP-1251 (the default) a commit accepted at an epoch
// older than the member's must be for partitions it has held since that epoch
// (docs/protocol.md §3.1); one assigned to it later is a violation. And a commit the rule
// allows must not be refused: refused at the epoch a partition was assigned at, it is a
// violation under KIP-1251 and not under commit-epochs exact (where only the member's own
// epoch is allowed, and refusing that is one under both).
func TestKIP848CommitFencingKIP1251(t *testing.T) {
	w := find(t, config(t, twoKIP848+"commits on\n"), func(w spec.World) bool {
		if !ConvergedKIP848(&w) {
			return false
		}
		for _, m := range w.Group.Members() {
			for _, a := range m.AssignedAt {
				if a.Epoch > 1 {
					return true
				}
			}
		}
		return false
	})
	p, _ := Lookup("kip848-commit-fencing")
	older := false
	for _, m := range w.Group.Members() {
		for _, a := range m.AssignedAt {
			older = older || a.Epoch < m.MemberEpoch
			commit := func(epoch impl.Epoch) []spec.Event {
				return []spec.Event{spec.CommitEvent{MemberID: m.ID, Generation: impl.Generation(epoch), Partitions: a.Partitions}}
			}
			if why := p.Step(&w, commit(a.Epoch), &w); why != "" {
				t.Errorf("%s's commit at the epoch it was assigned %s at (%d) flagged: %s", m.ID, a.Partitions, a.Epoch, why)
			}
			if why := p.Step(&w, commit(a.Epoch-1), &w); a.Epoch > 1 && !strings.Contains(why, "was assigned to it only at epoch") {
				t.Errorf("%s's commit of %s at epoch %d, before it was assigned them at %d: reason %q", m.ID, a.Partitions, a.Epoch-1, a.Epoch, why)
			}
			refused := func(epoch impl.Epoch) []spec.Event {
				return []spec.Event{spec.CommitEvent{MemberID: m.ID, Generation: impl.Generation(epoch), Partitions: a.Partitions, Error: impl.StaleMemberEpoch}}
			}
			if why := p.Step(&w, refused(a.Epoch), &w); a.Epoch < m.MemberEpoch && !strings.Contains(why, "under KIP-1251 it is allowed") {
				t.Errorf("%s's commit of %s at epoch %d, where it was assigned them, refused: reason %q", m.ID, a.Partitions, a.Epoch, why)
			}
			if why := p.Step(&w, refused(m.MemberEpoch), &w); !strings.Contains(why, "that is the member's epoch") {
				t.Errorf("%s's commit at its own epoch %d refused: reason %q", m.ID, m.MemberEpoch, why)
			}
			if why := p.Step(&w, refused(a.Epoch-1), &w); a.Epoch > 1 && why != "" {
				t.Errorf("%s's commit of %s at epoch %d, before it was assigned them, refused: flagged %q", m.ID, a.Partitions, a.Epoch-1, why)
			}
		}
	}
	if !older {
		t.Fatal("no member holds a partition from an epoch older than its own: the refusal case is not exercised")
	}
	// Under the rule of Kafka 4.0 to 4.2 refusing an older epoch is right.
	x := find(t, config(t, twoKIP848+"commits on\ncommit-epochs exact\n"), func(w spec.World) bool {
		return ConvergedKIP848(&w) && w.Group.GroupEpoch() > 1
	})
	for _, m := range x.Group.Members() {
		ev := []spec.Event{spec.CommitEvent{MemberID: m.ID, Generation: impl.Generation(m.MemberEpoch - 1), Partitions: m.Holds(), Error: impl.StaleMemberEpoch}}
		if why := p.Step(&x, ev, &x); why != "" {
			t.Errorf("exact: %s's commit at epoch %d refused: flagged %q", m.ID, m.MemberEpoch-1, why)
		}
	}
}
