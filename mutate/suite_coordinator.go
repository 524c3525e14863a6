package mutate

// coordinatorWorlds are the worlds the triage of the full run of 2026-12-02 (main a47ddf5) added for
// blind spots of impl/coordinator: each comment names the mutants it catches.
var coordinatorWorlds = []World{
	// A poll timeout, then the member closes (529 states): a client whose LeaveGroup was never
	// answered still has one in flight, so it sends no second one when it closes and the
	// coordinator keeps an orphan (167: LeaveGroup's answer dropped; no-orphan-member). No
	// world had two LeaveGroups of one process.
	suiteWorld("eager/poll-timeout-leave"),
	// A follower's follow-up (UPGRADE) under KIP-423, eager with v1 subscriptions (1,572
	// states): the reason forces a rebalance although the metadata is unchanged (v2+ carries
	// the owned partitions' generation, which a follow-up always changes, so only v1 tells a
	// forced rebalance from a metadata one); dropping the force (148, 150, 151) answers the
	// current generation (join-reaction).
	suiteWorld("kip423/followups-v1"),
	// A static leader restarting at JoinGroup v8 (61 states): before KIP-814 the Stable answer
	// names the leader from before the restart and lists nobody; naming the new id without the
	// list (258) tells the restarted member it leads with nothing to assign (join-answer). No
	// world restarted a static member below v9.
	suiteWorld("static/pre-v9-restart"),
	// KIP-389's refusals of members already in (max-size-refusal): a lone member changing its
	// subscription under group-max-size 1 (44 states) rejoins a full Stable group, which must
	// accept it (97, 98 refuse it); two members under group-max-size 2 (the second joins while
	// one awaits the join: 91 refuses it). The suite's max-size worlds refused only newcomers.
	suiteWorld("eager/group-max-size-resubscribe"),
	suiteWorld("eager/group-max-size-2"),
	// The vote with a majority (18,082 states): a and b rank roundrobin first, c range, so
	// roundrobin must win (protocol-vote). With two members the votes agree or tie, and a tie
	// may go either way, so no world judged "most votes wins": 204, 205, 207, 210 and 211 pick
	// range (the smaller name, or a minority) here.
	suiteWorld("eager/vote-three"),
	// A member at JoinGroup v4 (10 states), the first version of KIP-394's two-step join
	// (member-id-required): its first join must be answered MEMBER_ID_REQUIRED, which 114
	// (`req.Version <= 4`) admits at once. Every other world joins at v9 or below v4.
	suiteWorld("eager/join-v4"),
	// The vote with the first member in the minority (18,082 states; protocol-vote): a ranks
	// range first, b and c roundrobin, so roundrobin must win. The candidates are counted in
	// member-id order, so a vote that never moves off the first candidate (208: `||` → `&&`;
	// 213: `best = i` dropped) elects a's range; in eager/vote-three a's choice is the
	// majority's.
	suiteWorld("eager/vote-minority-first"),
	// A static leader, a dynamic member starting late, one slow rejoin allowed (2,342 states;
	// static-member-kept): b's join starts a rebalance and the deadline may end it while a,
	// the leader, is still at generation 1; a is kept. 57 evicts it; 28 moves the leadership
	// but re-arms the timer, and the second deadline would cost a second slow rejoin. (With b
	// static too, b may lead generation 1 and be the one kept, and the range leader then
	// hands b's t-0 to a while b still owns it: no-handover-while-owned, KAFKA-8220's window.)
	suiteWorld("static/slow-rejoin"),
	// A lone member listing one assignor twice changes its subscription (44 states;
	// join-reaction): its rejoin in Stable is accepted and the coordinator must keep each
	// assignor once, as sent (GroupMetadata keeps one metadata per protocol name); 81 (the
	// request not normalized) and 186 (normalizeProtocols keeps duplicates) store the list
	// twice. No world listed an assignor twice.
	suiteWorld("eager/duplicate-assignor"),
	// Two processes of one static instance with different assignor lists (310 states;
	// protocol-vote): the second replaces the first in a Stable group and its first choice,
	// roundrobin, is now the vote, so the group must rebalance (docs/protocol.md §1.10); 253 (`||` →
	// `&&`) and 255 (the rebalance dropped) keep the Stable group on range. No world changed
	// the vote by a static replacement.
	suiteWorld("static/twin-vote"),
}
