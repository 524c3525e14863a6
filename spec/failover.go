package spec

import (
	"fmt"

	"github.com/groupcheck/groupcheck/impl"
	"github.com/groupcheck/groupcheck/impl/consumer"
	"github.com/groupcheck/groupcheck/impl/coordinator"
	"github.com/groupcheck/groupcheck/impl/kip848"
	"github.com/groupcheck/groupcheck/impl/kip848client"
)

// A coordinator failover (budget failovers). The broker leading the group's partition of
// __consumer_offsets loses it: it unloads the group (its parked JoinGroups or SyncGroups are
// answered NOT_COORDINATOR) and answers NOT_COORDINATOR to whatever else still reaches it.
// The new leader loads the group from the log — classic: the last record (coordinator.Load:
// the last Stable generation, or the empty group record); KIP-848: every record, so the group
// as it was with its timers rebuilt (kip848.Group.Reload) — and, until it has, answers
// LoadingReply and runs no timer; Load, a protocol action, ends the loading.
//
// Every slot's connection goes to the old broker until its client learns of the move (Slot.Stale):
// what it sends meanwhile is answered NOT_COORDINATOR. A client that handles NOT_COORDINATOR
// or COORDINATOR_NOT_AVAILABLE marks the coordinator unknown (consumer.MarksCoordinatorUnknown):
// it disconnects, which fails every other request still in flight to the old broker (each is
// answered NOT_COORDINATOR at once), and rediscovers the coordinator, so its next request goes
// to the new one. A new incarnation looks the coordinator up afresh.
//
// What it gives up: the new coordinator is known the moment the old one is gone
// (FindCoordinator never answers COORDINATOR_NOT_AVAILABLE), a failover does not happen while
// the previous one's coordinator still loads, and the old broker answers at once what it
// already held parked. Reference: docs/protocol.md §1.3 ("any → Dead": unloaded), §1.4–§1.8
// (group-level status errors), §1.11 (coordinator errors keep member id and generation).

// FailoverEvent: the group's coordinator moved and the new one loaded the group from the log
// as Generation in State (generation 0, Empty, when the log held no record).
type FailoverEvent struct {
	Generation impl.Generation
	State      coordinator.State
	// KIP848: the KIP-848 coordinator replayed the group's records (kip848.Group.Reload):
	// nothing is lost, the group is at Epoch as before.
	KIP848 bool
	Epoch  impl.Epoch
}

func (e FailoverEvent) String() string {
	if e.KIP848 {
		return fmt.Sprintf("coord: failover; the new coordinator replays the group's records (epoch %d)", e.Epoch)
	}
	return fmt.Sprintf("coord: failover; the new coordinator loads %s gen %d from the log", e.State, e.Generation)
}

// failover moves the coordinator: see above.
func (st *stepper) failover() bool {
	w := &st.w
	if w.Loading || !st.spend(&w.Left.Failovers, true) {
		return false
	}
	var out []impl.Reply
	if w.cfg.ConsumerProtocol {
		w.Group = w.Group.Reload()
	} else {
		rec, ok := w.Coord.Log()
		cfg := w.Coord.Config()
		cfg.Persist = w.Left.Failovers > 0 // after the last failover nothing reads the log again
		_, out = w.Coord.Unload()
		w.Coord = coordinator.Load(cfg, rec, ok)
	}
	w.Loading = true
	for i, s := range w.Slots {
		if s.Process == Running || s.Process == Hung || len(s.Out) > 0 {
			st.slot(i).Stale = true
		}
	}
	f := FailoverEvent{Generation: w.Coord.Generation(), State: w.Coord.State()}
	if w.cfg.ConsumerProtocol {
		f = FailoverEvent{KIP848: true, Epoch: w.Group.GroupEpoch()}
	}
	st.ev = append(st.ev, f)
	st.route(out)
	return true
}

// loaded is the new coordinator finishing its load: from now on it handles requests and runs
// its timers (every member's session timer starts afresh, GroupCoordinator.onGroupLoaded).
func (st *stepper) loaded() bool {
	if !st.w.Loading {
		return false
	}
	st.w.Loading = false
	return true
}

// coordinatorAway answers a request that does not reach a serving coordinator: one sent on a
// stale connection (the old broker answers NOT_COORDINATOR) or one that reaches the new
// coordinator while it loads. ok is false when the request reaches a serving coordinator.
func (st *stepper) coordinatorAway(i int, req impl.Request) ([]impl.Reply, bool) {
	s := *st.w.Slots[i]
	switch {
	case s.Stale:
		if s.Process != Running && s.Process != Hung && len(s.Out) == 0 {
			st.slot(i).Stale = false // nothing of this incarnation is left to reach the old broker
		}
		return []impl.Reply{st.w.notCoordinator(req)}, true
	case st.w.Loading:
		if st.w.cfg.ConsumerProtocol {
			return []impl.Reply{kip848.LoadingReply(req)}, true
		}
		return []impl.Reply{coordinator.LoadingReply(req)}, true
	}
	return nil, false
}

// notCoordinator is the old broker's answer to req, in the world's protocol.
func (w World) notCoordinator(req impl.Request) impl.Reply {
	if w.cfg.ConsumerProtocol {
		return kip848.NotCoordinatorReply(req)
	}
	return coordinator.NotCoordinatorReply(req)
}

// marksCoordinatorUnknown: the world's client marks its coordinator unknown on code.
func (w World) marksCoordinatorUnknown(code impl.ErrorCode) bool {
	if w.cfg.ConsumerProtocol {
		return kip848client.MarksCoordinatorUnknown(code)
	}
	return consumer.MarksCoordinatorUnknown(code)
}

// maybeRediscover is slot i's client handling an answer with code: on a stale connection, an
// answer that marks the coordinator unknown makes it disconnect (every request still in
// flight there is answered NOT_COORDINATOR) and look the coordinator up again.
func (st *stepper) maybeRediscover(i int, code impl.ErrorCode) {
	if !st.w.Slots[i].Stale || !st.w.marksCoordinatorUnknown(code) {
		return
	}
	s := st.slot(i)
	for _, req := range s.Out {
		s.In = append(s.In[:len(s.In):len(s.In)], st.w.notCoordinator(req).Response)
	}
	s.Out, s.Stale = nil, false
}

// failoverActions appends the failover's candidate, loadActions the end of its loading.
func (w World) failoverActions(_ int, buf []Action) []Action {
	if w.Left.Failovers > 0 && !w.Loading {
		buf = append(buf, Action{Kind: Failover})
	}
	return buf
}

func (w World) loadActions(_ int, buf []Action) []Action {
	if w.Loading {
		buf = append(buf, Action{Kind: Load})
	}
	return buf
}
