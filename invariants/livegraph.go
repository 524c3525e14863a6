package invariants

import (
	"fmt"
	"hash/fnv"
	"hash/maphash"
	"math"
	"slices"

	"github.com/groupcheck/groupcheck/impl"
	"github.com/groupcheck/groupcheck/spec"
)

// edge is one transition of the live graph.
type edge struct {
	to   int32
	key  int16 // the action's fairness key: which process or timer takes it (see actionKey)
	k    int16 // the action's index in spec.Actions of the source world, to re-execute it
	bump int8  // completed rebalances it makes: generation (classic) or group epoch (KIP-848) increments
	fair bool  // a protocol action or a free timer: weak fairness applies to it
	// wait is what the action waits for once enabled (spec.Waits): the deadline by which
	// it happens if nothing else does first. It fits the struct's padding.
	wait spec.Timer
}

// actionKey names an action up to the choice it makes: weak fairness is about a process (a
// member's delivery, poll, assign...) or a timer being continuously able to act, not about one
// particular assignment an `any` leader might send.
type actionKey struct {
	kind   spec.Kind
	slot   int8
	topic  string
	member impl.MemberID
}

// liveGraph is the explored graph: per world (in BFS order) its parent, the index of the
// action that reached it, its out-edges, whether it is converged, and how many subscribed
// partitions it leaves without a live owner.
type liveGraph struct {
	parent []int32
	action []int16
	// The out-edges in one array, world by world (compressed sparse rows): world v's are
	// edges[first[v]:first[v+1]] (from). A world's edges are all added while it is expanded,
	// in BFS order, so the array only grows at its end; it costs an edge's 12 bytes and an
	// offset per world, not a slice header and its growth per world.
	edges     []edge
	first     []int32
	goal      []bool
	settled   []bool // the coordinator keeps no id that no running process stands behind (spec.World.Unsettled)
	unavail   []int16
	durations spec.Timers // the config's (spec.Config.Durations)
	keys      []actionKey // by key id
	init      spec.World
	stopped   string // the bound that stopped the graph (LiveBounds), or ""
	// stable is, with LiveBounds.PerStart, a fingerprint of each converged world's encoding
	// that does not depend on the process (FNV-1a), by index.
	stable map[int32]uint64

	taken      map[takenKey]struct{} // with LiveBounds.RecordTaken, what the edges did
	lastAction spec.Action           // set by stepTo, read right after
	impure     int32                 // with StopImpure, the world a step changed
}

func newLiveGraph(c spec.Config, b LiveBounds) *liveGraph {
	g := &liveGraph{init: spec.Init(c), durations: c.Durations()}
	if b.RecordTaken {
		g.taken = map[takenKey]struct{}{}
	}
	if b.PerStart {
		g.stable = map[int32]uint64{}
	}
	seed := maphash.MakeSeed()
	index := map[uint64]int32{}
	keyID := map[actionKey]int16{}
	var buf []byte
	var queue fifo
	goal := Goal(c)
	add := func(w spec.World, parent int32, action int16) int32 {
		buf = w.Encode(buf[:0])
		fp := maphash.Bytes(seed, buf)
		if i, ok := index[fp]; ok {
			return i
		}
		i := int32(len(g.parent))
		index[fp] = i
		g.parent = append(g.parent, parent)
		g.action = append(g.action, action)
		g.goal = append(g.goal, goal(w))
		g.settled = append(g.settled, w.Unsettled() == "")
		if g.stable != nil && g.goal[i] {
			h := fnv.New64a()
			h.Write(buf)
			g.stable[i] = h.Sum64()
		}
		g.unavail = append(g.unavail, int16(unowned(w)))
		queue.push(w)
		if b.OnWorld != nil && g.stopped == "" && !b.OnWorld(w) {
			g.stopped = StopCaller
		}
		return i
	}
	key := func(a spec.Action) int16 {
		k := actionKey{kind: a.Kind, slot: a.Slot, topic: a.Topic, member: a.Member}
		id, ok := keyID[k]
		if !ok {
			if len(g.keys) == math.MaxInt16 {
				panic("invariants: more fairness keys than an edge holds")
			}
			id = int16(len(g.keys))
			keyID[k] = id
			g.keys = append(g.keys, k)
		}
		return id
	}
	defer g.seal()
	add(g.init, -1, -1)
	var acts []spec.Action
	var before, after []byte
	for i := 0; queue.len() > 0; i++ {
		if g.stopped != "" { // a hook's
			return g
		}
		if b.MaxStates > 0 && len(g.parent) > b.MaxStates || i%liveCheckEvery == 0 {
			if g.stopped = b.stop(len(g.parent)); g.stopped != "" {
				return g
			}
		}
		if len(g.edges) > math.MaxInt32 {
			panic("invariants: more live-graph edges than an offset holds")
		}
		g.first = append(g.first, int32(len(g.edges))) // world i's edges start here
		w := queue.pop()
		if b.CheckPure {
			before = w.Encode(before[:0])
		}
		acts = spec.Actions(w, acts[:0])
		for k, a := range acts {
			if n, ev, ok := spec.Step(w, a); ok {
				if b.OnStep != nil && g.stopped == "" {
					// The hook takes copies' addresses, so that w and n stay off the heap
					// when there is no hook; what it writes (an observer's flags) is kept.
					pre, post := w, n
					if !b.OnStep(&pre, ev, &post) {
						g.stopped = StopCaller
					}
					w, n = pre, post
				}
				if g.taken != nil {
					g.taken[newTakenKey(w, a)] = struct{}{}
				}
				j := add(n, int32(i), int16(k))
				g.edges = append(g.edges, edge{to: j, key: key(a), k: int16(k),
					bump: int8(max(0, Rebalances(n)-Rebalances(w))), fair: Fair(a, w, n), wait: spec.Waits(w, a)})
			}
		}
		if b.CheckPure {
			if after = w.Encode(after[:0]); string(after) != string(before) {
				g.stopped = StopImpure
				g.impure = int32(i)
				return g
			}
		}
	}
	return g
}

// seal ends the edge rows: every world not expanded (a bound stopped the graph) has none.
func (g *liveGraph) seal() {
	for len(g.first) <= len(g.parent) {
		g.first = append(g.first, int32(len(g.edges)))
	}
}

// size is the number of worlds in the graph.
func (g *liveGraph) size() int { return len(g.parent) }

// from is world v's out-edges.
func (g *liveGraph) from(v int32) []edge { return g.edges[g.first[v]:g.first[v+1]] }

// fifo is the builder's queue of worlds to expand, in blocks that are dropped once expanded,
// so that it holds the frontier and not every world the graph has seen.
type fifo struct {
	blocks [][]spec.World
	head   int // of blocks[0]
	n      int
}

const fifoBlock = 4096

func (q *fifo) len() int { return q.n }

func (q *fifo) push(w spec.World) {
	if k := len(q.blocks); k == 0 || len(q.blocks[k-1]) == fifoBlock {
		q.blocks = append(q.blocks, make([]spec.World, 0, fifoBlock))
	}
	k := len(q.blocks) - 1
	q.blocks[k] = append(q.blocks[k], w)
	q.n++
}

func (q *fifo) pop() spec.World {
	w := q.blocks[0][q.head]
	q.blocks[0][q.head] = spec.World{}
	q.head++
	q.n--
	if q.head == len(q.blocks[0]) && (len(q.blocks) > 1 || q.head == fifoBlock) {
		q.blocks[0] = nil
		q.blocks = q.blocks[1:]
		q.head = 0
	}
	return w
}

// Fair reports whether weak fairness applies to the step: the protocol's own actions
// always; a timer only when it costs no budget (its member's process is gone, so it is bound
// to fire). Budgeted environment events — crashes, joins, a live member's timeouts — are
// choices of the environment, which may stop acting at any time. So is the application's
// offset commit: the protocol never needs one to progress, and a member that commits
// forever (one request in flight at a time) would otherwise starve its own heartbeat and
// poll, which weak fairness cannot force when they are enabled only between commits — a
// modelling artifact, not a protocol livelock (the real client heartbeats from its own thread).
// An assign that marks a follow-up (budget followups) is the assignor's budgeted choice, not
// forced; carrying a follow-up out (Followup) is fair, like a timer bound to fire.
//
// Which kind is which is the kinds table's fairness column (spec.Kind.Fairness).
func Fair(a spec.Action, w, n spec.World) bool {
	switch a.Kind.Fairness() {
	case spec.Fair:
		return true
	case spec.FairWhenFree:
		return w.Left == n.Left
	}
	return false
}

// rebalances is the world's count of completed rebalances: the classic coordinator's
// generation, or the KIP-848 group epoch (one per new target assignment).
// Rebalances is the world's count of completed rebalances: its generation (classic) or group
// epoch (KIP-848).
func Rebalances(w spec.World) int {
	if w.IsConsumerGroup() {
		return int(w.Group.GroupEpoch())
	}
	return int(w.Coord.Generation())
}

// unowned counts the partitions some live member subscribes to that no live member owns: the
// world's unavailability, summed over the steps of a behaviour.
func unowned(w spec.World) int {
	var subscribed, owned impl.PartitionSet
	for i, s := range w.Slots {
		if !w.Live(i) {
			continue
		}
		if w.ConsumerSlot(i) {
			subscribed = subscribed.Union(w.Cluster.PartitionsOf(s.Member.Topics))
			owned = owned.Union(s.Member.Owned())
		} else {
			subscribed = subscribed.Union(w.Cluster.PartitionsOf(s.Client.Topics))
			owned = owned.Union(s.Client.Owned())
		}
	}
	return subscribed.Minus(owned).Len()
}

// takenKey is an action up to what the events check compares: its kind, its member (for
// member actions), its topic (for metadata events) and, for an assign that asks for a
// follow-up, the slot asked.
type takenKey struct {
	kind     spec.Kind
	slot     int8 // -1: not a member action
	topic    string
	followup int8 // -1: none
}

func newTakenKey(w spec.World, a spec.Action) takenKey {
	k := takenKey{kind: a.Kind, slot: a.Slot, topic: a.Topic, followup: -1}
	if a.Kind.Arg() != spec.OnSlot {
		k.slot = -1
	}
	if a.Followup != "" {
		if i, ok := w.Holder(a.Followup); ok {
			k.followup = int8(i)
		}
	}
	return k
}

// takenNames lists the graph's taken keys as text ("followup a", "assign a followup=b",
// "crash b"), sorted.
func (g *liveGraph) takenNames(c spec.Config) []string {
	var out []string
	for k := range g.taken {
		s := k.kind.String()
		if k.slot >= 0 {
			s += " " + c.Members[k.slot].Name
		}
		if k.topic != "" {
			s += " " + k.topic
		}
		if k.followup >= 0 {
			s += " followup=" + c.Members[k.followup].Name
		}
		out = append(out, s)
	}
	slices.Sort(out)
	return out
}

// pathTo lists the worlds on the shortest path to world s, s last (the initial world omitted).
func (g *liveGraph) pathTo(s int) []int {
	var chain []int
	for i := s; i > 0; i = int(g.parent[i]) {
		chain = append(chain, i)
	}
	for l, r := 0, len(chain)-1; l < r; l, r = l+1, r-1 {
		chain[l], chain[r] = chain[r], chain[l]
	}
	return chain
}

// stepTo takes the action with index k in Actions(w); it remembers the action taken.
func (g *liveGraph) stepTo(w spec.World, k int16) spec.World {
	a := spec.Actions(w, nil)[k]
	n, ok := spec.Next(w, a)
	if !ok {
		panic(fmt.Sprintf("invariants: the liveness path is not re-executable at %s", a.Text(w.Config())))
	}
	g.lastAction = a
	return n
}
