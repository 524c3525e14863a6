package spec

// Actions appends to buf the candidate actions of w in a fixed order: per slot the protocol
// actions, then per slot the environment's, then metadata changes per topic, then the
// coordinator's timers. Candidates may be disabled; Next says which are enabled. With the
// `any` assignor, a leader's assign action is listed once per valid assignment.
//
// Under protocol consumer the list is actionsKIP848's (kip848.go).
func Actions(w World, buf []Action) []Action {
	if w.cfg.ConsumerProtocol {
		return actionsKIP848(w, buf)
	}
	if w.cfg.Mixed() {
		return actionsMixed(w, buf)
	}
	for i := range w.Slots {
		slot := int8(i)
		for _, k := range []Kind{DeliverRequest, DeliverResponse} {
			buf = append(buf, Action{Kind: k, Slot: slot})
		}
		if w.Slots[i].Assigning != nil {
			buf = w.assignActions(i, buf)
		}
		for _, k := range []Kind{Poll, Heartbeat, Commit, Refresh} {
			buf = append(buf, Action{Kind: k, Slot: slot})
		}
		if w.cfg.Budget.Followups > 0 {
			buf = append(buf, Action{Kind: Followup, Slot: slot})
		}
	}
	for i := range w.Slots {
		for _, k := range []Kind{Start, Leave, Crash, Restart, Resubscribe, LoseResponse, PollTimeout} {
			buf = append(buf, Action{Kind: k, Slot: int8(i)})
		}
		if w.Slots[i].Assigning != nil && w.Left.Hangs > 0 {
			buf = append(buf, Action{Kind: Hang, Slot: int8(i)})
		}
		buf = w.pauseActions(i, buf)
	}
	for _, t := range w.cfg.Topics {
		buf = append(buf, Action{Kind: AddPartition, Topic: t.Name}, Action{Kind: DeleteTopic, Topic: t.Name})
	}
	for _, id := range w.Coord.ExpirableMembers() {
		buf = append(buf, Action{Kind: SessionExpiry, Member: id})
	}
	for _, id := range w.Coord.Pending() {
		buf = append(buf, Action{Kind: PendingExpiry, Member: id})
	}
	buf = append(buf, Action{Kind: JoinTimeout}, Action{Kind: SyncTimeout})
	return w.failoverActions(buf)
}

func (w World) assignActions(i int, buf []Action) []Action {
	if w.cfg.Assignor != "any" {
		return w.followupChoices(i, append(buf, Action{Kind: Assign, Slot: int8(i)}))
	}
	for _, c := range w.anyChoices(i) {
		buf = w.followupChoices(i, append(buf, Action{Kind: Assign, Slot: int8(i), Choice: c}))
	}
	return buf
}
