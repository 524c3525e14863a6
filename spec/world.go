package spec

import (
	"github.com/groupcheck/groupcheck/impl"
	"github.com/groupcheck/groupcheck/impl/consumer"
	"github.com/groupcheck/groupcheck/impl/coordinator"
	"github.com/groupcheck/groupcheck/impl/kip848"
	"github.com/groupcheck/groupcheck/impl/kip848client"
)

// Process is the life of one slot's consumer process.
type Process uint8

const (
	// Absent: never started (a late joiner).
	Absent Process = iota
	// Running: the process runs its consumer.
	Running
	// Crashed: the process died without leaving. Its requests already sent may still arrive.
	Crashed
	// Closed: the process closed its consumer (graceful leave) and stopped.
	Closed
	// Hung: the process is alive but its poll thread hangs for good in the assignor
	// (budget hangs). Its heartbeat thread goes on, so the coordinator's session timer does
	// not fire of itself, but it handles no response and takes no step; its consumer is
	// frozen as it was, still believing it owns what it owned. Sent requests still arrive.
	Hung
	// Paused: the whole process is stopped (budget pauses: a frozen VM, a stop-the-world
	// GC): no poll, no heartbeat, no response read, its state kept. Responses queue on its
	// connection; it resumes later (Resume, a fair action) exactly as it was.
	Paused
)

var processNames = [...]string{"absent", "running", "crashed", "closed", "hung", "paused"}

func (p Process) String() string { return processNames[p] }

// Cond is a set of conditions on a slot, a bit each (Slot.Cond).
type Cond uint8

// Slot is one member slot: a consumer process, its incarnation, and its connection to the
// coordinator. The network is per-connection FIFO: Out holds the requests on their way to the
// coordinator in send order, In the responses on their way back. A crash empties In (nobody
// reads them) but not Out (sent requests still arrive: the zombie's last words).
type Slot struct {
	Process     Process
	Incarnation uint8
	Alt         bool // subscribed to the config's AltTopics
	// Stale: the slot's connection still goes to the group's old coordinator (a failover
	// happened and its client has not learned it): what it sends is answered NOT_COORDINATOR.
	Stale bool
	// Cond holds the conditions environment events left on the slot, one bit per kind that
	// leaves one (the kinds table's cond column, kinds.go).
	Cond Cond
	// Client is the slot's classic consumer and Member its KIP-848 client. Only one of them
	// runs in a world; the other is the shared zero value (noClient, noMember). Both are
	// pointers so that a slot, which a world keeps for every distinct member state, does not
	// carry the idle one inline (a classic slot was 1,040 bytes, 288 of them the zero KIP-848
	// client). Like the slot itself they are never written through: a step installs a new
	// value (apply, applyMember). The canonical encoding is the value's (`deref`).
	Client *consumer.Consumer   `spec:"classic,deref"`
	Member *kip848client.Member `spec:"kip848,deref"`
	// Assigning is the round the slot's leader is computing the assignment for, from its
	// JoinGroup response until the Assign action; nil otherwise.
	Assigning *consumer.RunAssignment `spec:"classic"`
	Out       []impl.Request
	In        []impl.Response
	// Consumer: in a mixed world, the incarnation runs group.protocol=consumer (Member) rather
	// than the classic protocol (Client); a bounce switches it (mixed.go).
	Consumer bool `spec:"mixed"`
}

// World is the closed world: the coordinator, every member slot with its connection, the
// cluster metadata, and what is left of each environment budget. It is a value: Step never
// modifies a World, and successors share only immutable data with it.
type World struct {
	cfg   *Config           `spec:"-"` // fixed for the run; not part of the state
	Coord coordinator.Group `spec:"classic"`
	// Group is the KIP-848 coordinator (protocol consumer only; the zero value otherwise,
	// while Coord stays an idle classic coordinator under protocol consumer).
	Group kip848.Group `spec:"kip848"`
	// Slots are shared between worlds and never written: a step copies the slot it changes
	// (copy on write), so a successor costs one slot, not all of them.
	Slots   []*Slot
	Cluster impl.Cluster
	Left    Budget
	// Observed is a set of flags owned by observers of the run (step properties that must
	// remember a violating transition); the world itself never reads or writes it.
	Observed uint64
	// Loading: a failover's new coordinator is still loading the group from the log; it
	// answers every request with coordinator.LoadingReply and runs no timer.
	Loading bool
	// ConsumerGroup: in a mixed world, the coordinator holds the group as a consumer group
	// (Group; Coord is then the zero value) rather than a classic one (Coord; Group zero).
	// The two fields are the halves of one impl/migration.Group (mixed.go).
	ConsumerGroup bool `spec:"mixed"`
}

// Config is the world's configuration.
func (w World) Config() *Config { return w.cfg }

// Init is the initial world of a config: an Empty group, every present member running and
// subscribed (not yet polled), the configured cluster, the full budgets.
func Init(cfg Config) World {
	c := cfg
	c.mixed = c.Mixed()
	w := World{
		cfg:     &c,
		Coord:   coordinator.New(coordinator.Config{Variant: c.Coordinator, Faults: c.Faults, MaxSize: c.MaxSize, Persist: c.Budget.Failovers > 0}),
		Slots:   make([]*Slot, len(c.Members)),
		Cluster: impl.NewCluster(c.Topics...),
		Left:    c.Budget,
	}
	for i := range w.Slots {
		s := blankSlot()
		w.Slots[i] = &s
	}
	if c.ConsumerProtocol {
		return w.initConsumerProtocol()
	}
	if c.mixed {
		return w.initMixed()
	}
	for i, m := range c.Members {
		if !m.Absent {
			s := w.startSlot(i, blankSlot())
			w.Slots[i] = &s
		}
	}
	return w
}

// noClient and noMember are the zero roles every slot of a world of the other protocol (and
// every absent slot) points to; nothing writes through them.
var (
	noClient = new(consumer.Consumer)
	noMember = new(kip848client.Member)
)

// blankSlot is an absent slot: no process, the zero roles.
func blankSlot() Slot { return Slot{Client: noClient, Member: noMember} }

// startSlot runs a new incarnation of slot i: a fresh consumer, subscribed, on a new
// connection. Nothing is sent until the member polls.
func (w World) startSlot(i int, old Slot) Slot {
	m := w.cfg.Members[i]
	s := blankSlot()
	s.Process, s.Incarnation, s.Alt, s.Out = Running, old.Incarnation+1, old.Alt, old.Out
	if old.Stale {
		s.Out = nil // on their way to the old coordinator, whose answers nobody reads
	}
	cfg := consumer.Config{
		Variant:             w.cfg.Consumer,
		Assignors:           w.cfg.MemberAssignors(i),
		SubscriptionVersion: m.SubscriptionVersion,
		JoinGroupVersion:    m.JoinVersion,
		Conn:                connOf(i, s.Incarnation),
		Faults:              w.cfg.Faults,
		Commits:             w.cfg.CommitPolicy,
		OnFatal:             w.cfg.OnFatal,
	}
	if m.Static {
		cfg.InstanceID = m.InstanceID()
	}
	if m.Protocol != nil {
		p := *m.Protocol
		cfg.RebalanceProtocol = &p
	}
	c, _ := consumer.New(cfg, w.Cluster).Subscribe(w.topicsOf(i, s.Alt))
	s.Client = &c
	return s
}

func (w World) topicsOf(i int, alt bool) []string {
	if alt {
		return w.cfg.Members[i].AltTopics
	}
	return w.cfg.Members[i].Topics
}

// connOf numbers connections: six bits of incarnation per slot.
func connOf(slot int, incarnation uint8) impl.Conn { return impl.Conn(slot<<6 | int(incarnation)) }

// receiverOf finds the slot whose current incarnation reads the connection: a running one,
// or a paused one, whose responses wait on the connection until it resumes.
func (w World) receiverOf(c impl.Conn) (int, bool) {
	i, inc := int(c>>6), uint8(c&63)
	if i >= len(w.Slots) || w.Slots[i].Incarnation != inc || (w.Slots[i].Process != Running && w.Slots[i].Process != Paused) {
		return 0, false
	}
	return i, true
}

// slotOfConn finds the slot whose current, running incarnation owns the connection.
func (w World) slotOfConn(c impl.Conn) (int, bool) {
	i, inc := int(c>>6), uint8(c&63)
	if i >= len(w.Slots) || w.Slots[i].Incarnation != inc || w.Slots[i].Process != Running {
		return 0, false
	}
	return i, true
}

// Live reports whether slot i runs a consumer that still takes part in the protocol.
func (w World) Live(i int) bool {
	if w.ConsumerSlot(i) {
		return w.Slots[i].Process == Running && w.Slots[i].Member.Fatal() == impl.None
	}
	return w.Slots[i].Process == Running && w.Slots[i].Client.Active()
}

// Holder is the slot whose live consumer currently holds member id id, if any.
func (w World) Holder(id impl.MemberID) (int, bool) {
	for i := range w.Slots {
		if w.Live(i) && w.MemberIDOf(i) == id {
			return i, true
		}
	}
	return 0, false
}

// held reports whether a live consumer process stands behind member id id: it holds the id,
// the coordinator has a request of its connection parked under the id, or a response naming
// the id is on its way to it. Timers on held ids cost budget (the member is alive, only slow);
// timers on ids nobody holds are free (see timer).
func (w World) held(id impl.MemberID) bool {
	if w.cfg.ConsumerProtocol {
		return w.heldKIP848(id)
	}
	if w.cfg.mixed && w.heldKIP848(id) {
		return true
	}
	if _, ok := w.Holder(id); ok {
		return true
	}
	if m, ok := w.Coord.Member(id); ok {
		if _, live := w.slotOfConn(m.Join.Conn); m.Join.Parked && live {
			return true
		}
		if _, live := w.slotOfConn(m.Sync.Conn); m.Sync.Parked && live {
			return true
		}
	}
	for i, s := range w.Slots {
		if !w.Live(i) {
			continue
		}
		for _, r := range s.In {
			if j, ok := r.(impl.JoinGroupResponse); ok && j.MemberID == id {
				return true
			}
		}
	}
	return false
}

// MemberIDOf is the member id slot i's client holds: the classic consumer's, or the KIP-848
// member's under protocol consumer.
func (w World) MemberIDOf(i int) impl.MemberID {
	if w.ConsumerSlot(i) {
		return w.Slots[i].Member.MemberID()
	}
	return w.Slots[i].Client.MemberID()
}

// Owned is what slot i's application believes it owns, whichever the protocol.
func (w World) Owned(i int) impl.PartitionSet {
	if w.ConsumerSlot(i) {
		return w.Slots[i].Member.Owned()
	}
	return w.Slots[i].Client.Owned()
}
