package spec

// Follow-up rebalances requested by the assignor (budget followups, classic protocols): the
// leader's assignor marks one member's assignment with a request to rejoin once it has
// applied it (impl.Assignment Followup), as Kafka Streams does for its follow-up and KIP-441
// probing rebalances (AssignmentInfo.nextRebalanceMs; leader.RequestFollowup). Which member,
// and whether at all, is the assignor's choice: each assign action has a variant per member
// of the round (`assign a followup=b#1`), and each marking spends one unit of the budget.
// The coordinator stores the flag with the assignment like any user data, so a member that
// syncs late, or a static member re-admitted without a rebalance, receives it again
// (KAFKA-9821 put the request there for that reason).
//
// The member carries it out with the Followup action (consumer.FollowupTick: Streams'
// StreamThread checks after each poll once no rebalance of its own is under way, then
// enforceRebalance). Streams asks either for an immediate follow-up (nextRebalanceMs 0) or
// for a probing one at a later time; time is abstract here, so both are "at some later step"
// — anything may happen first — and the action is fair, as a timer that is bound to fire.
// Marking is not fair (an environment choice within its budget), so liveness never forces
// the assignor to ask.

// followupKey spells an assign action's follow-up target in its text form.
const followupKey = "followup="

// followupChoices appends base's follow-up variants — one per member of the leader's round
// — while the budget lasts.
func (w World) followupChoices(i int, buf []Action) []Action {
	if w.Left.Followups == 0 {
		return buf
	}
	base := buf[len(buf)-1]
	for _, m := range w.Slots[i].Assigning.Members {
		a := base
		a.Followup = m.MemberID
		buf = append(buf, a)
	}
	return buf
}
