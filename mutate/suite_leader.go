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
}
