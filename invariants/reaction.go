package invariants

import (
	"fmt"
	"slices"
	"strings"

	"github.com/groupcheck/groupcheck/explorer"
	"github.com/groupcheck/groupcheck/impl"
	"github.com/groupcheck/groupcheck/impl/consumer"
	"github.com/groupcheck/groupcheck/spec"
)

// identity is what a member sends its requests under: its member id and its generation
// (classic) or member epoch (KIP-848). A JoinGroup or a LeaveGroup carries no generation:
// anyGen then matches every generation of the member id.
type identity struct {
	member impl.MemberID
	gen    int32
}

const anyGen = -1 << 31

func (id identity) String() string {
	if id.gen == anyGen {
		return string(id.member)
	}
	return fmt.Sprintf("%s@%d", id.member, id.gen)
}

// matches reports whether a request sent under r is sent under id.
func (r identity) matches(id identity) bool {
	return r.member == id.member && (r.gen == anyGen || r.gen == id.gen)
}

// heldIdentity is the identity slot i's client holds in w.
func heldIdentity(w *spec.World, i int) identity {
	if w.Config().ConsumerProtocol {
		m := w.Slots[i].Member
		return identity{m.MemberID(), int32(m.Epoch())}
	}
	g := w.Slots[i].Client.Gen
	return identity{g.MemberID, int32(g.ID)}
}

// requestIdentity is the identity a request is sent under; false for a request that
// carries none (a first JoinGroup, a KIP-848 join without a member id).
func requestIdentity(r impl.Request) (identity, bool) {
	var id identity
	switch r := r.(type) {
	case impl.HeartbeatRequest:
		id = identity{r.MemberID, int32(r.Generation)}
	case impl.SyncGroupRequest:
		id = identity{r.MemberID, int32(r.Generation)}
	case impl.OffsetCommitRequest:
		id = identity{r.MemberID, int32(r.Generation)}
	case impl.JoinGroupRequest:
		id = identity{r.MemberID, anyGen}
	case impl.LeaveGroupRequest:
		if len(r.Members) != 1 {
			return id, false
		}
		id = identity{r.Members[0].MemberID, anyGen}
	case impl.ConsumerGroupHeartbeatRequest:
		id = identity{r.MemberID, int32(r.MemberEpoch)}
	}
	return id, id.member != impl.NoMemberID
}

// fencedMeansStop judges what a member does with a fencing answer. An answer that says the
// coordinator no longer knows the member under the identity its request carried — classic:
// UNKNOWN_MEMBER_ID, ILLEGAL_GENERATION or FENCED_INSTANCE_ID to a Heartbeat, OffsetCommit,
// JoinGroup or SyncGroup; KIP-848: FENCED_MEMBER_EPOCH or UNKNOWN_MEMBER_ID to a heartbeat —
// for a request sent under the identity the member
// still holds, is acted on in the same step: the member resets its generation (and member
// id), its epoch, or stops (fatal). The real clients do exactly that:
//   - Java classic: AbstractCoordinator.HeartbeatResponseHandler, JoinGroupResponseHandler and
//     SyncGroupResponseHandler reset through resetStateOnResponseError when
//     generationUnchanged(); ConsumerCoordinator.OffsetCommitResponseHandler likewise, and
//     FENCED_INSTANCE_ID is raised to the application (docs/protocol.md §1.11 reaction table);
//   - Java KIP-848: AbstractHeartbeatRequestManager.onErrorResponse calls
//     AbstractMembershipManager.transitionToFenced (resetEpoch, onPartitionsLost, rejoin;
//     docs/protocol.md §3.7);
//   - librdkafka src/rdkafka_cgrp.c, rd_kafka_cgrp_handle_Heartbeat: UNKNOWN_MEMBER_ID clears
//     the member id, ILLEGAL_GENERATION rejoins, FENCED_INSTANCE_ID is a fatal error;
//   - franz-go pkg/kgo/consumer_group.go: heartbeat returns on ILLEGAL_GENERATION or
//     UNKNOWN_MEMBER_ID and manage calls onLost; handleJoinResp clears the member id on
//     UNKNOWN_MEMBER_ID; consumer_group_848.go resets the epoch (new member id on
//     UNKNOWN_MEMBER_ID).
//
// The property also asks that every request be sent under the identity its member holds,
// before or after the step, and that none of the fencing step's requests carry the fenced
// identity. Together with the reset this says the member never sends another request under
// it: generations and epochs only grow, so a member id never returns with the same
// generation or epoch. An answer to a request sent under an older identity is stale and may
// be ignored (KAFKA-9823, sentGeneration). A client that ignores a fencing answer only
// lengthens the zombie window, which exclusive-ownership expects anyway: this is the
// property that notices.
//
// A classic LeaveGroup fences the member itself: one that sends it gives its member id up in
// the same step (AbstractCoordinator.maybeLeaveGroup → resetGenerationOnLeaveGroup →
// resetStateAndRejoin, on close and on a poll timeout alike), or stops.
//
// franz-go's classic OffsetCommit is judged by franz-go's own reaction (franzGoCommitRejoin):
// it rejoins at once keeping its identity, and its JoinGroup's answer resets it; the rest of
// a franz-go client (heartbeat, join, sync) is judged as above. librdkafka's is too
// (librdkafkaCommitWhileRebalancing): a commit answered ILLEGAL_GENERATION while it is
// rebalancing keeps its generation by design — a README finding, as Java resets there.
//
// The KIP-848 OffsetCommit is left out, because Java's KIP-848 consumer does not react there:
// CommitRequestManager.OffsetCommitRequestState.onResponse completes a commit answered
// UNKNOWN_MEMBER_ID (its only fencing answer: a stale epoch is STALE_MEMBER_EPOCH, docs/protocol.md
// §3.1) with a CommitFailedException and nothing else, so the member keeps its epoch and
// partitions until its next heartbeat is fenced — where the classic
// ConsumerCoordinator.OffsetCommitResponseHandler resets at once. The model follows Java
// (TestKIP848CommitFencingKeepsEpoch); judged, that expected violation would flag states and
// grow kip848-kafka from 50,675 to 79,929 states for a known answer.
var fencedMeansStop = Property{
	Name:      "fenced-means-stop",
	Kind:      explorer.Always,
	Statement: "a member told it is fenced (UNKNOWN_MEMBER_ID, ILLEGAL_GENERATION, FENCED_INSTANCE_ID; KIP-848 FENCED_MEMBER_EPOCH, UNKNOWN_MEMBER_ID) for a request sent under its current identity gives that identity up in the same step, and sends requests only under the identity it holds",
	Source:    "docs/protocol.md §1.11 (reaction table), §3.7; AbstractCoordinator.HeartbeatResponseHandler, ConsumerCoordinator.OffsetCommitResponseHandler, AbstractMembershipManager.transitionToFenced; librdkafka rd_kafka_cgrp_handle_Heartbeat",
	Step: func(pre *spec.World, ev []spec.Event, post *spec.World) string {
		for _, e := range ev {
			switch e := e.(type) {
			case spec.ReceiveEvent:
				if why := keptFenced(pre, ev, post, e); why != "" {
					return why
				}
			case spec.SendEvent:
				r, ok := requestIdentity(e.Request)
				if !ok {
					continue
				}
				before, after := heldIdentity(pre, e.Slot), heldIdentity(post, e.Slot)
				if pre.Slots[e.Slot].Incarnation != post.Slots[e.Slot].Incarnation {
					before = after // a restart: the old incarnation sends nothing more
				}
				if !r.matches(before) && !r.matches(after) {
					return fmt.Sprintf("%s sends %s under %s, but it holds %s", e.Name, kindName(e.Request), r, after)
				}
				if _, leave := e.Request.(impl.LeaveGroupRequest); leave && post.Live(e.Slot) && after.member == r.member {
					return fmt.Sprintf("%s leaves the group as %s and keeps that member id", e.Name, r.member)
				}
			}
		}
		return ""
	},
}

// keptFenced says how slot e.Slot kept an identity a fencing answer took away, or "".
func keptFenced(pre *spec.World, ev []spec.Event, post *spec.World, e spec.ReceiveEvent) string {
	sent, ok := fencedIdentity(pre, e)
	if !ok || sent != heldIdentity(pre, e.Slot) {
		return "" // not a fencing answer, or a stale one
	}
	i := e.Slot
	stopped := !post.Live(i) || post.Slots[i].Incarnation != pre.Slots[i].Incarnation
	if !stopped && heldIdentity(post, i) == sent && !franzGoCommitRejoin(pre, e, post) && !librdkafkaCommitWhileRebalancing(pre, e) && !javaPollsAgain(pre, e) {
		return fmt.Sprintf("%s is told %s for its %s under %s, and keeps that identity", e.Name, e.Response.Code(), kindName(e.Response), sent)
	}
	for _, x := range ev {
		if s, ok := x.(spec.SendEvent); ok && s.Slot == i {
			if r, ok := requestIdentity(s.Request); ok && r.gen != anyGen && r == sent {
				return fmt.Sprintf("%s is told %s under %s, and sends %s under it in the same step", e.Name, e.Response.Code(), sent, kindName(s.Request))
			}
		}
	}
	return ""
}

// franzGoCommitRejoin reports whether slot e.Slot is a franz-go client acting on a fencing
// answer to its OffsetCommit as franz-go does: UNKNOWN_MEMBER_ID and ILLEGAL_GENERATION make
// it rejoin at once keeping its identity (commitHasFatalMemberError → g.rejoin; the
// JoinGroup's answer then resets it), and FENCED_INSTANCE_ID only fails the commit (its
// heartbeat's answer stops it, judged there). consumer.CommitFranzGo.
func franzGoCommitRejoin(pre *spec.World, e spec.ReceiveEvent, post *spec.World) bool {
	if _, ok := e.Response.(impl.OffsetCommitResponse); !ok || !pre.Config().Commits || pre.Config().CommitPolicy != consumer.CommitFranzGo {
		return false
	}
	return e.Response.Code() == impl.FencedInstanceID || post.Slots[e.Slot].Client.RejoinNeeded
}

// javaPollsAgain reports whether slot e.Slot is told FENCED_INSTANCE_ID for a JoinGroup,
// SyncGroup or OffsetCommit by a world whose application catches what poll throws and polls
// again (on-fatal poll-again, consumer.FatalPollsAgain): Java keeps its generation and member
// id there (JoinGroupResponseHandler and SyncGroupResponseHandler only raise the error,
// joinGroupIfNeeded requests a rejoin; OffsetCommitResponseHandler only raises it), so its
// next JoinGroup goes out under the fenced id and is fenced again while the other process
// holds the instance. Only its Heartbeat's answer resets the member id.
func javaPollsAgain(pre *spec.World, e spec.ReceiveEvent) bool {
	if pre.Config().OnFatal != consumer.FatalPollsAgain || e.Response.Code() != impl.FencedInstanceID {
		return false
	}
	_, hb := e.Response.(impl.HeartbeatResponse)
	return !hb
}

// librdkafkaCommitWhileRebalancing reports whether slot e.Slot is a librdkafka client whose
// OffsetCommit is answered ILLEGAL_GENERATION while it is rebalancing, which librdkafka
// ignores on purpose: rd_kafka_cgrp_op_handle_OffsetCommit breaks out "if
// (RD_KAFKA_CGRP_REBALANCING(rkcg))", keeping rkcg_generation_id, "because a new generation
// id can be received soon after this error" (confluentinc/librdkafka src/rdkafka_cgrp.c).
// Java resets the generation there (docs/protocol.md §1.11); the difference is the finding
// traces/scenarios/librdkafka-commit-illegal-generation.trace. consumer.CommitLibrdkafka.
func librdkafkaCommitWhileRebalancing(pre *spec.World, e spec.ReceiveEvent) bool {
	c := pre.Config()
	if _, ok := e.Response.(impl.OffsetCommitResponse); !ok || !c.Commits || c.CommitPolicy != consumer.CommitLibrdkafka {
		return false
	}
	s := pre.Slots[e.Slot].Client.State()
	return e.Response.Code() == impl.IllegalGeneration && (s == consumer.PreparingRebalance || s == consumer.CompletingRebalance)
}

// fencedIdentity is the identity the request answered by a fencing response was sent under,
// read from the client's in-flight marker before the step; false when the response is no
// fencing answer.
func fencedIdentity(pre *spec.World, e spec.ReceiveEvent) (identity, bool) {
	s := pre.Slots[e.Slot]
	code := e.Response.Code()
	if pre.Config().ConsumerProtocol {
		m := s.Member
		switch e.Response.(type) {
		case impl.ConsumerGroupHeartbeatResponse:
			if (code == impl.FencedMemberEpoch || code == impl.UnknownMemberID) && m.Heartbeat.Epoch > 0 {
				return identity{m.MemberID(), int32(m.Heartbeat.Epoch)}, true
			}
		}
		return identity{}, false // an OffsetCommit's UNKNOWN_MEMBER_ID: see fencedMeansStop
	}
	if !fencingCodes[code] {
		return identity{}, false
	}
	if _, ok := e.Response.(impl.LeaveGroupResponse); ok {
		return identity{}, false // a leave already gives the identity up
	}
	p := s.Client.Requests[consumer.KindOf(e.Response)]
	if !p.Active || p.Sent.MemberID == impl.NoMemberID {
		return identity{}, false
	}
	return identity{p.Sent.MemberID, int32(p.Sent.ID)}, true
}

// kindName names a request or response by its API.
func kindName(m any) string {
	switch m.(type) {
	case impl.HeartbeatRequest, impl.HeartbeatResponse:
		return "Heartbeat"
	case impl.SyncGroupRequest, impl.SyncGroupResponse:
		return "SyncGroup"
	case impl.JoinGroupRequest, impl.JoinGroupResponse:
		return "JoinGroup"
	case impl.LeaveGroupRequest, impl.LeaveGroupResponse:
		return "LeaveGroup"
	case impl.OffsetCommitRequest, impl.OffsetCommitResponse:
		return "OffsetCommit"
	case impl.ConsumerGroupHeartbeatRequest, impl.ConsumerGroupHeartbeatResponse:
		return "ConsumerGroupHeartbeat"
	}
	return fmt.Sprintf("%T", m)
}

// noOrphanMember asks that every member the coordinator holds be known to a running (or
// paused) process, or that its id be on its way to one in a response. An orphan keeps its
// place, and its share of the assignment, until its session timer removes it: the partitions
// it is given are owned by nobody meanwhile. A paused process's member is no orphan
// (spec.World.Orphans): Kafka's coordinator holds it, as it holds any silent member, until its
// session timer fires, and the process goes on under its id when it resumes.
var noOrphanMember = Property{
	Name:      "no-orphan-member",
	Kind:      explorer.Always,
	Statement: "every member the coordinator holds is known to a running or paused process, or its id is on its way to one in a response",
	Source:    "docs/protocol.md §1.9 (session timer), §3.1 (KAFKA-17116: a lost first response orphans a KIP-848 member; KIP-1082)",
	State: func(w *spec.World) string {
		if o := w.Orphans(); len(o) > 0 {
			return fmt.Sprintf("the coordinator holds %s, which no running process knows", o)
		}
		return ""
	},
	Expected: orphanCauses,
}

// orphanCauses says which of a config's environment events leave the coordinator holding a
// member no process knows, or "" when none can (exploration shows each in a two-member
// world; TestOrphanCauses):
//   - a crash: the dead process's member waits for its session timer (docs/protocol.md §1.9);
//   - a graceful leave of a static member (KIP-345: it sends none), or one that meets a
//     failover (the closing client does not retry it, the new coordinator loads the member
//     from the log); a dynamic member's leave on its way is no orphan (spec.World.Orphans);
//   - a static restart: the old incarnation's member stays until the new one's join replaces
//     it (docs/protocol.md §1.10, §3.6); so does a static member's bounce to the other
//     protocol (mixed worlds: its close sends no leave, or the KIP-848 temporary leave);
//   - a member that closes or exceeds max.poll.interval.ms before the answer naming it arrives
//     (KIP-848 with coordinator-named ids, a classic JoinGroup below v4): it cannot leave;
//   - a poll timeout of a static member: it gives its id up locally without leaving and stays
//     until its rejoin replaces it or its session expires (a dynamic one's leave is on its
//     way, unless a failover meets it);
//   - a lost response, under KIP-848 or with static members: the response that carried the
//     member id a join created is lost, and the retry joins afresh (KAFKA-17116, the reason
//     for KIP-1082's client-generated ids; a static member's retry is told
//     UNRELEASED_INSTANCE_ID). A classic dynamic member learns its id from
//     MEMBER_ID_REQUIRED first (KIP-394): a lost answer then leaves only a pending member,
//     which is not yet in the group, and it holds.
func orphanCauses(c spec.Config) string {
	var why []string
	b := c.Budget
	if b.Crashes > 0 {
		why = append(why, "a crashed process's member waits for its session timer")
	}
	if b.Leaves > 0 && staticMembers(c) {
		why = append(why, "a closed static member sends no leave (KIP-345) and stays until its session expires")
	}
	if b.Leaves > 0 && b.Failovers > 0 {
		why = append(why, "a closed member's leave that meets a failover is not retried, and the new coordinator loads the member from the log")
	}
	if (b.Leaves > 0 || b.PollTimeouts > 0) && namedByAnswer(c) {
		why = append(why, "a member that closes or times out its poll before the answer naming it arrives cannot leave (KAFKA-17116)")
	}
	if b.SubscriptionChanges > 0 && slices.ContainsFunc(c.Members, func(m spec.MemberConfig) bool { return m.Unsubscribes }) {
		why = append(why, "an unsubscribed member stays until its leave arrives (with coordinator-named ids, until its session expires when it unsubscribes before the answer naming it arrives: KAFKA-17116)")
	}
	if b.Restarts > 0 {
		why = append(why, "a restarted static member's old member stays until the new join replaces it")
	}
	if b.Bounces > 0 && staticMembers(c) {
		why = append(why, "a static member bounced to the other protocol leaves its old member behind (no leave, or the temporary leave -2) until its new join replaces it")
	}
	if b.PollTimeouts > 0 && (staticMembers(c) || b.Failovers > 0) {
		why = append(why, "a static member that exceeds max.poll.interval.ms gives its id up without leaving (a dynamic one's leave may meet a failover)")
	}
	if b.LostResponses > 0 && (c.ConsumerProtocol || staticMembers(c)) {
		why = append(why, "a lost response that named a joining member leaves that member behind (KAFKA-17116)")
	}
	return strings.Join(why, "; ")
}

// namedByAnswer says whether some member learns its member id only from the answer to the
// join that created it: KIP-848 with coordinator-named ids (without KIP-1082), or a classic
// JoinGroup below v4 (no MEMBER_ID_REQUIRED round, KIP-394).
func namedByAnswer(c spec.Config) bool {
	if c.ConsumerProtocol {
		return !c.ClientMemberIDs
	}
	return slices.ContainsFunc(c.Members, func(m spec.MemberConfig) bool { return m.JoinVersion < 4 })
}

func staticMembers(c spec.Config) bool {
	for _, m := range c.Members {
		if m.Static {
			return true
		}
	}
	return false
}

// answersExpected asks that a classic client be handed only answers to requests it has in
// flight: one request of each kind at a time (consumer.Pending), and every answer matched to
// its request, as Kafka's correlation ids match a response to the request that asked for it
// (NetworkClient). A client that loses track of a request it sent cannot act on its answer
// (the consumer ignores an answer with no request in flight, its guard for late and
// duplicate answers): a fencing answer would go unheeded, a round would never complete. The
// model's transport delivers each answer once, to the incarnation that sent the request, and
// a timed-out request's answer is gone (LoseResponse), so in the reference the guard never
// fires. KIP-848 clients are judged by their own in-flight markers elsewhere.
var answersExpected = Property{
	Name:      "answers-expected",
	Kind:      explorer.Always,
	Statement: "a classic client is handed an answer only for a request of that kind it has in flight",
	Source:    "docs/protocol.md §1.11 (one request per kind in flight; sentGeneration, KAFKA-9823); NetworkClient (correlation ids)",
	Applies:   classic,
	Step: func(pre *spec.World, ev []spec.Event, post *spec.World) string {
		if pre.Config().ConsumerProtocol {
			return "" // Applies leaves KIP-848 worlds out; a caller may still pass one
		}
		for _, e := range ev {
			r, ok := e.(spec.ReceiveEvent)
			if !ok {
				continue
			}
			k := consumer.KindOf(r.Response)
			if !pre.Slots[r.Slot].Client.Requests[k].Active {
				return fmt.Sprintf("%s is handed a %s answer (%s) with no %s in flight", r.Name, k, r.Response.Code(), k)
			}
		}
		return ""
	},
}
