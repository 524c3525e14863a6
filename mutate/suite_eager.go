package mutate

import "strings"

// eagerWorlds are where an eager member rejoins owning something it must give up first, the
// worlds of eager-joins-empty (issue 12): each comment names the mutants it catches.
var eagerWorlds = []World{
	// KIP-429's upgrade, first bounce (KIP-429 compatibility): a member already on
	// cooperative-sticky with rebalance.protocol still eager, so its rejoin for a partition it
	// noticed (TOPIC_METADATA_CHANGE: no REBALANCE_IN_PROGRESS, after which KIP-429 revokes
	// everything whatever the protocol, §1.c) revokes everything. Catches 440 (KIP-429's
	// per-member protocol ignored for the assignors': the member keeps its partition into
	// the JoinGroup). 43 states.
	{"eager-kip/first-bounce-partition-additions", `protocol cooperative
consumer kip
coordinator kafka
assignor cooperative-sticky
topic t 1
member a topics=t assignors=cooperative-sticky protocol=eager
budget partition-additions=1
`},
	// The KIP variant's cooperative leader rejoins for a partition added to t, keeping t-0 and t-1,
	// while an eager v1 member joins; roundrobin gives t-1 to the newcomer, so the plan
	// withholds it and answers everyone NEEDS_REJOIN, and the eager member, which still got
	// the unowned u-0, revokes it before it rejoins (KIP-429 §1.f). Catches 755 and 756 (the
	// eager member taking the cooperative plan and keeping u-0 into its JoinGroup). 6,822
	// states.
	{"cooperative-kip/eager-needs-rejoin", `protocol cooperative
consumer kip
coordinator kafka
assignor roundrobin
topic t 2
topic u 1
member a topics=t assignors=roundrobin protocol=cooperative
member b topics=t,u assignors=roundrobin protocol=eager absent
budget joins=1 partition-additions=1
`},
	// Not an eager world, but the same hunt for a rejoin that should not happen: the
	// application resubscribes to the topics it already has (alt-topics equal to topics).
	// Java's subscribe() then changes nothing (SubscriptionState.changeSubscription returns
	// false, no rejoin). Catches 600 (rejoin-cause: the unchanged subscription makes the
	// member rejoin).
	{"eager/resubscribe-unchanged", strings.Replace(eagerOne, "member a topics=t\n", "member a topics=t alt-topics=t\n", 1) + "budget subscription-changes=1\n"},
}
