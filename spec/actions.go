package spec

// Actions appends to buf the candidate actions of w in a fixed order: per slot the members'
// own steps, then per slot the environment's, then metadata changes per topic, then the
// coordinator's timers and the group's events — within each, the kinds in the table's order
// (kinds.go), each kind's candidates from its row. Candidates may be disabled; Next says which
// are enabled. With the `any` assignor, a leader's assign action is listed once per valid
// assignment.
func Actions(w World, buf []Action) []Action {
	if w.cfg.mixed {
		return actionsMixed(w, buf) // each slot's protocol, and the half that holds the group
	}
	p := w.proto()
	for i := range w.Slots {
		buf = kindActions(w, p, slotStep, i, buf)
	}
	for i := range w.Slots {
		buf = kindActions(w, p, slotEnv, i, buf)
	}
	for _, t := range w.cfg.Topics {
		for _, k := range groupKinds[p][topicEvent] {
			buf = append(buf, Action{Kind: k, Topic: t.Name})
		}
	}
	return kindActions(w, p, groupEvent, -1, buf)
}

// kindActions appends the candidates of group g's kinds, of slot i in the slot groups.
func kindActions(w World, p int, g group, i int, buf []Action) []Action {
	for _, k := range groupKinds[p][g] {
		if c := kinds[k].cands[p]; c != nil {
			buf = c(w, i, buf)
		} else {
			buf = append(buf, Action{Kind: k, Slot: int8(max(i, 0))})
		}
	}
	return buf
}

// proto is the index of the world's protocol in the table's per-protocol columns.
func (w World) proto() int {
	if w.cfg.ConsumerProtocol {
		return kip848Proto
	}
	return classicProto
}

// assignActions appends a classic leader's assign candidates: one, or one per valid
// assignment under `any`, each with its follow-up variants.
func (w World) assignActions(i int, buf []Action) []Action {
	if w.Slots[i].Assigning == nil {
		return buf
	}
	if w.cfg.Assignor != "any" {
		return w.followupChoices(i, append(buf, Action{Kind: Assign, Slot: int8(i)}))
	}
	for _, c := range w.anyChoices(i) {
		buf = w.followupChoices(i, append(buf, Action{Kind: Assign, Slot: int8(i), Choice: c}))
	}
	return buf
}
