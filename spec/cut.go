package spec

import (
	"fmt"

	"github.com/groupcheck/groupcheck/impl"
	"github.com/groupcheck/groupcheck/impl/consumer"
	"github.com/groupcheck/groupcheck/impl/kip848client"
)

// A member cut off from the coordinator (budget cuts): the network between its process and
// the group's coordinator fails while the process goes on — it still fetches from the
// partition leaders, so it keeps processing what it owns. What it sends the coordinator
// while cut is lost: each request is taken off its connection and its client times it out
// (consumer.RequestTimedOut, kip848client's RequestTimedOut: a retriable failure that keeps
// the member id and generation or epoch, docs/protocol.md §1.11, §3.7). Its heartbeats no
// longer reach the coordinator, so the coordinator's timers on its member id are bound to
// fire: while the member is cut they are free (the session expiry, and the join, sync or
// rebalance timer waiting for it). The member learns nothing until the cut heals (Heal, a
// fair action: the network comes back) and an answer tells it, so its zombie window
// (docs/protocol.md §1.12) lasts as long as the cut: the coordinator's session expiry races
// the member's own view, in which nothing happened.
//
// What it gives up: the cut is one way and of one connection. Answers to requests that
// reached the coordinator before the cut still arrive (the coordinator's side of the link is
// taken to drain), and a new incarnation of the slot (a restart) connects afresh, uncut. The
// client's own reaction to a silent coordinator — Java's heartbeat thread marks it unknown
// after session.timeout.ms without an answer and keeps its partitions
// (AbstractCoordinator.HeartbeatThread); librdkafka revokes them as lost
// (rd_kafka_cgrp_session_timeout_check) — is not modelled: here the member keeps them, as
// Java does. A paused or hung process's requests wait on the connection (nobody times them
// out until it goes on). Reference: KIP-62 (the heartbeat thread and session timeout),
// GroupMetadataManager's session timer (the coordinator side).

// cutOff is the bit of Slot.Cond a cut sets.
const cutOff Cond = 1 << 0

// CutEvent: the head request of a cut member's connection was lost on its way to the
// coordinator.
type CutEvent struct {
	Slot    int
	Name    string
	Request impl.Request
}

// Undelivered makes the event spec.Undelivered: the request never reached the coordinator.
func (e CutEvent) Undelivered() impl.Request { return e.Request }

func (e CutEvent) String() string {
	return fmt.Sprintf("%s -> coord: %s lost (cut off from the coordinator)", e.Name, requestText(e.Request))
}

// cut is Cut (a running member's link to the coordinator fails, within the budget) or Heal
// (it comes back).
func (st *stepper) cut(i int, k Kind) bool {
	w := &st.w
	s := w.Slots[i]
	switch k {
	case Cut:
		if s.Process != Running || s.Cond&cutOff != 0 || !st.spend(&w.Left.Cuts, true) {
			return false
		}
		st.slot(i).Cond |= cutOff
	case Heal:
		if s.Cond&cutOff == 0 {
			return false
		}
		st.slot(i).Cond &^= cutOff
	}
	return true
}

// cutActions appends slot i's cut candidate; healActions its heal.
func (w World) cutActions(i int, buf []Action) []Action {
	if w.Left.Cuts > 0 && w.Slots[i].Process == Running && w.Slots[i].Cond&cutOff == 0 {
		buf = append(buf, Action{Kind: Cut, Slot: int8(i)})
	}
	return buf
}

func (w World) healActions(i int, buf []Action) []Action {
	if w.Slots[i].Cond&cutOff != 0 {
		buf = append(buf, Action{Kind: Heal, Slot: int8(i)})
	}
	return buf
}

// cutTakes is the takes hook: the delivery of a cut slot's head request loses it. A running
// client times it out; a gone process's request is lost with nobody waiting; a paused or
// hung one's waits.
func cutTakes(w World, a Action) (World, []Event, bool, bool) {
	i := int(a.Slot)
	s := w.Slots[i]
	if s.Cond&cutOff == 0 || len(s.Out) == 0 {
		return w, nil, false, false
	}
	if s.Process == Paused || s.Process == Hung {
		return w, nil, false, true
	}
	st := stepper{w: w}
	req := pop(&st.slot(i).Out)
	st.ev = append(st.ev, CutEvent{Slot: i, Name: st.name(i), Request: req})
	if s.Process == Running {
		st.timedOut(i, req)
	}
	return st.w, st.ev, true, true
}

// timedOut is slot i's running client timing out its lost request req.
func (st *stepper) timedOut(i int, req impl.Request) {
	s := st.w.Slots[i]
	if st.w.cfg.ConsumerProtocol {
		m := *s.Member
		switch req.(type) {
		case impl.ConsumerGroupHeartbeatRequest:
			if m.InFlight() {
				c, effs := m.RequestTimedOut(kip848client.KindHeartbeat)
				st.applyMember(i, c, effs)
			}
		case impl.OffsetCommitRequest:
			if m.CommitInFlight() {
				c, effs := m.RequestTimedOut(kip848client.KindCommit)
				st.applyMember(i, c, effs)
			}
		}
		return
	}
	var k consumer.RequestKind
	switch req.(type) {
	case impl.JoinGroupRequest:
		k = consumer.KindJoin
	case impl.SyncGroupRequest:
		k = consumer.KindSync
	case impl.HeartbeatRequest:
		k = consumer.KindHeartbeat
	case impl.OffsetCommitRequest:
		k = consumer.KindCommit
	case impl.LeaveGroupRequest:
		k = consumer.KindLeave
	default:
		return
	}
	c, effs := s.Client.RequestTimedOut(k)
	st.apply(i, c, effs)
}

// cutFrees is the frees hook: a timer on the member id a cut slot holds is bound to fire.
func cutFrees(w World, id impl.MemberID) bool {
	for i, s := range w.Slots {
		if s.Cond&cutOff != 0 && w.Live(i) && w.MemberIDOf(i) == id {
			return true
		}
	}
	return false
}

// cutUnquiet is the unquiet hook: a cut slot's steps are left out of the reduction.
func cutUnquiet(w World, i int) bool { return w.Slots[i].Cond&cutOff != 0 }
