package lin

import (
	"flag"
	"fmt"
	"math/rand/v2"
	"slices"
	"sort"
	"strings"
	"testing"

	"github.com/groupcheck/groupcheck/impl"
	"github.com/groupcheck/groupcheck/oracle/differential"
	"github.com/groupcheck/groupcheck/oracle/history"
	"github.com/groupcheck/groupcheck/spec"
)

// This file generates histories from the model itself: a seeded random walk of a spec world
// (the reference coordinator, consumers and network with crashes, lost responses and
// timers), whose coordinator requests and responses become Request intervals. A request's
// call is drawn between the step that sent it and the step where the coordinator answered
// it, its return between that step and the step its client read the answer, so intervals
// overlap at random but always contain the real linearization point. Every such history is
// a real behaviour of the reference coordinator and must be linearizable: a failure is a
// false positive of the model.

// genOp is one request of a walk.
type genOp struct {
	slot      int
	inc       uint8
	begin     history.Event
	end       *history.Event
	sent      int // steps
	replied   int // -1 until the coordinator answered
	received  int // -1 until the client read the answer
	delivered bool
	kind      string
}

// walker follows a walk and records its requests.
type walker struct {
	t     testing.TB
	cfg   spec.Config
	w     spec.World
	ops   []*genOp
	out   [][]*genOp // mirrors Slots[i].Out
	in    [][]*genOp // mirrors Slots[i].In
	alias map[impl.MemberID]int
}

func newWalker(t testing.TB, cfg spec.Config) *walker {
	wk := &walker{t: t, cfg: cfg, w: spec.Init(cfg), out: make([][]*genOp, len(cfg.Members)),
		in: make([][]*genOp, len(cfg.Members)), alias: map[impl.MemberID]int{}}
	for i, s := range wk.w.Slots { // KIP-848 members send their join at start
		for _, r := range s.Out {
			wk.send(i, r, 0)
		}
	}
	return wk
}

// id is the history's name of a coordinator member id: ids the world reuses once nothing
// refers to them (spec.freshID) get a new name at each hand-out, as real ids are unique.
func (wk *walker) id(m impl.MemberID) string {
	if m == "" {
		return ""
	}
	return fmt.Sprintf("%s.%d", m, wk.alias[m])
}

func (wk *walker) ids(ms []impl.MemberID) []string {
	out := make([]string, len(ms))
	for i, m := range ms {
		out[i] = wk.id(m)
	}
	return out
}

// coordinatorIDs lists the member ids the coordinator knows (members and pending ids).
func coordinatorIDs(w spec.World) []impl.MemberID {
	if w.Config().ConsumerProtocol {
		var ids []impl.MemberID
		for _, m := range w.Group.Members() {
			ids = append(ids, m.ID)
		}
		return ids
	}
	return append(w.Coord.Members(), w.Coord.Pending()...)
}

func (wk *walker) send(i int, r impl.Request, step int) {
	s := wk.w.Slots[i]
	name := wk.cfg.Members[i].Name
	e := history.Event{Kind: history.Request, Phase: history.Begin, Node: name, Proto: history.Classic}
	var kind string
	switch r := r.(type) {
	case impl.JoinGroupRequest:
		kind = history.JoinGroup
		e.Member, e.Instance, e.Gen = wk.id(r.MemberID), string(r.InstanceID), int32(s.Client.Generation())
		for _, p := range r.Protocols {
			e.Protocols = append(e.Protocols, p.Name)
		}
		if len(r.Protocols) > 0 {
			e.Owned = differential.FromSet(r.Protocols[0].Metadata.OwnedPartitions)
		}
	case impl.SyncGroupRequest:
		kind = history.SyncGroup
		e.Member, e.Instance, e.Gen = wk.id(r.MemberID), string(r.InstanceID), int32(r.Generation)
		if len(r.Assignments) > 0 {
			e.Assignments = map[string]history.Parts{}
			for _, a := range r.Assignments {
				e.Assignments[wk.id(a.MemberID)] = differential.FromSet(a.Assignment.Partitions)
			}
		}
	case impl.HeartbeatRequest:
		kind = history.Heartbeat
		e.Member, e.Instance, e.Gen = wk.id(r.MemberID), string(r.InstanceID), int32(r.Generation)
	case impl.LeaveGroupRequest:
		kind = history.LeaveGroup
		if len(r.Members) != 1 {
			wk.t.Fatalf("a consumer's LeaveGroup names %d members", len(r.Members))
		}
		e.Member, e.Instance = wk.id(r.Members[0].MemberID), string(r.Members[0].InstanceID)
	case impl.OffsetCommitRequest:
		kind = history.OffsetCommit
		e.Member, e.Instance, e.Gen = wk.id(r.MemberID), string(r.InstanceID), int32(r.Generation)
		e.Parts = differential.FromSet(r.Partitions)
	case impl.ConsumerGroupHeartbeatRequest:
		kind = history.ConsumerGroupHeartbeat
		e.Member, e.Instance, e.Gen = wk.id(r.MemberID), string(r.InstanceID), int32(r.MemberEpoch)
		if r.OwnedPartitions != nil {
			e.Owned = differential.FromSet(*r.OwnedPartitions)
		}
	default:
		wk.t.Fatalf("unknown request %T", r)
	}
	if wk.cfg.ConsumerProtocol {
		e.Proto = history.Consumer
	}
	e.Op = kind
	o := &genOp{slot: i, inc: s.Incarnation, begin: e, sent: step, replied: -1, received: -1, kind: kind}
	wk.ops = append(wk.ops, o)
	wk.out[i] = append(wk.out[i], o)
}

// answers is the request kind a response answers.
func answers(r impl.Response) string {
	switch r.(type) {
	case impl.JoinGroupResponse:
		return history.JoinGroup
	case impl.SyncGroupResponse:
		return history.SyncGroup
	case impl.HeartbeatResponse:
		return history.Heartbeat
	case impl.LeaveGroupResponse:
		return history.LeaveGroup
	case impl.OffsetCommitResponse:
		return history.OffsetCommit
	case impl.ConsumerGroupHeartbeatResponse:
		return history.ConsumerGroupHeartbeat
	}
	return ""
}

func (wk *walker) endEvent(o *genOp, r impl.Response) *history.Event {
	e := &history.Event{Kind: history.Request, Phase: history.End, Node: o.begin.Node, Proto: o.begin.Proto, Op: o.kind,
		Err: differential.ErrorName(r.Code())}
	switch r := r.(type) {
	case impl.JoinGroupResponse:
		e.Member, e.Gen, e.Leader = wk.id(r.MemberID), int32(r.Generation), wk.id(r.Leader)
		for _, m := range r.Members {
			e.Members = append(e.Members, wk.id(m.MemberID))
		}
	case impl.SyncGroupResponse:
		e.Parts = differential.FromSet(r.Assignment.Partitions)
	case impl.LeaveGroupResponse:
		if len(r.Members) > 0 {
			e.Err = differential.ErrorName(r.Members[0].Error) // the member's own outcome
		}
	case impl.ConsumerGroupHeartbeatResponse:
		e.Member, e.Gen = wk.id(r.MemberID), int32(r.MemberEpoch)
		if r.Assignment != nil {
			e.Parts = differential.FromSet(*r.Assignment)
		}
	}
	return e
}

// choice is an enabled action and its outcome.
type choice struct {
	a    spec.Action
	next spec.World
	ev   []spec.Event
}

// step takes one random enabled action; false when none is enabled.
func (wk *walker) step(rng *rand.Rand, n int) bool {
	var enabled []choice
	for _, a := range spec.Actions(wk.w, nil) {
		if next, ev, ok := spec.Step(wk.w, a); ok {
			enabled = append(enabled, choice{a, next, ev})
		}
	}
	if len(enabled) == 0 || wk.quiescent(enabled) {
		return false
	}
	// Left uniform, a walk would spend its environment budgets (crashes, timeouts) in its
	// first steps and then commit for ever: environment events are drawn one time in eight
	// and commits one time in twenty, so that rounds complete between the faults.
	var c choice
	for {
		c = enabled[rng.IntN(len(enabled))]
		if rng.IntN(weight(c.a.Kind)) == 0 {
			break
		}
	}
	pre := wk.w
	wk.w = c.next
	i := int(c.a.Slot)
	switch c.a.Kind {
	case spec.DeliverRequest, spec.Assign:
		if wk.cfg.ConsumerProtocol || c.a.Kind == spec.DeliverRequest {
			o := wk.out[i][0]
			wk.out[i] = wk.out[i][1:]
			o.delivered = true
			if o.begin.Member == "" { // the coordinator hands out fresh ids
				before := coordinatorIDs(pre)
				for _, id := range coordinatorIDs(wk.w) {
					if !slices.Contains(before, id) {
						wk.alias[id]++
					}
				}
			}
		}
	case spec.DeliverResponse:
		o := wk.in[i][0]
		wk.in[i] = wk.in[i][1:]
		o.received = n
	case spec.LoseResponse:
		wk.in[i] = wk.in[i][1:]
	}
	for _, e := range c.ev {
		switch e := e.(type) {
		case spec.SendEvent:
			wk.send(e.Slot, e.Request, n)
		case spec.ReplyEvent:
			wk.reply(e, n)
		}
	}
	for j, s := range wk.w.Slots {
		if len(s.In) == 0 {
			wk.in[j] = nil
		}
		if len(wk.in[j]) != len(s.In) || len(wk.out[j]) != len(s.Out) {
			wk.t.Fatalf("step %d (%s): the walker lost track of slot %d's queues: in %d/%d out %d/%d",
				n, c.a.Text(wk.w.Config()), j, len(wk.in[j]), len(s.In), len(wk.out[j]), len(s.Out))
		}
	}
	return true
}

// weight is the inverse frequency of an action kind in a walk.
func weight(k spec.Kind) int {
	switch k {
	case spec.DeliverRequest, spec.DeliverResponse, spec.Assign, spec.Poll, spec.Heartbeat, spec.Refresh:
		return 1
	case spec.Commit:
		return 20
	}
	return 8
}

// quiescent: only commits are left to do (the group converged and the budgets are spent).
func (wk *walker) quiescent(enabled []choice) bool {
	for _, c := range enabled {
		s := wk.w.Slots[c.a.Slot]
		switch {
		case c.a.Kind == spec.Commit:
		case c.a.Kind == spec.DeliverRequest && len(s.Out) > 0 && answersKind(s.Out[0]) == history.OffsetCommit:
		case c.a.Kind == spec.DeliverResponse && len(s.In) > 0 && answers(s.In[0]) == history.OffsetCommit:
		default:
			return false
		}
	}
	return true
}

func answersKind(r impl.Request) string {
	if _, ok := r.(impl.OffsetCommitRequest); ok {
		return history.OffsetCommit
	}
	return ""
}

// reply matches a coordinator answer with the request it answers: the oldest delivered,
// unanswered request of that kind from the slot's incarnation the answer goes to.
func (wk *walker) reply(e spec.ReplyEvent, n int) {
	kind := answers(e.Response)
	cur := wk.w.Slots[e.Slot].Incarnation
	for _, o := range wk.ops {
		if o.slot != e.Slot || !o.delivered || o.replied >= 0 || o.kind != kind {
			continue
		}
		if !e.Dropped && o.inc != cur {
			continue
		}
		o.replied, o.end = n, wk.endEvent(o, e.Response)
		if !e.Dropped {
			wk.in[e.Slot] = append(wk.in[e.Slot], o)
		}
		return
	}
	wk.t.Fatalf("step %d: no request for %s", n, e)
}

// history draws the intervals and returns the history, in time order.
func (wk *walker) history(rng *rand.Rand, last int) history.History {
	type stamped struct {
		e     history.Event
		order int
	}
	var evs []stamped
	draw := func(lo, hi int) int64 { return int64(10*lo + rng.IntN(10*(hi-lo)+1)) }
	for k, o := range wk.ops {
		lin := last
		if o.replied >= 0 {
			lin = o.replied
		}
		b := o.begin
		b.ID, b.T = int64(k+1), draw(o.sent, lin)
		evs = append(evs, stamped{b, 2 * k})
		if o.received >= 0 {
			e := *o.end
			e.ID, e.T = b.ID, max(b.T, draw(o.replied, o.received))
			evs = append(evs, stamped{e, 2*k + 1})
		}
	}
	sort.SliceStable(evs, func(i, j int) bool {
		if evs[i].e.T != evs[j].e.T {
			return evs[i].e.T < evs[j].e.T
		}
		return evs[i].order < evs[j].order
	})
	h := make(history.History, len(evs))
	for i, s := range evs {
		h[i] = s.e
		h[i].Seq = int64(i + 1)
	}
	return h
}

// walk runs one seeded walk of at most steps steps and returns its history.
func walk(t testing.TB, cfg spec.Config, seed uint64, steps int) history.History {
	rng := rand.New(rand.NewPCG(seed, 0x9e3779b97f4a7c15))
	wk := newWalker(t, cfg)
	n := 1
	for ; n <= steps && wk.step(rng, n); n++ {
	}
	h := wk.history(rng, n)
	if err := h.Validate(); err != nil {
		t.Fatalf("generated history invalid: %v", err)
	}
	return h
}

// soakSeeds runs more walks per world (a soak: go test ./oracle/lin -run Model -lin.seeds 500).
var soakSeeds = flag.Int("lin.seeds", 0, "walks per world in TestModelHistoriesAreLinearizable (0: 40, or 12 with -short)")

// genConfigs are the worlds walked: every preset, and two with every environment budget.
func genConfigs(t testing.TB) []spec.Config {
	var cfgs []spec.Config
	for _, p := range spec.Presets {
		c, err := p.Config()
		if err != nil {
			t.Fatal(err)
		}
		if c.Budget.Failovers > 0 {
			continue // a failover replaces the coordinator, which no history event records
		}
		cfgs = append(cfgs, c)
	}
	churn := "budget joins=3 leaves=2 crashes=2 lost-responses=3 session-timeouts=2 poll-timeouts=2 partition-additions=1 subscription-changes=2"
	classicTimers := " join-timeouts=2 sync-timeouts=2"
	members := `
topic t 4
topic u 2
member a topics=t alt-topics=t,u
member b topics=t
member c topics=t,u
member d topics=t absent
commits on
`
	static := strings.ReplaceAll(strings.ReplaceAll(members, " absent", ""), "topics=t\n", "topics=t static\n") + "budget restarts=3\n"
	for _, w := range []struct{ name, text string }{
		{"churn-cooperative", "protocol cooperative\nconsumer kafka\ncoordinator kafka\nassignor cooperative-sticky" + members + churn + classicTimers},
		{"churn-cooperative-kip", "protocol cooperative\nconsumer kip\ncoordinator kafka\nassignor cooperative-sticky" + members + churn + classicTimers},
		{"churn-eager", "protocol eager\nconsumer kafka\ncoordinator kafka\nassignor sticky" + members + churn + classicTimers},
		{"churn-eager-v3-join", "protocol eager\nconsumer kafka\ncoordinator kafka\nassignor range" +
			strings.ReplaceAll(members, "topics=t\n", "topics=t join-version=3\n") + churn + classicTimers},
		{"churn-static-kip423", "protocol cooperative\nconsumer kip\ncoordinator kip423\nassignor cooperative-sticky" + static + churn + classicTimers},
		{"churn-static-kafka", "protocol cooperative\nconsumer kafka\ncoordinator kafka\nassignor cooperative-sticky" + static + churn + classicTimers},
		{"churn-kip848", "protocol consumer\nconsumer kafka\ncoordinator kafka\nassignor uniform" + members + churn + " rebalance-timeouts=2"},
		{"churn-kip848-kip", "protocol consumer\nconsumer kip\ncoordinator kafka\nassignor range" + members + churn + " rebalance-timeouts=2"},
		{"churn-kip848-static", "protocol consumer\nconsumer kafka\ncoordinator kafka\nassignor uniform" + static + churn + " rebalance-timeouts=2"},
	} {
		c, err := spec.ParseConfigString(w.name, "name "+w.name+"\n"+w.text+"\n")
		if err != nil {
			t.Fatalf("%s: %v", w.name, err)
		}
		cfgs = append(cfgs, c)
	}
	return cfgs
}

// TestModelHistoriesAreLinearizable: zero false positives on histories the reference itself
// produced. Source: docs/protocol.md §6.7; issue 7 item 1.
func TestModelHistoriesAreLinearizable(t *testing.T) {
	seeds, steps := 40, 300
	if testing.Short() {
		seeds = 12
	}
	if *soakSeeds > 0 {
		seeds = *soakSeeds
	}
	histories, ops := 0, 0
	for _, cfg := range genConfigs(t) {
		for seed := range uint64(seeds) {
			h := walk(t, cfg, seed, steps)
			r, err := Check(h, 0)
			if err != nil {
				t.Fatalf("%s seed %d: %v", cfg.Name, seed, err)
			}
			if !r.OK {
				t.Fatalf("%s seed %d: a history of the reference is reported not linearizable:\n%s", cfg.Name, seed, r.Detail)
			}
			histories++
			ops += r.Operations
		}
	}
	t.Logf("%d model-generated histories (%d checked operations) linearizable", histories, ops)
}
