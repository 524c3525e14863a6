package oracle

import (
	"bytes"
	"fmt"
	"math"
	"reflect"
	"slices"
	"sort"
	"strings"
	"testing"

	"github.com/groupcheck/groupcheck/oracle/history"
)

// seedHistories are the hand-built histories of the table tests and the fixtures.
func seedHistories() []history.History {
	var hs []history.History
	for _, tc := range ownershipCases {
		b := twoMembers(history.Consumer)
		tc.build(b)
		hs = append(hs, b.h)
	}
	for _, cs := range [][]propCase{lostCases, commitCases, genCases} {
		for _, tc := range cs {
			hs = append(hs, tc.history())
		}
	}
	for _, fx := range fixtures {
		hs = append(hs, fx.build())
	}
	return append(hs, overlapping())
}

var properties = map[string]bool{ExclusiveOwnership: true, RevokeBeforeAssign: true,
	LostOnlyAfterMembershipLost: true, CommitFromOwner: true, GenerationMonotonic: true,
	CallbacksConsistent: true, OneLeaderPerGeneration: true, MemberIDUnique: true,
	CoordinatorGenerationRises: true, RemovedStaysRemoved: true, ReferenceSearch: true}

// checkReport asserts what every report of a valid history must satisfy.
func checkReport(t *testing.T, h history.History, r Report) {
	t.Helper()
	want := Plain
	if slices.ContainsFunc(h, searched) {
		// The reference search judges it, unless it refused the history (a request it cannot
		// build), which the report says.
		want = append(slices.Clip(Plain), ReferenceSearch)
		if r.Reference == "" && checkable(h) {
			t.Fatalf("no reference verdict on a searched history")
		}
		if strings.HasPrefix(r.Reference, "not searched: ") {
			want = Plain
		}
	}
	if !checkable(h) {
		want = nil
	}
	lin := LinNothing // a history without coordinator requests: nothing to search
	if !checkable(h) || slices.ContainsFunc(h, func(e history.Event) bool { return e.Kind == history.Request }) {
		lin = LinNotChecked
	}
	if r.Events != len(h) || r.Linearizable != lin || !slices.Equal(r.Checked, want) {
		t.Fatalf("events %d of %d, linearizable %q, checked %q", r.Events, len(h), r.Linearizable, r.Checked)
	}
	for class, vs := range map[string][]Violation{ClassViolation: r.Violations, ClassZombie: r.Zombies} {
		for _, v := range vs {
			if v.Property == WellFormed && !checkable(h) {
				continue // nothing to check
			}
			if v.Class != class || !properties[v.Property] || v.Message == "" || len(v.Events) == 0 {
				t.Fatalf("malformed %s: %+v", class, v)
			}
			for i := 1; i < len(v.Events); i++ {
				if v.Events[i].Seq <= v.Events[i-1].Seq {
					t.Fatalf("%s events not in seq order: %v", v.Property, seqs(v.Events))
				}
			}
		}
	}
	if again := Check(h, Options{}); !reflect.DeepEqual(r, again) {
		t.Fatalf("two checks differ:\n%s\n%s", r, again)
	}
}

// FuzzCheck: CheckReader never panics on any bytes, and what it accepts gives a well-formed,
// deterministic report.
func FuzzCheck(f *testing.F) {
	for _, h := range seedHistories() {
		var b bytes.Buffer
		if err := h.Write(&b); err != nil {
			f.Fatal(err)
		}
		f.Add(b.Bytes())
	}
	f.Fuzz(func(t *testing.T, data []byte) {
		r, err := CheckReader(bytes.NewReader(data), Options{})
		if err != nil {
			return
		}
		h, _ := history.Read(bytes.NewReader(data))
		checkReport(t, h, r)
	})
}

// FuzzCheckHistory reads bytes as a program that builds a valid history of three nodes over
// three partitions (so that every input reaches the checker), and checks the report against
// a naive recomputation of the ownership overlaps.
func FuzzCheckHistory(f *testing.F) {
	f.Add([]byte{5, 0, 0, 10, 0, 0, 5, 1, 0, 10, 1, 0})
	f.Add([]byte{0, 0, 0, 4, 0, 3, 5, 0, 1, 10, 0, 0, 2, 0, 0, 5, 1, 1, 10, 1, 0, 3, 0, 0, 9, 0, 4, 10, 0, 2, 7, 0, 1, 10, 0, 0})
	f.Add([]byte("the quick brown fox jumps over the lazy dog, twice: the quick brown fox jumps over the lazy dog"))
	f.Fuzz(func(t *testing.T, data []byte) {
		h := generate(data)
		if err := h.Validate(); err != nil {
			t.Fatalf("generator made an invalid history: %v", err)
		}
		r := Check(h, Options{})
		checkReport(t, h, r)
		checkSettled(t, h, r)
		s := scanHistory(h, 0)
		got := overlapKeys(s.findings)
		if want := naiveOverlaps(h); !slices.Equal(got, want) {
			t.Fatalf("overlaps %v, naive %v\n%s", got, want, r)
		}
	})
}

// checkSettled: with a settle bound (2.5 µs: the generator's events are 1 µs apart) the
// report is the plain one plus rebalance-completes findings, each naming its stall's first and
// last events in order, and CheckReader streams the same report as Check where it reads
// the history.
func checkSettled(t *testing.T, h history.History, plain Report) {
	t.Helper()
	o := Options{Settle: 2500}
	r := Check(h, o)
	var others []Violation
	for _, v := range r.Violations {
		if v.Property != RebalanceCompletes {
			others = append(others, v)
			continue
		}
		if !strings.HasPrefix(v.Message, "the group did not change for ") || strings.HasSuffix(v.Message, "while ") || len(v.Events) < 2 {
			t.Fatalf("malformed %s: %+v", RebalanceCompletes, v)
		}
		for i := 1; i < len(v.Events); i++ {
			if v.Events[i].Seq <= v.Events[i-1].Seq {
				t.Fatalf("%s events not in seq order: %v", v.Property, seqs(v.Events))
			}
		}
	}
	if !reflect.DeepEqual(others, plain.Violations) || !reflect.DeepEqual(r.Zombies, plain.Zombies) {
		t.Fatalf("the bound changed the plain findings:\n%s\n%s", plain, r)
	}
	var b bytes.Buffer
	if err := h.Write(&b); err != nil {
		t.Fatal(err)
	}
	streamed, err := CheckReader(&b, o)
	if err != nil {
		return // the reader is stricter than Validate (a begin that never ends, marks only)
	}
	if streamed.String() != r.String() {
		t.Fatalf("streamed and in memory differ:\n%s\n%s", streamed, r)
	}
}

// generate interprets data three bytes at a time: an operation, a node and an argument.
func generate(data []byte) history.History {
	g := &gen{open: map[string][]history.Event{}}
	nodes := []string{"a", "b", "c"}
	ops := []string{history.JoinGroup, history.SyncGroup, history.Heartbeat, history.LeaveGroup,
		history.OffsetCommit, history.ConsumerGroupHeartbeat}
	errs := []string{"", "", "UNKNOWN_MEMBER_ID", "FENCED_MEMBER_EPOCH", "REBALANCE_IN_PROGRESS",
		"ILLEGAL_GENERATION", "STALE_MEMBER_EPOCH", "dial: refused"}
	for i := 0; i+2 < len(data); i += 3 {
		node, arg := nodes[int(data[i+1])%3], data[i+2]
		ps := history.Parts{"t": {int32(arg % 3)}}
		if arg&8 != 0 {
			ps["t"] = append(ps["t"], int32(arg%3+1)%3)
		}
		e := history.Event{Node: node, Member: fmt.Sprintf("m-%s%d", node, arg>>6), Gen: int32(arg%7) - 2}
		switch data[i] % 14 {
		case 0:
			e.Kind, e.Proto = history.Start, []string{history.Classic, history.Consumer}[arg%2]
		case 1:
			e.Kind = history.Crash
		case 2:
			e.Kind = history.Cut
		case 3:
			e.Kind = history.Heal
		case 4:
			e.Kind = history.Generation
		case 5, 6, 7, 8:
			e.Kind = []history.Kind{history.Assign, history.Revoke, history.Lost, history.Commit}[data[i]%14-5]
			e.Parts = ps
			g.begin(e)
			continue
		case 9:
			e.Kind, e.Op = history.Request, ops[int(arg)%len(ops)]
			g.begin(e)
			continue
		case 10:
			g.end(node, errs[int(arg)%len(errs)], arg%5 == 0)
			continue
		case 11:
			e.Kind = history.Fenced
		case 12:
			e.Kind = history.Close
			g.begin(e)
			continue
		default:
			e.Kind = history.Mark
		}
		g.add(e, arg%4 == 0)
	}
	return g.h
}

type gen struct {
	h    history.History
	t    int64
	id   int64
	open map[string][]history.Event // open intervals per node, oldest first
}

func (g *gen) add(e history.Event, sameTime bool) {
	if !sameTime {
		g.t += 1000
	}
	e.Seq, e.T = int64(len(g.h))+1, g.t
	g.h = append(g.h, e)
}

func (g *gen) begin(e history.Event) {
	g.id++
	e.ID, e.Phase = g.id, history.Begin
	g.add(e, false)
	g.open[e.Node] = append(g.open[e.Node], e)
}

// end ends the node's oldest open interval with an outcome.
func (g *gen) end(node, errName string, unfinished bool) {
	if len(g.open[node]) == 0 {
		return
	}
	b := g.open[node][0]
	g.open[node] = g.open[node][1:]
	x := history.Event{Kind: b.Kind, Phase: history.End, ID: b.ID, Node: b.Node, Op: b.Op, Err: errName}
	if unfinished {
		x.Note = history.Unfinished
	}
	g.add(x, errName == "")
}

// overlapKeys lists the ownership findings as "property seq partition" before merging.
func overlapKeys(fs []finding) []string {
	var out []string
	for _, f := range fs {
		if f.prop == ExclusiveOwnership || f.prop == RevokeBeforeAssign {
			out = append(out, fmt.Sprintf("%s %d %s", f.prop, f.at, f.parts[0]))
		}
	}
	sort.Strings(out)
	return out
}

// naiveOverlaps recomputes the ownership findings the slow, obvious way: replay every node's
// owned set event by event, and compare each new ownership with every other open one.
func naiveOverlaps(h history.History) []string {
	type own struct {
		node   string
		start  history.Event
		endT   int64
		endSeq int64
	}
	ends, begins := map[int64]history.Event{}, map[int64]history.Event{}
	for _, e := range h {
		if e.Phase == history.End {
			ends[e.ID] = e
		} else if e.Phase == history.Begin {
			begins[e.ID] = e
		}
	}
	owned := map[string]map[part]*own{}
	assigned := map[string]map[part]int64{}
	dead := map[string]bool{}
	var all []*own
	var allParts []part
	release := func(n string, qs []part, e history.Event) {
		for _, q := range qs {
			if o := owned[n][q]; o != nil {
				o.endT, o.endSeq = e.T, e.Seq
				delete(owned[n], q)
			}
		}
	}
	releaseAll := func(n string, e history.Event) {
		for q, o := range owned[n] {
			o.endT, o.endSeq = e.T, e.Seq
			delete(owned[n], q)
		}
	}
	for _, e := range h {
		n := e.Node
		if owned[n] == nil {
			owned[n], assigned[n] = map[part]*own{}, map[part]int64{}
		}
		if dead[n] && e.Kind != history.Start {
			continue
		}
		switch {
		case e.Kind == history.Start:
			dead[n] = false
			releaseAll(n, e)
		case e.Kind == history.Crash:
			dead[n] = true
			releaseAll(n, e)
		case e.Kind == history.Close && e.Phase == history.End:
			releaseAll(n, e)
		case e.Kind == history.Assign && e.Phase == history.Begin:
			for _, q := range partsOf(e.Parts, ends[e.ID].Parts) {
				assigned[n][q] = e.Seq
				if owned[n][q] == nil {
					o := &own{node: n, start: e, endT: math.MaxInt64, endSeq: math.MaxInt64}
					owned[n][q] = o
					all = append(all, o)
					allParts = append(allParts, q)
				}
			}
		case (e.Kind == history.Revoke || e.Kind == history.Lost) && e.Phase == history.End:
			var qs []part
			for _, q := range partsOf(e.Parts, begins[e.ID].Parts) {
				if assigned[n][q] < begins[e.ID].Seq {
					qs = append(qs, q)
				}
			}
			release(n, qs, e)
		}
	}
	var out []string
	for i, b := range all {
		for j, a := range all {
			if allParts[i] != allParts[j] || a.node == b.node || a.start.Seq >= b.start.Seq || a.endSeq <= b.start.Seq {
				continue
			}
			out = append(out, fmt.Sprintf("%s %d %s", RevokeBeforeAssign, b.start.Seq, allParts[i]))
			if b.start.T < min(a.endT, b.endT) {
				out = append(out, fmt.Sprintf("%s %d %s", ExclusiveOwnership, b.start.Seq, allParts[i]))
			}
		}
	}
	sort.Strings(out)
	return out
}
