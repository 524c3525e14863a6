package mutate

// leaderWorlds are the worlds the blind-spot work on impl/leader (issue 12) added: each
// comment names the mutants it catches (ids of mutate/survivors/leader.md).
var leaderWorlds = []World{
	// A dynamic member a beside a static member b, one partition, range: Kafka's MemberInfo
	// order puts the static member first (KIP-345), so b takes t-0 where member-id order would
	// give it to a (assignor-exact: 791, 794, 796 in memberInfoOrder, 900 in Range.Assign).
	{"eager/range-static-first", `protocol eager
consumer kafka
coordinator kafka
assignor range
topic t 1
member a topics=t
member b topics=t static
`},
	// The sticky balancer where a member must move the one partition a newcomer may take,
	// the lowest of its three (a: t, u; b joins on t only): 852 (moveOne never moves index 0)
	// leaves a with three and b with none (sticky-least-movement, converged-balanced). 262
	// states.
	{"eager/sticky-two-subscriptions-join", `protocol eager
consumer kafka
coordinator kafka
assignor sticky
topic t 1
topic u 2
member a topics=t,u
member b topics=t absent
budget joins=1
`},
	// Three sticky members claiming 0, 2 and 3 of five partitions in member order (c alone
	// takes five, b joins and takes two, then a joins): the balancer must move one partition
	// from c; trying members in index order (846: moveOne's sort by load dropped) moves one
	// from b first and then one from c (sticky-least-movement: keeps 3 where 4 is possible).
	// 24,812 states, over the suite's usual size: the smallest world with that shape.
	{"eager/sticky-three-joins", `protocol eager
consumer kafka
coordinator kafka
assignor sticky
topic t 5
member a topics=t absent
member b topics=t absent
member c topics=t
budget joins=2
`},
}
