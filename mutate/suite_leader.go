package mutate

// leaderWorlds are the worlds the blind-spot work on impl/leader (issue 12) added: each
// comment names the mutants it catches (ids of mutate/survivors/leader.md).
var leaderWorlds = []World{
	// A dynamic member a beside a static member b, one partition, range: Kafka's MemberInfo
	// order puts the static member first (KIP-345), so b takes t-0 where member-id order would
	// give it to a (assignor-exact: 791, 794, 796 in memberInfoOrder, 900 in Range.Assign).
	suiteWorld("eager/range-static-first"),
	// The sticky balancer where a member must move the one partition a newcomer may take,
	// the lowest of its three (a: t, u; b joins on t only): 852 (moveOne never moves index 0)
	// leaves a with three and b with none (sticky-least-movement, converged-balanced). 262
	// states.
	suiteWorld("eager/sticky-two-subscriptions-join"),
	// Three sticky members claiming 0, 2 and 3 of five partitions in member order (c alone
	// takes five, b joins and takes two, then a joins): the balancer must move one partition
	// from c; trying members in index order (846: moveOne's sort by load dropped) moves one
	// from b first and then one from c (sticky-least-movement: keeps 3 where 4 is possible).
	// 24,812 states, over the suite's usual size: the smallest world with that shape.
	suiteWorld("eager/sticky-three-joins"),
	// Eager sticky, t 3, a join timeout: a (t-0, t-2 at gen 1) misses the join deadline and is
	// removed, b takes all three at gen 2, then a rejoins with its gen-1 user data, which a
	// KIP-341 sticky member keeps. The leader arbitrates conflicting claims at different
	// generations: b (gen 2) wins t-0 and t-2 and keeps two. 883 (arbitrate sorts the lowest
	// generation first, so every contested partition loses all its claims) gives t-0 and t-2
	// to a and keeps one (sticky-least-movement). 2,024 states.
	suiteWorld("eager/sticky-stale-claims"),
	// A rolling upgrade to KIP-792: a (v1) leads, b (v2) joins and from its second JoinGroup on
	// sends the generation field a v1 leader cannot decode. 928 (ReadMembers keeping every
	// field) lets the leader read it (leader-reads-own-version). 486 states.
	suiteWorld("join/cooperative-kafka-v1-v2"),
	// Eager sticky with a subscription change: a (t, u) owns t-0 and switches to u alone; its
	// KIP-341 user data still lists t-0, a valid claim (b subscribes to t) that the balancer
	// must not keep for a member no longer subscribed to t. 803 (stickyBalance keeps a claim
	// when it is found OR the member is eligible) gives t-0 back to a: sync-assignment-valid.
	// 1,793 states.
	suiteWorld("eager/sticky-subscription-change"),
}
