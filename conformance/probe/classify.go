package main

import "strings"

// class is a kind of difference.
type class string

const (
	kfakeWrong  class = "kfake wrong (a kfake finding)"
	versionDiff class = "version difference"
	probeTiming class = "probe timing (not a coordinator difference)"
)

// knownDiff is a classified difference: which broker shows it, how to recognise it, and
// what decides it (Kafka source, KIP or JIRA). docs/probe.md lists each with its schedule.
type knownDiff struct {
	id     string
	class  class
	broker string   // "kfake", "kafka" (a broker at an address), or "" for both
	match  []string // every one must occur in the difference's lines
	why    string
}

// knownDiffs are the differences the probe has met and classified (docs/probe.md).
var knownDiffs = []knownDiff{
	{"kip-1251-commit", versionDiff, "", []string{"OffsetCommit to", "reference STALE_MEMBER_EPOCH, broker NONE"},
		"KIP-1251 (KAFKA-20066, Kafka 4.3+): a KIP-848 commit whose member epoch is behind the member's is accepted for partitions assigned at or before that epoch; the reference, as Kafka up to 4.2 (ConsumerGroup.validateOffsetCommit → validateMemberEpoch), refuses any epoch but the member's"},
	{"keepalive-race", probeTiming, "kafka", []string{"group: reference assigning", "broker reconciling", "assignment epoch"},
		"while one KIP-848 member's session expires the probe heartbeats the others; a keep-alive that reaches the broker just after the expiry computes the new target, which the reference leaves to the next heartbeat of the schedule (replays agree)"},
	{"kfake-unknown-member-id-echo", kfakeWrong, "kfake", []string{"JoinGroup to", "member id: reference", "broker -"},
		"kfake answers a JoinGroup it refuses (UNKNOWN_MEMBER_ID, FENCED_INSTANCE_ID) with an empty member id; Kafka echoes the request's (GroupMetadataManager.classicGroupJoin: `.setMemberId(memberId).setErrorCode(Errors.UNKNOWN_MEMBER_ID.code())`), as the reference does"},
	{"kfake-commit-unknown-member", kfakeWrong, "kfake", []string{"OffsetCommit to", "reference UNKNOWN_MEMBER_ID, broker ILLEGAL_GENERATION"},
		"an OffsetCommit from a member id to a group with no members: kfake ILLEGAL_GENERATION (groups.go handleOffsetCommit checks the member only in a group that has members), Kafka UNKNOWN_MEMBER_ID (ClassicGroup.validateOffsetCommit checks the member before the generation), as the reference"},
	{"kfake-sync-timeout", kfakeWrong, "kfake", []string{"group: reference PreparingRebalance, 1 members, broker Stable, 2 members"},
		"kfake's sync timer does not remove a member that never sent SyncGroup; Kafka removes every pending-sync member and rebalances (GroupMetadataManager.expirePendingSync: `pendingSyncMembers.forEach(memberId -> group.remove(memberId))`), as the reference"},
	{"kfake-static-absent", kfakeWrong, "kfake", []string{"members: reference 2, broker 1"},
		"kfake drops a static member that did not rejoin when the join phase times out; Kafka keeps it (GroupMetadataManager.completeClassicGroupJoin removes only `notYetRejoinedDynamicMembers`, filtered by `!isStaticMember()`), as the reference"},
	{"kfake-static-leader", kfakeWrong, "kfake", []string{"leader: reference", "members: reference 0, broker 2"},
		"after a static member's replacement kfake names another member leader; Kafka hands the leadership to the replacing member id (ClassicGroup.replaceStaticMember: `if (isLeader(oldMemberId)) leaderId = Optional.of(newMemberId)`), as the reference"},
	{"kfake-pending-join", kfakeWrong, "kfake", []string{"group: reference PreparingRebalance, 1 members, broker CompletingRebalance, 1 members"},
		"kfake completes a join phase while a member id handed out with MEMBER_ID_REQUIRED has not joined yet; Kafka waits for it (ClassicGroup.hasAllMembersJoined: `pendingJoinMembers.isEmpty()`), as the reference"},
	{"kfake-eager-target", kfakeWrong, "kfake", []string{"group: reference assigning", "broker reconciling"},
		"kfake computes a KIP-848 group's new target assignment as soon as a member leaves or is fenced; Kafka computes it on the next heartbeat (GroupMetadataManager.consumerGroupHeartbeat → updateTargetAssignment), as the reference (Kafka 4.4 agrees with the reference on these schedules)"},
	{"kfake-session-both", kfakeWrong, "kfake", []string{"group: reference assigning", "broker empty", "0 members"},
		"when one KIP-848 member's session or rebalance timeout expires kfake removes the other member too, although the probe keeps it alive with heartbeats Kafka 4.4 accepts; Kafka's timers are the member's own (GroupMetadataManager.scheduleConsumerGroupSessionTimeout and scheduleConsumerGroupRebalanceTimeout key each by group and member id), and Kafka 4.4 keeps the other member on the same schedules"},
	{"kfake-static-empty-state", kfakeWrong, "kfake", []string{"broker empty", "1 members"},
		"kfake describes a KIP-848 group that still has a member (a static member that left temporarily, epoch -2) as empty; Kafka's state follows its members (ConsumerGroup.maybeUpdateGroupState)"},
	{"kfake-keepalive-fenced", kfakeWrong, "kfake", []string{"keep-alive heartbeat", "broker FENCED_MEMBER_EPOCH"},
		"kfake fences a member's plain heartbeat at its current epoch while another member's session expires; Kafka answers it NONE (the same keep-alives pass against Kafka 4.4)"},
}

// known is the classification of d seen on broker, or nil.
func known(d difference, broker string) *knownDiff {
	text := strings.Join(d.Lines, "\n")
	for i, k := range knownDiffs {
		if k.broker == "kfake" && broker != "kfake" || k.broker == "kafka" && broker == "kfake" {
			continue
		}
		all := true
		for _, m := range k.match {
			if !strings.Contains(text, m) {
				all = false
				break
			}
		}
		if all {
			return &knownDiffs[i]
		}
	}
	return nil
}

// classify names a difference's class for reports.
func classify(d difference, broker string) string {
	if k := known(d, broker); k != nil {
		return string(k.class) + " [" + k.id + "]: " + k.why
	}
	return "unclassified"
}
