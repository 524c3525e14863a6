package spec

import (
	"slices"

	"github.com/groupcheck/groupcheck/impl"
	"github.com/groupcheck/groupcheck/impl/consumer"
	"github.com/groupcheck/groupcheck/impl/leader"
)

// memberStep is one of a live member's own steps. Each is enabled only when it does
// something: a poll that sends a JoinGroup, a heartbeat whose answer would not be NONE (a
// NONE heartbeat only refreshes a deadline, and time is abstract), a commit that sends a
// request, a metadata refresh that changes the member's view.
func (st *stepper) memberStep(i int, k Kind) bool {
	if !st.w.Live(i) {
		return false
	}
	c := *st.w.Slots[i].Client
	var effs []consumer.Effect
	switch k {
	case Poll:
		if !c.WantsToJoin() {
			return false
		}
		c, effs = c.PollTick()
	case Heartbeat:
		c, effs = c.HeartbeatTick()
		if !st.heartbeatMatters(i, effs) {
			return false
		}
	case Commit:
		if !st.w.cfg.Commits || c.Owned().IsEmpty() || c.InFlight(consumer.KindCommit) {
			return false
		}
		c, effs = c.CommitTick()
		if !sends(effs) {
			return false
		}
	case Refresh:
		if c.Metadata.Equal(st.w.Cluster) {
			return false
		}
		c, effs = c.MetadataChanged(st.w.Cluster)
	case Followup:
		was := c.FollowupDue
		if c, effs = c.FollowupTick(); c.FollowupDue == was {
			return false
		}
	}
	st.apply(i, c, effs)
	return true
}

// heartbeatMatters reports whether the heartbeat slot i would send gets an answer other
// than NONE from the coordinator as it is now: always from the old broker on a stale
// connection (NOT_COORDINATOR), never from a coordinator still loading.
func (st *stepper) heartbeatMatters(i int, effs []consumer.Effect) bool {
	for _, e := range effs {
		if send, ok := e.(consumer.Send); ok {
			if hb, ok := send.Request.(impl.HeartbeatRequest); ok {
				if st.w.Slots[i].Stale || st.w.Loading {
					return st.w.Slots[i].Stale
				}
				out := st.w.classicHeartbeatAnswer(hb)
				return len(out) == 1 && out[0].Response.Code() != impl.None
			}
		}
	}
	return false
}

func sends(effs []consumer.Effect) bool {
	return slices.ContainsFunc(effs, func(e consumer.Effect) bool { _, ok := e.(consumer.Send); return ok })
}

// memberEnv is an environment event on one member slot, within its budget.
func (st *stepper) memberEnv(i int, k Kind) bool {
	w := &st.w
	s := *w.Slots[i] // read; written back through st.slot only when the event happens
	m := w.cfg.Members[i]
	switch k {
	case Start:
		if (s.Process != Absent && s.Process != Closed) || !st.spend(&w.Left.Joins, true) {
			return false
		}
		*st.slot(i) = w.startSlot(i, s)
	case Restart:
		if !m.Static || (s.Process != Running && s.Process != Crashed && s.Process != Hung) || !st.spend(&w.Left.Restarts, true) {
			return false
		}
		*st.slot(i) = w.startSlot(i, s)
	case Crash:
		if (s.Process != Running && s.Process != Hung) || !st.spend(&w.Left.Crashes, true) {
			return false
		}
		p := st.slot(i)
		p.Process, p.In, p.Assigning = Crashed, nil, nil
	case Hang:
		if !w.Live(i) || s.Assigning == nil || !st.spend(&w.Left.Hangs, true) {
			return false
		}
		p := st.slot(i)
		p.Process, p.In, p.Assigning = Hung, nil, nil
	case Leave:
		if !w.Live(i) || !st.spend(&w.Left.Leaves, true) {
			return false
		}
		c, effs := s.Client.Close()
		st.apply(i, c, effs)
		p := st.slot(i)
		p.Process, p.In, p.Assigning = Closed, nil, nil
	default:
		return st.clientEnv(i, k)
	}
	return true
}

// clientEnv is an environment event a live consumer reacts to.
func (st *stepper) clientEnv(i int, k Kind) bool {
	w := &st.w
	if !w.Live(i) {
		return false
	}
	s := *w.Slots[i] // read; apply writes the successor
	var c consumer.Consumer
	var effs []consumer.Effect
	switch k {
	case Resubscribe:
		if len(w.cfg.Members[i].AltTopics) == 0 || !st.spend(&w.Left.SubscriptionChanges, true) {
			return false
		}
		st.slot(i).Alt = !s.Alt
		c, effs = s.Client.SubscriptionChanged(w.topicsOf(i, !s.Alt))
	case LoseResponse:
		if len(s.In) == 0 || !st.spend(&w.Left.LostResponses, true) {
			return false
		}
		lost := pop(&st.slot(i).In)
		c, effs = s.Client.RequestTimedOut(consumer.KindOf(lost))
	case PollTimeout:
		if !st.spend(&w.Left.PollTimeouts, true) {
			return false
		}
		c, effs = s.Client.PollTimeout()
	}
	st.apply(i, c, effs)
	return true
}

// metadata is a change of the cluster: members learn of it by Refresh.
func (st *stepper) metadata(k Kind, topic string) bool {
	w := &st.w
	n := w.Cluster.PartitionCount(topic)
	if n == 0 {
		return false
	}
	topics := slices.Clone(w.Cluster.Topics)
	i := slices.IndexFunc(topics, func(t impl.TopicMetadata) bool { return t.Name == topic })
	switch k {
	case AddPartition:
		if n >= 16 || !st.spend(&w.Left.PartitionAdditions, true) {
			return false
		}
		topics[i].Partitions++
	case DeleteTopic:
		if !st.spend(&w.Left.TopicDeletions, true) {
			return false
		}
		topics = slices.Delete(topics, i, i+1)
	}
	w.Cluster = impl.Cluster{Topics: topics}
	return true
}

// assign is the leader computing the assignment of the round it was elected for and sending
// SyncGroup. With a deterministic assignor choice is nil; with `any` it is one of the valid
// assignments (Actions lists them all). followup, when not empty, is the member whose
// assignment asks for a follow-up rebalance, within the followups budget (followup.go).
func (st *stepper) assign(i int, choice []impl.MemberAssignment, followup impl.MemberID) bool {
	s := *st.w.Slots[i]
	if s.Assigning == nil || !st.w.Live(i) {
		return false
	}
	in := st.w.leaderInput(i)
	var out leader.LeaderOutput
	if choice == nil {
		if st.w.cfg.Assignor == "any" {
			return false
		}
		out = leader.Lead(in)
	} else {
		if st.w.cfg.Assignor != "any" || !slices.ContainsFunc(st.w.anyChoices(i), func(c []impl.MemberAssignment) bool { return sameAssignments(c, choice) }) {
			return false
		}
		out = leader.LeadWith(in, choice)
	}
	if followup != "" {
		var ok bool
		if out.Failed || !st.spend(&st.w.Left.Followups, true) {
			return false
		}
		if out.Assignments, ok = leader.RequestFollowup(out.Assignments, followup); !ok {
			return false
		}
	}
	st.ev = append(st.ev, AssignEvent{Slot: i, Name: st.name(i), Generation: s.Assigning.Generation,
		Members: leader.ReadMembers(in.Members, in.ReadVersion), Assignments: out.Assignments, Plan: out.Plan, Failed: out.Reason,
		Followup: followup})
	var c consumer.Consumer
	var effs []consumer.Effect
	if out.Failed {
		c, effs = s.Client.AssignmentFailed()
	} else {
		c, effs = s.Client.AssignmentComputed(out.Assignments)
	}
	st.apply(i, c, effs)
	return true
}

// leaderInput is what slot i's leader runs the assignor on.
func (w World) leaderInput(i int) leader.LeaderInput {
	ra := w.Slots[i].Assigning
	return leader.LeaderInput{
		Variant:      w.cfg.Consumer,
		Protocol:     w.cfg.MemberProtocol(i),
		AssignorName: ra.ProtocolName,
		ReadVersion:  w.cfg.Members[i].SubscriptionVersion,
		Cluster:      ra.Cluster,
		Members:      ra.Members,
		Faults:       w.cfg.Faults,
	}
}

// anyChoices is every assignment an `any` leader may send: each subscribed partition to one
// of its subscribers or to nobody.
func (w World) anyChoices(i int) [][]impl.MemberAssignment {
	in := w.leaderInput(i)
	return leader.AllAssignments(in.Cluster, leader.ReadMembers(in.Members, in.ReadVersion), true)
}

func sameAssignments(a, b []impl.MemberAssignment) bool {
	return slices.EqualFunc(a, b, func(x, y impl.MemberAssignment) bool {
		return x.MemberID == y.MemberID && x.Assignment.Equal(y.Assignment)
	})
}
