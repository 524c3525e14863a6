package main

import (
	"fmt"
	"strings"

	"github.com/groupcheck/groupcheck/impl"
	"github.com/groupcheck/groupcheck/impl/migration"
)

// The mixed-group schedules (docs/real-kafka.md, "Mixed groups"). Members are named by the
// reference member id they get; each has a connection of its own (the Conn numbers below).

const seamCoop = "cooperative-sticky"

func seamParts(ns ...int32) impl.PartitionSet {
	var out []impl.TopicPartition
	for _, n := range ns {
		out = append(out, impl.TP("t", n))
	}
	return impl.NewPartitionSet(out...)
}

var seamConns = map[string]impl.Conn{"x": 1, "y": 2, "z": 3, "w": 4, "y2": 5, "v": 6, "x2": 7}

// cjoin is a classic JoinGroup v5 owning owned (v5: the leader's member list carries
// instance ids); a new dynamic member's is two, the first answered MEMBER_ID_REQUIRED.
func cjoin(member string, rejoin bool, inst impl.InstanceID, owned impl.PartitionSet) []seamStep {
	r := impl.JoinGroupRequest{Conn: seamConns[member], Version: 5, InstanceID: inst,
		Protocols: []impl.GroupProtocol{{Name: seamCoop, Metadata: impl.NewSubscription(2, []string{"t"}, owned, impl.NoGeneration)}}}
	if rejoin || inst != "" {
		if rejoin {
			r.MemberID = impl.MemberID(member)
		}
		return []seamStep{{member: member, req: r}}
	}
	again := r
	again.MemberID = impl.MemberID(member)
	return []seamStep{{member: member, req: r}, {member: member, req: again}}
}

// cjoinHeld is a classic member's rejoin owning what its last SyncGroup answer gave it (a
// cooperative client keeps those partitions across the rejoin).
func cjoinHeld(member string, inst impl.InstanceID) seamStep {
	return seamStep{member: member, mk: func(_ migration.Group, owned map[string]impl.PartitionSet) impl.Request {
		return cjoin(member, true, inst, owned[member])[0].req
	}}
}

// steps joins step lists.
func steps(parts ...any) []seamStep {
	var out []seamStep
	for _, p := range parts {
		switch p := p.(type) {
		case seamStep:
			out = append(out, p)
		case []seamStep:
			out = append(out, p...)
		}
	}
	return out
}

// generationOf is the generation a classic member knows: the classic group's, or its member
// epoch in a consumer group.
func generationOf(g migration.Group, member string) impl.Generation {
	if !g.IsConsumer() {
		return g.Classic().Generation()
	}
	m, _ := g.Consumer().Member(impl.MemberID(member))
	return impl.Generation(m.MemberEpoch)
}

// csync is a classic SyncGroup at the member's generation; a leader's carries assignments.
func csync(member string, inst impl.InstanceID, assign map[string]impl.PartitionSet) seamStep {
	return seamStep{member: member, mk: func(g migration.Group, _ map[string]impl.PartitionSet) impl.Request {
		r := impl.SyncGroupRequest{Conn: seamConns[member], MemberID: impl.MemberID(member), InstanceID: inst,
			Generation: generationOf(g, member), ProtocolName: seamCoop}
		for _, m := range []string{"x", "y", "z"} {
			if p, ok := assign[m]; ok {
				r.Assignments = append(r.Assignments, impl.MemberAssignment{MemberID: impl.MemberID(m), Assignment: impl.Assignment{Partitions: p}})
			}
		}
		return r
	}}
}

// cheartbeat is a classic Heartbeat at the member's generation plus off.
func cheartbeat(member string, inst impl.InstanceID, off impl.Generation) seamStep {
	return seamStep{member: member, mk: func(g migration.Group, _ map[string]impl.PartitionSet) impl.Request {
		return impl.HeartbeatRequest{Conn: seamConns[member], MemberID: impl.MemberID(member), InstanceID: inst, Generation: generationOf(g, member) + off}
	}}
}

// ccommit is a classic OffsetCommit of parts at the member's generation plus off.
func ccommit(member string, inst impl.InstanceID, off impl.Generation, parts impl.PartitionSet) seamStep {
	return seamStep{member: member, mk: func(g migration.Group, _ map[string]impl.PartitionSet) impl.Request {
		return impl.OffsetCommitRequest{Conn: seamConns[member], MemberID: impl.MemberID(member), InstanceID: inst, Generation: generationOf(g, member) + off, Partitions: parts}
	}}
}

// cleave is a classic LeaveGroup of one dynamic member.
func cleave(member string) seamStep {
	return seamStep{member: member, req: impl.LeaveGroupRequest{Conn: seamConns[member], Members: []impl.LeaveMember{{MemberID: impl.MemberID(member)}}}}
}

// kjoin is a KIP-848 join (epoch 0), owning nothing.
func kjoin(member string, inst impl.InstanceID) seamStep {
	none := impl.NewPartitionSet()
	return seamStep{member: member, req: impl.ConsumerGroupHeartbeatRequest{Conn: seamConns[member], InstanceID: inst,
		MemberEpoch: impl.EpochJoin, SubscribedTopicNames: []string{"t"}, OwnedPartitions: &none}}
}

// kheartbeat is a KIP-848 heartbeat at the member's epoch, owning what it was last assigned
// (a client that has reconciled its last answer: revoked what it lost, taken what it got).
func kheartbeat(member string) seamStep {
	return seamStep{member: member, mk: func(g migration.Group, _ map[string]impl.PartitionSet) impl.Request {
		m, _ := g.Consumer().Member(impl.MemberID(member))
		owned := m.AssignedPartitions
		return impl.ConsumerGroupHeartbeatRequest{Conn: seamConns[member], MemberID: m.ID, MemberEpoch: m.MemberEpoch, OwnedPartitions: &owned}
	}}
}

// kleave is a KIP-848 leave (epoch -1).
func kleave(member string) seamStep {
	return seamStep{member: member, req: impl.ConsumerGroupHeartbeatRequest{Conn: seamConns[member], MemberID: impl.MemberID(member), MemberEpoch: impl.EpochLeave}}
}

// stableXY: classic cooperative x and y (static, instance iy), Stable at generation 2, x
// holding t-0 t-1 and y t-2 t-3, every SyncGroup answered.
func stableXY() []seamStep {
	return steps(
		cjoin("x", false, "", seamParts()),
		csync("x", "", map[string]impl.PartitionSet{"x": seamParts(0, 1, 2, 3)}),
		cjoin("y", false, "iy", seamParts()),
		cjoin("x", true, "", seamParts(0, 1, 2, 3)),
		csync("x", "", map[string]impl.PartitionSet{"x": seamParts(0, 1), "y": seamParts(2, 3)}),
		csync("y", "iy", nil),
	)
}

var seamSchedules = []seamSchedule{
	// (a) impl/migration TestUpgradeFreesWithheldPartitions against a broker: z joins, x and
	// y rejoin owning what they hold, the leader's first cooperative round withholds t-1 and
	// t-3, y has not synced, and a KIP-848 member w joins. y, still owning t-2 t-3, commits
	// t-3 before it learns of the rebalance.
	{name: "upgrade-withheld", steps: steps(stableXY(),
		cjoin("z", false, "", seamParts()),
		cjoin("x", true, "", seamParts(0, 1)),
		cjoin("y", true, "iy", seamParts(2, 3)),
		csync("x", "", map[string]impl.PartitionSet{"x": seamParts(0), "y": seamParts(2), "z": seamParts()}),
		kjoin("w", ""),
		ccommit("y", "iy", 0, seamParts(3)),
		csync("y", "iy", nil),
		csync("z", "", nil),
		cheartbeat("x", "", 0),
		kheartbeat("w"),
		cjoinHeld("x", ""),
		cjoinHeld("y", "iy"),
		kheartbeat("w"),
	),
		// Which withheld partition w gets is the uniform assignor's choice among the
		// partitions the conversion left free: the reference takes t-1, Kafka t-1 or t-3.
		known:   []string{"w ConsumerGroupHeartbeat join: assignment: reference (t-1), broker (t-3)"},
		finding: withheldHandedOver},
	// (b) a static member bounced to the consumer protocol between the join phase and the
	// leader's SyncGroup: y2 takes y's instance id.
	{name: "static-bounce-before-sync", steps: steps(
		cjoin("x", false, "", seamParts()),
		csync("x", "", map[string]impl.PartitionSet{"x": seamParts(0, 1, 2, 3)}),
		cjoin("y", false, "iy", seamParts()),
		cjoin("x", true, "", seamParts(0, 1, 2, 3)),
		kjoin("y2", "iy"),
		csync("x", "", map[string]impl.PartitionSet{"x": seamParts(0, 1), "y": seamParts(2, 3)}),
		kheartbeat("y2"),
		cheartbeat("x", "", 0),
		kheartbeat("y2"),
		cheartbeat("x", "", 0),
		kheartbeat("y2"),
		kheartbeat("y2"),
	),
		// The conversion takes the classic group's assignments as the target (x: all four,
		// y: none yet) and a static replacement bumps no epoch, so nothing recomputes it:
		// y2 stays without a partition while x holds all four (docs/findings.md).
		finding: neverAssigned("y2", 5)},
	// (c) a KIP-848 join sent right behind the first classic JoinGroup of a new group: it
	// meets the first join phase (no protocol selected), the completed one, or no group yet,
	// whichever the broker's order leaves it; then another KIP-848 member v joins.
	{name: "upgrade-first-join", steps: steps(
		firstJoin(),
		kjoin("w", ""),
		kjoin("v", ""),
	),
		// After the join timer won: which member keeps two of the four partitions when v
		// joins is the uniform assignor's choice; Kafka's sometimes leaves v a partition no
		// one owns (x's target, x not yet synced), the reference's takes one of w's, which v
		// waits for.
		known: []string{"v ConsumerGroupHeartbeat join: assignment: reference (), broker (t-"}},
	// (d) a plain online upgrade and downgrade, with (e) a classic member's requests inside
	// the consumer group: x alone holds t-0..t-3, w joins on the consumer protocol, x
	// heartbeats, commits and rejoins, w leaves and the group is classic again.
	{name: "upgrade-downgrade", steps: steps(
		cjoin("x", false, "", seamParts()),
		csync("x", "", map[string]impl.PartitionSet{"x": seamParts(0, 1, 2, 3)}),
		kjoin("w", ""),
		cheartbeat("x", "", 0),
		cheartbeat("x", "", -1),
		ccommit("x", "", 0, seamParts(0, 1, 2, 3)),
		ccommit("x", "", -1, seamParts(0, 1, 2, 3)),
		csync("x", "", nil),
		cjoinHeld("x", ""),
		csync("x", "", nil),
		kheartbeat("w"),
		cheartbeat("x", "", 0),
		cjoinHeld("x", ""),
		csync("x", "", nil),
		kheartbeat("w"),
		ccommit("x", "", 0, seamParts(0, 1, 2, 3)),
		kleave("w"),
		cheartbeat("x", "", 0),
		cjoinHeld("x", ""),
		csync("x", "", map[string]impl.PartitionSet{"x": seamParts(0, 1, 2, 3)}),
	)},
	// (f) the explorer's shortest hand-on in migration-upgrade (traces/scenarios/
	// upgrade-mid-rebalance-two-owners.trace), at four partitions: z joins the stable group,
	// x and y rejoin owning what they hold, so the join phase completes and the group waits
	// for the leader's SyncGroup; z leaves as a classic member, which sends the group back to
	// PreparingRebalance and clears every member's stored assignment; then w joins on the
	// consumer protocol and converts the group from those cleared records.
	{name: "upgrade-after-leave-mid-rebalance", steps: steps(stableXY(),
		cjoin("z", false, "", seamParts()),
		cjoin("x", true, "", seamParts(0, 1)),
		cjoin("y", true, "iy", seamParts(2, 3)),
		cleave("z"),
		kjoin("w", ""),
		kheartbeat("w"),
	),
		// Which of the owned partitions w gets is the uniform assignor's choice among
		// members with no recorded assignment, which Kafka makes by member order (its
		// member ids are random): the reference takes t-0 t-3, Kafka t-1 or t-2 t-3.
		known:   []string{"w ConsumerGroupHeartbeat join: assignment: reference (t-0 t-3), broker ("},
		finding: ownedHandedOver},
	// (g) the explorer's dead end in migration-static (traces/scenarios/
	// upgrade-static-before-first-sync-unassigned.trace), with one member: a static member
	// x joins a new group and is made leader of generation 1; before it syncs, its process
	// restarts on the consumer protocol with the same instance id (x2). The conversion's
	// records assign nothing, and the replacement bumps no epoch.
	{name: "static-leader-bounce-before-first-sync", steps: steps(
		cjoin("x", false, "ix", seamParts()),
		kjoin("x2", "ix"),
		kheartbeat("x2"),
		kheartbeat("x2"),
		kheartbeat("x2"),
	),
		finding: neverAssigned("x2", 4)},
}

// neverAssigned: no broker answer gives member a partition, in at least answers answers (a
// static replacement that the conversion left without a target, with no epoch to recompute it).
func neverAssigned(member string, answers int) func(seamRun) error {
	return func(run seamRun) error {
		n := 0
		for _, l := range run.lines {
			if strings.Contains(l, " "+member+" ConsumerGroupHeartbeat") {
				n++
				if _, broker, _ := strings.Cut(l, "; broker "); strings.Contains(broker, "assignment=(t-") {
					return fmt.Errorf("%s is given a partition: %s", member, l)
				}
			}
		}
		if n < answers {
			return fmt.Errorf("%d answers to %s, want %d", n, member, answers)
		}
		return nil
	}
}

// ownedHandedOver: the KIP-848 joiner's first answer carries a partition, when every
// partition is still owned by x or y, which have not revoked anything.
func ownedHandedOver(run seamRun) error {
	for _, l := range run.lines {
		if strings.Contains(l, " w ConsumerGroupHeartbeat join:") {
			if strings.Contains(l, "assignment=(t-") {
				return nil
			}
			return fmt.Errorf("w's join answer gives no partition: %s", l)
		}
	}
	return fmt.Errorf("no answer to w's join")
}

// withheldHandedOver: the KIP-848 joiner's first answer carries one of the partitions the
// leader withheld (t-1, t-3), which its classic owner has not revoked.
func withheldHandedOver(run seamRun) error {
	for _, l := range run.lines {
		if strings.Contains(l, " w ConsumerGroupHeartbeat join:") {
			if strings.HasSuffix(l, "assignment=(t-1)") || strings.HasSuffix(l, "assignment=(t-3)") {
				return nil
			}
			return fmt.Errorf("w's join answer gives no withheld partition: %s", l)
		}
	}
	return fmt.Errorf("no answer to w's join")
}

// firstJoin is a new dynamic member's JoinGroup v3 (no MEMBER_ID_REQUIRED round) to an empty
// group, raced by the next step's request.
func firstJoin() seamStep {
	return seamStep{member: "x", race: true, req: impl.JoinGroupRequest{Conn: seamConns["x"], Version: 3,
		Protocols: []impl.GroupProtocol{{Name: seamCoop, Metadata: impl.NewSubscription(2, []string{"t"}, seamParts(), impl.NoGeneration)}}}}
}
