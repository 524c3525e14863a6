package spec

// A paused member (budget pauses): its whole process stops — a frozen VM, a long
// stop-the-world GC pause — and later goes on exactly where it stopped. Unlike a crash the
// process and its state survive; unlike a hang (budget hangs) its heartbeat thread stops too,
// so the coordinator's session timer can expire it. While paused it takes no step and reads
// no response (they queue on its connection); requests it sent before still arrive. Every
// coordinator timer that fires on it meanwhile is free: the pause is the event the budget
// bounds, and a pause longer than the session timeout is exactly what it is for. Resume is a
// fair action (the pause ends), so a paused member is never stuck for good; when it resumes it
// acts on its old state — owning what it owned, at the generation (or epoch) it had — until a
// response tells it otherwise: the zombie window of docs/protocol.md §1.12, now as wide as the pause.
// Reference: docs/protocol.md §1.9 (session timeout), §1.12; KIP-345 (long pauses motivated static
// membership).

// pause is Pause (a live member stops, within the budget) or Resume (a paused one goes on).
func (st *stepper) pause(i int, k Kind) bool {
	w := &st.w
	switch k {
	case Pause:
		if !w.Live(i) || !st.spend(&w.Left.Pauses, true) {
			return false
		}
		st.slot(i).Process = Paused
	case Resume:
		if w.Slots[i].Process != Paused {
			return false
		}
		st.slot(i).Process = Running
	}
	return true
}

// pauseActions appends slot i's pause candidate; resumeActions its resume.
func (w World) pauseActions(i int, buf []Action) []Action {
	if w.Slots[i].Process != Paused && w.Left.Pauses > 0 {
		buf = append(buf, Action{Kind: Pause, Slot: int8(i)})
	}
	return buf
}

func (w World) resumeActions(i int, buf []Action) []Action {
	if w.Slots[i].Process == Paused {
		buf = append(buf, Action{Kind: Resume, Slot: int8(i)})
	}
	return buf
}
