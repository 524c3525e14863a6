package spec

import (
	"slices"

	"github.com/groupcheck/groupcheck/impl"
	"github.com/groupcheck/groupcheck/impl/consumer"
	"github.com/groupcheck/groupcheck/impl/kip848"
	"github.com/groupcheck/groupcheck/impl/kip848client"
)

// The world under protocol consumer (KIP-848): the impl/kip848 coordinator (World.Group) and
// one impl/kip848client member per slot (Slot.Member), on the same per-connection FIFO
// network as the classic protocols. The classic fields stay at their zero values (Coord is
// an idle, empty classic coordinator).
//
// Abstractions and choices, beyond the classic ones (doc.go):
//   - Brokers see metadata at once: add-partition and delete-topic reach the coordinator
//     through kip848.Group.MetadataChanged in the same step as the cluster change (Kafka
//     refreshes subscription metadata on a deadline, which only delays the bump). The
//     client resolves no topic ids, so there is no refresh action.
//   - The `any` assignor: a request whose handling recomputes the target (the group epoch is
//     ahead of the assignment epoch) is delivered by `assign MEMBER TARGET` — one action per
//     target of kip848.AllTargets — instead of deliver-request; a request that does not
//     recompute is delivered as usual. Deterministic assignors need no extra action.
//   - heartbeat is the client's HeartbeatTick, offered only when it sends and the round trip
//     would change something right now (the group, the member, or the answer): a heartbeat
//     that only refreshes the session deadline is invisible, since deadlines are abstract.
//     JOINING, ACKNOWLEDGING and LEAVING send by themselves (they are urgent).
//   - A graceful leave (Close) whose leave heartbeat must wait for the one in flight keeps
//     the process running in LEAVING until it is sent; the process is Closed once the client
//     has completed its leave.
//   - Timers: session-expiry of any member, rebalance-timeout of a member whose timer would
//     fence it. Each is free when no live process stands behind the member id (heldKIP848),
//     else it spends session-timeouts or rebalance-timeouts.
//   - A lost response (lose-response) is always the response to a request the client has
//     in flight (the client's contract for RequestTimedOut).

// initConsumerProtocol starts every present member: a fresh client, subscribed, its join
// heartbeat on its way.
func (w World) initConsumerProtocol() World {
	c := w.cfg
	assignor := c.Assignor
	if assignor == "any" {
		assignor = kip848.AssignorUniform // never run: every recomputation goes through assign
	}
	w.Group = kip848.New(kip848.Config{Variant: c.Consumer, Assignor: assignor, Faults: c.Faults, MaxSize: c.MaxSize, CommitRule: c.CommitRule}, w.Cluster)
	st := stepper{w: w}
	for i, m := range c.Members {
		if !m.Absent {
			st.startMember(i)
		}
	}
	return st.w
}

// startMember runs a new incarnation of slot i under protocol consumer: a fresh client on a
// new connection, subscribed (its join heartbeat is sent at once). Requests of the previous
// incarnation still in flight stay queued; its responses are gone.
func (st *stepper) startMember(i int) {
	old := *st.w.Slots[i]
	m := st.w.cfg.Members[i]
	s := st.slot(i)
	*s = blankSlot()
	s.Process, s.Incarnation, s.Alt, s.Out = Running, old.Incarnation+1, old.Alt, old.Out
	if old.Stale {
		s.Out = nil // on their way to the old coordinator, whose answers nobody reads
	}
	cfg := kip848client.Config{Variant: st.w.cfg.Consumer, Conn: connOf(i, s.Incarnation), Faults: st.w.cfg.Faults}
	if m.Static {
		cfg.InstanceID = m.InstanceID()
	}
	if st.w.cfg.ClientMemberIDs {
		cfg.MemberID = clientMemberID(m.Name, s.Incarnation)
	}
	c, effs := kip848client.New(cfg).Subscribe(st.w.topicsOf(i, s.Alt))
	st.applyMember(i, c, effs)
}

// applyMember installs slot i's new KIP-848 client and executes its effects. A closed client
// that has completed its leave stops its process.
func (st *stepper) applyMember(i int, c kip848client.Member, effs []kip848client.Effect) {
	s := st.slot(i)
	s.Member = &c
	for _, e := range effs {
		switch e := e.(type) {
		case kip848client.Send:
			s.Out = append(s.Out[:len(s.Out):len(s.Out)], e.Request)
			st.ev = append(st.ev, SendEvent{Slot: i, Name: st.name(i), Request: e.Request})
		case kip848client.Callback:
			st.ev = append(st.ev, CallbackEvent{Slot: i, Name: st.name(i), Kind: callbackKind(e.Kind), Partitions: e.Partitions})
		case kip848client.FatalError:
			st.ev = append(st.ev, FatalEvent{Slot: i, Name: st.name(i), Error: e.Error})
		case kip848client.CommitResult:
			st.ev = append(st.ev, CommitResultEvent{Slot: i, Name: st.name(i), Accepted: e.Accepted, TimedOut: e.TimedOut, Error: e.Error})
		default:
			panic("spec: unknown kip848client effect")
		}
	}
	if c.Closed && c.State() != kip848client.Leaving && s.Process == Running {
		s.Process, s.In = Closed, nil
	}
}

func callbackKind(k kip848client.CallbackKind) consumer.CallbackKind {
	switch k {
	case kip848client.Assigned:
		return consumer.Assigned
	case kip848client.Revoked:
		return consumer.Revoked
	case kip848client.Lost:
		return consumer.Lost
	}
	panic("spec: unknown kip848client callback kind")
}

// assignActionsKIP848 appends slot i's assign candidates under protocol consumer: with the
// `any` assignor, one per target when its head request recomputes the target assignment.
func (w World) assignActionsKIP848(i int, buf []Action) []Action {
	if w.cfg.Assignor == "any" {
		if spec, ok := w.recomputes(i); ok {
			for _, t := range kip848.AllTargets(spec) {
				buf = append(buf, Action{Kind: Assign, Slot: int8(i), Choice: choiceOf(t)})
			}
		}
	}
	return buf
}

// rebalanceTimerActions appends the KIP-848 coordinator's armed rebalance timers.
func (w World) rebalanceTimerActions(_ int, buf []Action) []Action {
	for _, r := range w.Group.RebalanceTimers() {
		buf = append(buf, Action{Kind: RebalanceTimeout, Member: r.Member})
	}
	return buf
}

// choiceOf spells a target as an action's choice; targetOf reads it back.
func choiceOf(t kip848.Target) []impl.MemberAssignment {
	out := make([]impl.MemberAssignment, len(t))
	for i, e := range t {
		out[i] = impl.MemberAssignment{MemberID: e.ID, Assignment: impl.Assignment{Partitions: e.Partitions}}
	}
	return out
}

func targetOf(c []impl.MemberAssignment) kip848.Target {
	out := make([]kip848.MemberTarget, len(c))
	for i, m := range c {
		out[i] = kip848.MemberTarget{ID: m.MemberID, Partitions: m.Assignment.Partitions}
	}
	return kip848.NewTarget(out...)
}

// headHeartbeat is slot i's next request to the coordinator if it is a heartbeat, with the
// fresh member id the coordinator would hand a joiner without one.
func (w World) headHeartbeat(i int) (impl.ConsumerGroupHeartbeatRequest, impl.MemberID, bool) {
	out := w.Slots[i].Out
	if len(out) == 0 {
		return impl.ConsumerGroupHeartbeatRequest{}, "", false
	}
	req, ok := out[0].(impl.ConsumerGroupHeartbeatRequest)
	if !ok {
		return req, "", false
	}
	return req, w.freshFor(i, req), true
}

// freshFor is the fresh id a heartbeat needs (an epoch-0 join without member id), or "".
func (w World) freshFor(i int, req impl.ConsumerGroupHeartbeatRequest) impl.MemberID {
	if req.MemberEpoch == impl.EpochJoin && req.MemberID == impl.NoMemberID {
		return freshID(w, w.cfg.Members[i].Name)
	}
	return ""
}

// recomputes reports whether handling slot i's head request recomputes the target
// assignment, and the spec it is computed from: the group is asked with an assignor that
// records its input.
func (w World) recomputes(i int) (kip848.AssignmentSpec, bool) {
	var spec kip848.AssignmentSpec
	if w.Group.GroupEpoch() == w.Group.AssignmentEpoch() && !w.headMayBump(i) {
		return spec, false
	}
	req, fresh, ok := w.headHeartbeat(i)
	if !ok {
		return spec, false
	}
	called := false
	w.Group.HeartbeatAssign(req, fresh, func(s kip848.AssignmentSpec) kip848.Target {
		spec, called = s, true
		entries := make([]kip848.MemberTarget, len(s.Members))
		for k, m := range s.Members {
			entries[k] = kip848.MemberTarget{ID: m.ID}
		}
		return kip848.NewTarget(entries...)
	})
	return spec, called
}

// headMayBump: the head request may bump the group epoch itself (a join or a subscription).
func (w World) headMayBump(i int) bool {
	out := w.Slots[i].Out
	if len(out) == 0 {
		return false
	}
	req, ok := out[0].(impl.ConsumerGroupHeartbeatRequest)
	return ok && (req.MemberEpoch == impl.EpochJoin || req.SubscribedTopicNames != nil)
}

// metadataKIP848 is a change of the cluster under protocol consumer: the coordinator
// learns of it at once (see above).
func (st *stepper) metadataKIP848(k Kind, topic string) bool {
	if !st.metadata(k, topic) {
		return false
	}
	st.w.Group = st.w.Group.MetadataChanged(st.w.Cluster)
	return true
}

// deliverRequestKIP848 hands the head of slot i's requests to the KIP-848 coordinator. With
// the `any` assignor a request that recomputes the target needs a choice (assign), and a
// choice is only taken by such a request.
func (st *stepper) deliverRequestKIP848(i int, choice []impl.MemberAssignment) bool {
	w := st.w
	if len(w.Slots[i].Out) == 0 {
		return false
	}
	if w.Slots[i].Stale || w.Loading {
		if choice != nil {
			return false
		}
		req := pop(&st.slot(i).Out)
		out, _ := st.coordinatorAway(i, req)
		st.commitEvent(i, req, out)
		st.route(out)
		return true
	}
	var out []impl.Reply
	before := w.Group.AssignmentEpoch()
	switch req := w.Slots[i].Out[0].(type) {
	case impl.ConsumerGroupHeartbeatRequest:
		fresh := w.freshFor(i, req)
		if w.cfg.Assignor == "any" {
			spec, recompute := w.recomputes(i)
			if recompute != (choice != nil) {
				return false
			}
			if recompute {
				t := targetOf(choice)
				if !slices.ContainsFunc(kip848.AllTargets(spec), t.Equal) {
					return false
				}
				pop(&st.slot(i).Out)
				st.w.Group, out = w.Group.HeartbeatAssign(req, fresh, func(kip848.AssignmentSpec) kip848.Target { return t })
				break
			}
		} else if choice != nil {
			return false
		}
		pop(&st.slot(i).Out)
		st.w.Group, out = w.Group.Heartbeat(req, fresh)
	case impl.OffsetCommitRequest:
		if choice != nil {
			return false
		}
		pop(&st.slot(i).Out)
		st.w.Group, out = w.Group.OffsetCommit(req)
		st.ev = append(st.ev, CommitEvent{Slot: i, Name: st.name(i), MemberID: req.MemberID,
			Generation: req.Generation, Partitions: req.Partitions, Error: commitVerdict(out, req.Conn)})
	default:
		panic("spec: a classic request under protocol consumer")
	}
	if g := st.w.Group; g.AssignmentEpoch() != before {
		st.ev = append(st.ev, TargetEvent{Epoch: g.AssignmentEpoch(), Target: g.Target()})
	}
	st.route(out)
	return true
}

// deliverResponseKIP848 hands the head of slot i's responses to its client.
func (st *stepper) deliverResponseKIP848(i int) bool {
	if st.w.Slots[i].Process != Running || len(st.w.Slots[i].In) == 0 {
		return false
	}
	s := st.slot(i)
	c := *s.Member
	var effs []kip848client.Effect
	r0 := pop(&s.In)
	st.ev = append(st.ev, ReceiveEvent{Slot: i, Name: st.name(i), Response: r0})
	switch r := r0.(type) {
	case impl.ConsumerGroupHeartbeatResponse:
		c, effs = c.OnHeartbeatResponse(r)
	case impl.OffsetCommitResponse:
		c, effs = c.OnOffsetCommitResponse(r)
	default:
		panic("spec: a classic response under protocol consumer")
	}
	st.applyMember(i, c, effs)
	st.maybeRediscover(i, r0.Code())
	return true
}

// memberStepKIP848 is one of a live member's own steps, enabled only when it does something:
// a poll that rejoins, a heartbeat whose round trip changes something (see above), a commit
// that sends.
func (st *stepper) memberStepKIP848(i int, k Kind) bool {
	if !st.w.Live(i) {
		return false
	}
	c := st.w.Slots[i].Member
	var next kip848client.Member
	var effs []kip848client.Effect
	switch k {
	case Poll:
		next, effs = c.Poll()
		if next.State() == c.State() {
			return false
		}
	case Heartbeat:
		if !c.WantsHeartbeat() {
			return false
		}
		next, effs = c.HeartbeatTick()
		if !st.w.heartbeatMatters(i, next, effs) {
			return false
		}
	case Commit:
		if !st.w.cfg.Commits {
			return false
		}
		next, effs = c.CommitTick()
		if len(effs) == 0 {
			return false
		}
	}
	st.applyMember(i, next, effs)
	return true
}

// heartbeatMatters: the heartbeat slot i's client just produced (next, effs), delivered and
// answered right now, changes the group, or the client beyond its in-flight marker, or is
// answered with an error.
func (w World) heartbeatMatters(i int, next kip848client.Member, effs []kip848client.Effect) bool {
	if w.Slots[i].Stale || w.Loading {
		return w.Slots[i].Stale // NOT_COORDINATOR from the old broker; retried while loading
	}
	var req impl.ConsumerGroupHeartbeatRequest
	found := false
	for _, e := range effs {
		if s, ok := e.(kip848client.Send); ok {
			req, found = s.Request.(impl.ConsumerGroupHeartbeatRequest)
		}
	}
	if !found {
		return false
	}
	changed, resp := w.simulateHeartbeat(i, req)
	if changed || resp.Error != impl.None {
		return true
	}
	after, effs2 := next.OnHeartbeatResponse(resp)
	return len(effs2) > 0 || string(after.AppendEncoding(nil)) != string(w.Slots[i].Member.AppendEncoding(nil))
}

// memberEnvKIP848 is an environment event on one member slot, within its budget.
func (st *stepper) memberEnvKIP848(i int, k Kind) bool {
	w := &st.w
	s := *w.Slots[i]
	m := w.cfg.Members[i]
	switch k {
	case Start:
		if (s.Process != Absent && s.Process != Closed) || !st.spend(&w.Left.Joins, true) {
			return false
		}
		st.startMember(i)
		return true
	case Restart:
		if !m.Static || (s.Process != Running && s.Process != Crashed) || !st.spend(&w.Left.Restarts, true) {
			return false
		}
		st.startMember(i)
		return true
	case Crash:
		if s.Process != Running || !st.spend(&w.Left.Crashes, true) {
			return false
		}
		p := st.slot(i)
		p.Process, p.In = Crashed, nil
		return true
	}
	if !w.Live(i) || s.Member.Closed {
		return false
	}
	var c kip848client.Member
	var effs []kip848client.Effect
	switch k {
	case Leave:
		if !st.spend(&w.Left.Leaves, true) {
			return false
		}
		c, effs = s.Member.Close()
	case Resubscribe:
		if len(m.AltTopics) == 0 && !m.Unsubscribes || !st.spend(&w.Left.SubscriptionChanges, true) {
			return false
		}
		st.slot(i).Alt = !s.Alt
		if m.Unsubscribes && !s.Alt {
			c, effs = s.Member.Unsubscribe()
		} else {
			c, effs = s.Member.Subscribe(w.topicsOf(i, !s.Alt))
		}
	case LoseResponse:
		if len(s.In) == 0 {
			return false
		}
		kind := kip848client.KindHeartbeat
		if _, ok := s.In[0].(impl.OffsetCommitResponse); ok {
			kind = kip848client.KindCommit
		}
		if (kind == kip848client.KindHeartbeat && !s.Member.InFlight()) || (kind == kip848client.KindCommit && !s.Member.CommitInFlight()) {
			return false
		}
		if !st.spend(&w.Left.LostResponses, true) {
			return false
		}
		pop(&st.slot(i).In)
		c, effs = s.Member.RequestTimedOut(kind)
	case PollTimeout:
		c, effs = s.Member.PollTimeout()
		if c.State() == s.Member.State() || !st.spend(&w.Left.PollTimeouts, true) {
			return false
		}
	}
	st.applyMember(i, c, effs)
	return true
}

// timerKIP848 fires a coordinator timer: a member's session timer, or its rebalance timer
// when firing it fences (a stale firing is a no-op and is not offered). Free when no live
// process stands behind the member id, else within its budget.
func (st *stepper) timerKIP848(k Kind, id impl.MemberID) bool {
	w := &st.w
	m, ok := w.Group.Member(id)
	if !ok || w.Loading {
		return false
	}
	switch k {
	case SessionExpiry:
		if !st.spend(&w.Left.SessionTimeouts, w.costs(id)) {
			return false
		}
		if w.cfg.mixed {
			g, _ := w.mig().SessionExpired(id)
			w.setMig(g)
			break
		}
		w.Group = w.Group.SessionExpired(id)
	case RebalanceTimeout:
		t := m.RebalanceTimer
		if !t.Armed || m.State != kip848.UnrevokedPartitions || m.MemberEpoch != t.Epoch ||
			!st.spend(&w.Left.RebalanceTimeouts, w.costs(id)) {
			return false
		}
		if w.cfg.mixed {
			w.setMig(w.mig().RebalanceTimeoutExpired(id, t.Epoch))
			break
		}
		w.Group = w.Group.RebalanceTimeoutExpired(id, t.Epoch)
	}
	return true
}

// heldKIP848 reports whether a live client process stands behind member id id: it holds the
// id in a state that heartbeats (JOINING, RECONCILING, ACKNOWLEDGING, STABLE, LEAVING), or
// a heartbeat response naming the id is on its way to it (a joiner learning its id).
func (w World) heldKIP848(id impl.MemberID) bool {
	for i, s := range w.Slots {
		if !w.Live(i) {
			continue
		}
		if s.Member.MemberID() == id {
			switch s.Member.State() {
			case kip848client.Joining, kip848client.Reconciling, kip848client.Acknowledging,
				kip848client.Stable, kip848client.Leaving:
				return true
			}
		}
		for _, r := range s.In {
			if hb, ok := r.(impl.ConsumerGroupHeartbeatResponse); ok && hb.MemberID == id {
				return true
			}
		}
	}
	return false
}
