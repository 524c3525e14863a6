package spec

import (
	"github.com/groupcheck/groupcheck/impl"
	"github.com/groupcheck/groupcheck/impl/coordinator"
	"github.com/groupcheck/groupcheck/impl/kip848"
	"github.com/groupcheck/groupcheck/impl/migration"
)

// Mixed worlds (Config.Mixed): one group id whose members run either protocol, as Kafka 4.x
// serves them during an online migration (docs/protocol.md §9). A slot's incarnation runs the
// classic consumer (Slot.Client) or a KIP-848 member (Slot.Member), as Slot.Consumer says; the
// coordinator is an impl/migration.Group, kept as its two halves — the classic group in
// World.Coord or the consumer group in World.Group, as World.ConsumerGroup says, the other
// half the zero value — so that whatever reads one protocol's coordinator (the properties, the
// renderer, the timers' enabling conditions) reads the half that holds the group. Every
// request, of either kind, and every coordinator timer goes through the migration group
// (mig, setMig), which routes it and converts the group online.
//
// Abstractions and choices, beyond those of each protocol (doc.go, kip848.go):
//   - bounce (budget bounces) is the rolling bounce's restart of one member with the other
//     group.protocol: its consumer closes (Close: a dynamic classic member sends LeaveGroup, a
//     dynamic KIP-848 member its leave heartbeat, a static one neither or its temporary leave,
//     as each client does) and a fresh incarnation of the process starts on the other
//     protocol, with the same group.instance.id if static. A KIP-848 member whose leave must
//     wait for the heartbeat in flight bounces only once it can send it.
//   - The consumer group's server assignor is uniform (Kafka's default); the classic members
//     keep their client-side assignors, which the consumer group does not run.
//   - Counters: a conversion copies the classic generation into the group and member epochs
//     and back (kip848.FromClassic, migration.Downgrade), so the two are one counter. Every
//     generation and epoch is encoded as an epoch relative to the group's current one (its
//     generation while classic, its group epoch while consumer): see encode.go.
//   - Not modelled in a mixed world yet: failovers, hangs, follow-ups, the `any` assignor,
//     KIP-1082 client member ids (Config.validateMixed).

// ConsumerSlot reports whether slot i's incarnation runs the consumer protocol (KIP-848).
func (w World) ConsumerSlot(i int) bool {
	return w.cfg.ConsumerProtocol || w.Slots[i].Consumer
}

// IsConsumerGroup reports whether the coordinator holds the group as a consumer group
// (World.Group): always under protocol consumer, never in a classic world, and in a mixed
// world while it is converted.
func (w World) IsConsumerGroup() bool {
	return w.cfg.ConsumerProtocol || w.ConsumerGroup
}

// migrationConfig is the mixed world's coordinator configuration, on the current cluster.
func (w World) migrationConfig() migration.Config {
	c := w.cfg
	return migration.Config{
		Classic:  coordinator.Config{Variant: c.Coordinator, Faults: c.Faults, MaxSize: c.MaxSize},
		Consumer: kip848.Config{Variant: c.Consumer, Assignor: kip848.AssignorUniform, Faults: c.Faults, MaxSize: c.MaxSize, CommitRule: c.CommitRule, MigrationPolicy: c.MigrationPolicy},
		Cluster:  w.Cluster,
	}
}

// mig is the mixed world's coordinator as one migration group.
func (w World) mig() migration.Group {
	if w.ConsumerGroup {
		return migration.OfConsumer(w.migrationConfig(), w.Group)
	}
	return migration.OfClassic(w.migrationConfig(), w.Coord)
}

// setMig installs g as the mixed world's coordinator.
func (w *World) setMig(g migration.Group) {
	w.ConsumerGroup = g.IsConsumer()
	if w.ConsumerGroup {
		w.Coord, w.Group = coordinator.Group{}, g.Consumer()
		return
	}
	w.Coord, w.Group = g.Classic(), kip848.Group{}
}

// initMixed starts every present member on the protocol it starts on.
func (w World) initMixed() World {
	w.Coord = w.mig().Classic()
	st := stepper{w: w}
	for i, m := range w.cfg.Members {
		if !m.Absent {
			st.startOn(i, m.StartsConsumer)
		}
	}
	return st.w
}

// startOn runs a new incarnation of slot i on the given protocol (consumer: KIP-848).
func (st *stepper) startOn(i int, consumer bool) {
	if consumer {
		st.startMember(i)
	} else {
		*st.slot(i) = st.w.startSlot(i, *st.w.Slots[i])
	}
	st.slot(i).Consumer = consumer
}

// doMixed is Step's routing in a mixed world: member actions to the slot's client of its
// protocol, requests and timers through the migration group.
func (st *stepper) doMixed(a Action) bool {
	i := int(a.Slot)
	w := &st.w
	switch a.Kind {
	case DeliverRequest:
		return st.deliverMixed(i)
	case DeliverResponse:
		if w.ConsumerSlot(i) {
			return st.deliverResponseKIP848(i)
		}
		return st.deliverResponse(i)
	case Assign:
		return !w.ConsumerSlot(i) && st.assign(i, a.Choice, a.Followup)
	case Poll, Heartbeat, Commit, Refresh:
		if w.ConsumerSlot(i) {
			return a.Kind != Refresh && st.memberStepKIP848(i, a.Kind)
		}
		return st.memberStep(i, a.Kind)
	case Start, Restart:
		consumer := w.Slots[i].Consumer
		if w.Slots[i].Process == Absent {
			consumer = w.cfg.Members[i].StartsConsumer
		}
		var ok bool
		if consumer {
			ok = st.memberEnvKIP848(i, a.Kind)
		} else {
			ok = st.memberEnv(i, a.Kind)
		}
		if ok {
			st.slot(i).Consumer = consumer
		}
		return ok
	case Leave, Crash, Resubscribe, LoseResponse, PollTimeout:
		if w.ConsumerSlot(i) {
			return st.memberEnvKIP848(i, a.Kind)
		}
		return st.memberEnv(i, a.Kind)
	case Bounce:
		return st.bounce(i)
	case Pause, Resume:
		return st.pause(i, a.Kind)
	case AddPartition, DeleteTopic:
		if !st.metadata(a.Kind, a.Topic) {
			return false
		}
		if w.ConsumerGroup {
			w.Group = w.Group.MetadataChanged(w.Cluster)
		}
		return true
	case SessionExpiry, RebalanceTimeout:
		if w.ConsumerGroup {
			return st.timerKIP848(a.Kind, a.Member)
		}
		return a.Kind == SessionExpiry && st.timer(a.Kind, a.Member)
	case PendingExpiry:
		return !w.ConsumerGroup && st.timer(a.Kind, a.Member)
	case JoinTimeout, SyncTimeout:
		if w.ConsumerGroup {
			return st.classicMemberTimer(a.Kind, a.Member)
		}
		return a.Member == "" && st.timer(a.Kind, a.Member)
	case Failover, Load, Hang, Followup:
		return false
	}
	panic("spec: unknown action kind " + a.Kind.String())
}

// deliverMixed hands the head of slot i's requests to the migration group: a
// ConsumerGroupHeartbeat to Heartbeat, a classic request (or an OffsetCommit of either kind of
// member) to Handle.
func (st *stepper) deliverMixed(i int) bool {
	w := st.w
	if len(w.Slots[i].Out) == 0 {
		return false
	}
	req := pop(&st.slot(i).Out)
	var fresh impl.MemberID
	var out []impl.Reply
	g := w.mig()
	wasConsumer, before := g.IsConsumer(), w.Group.AssignmentEpoch()
	switch r := req.(type) {
	case impl.ConsumerGroupHeartbeatRequest:
		g, out = g.Heartbeat(r, w.freshFor(i, r))
	case impl.JoinGroupRequest:
		if r.MemberID == impl.NoMemberID {
			fresh = freshID(w, w.cfg.Members[i].Name)
		}
		g, out = g.Handle(r, fresh)
	default:
		g, out = g.Handle(req, "")
	}
	st.w.setMig(g)
	if k := st.w.Group; st.w.ConsumerGroup && (!wasConsumer || k.AssignmentEpoch() != before) {
		st.ev = append(st.ev, TargetEvent{Epoch: k.AssignmentEpoch(), Target: k.Target()})
	}
	st.commitEvent(i, req, out)
	st.route(out)
	return true
}

// classicMemberTimer fires a classic member's join or sync timer in a consumer group
// (kip848.Group.ClassicJoinTimers, ClassicSyncTimers), which fences it and may downgrade the
// group: free when no live process stands behind the member id, else within join-timeouts or
// sync-timeouts.
func (st *stepper) classicMemberTimer(k Kind, id impl.MemberID) bool {
	w := &st.w
	timers, budget := w.Group.ClassicJoinTimers(), &w.Left.JoinTimeouts
	if k == SyncTimeout {
		timers, budget = w.Group.ClassicSyncTimers(), &w.Left.SyncTimeouts
	}
	if !containsID(timers, id) || !st.spend(budget, w.held(id)) {
		return false
	}
	g := w.mig()
	if k == JoinTimeout {
		g = g.ClassicJoinTimeoutExpired(id)
	} else {
		g = g.ClassicSyncTimeoutExpired(id)
	}
	w.setMig(g)
	return true
}

func containsID(ids []impl.MemberID, id impl.MemberID) bool {
	for _, x := range ids {
		if x == id {
			return true
		}
	}
	return false
}

// bounce restarts slot i's live member on the other group.protocol (budget bounces): its
// client closes, and a new incarnation starts on the other protocol; requests already sent
// (the leave among them) stay on their way.
func (st *stepper) bounce(i int) bool {
	w := &st.w
	if !w.Live(i) || w.Left.Bounces == 0 {
		return false
	}
	consumer := w.Slots[i].Consumer
	if consumer {
		if w.Slots[i].Member.Closed {
			return false
		}
		c, effs := w.Slots[i].Member.Close()
		st.applyMember(i, c, effs)
		if st.w.Slots[i].Process == Running {
			return false // the leave waits for the heartbeat in flight: bounce once it is sent
		}
	} else {
		c, effs := w.Slots[i].Client.Close()
		st.apply(i, c, effs)
	}
	p := st.slot(i)
	p.Process, p.In, p.Assigning = Closed, nil, nil
	w.Left.Bounces--
	st.startOn(i, !consumer)
	return true
}

// actionsMixed is Actions in a mixed world: each slot's protocol and environment actions,
// bounce, the metadata changes, and the timers of the half that holds the group — a classic
// group's, or a consumer group's session and rebalance timers and its classic members' join
// and sync timers (join-timeout ID, sync-timeout ID).
func actionsMixed(w World, buf []Action) []Action {
	for i := range w.Slots {
		slot := int8(i)
		buf = append(buf, Action{Kind: DeliverRequest, Slot: slot}, Action{Kind: DeliverResponse, Slot: slot})
		if w.Slots[i].Assigning != nil {
			buf = w.assignActions(i, buf)
		}
		for _, k := range []Kind{Poll, Heartbeat, Commit, Refresh} {
			buf = append(buf, Action{Kind: k, Slot: slot})
		}
	}
	for i := range w.Slots {
		for _, k := range []Kind{Start, Leave, Crash, Restart, Resubscribe, LoseResponse, PollTimeout, Bounce} {
			buf = append(buf, Action{Kind: k, Slot: int8(i)})
		}
		buf = w.pauseActions(i, buf)
	}
	for _, t := range w.cfg.Topics {
		buf = append(buf, Action{Kind: AddPartition, Topic: t.Name}, Action{Kind: DeleteTopic, Topic: t.Name})
	}
	if !w.ConsumerGroup {
		for _, id := range w.Coord.ExpirableMembers() {
			buf = append(buf, Action{Kind: SessionExpiry, Member: id})
		}
		for _, id := range w.Coord.Pending() {
			buf = append(buf, Action{Kind: PendingExpiry, Member: id})
		}
		return append(buf, Action{Kind: JoinTimeout}, Action{Kind: SyncTimeout})
	}
	for _, id := range w.Group.SessionTimers() {
		buf = append(buf, Action{Kind: SessionExpiry, Member: id})
	}
	for _, r := range w.Group.RebalanceTimers() {
		buf = append(buf, Action{Kind: RebalanceTimeout, Member: r.Member})
	}
	for _, id := range w.Group.ClassicJoinTimers() {
		buf = append(buf, Action{Kind: JoinTimeout, Member: id})
	}
	for _, id := range w.Group.ClassicSyncTimers() {
		buf = append(buf, Action{Kind: SyncTimeout, Member: id})
	}
	return buf
}

// simulateHeartbeat is the coordinator's answer to a ConsumerGroupHeartbeat from slot i as it
// is now, and whether handling it would change the group: the KIP-848 group's, or in a mixed
// world the migration group's (which may convert the group).
func (w World) simulateHeartbeat(i int, req impl.ConsumerGroupHeartbeatRequest) (bool, impl.ConsumerGroupHeartbeatResponse) {
	if !w.cfg.mixed {
		g, out := w.Group.Heartbeat(req, w.freshFor(i, req))
		return string(g.AppendEncoding(nil)) != string(w.Group.AppendEncoding(nil)), out[0].Response.(impl.ConsumerGroupHeartbeatResponse)
	}
	g, out := w.mig().Heartbeat(req, w.freshFor(i, req))
	n := w
	n.setMig(g)
	changed := n.ConsumerGroup != w.ConsumerGroup ||
		string(n.Group.AppendEncoding(nil)) != string(w.Group.AppendEncoding(nil)) ||
		string(n.Coord.AppendEncoding(nil)) != string(w.Coord.AppendEncoding(nil))
	return changed, out[len(out)-1].Response.(impl.ConsumerGroupHeartbeatResponse)
}

// classicHeartbeatAnswer is the coordinator's answer to a classic Heartbeat as it is now.
func (w World) classicHeartbeatAnswer(hb impl.HeartbeatRequest) []impl.Reply {
	if w.cfg.mixed {
		_, out := w.mig().Handle(hb, "")
		return out
	}
	_, out := w.Coord.Heartbeat(hb)
	return out
}
