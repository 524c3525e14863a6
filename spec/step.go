package spec

import (
	"slices"

	"github.com/groupcheck/groupcheck/impl"
	"github.com/groupcheck/groupcheck/impl/consumer"
)

// Next is the world after action a, and false when a is not enabled in w.
func Next(w World, a Action) (World, bool) {
	n, _, ok := Step(w, a)
	return n, ok
}

// Step is Next with the step's observable events, in the order they happened. It routes the
// action to the roles in impl and does nothing else: delivery, the environment's budgets and
// the bookkeeping of connections are the only logic of its own.
func Step(w World, a Action) (World, []Event, bool) {
	st := stepper{w: w}
	if !st.do(a) {
		return w, nil, false
	}
	return st.w, st.ev, true
}

// stepper accumulates one step: the successor world and its events. Most candidate actions
// are not enabled, so the slot slice is copied only when a step first writes to it, and a
// slot only when the step first writes to that slot; the others stay shared with the parent.
type stepper struct {
	w      World
	ev     []Event
	cloned bool
	owned  uint16 // the slots already copied for the successor, one bit each
}

// slot is slot i of the successor, writable: the slice and the slot are copied on first use.
func (st *stepper) slot(i int) *Slot {
	if !st.cloned {
		st.w.Slots = slices.Clone(st.w.Slots)
		st.cloned = true
	}
	if st.owned&(1<<i) == 0 {
		s := *st.w.Slots[i]
		st.w.Slots[i] = &s
		st.owned |= 1 << i
	}
	return st.w.Slots[i]
}

func (st *stepper) do(a Action) bool {
	if a.Kind >= numKinds || (a.Kind != AddPartition && a.Kind != DeleteTopic && a.Kind != SessionExpiry &&
		a.Kind != PendingExpiry && a.Kind != RebalanceTimeout && a.Kind != JoinTimeout && a.Kind != SyncTimeout &&
		a.Kind != Failover && a.Kind != Load && (a.Slot < 0 || int(a.Slot) >= len(st.w.Slots))) {
		return false
	}
	if st.w.cfg.ConsumerProtocol {
		return st.doKIP848(a)
	}
	if st.w.cfg.Mixed() {
		return st.doMixed(a)
	}
	if (a.Kind == JoinTimeout || a.Kind == SyncTimeout) && a.Member != "" {
		return false // a classic member's own timer: in a consumer group of a mixed world only
	}
	i := int(a.Slot)
	switch a.Kind {
	case DeliverRequest:
		return st.deliverRequest(i)
	case DeliverResponse:
		return st.deliverResponse(i)
	case Assign:
		return st.assign(i, a.Choice, a.Followup)
	case Poll, Heartbeat, Commit, Refresh, Followup:
		return st.memberStep(i, a.Kind)
	case Start, Leave, Crash, Restart, Resubscribe, LoseResponse, PollTimeout, Hang:
		return st.memberEnv(i, a.Kind)
	case Pause, Resume:
		return st.pause(i, a.Kind)
	case AddPartition, DeleteTopic:
		return st.metadata(a.Kind, a.Topic)
	case SessionExpiry, PendingExpiry, JoinTimeout, SyncTimeout:
		return st.timer(a.Kind, a.Member)
	case RebalanceTimeout:
		return false
	case Failover:
		return st.failover()
	case Load:
		return st.loaded()
	}
	panic("spec: unknown action kind " + a.Kind.String())
}

// deliverRequest hands the head of slot i's requests to the coordinator and routes its replies.
func (st *stepper) deliverRequest(i int) bool {
	if len(st.w.Slots[i].Out) == 0 {
		return false
	}
	req := pop(&st.slot(i).Out)
	if out, ok := st.coordinatorAway(i, req); ok {
		st.commitEvent(i, req, out)
		st.route(out)
		return true
	}
	var fresh impl.MemberID
	if j, ok := req.(impl.JoinGroupRequest); ok && j.MemberID == impl.NoMemberID {
		fresh = freshID(st.w, st.w.cfg.Members[i].Name)
	}
	var out []impl.Reply
	st.w.Coord, out = st.w.Coord.Handle(req, fresh)
	st.commitEvent(i, req, out)
	st.route(out)
	return true
}

// commitEvent records the coordinator's verdict on an OffsetCommit.
func (st *stepper) commitEvent(i int, req impl.Request, out []impl.Reply) {
	if c, ok := req.(impl.OffsetCommitRequest); ok {
		st.ev = append(st.ev, CommitEvent{Slot: i, Name: st.name(i), MemberID: c.MemberID,
			Generation: c.Generation, Partitions: c.Partitions, Error: commitVerdict(out, c.Conn)})
	}
}

// commitVerdict is the error code the coordinator answered a commit with.
func commitVerdict(out []impl.Reply, conn impl.Conn) impl.ErrorCode {
	for _, r := range out {
		if c, ok := r.Response.(impl.OffsetCommitResponse); ok && r.To == conn {
			return c.Error
		}
	}
	panic("spec: the coordinator did not answer an OffsetCommit")
}

// route queues each reply on its connection, or drops it when that incarnation is gone.
func (st *stepper) route(out []impl.Reply) {
	for _, r := range out {
		j, ok := st.w.receiverOf(r.To)
		if !ok {
			k := int(r.To >> 6)
			st.ev = append(st.ev, ReplyEvent{Slot: k, Name: st.name(k), Response: r.Response, Dropped: true})
			continue
		}
		s := st.slot(j)
		s.In = append(s.In[:len(s.In):len(s.In)], r.Response)
		st.ev = append(st.ev, ReplyEvent{Slot: j, Name: st.name(j), Response: r.Response})
	}
}

// deliverResponse hands the head of slot i's responses to its consumer.
func (st *stepper) deliverResponse(i int) bool {
	if st.w.Slots[i].Process != Running || len(st.w.Slots[i].In) == 0 {
		return false
	}
	s := st.slot(i)
	r := pop(&s.In)
	st.ev = append(st.ev, ReceiveEvent{Slot: i, Name: st.name(i), Response: r})
	c, effs := s.Client.Receive(r)
	st.apply(i, c, effs)
	st.maybeRediscover(i, r.Code())
	return true
}

// apply installs slot i's new consumer and executes its effects.
func (st *stepper) apply(i int, c consumer.Consumer, effs []consumer.Effect) {
	s := st.slot(i)
	s.Client = &c
	if !c.AwaitingAssignment {
		s.Assigning = nil
	}
	for _, e := range effs {
		switch e := e.(type) {
		case consumer.Send:
			s.Out = append(s.Out[:len(s.Out):len(s.Out)], e.Request)
			st.ev = append(st.ev, SendEvent{Slot: i, Name: st.name(i), Request: e.Request})
		case consumer.Callback:
			st.ev = append(st.ev, CallbackEvent{Slot: i, Name: st.name(i), Kind: e.Kind, Partitions: e.Partitions})
		case consumer.RunAssignment:
			ra := e
			s.Assigning = &ra
		case consumer.Fatal:
			st.ev = append(st.ev, FatalEvent{Slot: i, Name: st.name(i), Error: e.Error})
		case consumer.CommitResult:
			st.ev = append(st.ev, CommitResultEvent{Slot: i, Name: st.name(i), Accepted: e.Accepted, TimedOut: e.TimedOut, Local: e.Local, Error: e.Error})
		default:
			panic("spec: unknown consumer effect")
		}
	}
}

func (st *stepper) name(i int) string {
	if i < 0 || i >= len(st.w.cfg.Members) {
		return "?"
	}
	return st.w.cfg.Members[i].Name
}

// timer fires one of the coordinator's timers. A timer that concerns only members whose
// process is gone is free (it is bound to fire); one that fires on a live member spends its
// budget. A hung member is gone for the join and sync timers, which wait for its poll thread,
// but alive for the session timer, which its heartbeat thread keeps.
func (st *stepper) timer(k Kind, id impl.MemberID) bool {
	w := &st.w
	if w.Loading {
		return false // the new coordinator schedules its timers once loaded
	}
	var out []impl.Reply
	switch k {
	case SessionExpiry:
		if !w.Coord.CanSessionExpire(id) || !st.spend(&w.Left.SessionTimeouts, w.held(id) || w.heartbeating(id)) {
			return false
		}
		w.Coord, out = w.Coord.SessionExpired(id)
	case PendingExpiry:
		if !w.Coord.EnabledPendingMemberExpiry(id) || !st.spend(&w.Left.SessionTimeouts, w.held(id)) {
			return false
		}
		w.Coord, out = w.Coord.PendingMemberExpired(id)
	case JoinTimeout:
		if !w.Coord.EnabledJoinPhaseTimeout() || !st.spend(&w.Left.JoinTimeouts, w.joinTimeoutCosts()) {
			return false
		}
		w.Coord, out = w.Coord.JoinPhaseTimeout()
	case SyncTimeout:
		if !w.Coord.EnabledSyncPhaseTimeout() || !st.spend(&w.Left.SyncTimeouts, w.syncTimeoutCosts()) {
			return false
		}
		w.Coord, out = w.Coord.SyncPhaseTimeout()
	}
	st.route(out)
	return true
}

// spend takes one from a budget when the event costs; it reports whether the event may happen.
func (st *stepper) spend(b *int, costs bool) bool {
	if !costs {
		return true
	}
	if *b == 0 {
		return false
	}
	*b--
	return true
}

// heartbeating reports whether a hung process holds member id id: its heartbeat thread keeps
// the session alive, so the session timer costs budget, but the join and sync timers, which
// wait for its poll thread, are free.
func (w World) heartbeating(id impl.MemberID) bool {
	for _, s := range w.Slots {
		if s.Process == Hung && s.Client.MemberID() == id {
			return true
		}
	}
	return false
}

// joinTimeoutCosts: the join timer fires for free only when every member it still waits for
// is gone or hung (no live consumer holds its id): then it is bound to fire. If a live member
// has not rejoined yet, firing means that member was too slow — a failure the budget bounds. The
// initial delay (InitialDelayedJoin) always fires for free: it is a delay, not a failure.
func (w World) joinTimeoutCosts() bool {
	if w.Coord.InitialJoin() {
		return false
	}
	for _, m := range w.Coord.AllMembers() {
		if !m.Join.Parked && w.held(m.ID) {
			return true
		}
	}
	return false
}

// syncTimeoutCosts: likewise, the sync timer is free only when every member it waits for is
// gone or hung.
func (w World) syncTimeoutCosts() bool {
	for _, m := range w.Coord.AllMembers() {
		if m.PendingSync && w.held(m.ID) {
			return true
		}
	}
	return false
}

// pop takes the head of a FIFO queue; an emptied queue is nil, so that an empty queue has one
// encoding.
func pop[T any](q *[]T) T {
	head := (*q)[0]
	*q = (*q)[1:]
	if len(*q) == 0 {
		*q = nil
	}
	return head
}
