package coordinator

import (
	"bytes"
	"fmt"
	"slices"
	"strconv"
	"testing"

	"pgregory.net/rapid"

	"github.com/groupcheck/groupcheck/impl"
)

// walk drives a Group with random inputs, plausible and implausible, and checks the laws
// after every step. Every request gets its own connection, so "answered at most once" is
// "each connection receives at most one reply".
type walk struct {
	t        *rapid.T
	g        Group
	conn     impl.Conn
	fresh    int
	seen     []impl.MemberID
	answered map[impl.Conn]bool
	trans    [][2]State
	// stableAsg is what the leader's SyncGroup gave each member (keyed by instance id for
	// static members, which may be replaced in Stable) when the group last became Stable.
	stableAsg map[string]impl.Assignment
	stableGen impl.Generation
	reached   map[State]bool
}

func key(m Member) string {
	if m.IsStatic() {
		return "i:" + string(m.InstanceID)
	}
	return "m:" + string(m.ID)
}

var protoChoices = [][]impl.GroupProtocol{rng, rng, rng, rng, protos("range", "rr"), protos("rr", "range"), protos("rr"), protosU("range"), nil}

func (w *walk) id(label string) impl.MemberID {
	pool := append([]impl.MemberID{"", "", "zz"}, w.seen...)
	for range 4 {
		pool = append(pool, w.g.Members()...)
		pool = append(pool, w.g.Pending()...)
	}
	return rapid.SampledFrom(pool).Draw(w.t, label)
}

func (w *walk) inst(label string) impl.InstanceID {
	return rapid.SampledFrom([]impl.InstanceID{"", "", "i1", "i2"}).Draw(w.t, label)
}

func (w *walk) gen(label string) impl.Generation {
	g := w.g.Generation()
	return rapid.SampledFrom([]impl.Generation{-1, g - 1, g, g, g, g, g + 1}).Draw(w.t, label)
}

func (w *walk) nextConn() impl.Conn { w.conn++; return w.conn }

// progress is what a well-behaved member would send next: rejoin while PreparingRebalance,
// sync while CompletingRebalance, otherwise a newcomer's v3 JoinGroup.
func (w *walk) progress() impl.Request {
	var cands []Member
	for _, m := range w.g.AllMembers() {
		if w.g.State() == PreparingRebalance && !m.Join.Parked || w.g.State() == CompletingRebalance && m.PendingSync {
			cands = append(cands, m)
		}
	}
	if len(cands) == 0 {
		return impl.JoinGroupRequest{Conn: w.nextConn(), Version: 3, Protocols: rng, InstanceID: w.inst("instance")}
	}
	m := rapid.SampledFrom(cands).Draw(w.t, "who")
	if w.g.State() == PreparingRebalance {
		return impl.JoinGroupRequest{Conn: w.nextConn(), Version: 9, MemberID: m.ID, InstanceID: m.InstanceID, Protocols: m.Protocols}
	}
	req := w.request("sync").(impl.SyncGroupRequest)
	req.MemberID, req.InstanceID, req.Generation, req.ProtocolName = m.ID, m.InstanceID, w.g.Generation(), ""
	return req
}

func (w *walk) request(kind string) impl.Request {
	if kind == "progress" {
		return w.progress()
	}
	c := w.nextConn()
	switch kind {
	case "join":
		return impl.JoinGroupRequest{Conn: c, MemberID: w.id("member"), InstanceID: w.inst("instance"),
			Version:   rapid.SampledFrom([]int16{0, 3, 4, 5, 9}).Draw(w.t, "version"),
			Protocols: rapid.SampledFrom(protoChoices).Draw(w.t, "protocols"),
			Reason:    impl.JoinReason(rapid.IntRange(0, 3).Draw(w.t, "reason"))}
	case "sync":
		var as []impl.MemberAssignment
		for _, id := range append(w.g.Members(), "zz") {
			if rapid.Bool().Draw(w.t, "assign "+string(id)) {
				as = append(as, impl.MemberAssignment{MemberID: id, Assignment: asg(rapid.Int32Range(0, 3).Draw(w.t, "p"))})
			}
		}
		id := w.id("member")
		if rapid.Bool().Draw(w.t, "from leader") {
			id = w.g.Leader()
		}
		return impl.SyncGroupRequest{Conn: c, MemberID: id, InstanceID: w.inst("instance"), Generation: w.gen("gen"),
			ProtocolName: rapid.SampledFrom([]string{"", w.g.ProtocolName(), "rr"}).Draw(w.t, "proto"), Assignments: as}
	case "heartbeat":
		return impl.HeartbeatRequest{Conn: c, MemberID: w.id("member"), InstanceID: w.inst("instance"), Generation: w.gen("gen")}
	case "commit":
		return impl.OffsetCommitRequest{Conn: c, MemberID: w.id("member"), InstanceID: w.inst("instance"), Generation: w.gen("gen")}
	}
	var ms []impl.LeaveMember
	for range rapid.IntRange(1, 2).Draw(w.t, "leavers") {
		ms = append(ms, impl.LeaveMember{MemberID: w.id("member"), InstanceID: w.inst("instance")})
	}
	return impl.LeaveGroupRequest{Conn: c, Members: ms}
}

var kinds = []string{"progress", "progress", "progress", "progress", "join", "join", "join", "sync", "sync", "heartbeat", "commit", "leave",
	"session", "pending", "jointimer", "jointimer", "synctimer", "unload"}

func (w *walk) step() {
	kind := rapid.SampledFrom(kinds).Draw(w.t, "kind")
	if kind == "unload" && rapid.IntRange(0, 29).Draw(w.t, "really unload") != 17 {
		kind = "heartbeat"
	}
	before, enc := w.g, w.g.AppendEncoding(nil)
	var req impl.Request
	var f func(Group) (Group, []impl.Reply)
	enabled := true
	switch kind {
	case "session":
		id := w.id("expire")
		enabled, f = before.CanSessionExpire(id), func(g Group) (Group, []impl.Reply) { return g.SessionExpired(id) }
	case "pending":
		id := w.id("expire")
		enabled, f = before.EnabledPendingMemberExpiry(id), func(g Group) (Group, []impl.Reply) { return g.PendingMemberExpired(id) }
	case "jointimer":
		enabled, f = before.EnabledJoinPhaseTimeout(), Group.JoinPhaseTimeout
	case "synctimer":
		enabled, f = before.EnabledSyncPhaseTimeout(), Group.SyncPhaseTimeout
	case "unload":
		f = Group.Unload
	default:
		req = w.request(kind)
		w.fresh++
		fresh := impl.MemberID("m" + strconv.Itoa(w.fresh))
		f = func(g Group) (Group, []impl.Reply) { return g.Handle(req, fresh) }
	}
	w.trans = w.trans[:0]
	after, out := f(before)
	if !bytes.Equal(enc, before.AppendEncoding(nil)) {
		w.t.Fatalf("%s modified its receiver", kind)
	}
	if !enabled && (!bytes.Equal(enc, after.AppendEncoding(nil)) || len(out) > 0) {
		w.t.Fatalf("disabled %s changed the group: %v -> %v %v", kind, before, after, out)
	}
	w.checkTransitions(before, after, kind, req)
	w.checkReplies(after, out)
	w.g = after
	for _, id := range after.Members() {
		if !slices.Contains(w.seen, id) {
			w.seen = append(w.seen, id)
		}
	}
	w.seen = append(w.seen, after.Pending()...)
	checkInvariants(w.t, after)
	w.checkStableAssignments(before, after, req)
	w.reached[after.State()] = true
}

// checkTransitions: every transition is an edge of docs/protocol.md §1.3's table (written out
// independently in state_test.go), the chain joins before to after, and the generation rose
// by exactly the number of completed join phases.
func (w *walk) checkTransitions(before, after Group, kind string, req impl.Request) {
	cur, completions := before.State(), 0
	for _, tr := range w.trans {
		if tr[0] != cur || !allowed[tr] {
			w.t.Fatalf("%s: illegal or disconnected transition %v after %v", kind, tr, cur)
		}
		if tr[0] == PreparingRebalance && (tr[1] == CompletingRebalance || tr[1] == Empty) {
			completions++
		}
		cur = tr[1]
	}
	if cur != after.State() {
		w.t.Fatalf("%s: transitions end in %v, group is %v", kind, cur, after.State())
	}
	if d := after.Generation() - before.Generation(); int(d) != completions {
		w.t.Fatalf("%s (%v): generation %d -> %d with %d join completions", kind, req, before.Generation(), after.Generation(), completions)
	}
}

// checkReplies: no connection is answered twice, and no parked request has been answered.
func (w *walk) checkReplies(after Group, out []impl.Reply) {
	for _, r := range out {
		if w.answered[r.To] {
			w.t.Fatalf("connection %d answered twice: %v", r.To, out)
		}
		w.answered[r.To] = true
	}
	for _, p := range after.Parked() {
		if w.answered[p.Conn] {
			w.t.Fatalf("parked request on %d already answered", p.Conn)
		}
	}
}

// checkStableAssignments: the group becomes Stable only by the leader's SyncGroup, and while
// Stable every member holds what that SyncGroup gave it, in that generation.
func (w *walk) checkStableAssignments(before, after Group, req impl.Request) {
	if after.State() != Stable {
		return
	}
	if before.State() != Stable {
		sync, ok := req.(impl.SyncGroupRequest)
		if !ok || sync.MemberID != before.Leader() {
			w.t.Fatalf("became Stable by %v, not the leader's SyncGroup", req)
		}
		w.stableGen, w.stableAsg = after.Generation(), map[string]impl.Assignment{}
		for _, m := range after.AllMembers() {
			a := impl.Assignment{}
			for _, e := range sync.Assignments {
				if e.MemberID == m.ID {
					a = e.Assignment
				}
			}
			w.stableAsg[key(m)] = a
		}
	}
	if after.Generation() != w.stableGen {
		w.t.Fatalf("Stable at generation %d, synced in %d", after.Generation(), w.stableGen)
	}
	for _, m := range after.AllMembers() {
		if a, ok := w.stableAsg[key(m)]; !ok || !a.Equal(m.Assignment) {
			w.t.Fatalf("Stable member %s holds %v, sync gave %v (%v)", m.ID, m.Assignment, a, ok)
		}
	}
}

// checkInvariants are the structural invariants of a Group value.
func checkInvariants(t *rapid.T, g Group) {
	fail := func(format string, args ...any) { t.Fatalf("%v: %s", g, fmt.Sprintf(format, args...)) }
	ms := g.AllMembers()
	if !slices.IsSortedFunc(ms, func(a, b Member) int { return cmpID(a.ID, b.ID) }) || !slices.IsSorted(g.pending) {
		fail("not sorted")
	}
	insts := map[impl.InstanceID]bool{}
	for i, m := range ms {
		if i > 0 && ms[i-1].ID == m.ID || g.IsPending(m.ID) {
			fail("duplicate or pending member %s", m.ID)
		}
		if m.IsStatic() && insts[m.InstanceID] {
			fail("instance %s mapped twice", m.InstanceID)
		}
		insts[m.InstanceID] = true
		if m.Join.Parked && g.State() != PreparingRebalance {
			fail("parked join outside PreparingRebalance")
		}
		if m.Sync.Parked && g.State() != CompletingRebalance {
			fail("parked sync outside CompletingRebalance")
		}
		if m.PendingSync && g.State() != CompletingRebalance && g.State() != Stable {
			fail("pendingSync outside the sync phase")
		}
		inSync := g.State() == CompletingRebalance || g.State() == Stable
		if inSync && !lists(m.Protocols, g.protocol) {
			fail("member %s does not list the selected assignor", m.ID)
		}
	}
	if (g.leader == "") != (len(ms) == 0) {
		fail("leader %q with %d members", g.leader, len(ms))
	}
	if _, ok := g.Member(g.leader); g.leader != "" && !ok {
		fail("leader is not a member")
	}
	if len(ms) > 0 && g.State() != Dead {
		g.selectProtocol() // panics if the members share no assignor
	}
	switch g.State() {
	case Empty:
		if len(ms) > 0 || g.protocol != "" {
			fail("Empty with members or protocol")
		}
	case CompletingRebalance, Stable:
		if g.protocol == "" || len(ms) == 0 {
			fail("no protocol or members in %v", g.State())
		}
	}
	if g.initialJoin && g.State() != PreparingRebalance {
		fail("initial join outside PreparingRebalance")
	}
}

func TestRandomWalkLaws(t *testing.T) {
	var w *walk
	transitionHook = func(from, to State) { w.trans = append(w.trans, [2]State{from, to}) }
	defer func() { transitionHook = nil }()
	reached := map[State]bool{}
	rapid.Check(t, func(rt *rapid.T) {
		var faults impl.Faults
		for _, f := range []impl.Fault{impl.FaultJoinTimerZero, impl.FaultNoSyncTimer} {
			if rapid.IntRange(0, 3).Draw(rt, "fault "+f.String()) == 0 {
				faults = faults.With(f)
			}
		}
		cfg := Config{
			Variant: rapid.SampledFrom([]impl.Variant{impl.Kafka, impl.KIP}).Draw(rt, "variant"),
			Faults:  faults,
			MaxSize: rapid.SampledFrom([]int{0, 0, 2, 3}).Draw(rt, "max size"),
		}
		w = &walk{t: rt, g: New(cfg), answered: map[impl.Conn]bool{}, reached: reached}
		for range rapid.IntRange(1, 200).Draw(rt, "steps") {
			w.step()
		}
	})
	for s := Empty; s <= Dead; s++ {
		if !reached[s] {
			t.Errorf("random walks never reached %v", s)
		}
	}
}
