package mutate

// eagerWorlds are where an eager member rejoins owning something it must give up first, the
// worlds of eager-joins-empty (issue 12): each comment names the mutants it catches.
var eagerWorlds = []World{
	// KIP-429's upgrade, first bounce (KIP-429 compatibility): a member already on
	// cooperative-sticky with rebalance.protocol still eager, so its rejoin for a partition it
	// noticed (TOPIC_METADATA_CHANGE: no REBALANCE_IN_PROGRESS, after which KIP-429 revokes
	// everything whatever the protocol, §1.c) revokes everything. Catches 440 (KIP-429's
	// per-member protocol ignored for the assignors': the member keeps its partition into
	// the JoinGroup). 43 states.
	suiteWorld("eager-kip/first-bounce-partition-additions"),
	// The KIP variant's cooperative leader rejoins for a partition added to t, keeping t-0 and t-1,
	// while an eager v1 member joins; roundrobin gives t-1 to the newcomer, so the plan
	// withholds it and answers everyone NEEDS_REJOIN, and the eager member, which still got
	// the unowned u-0, revokes it before it rejoins (KIP-429 §1.f). Catches 755 and 756 (the
	// eager member taking the cooperative plan and keeping u-0 into its JoinGroup). 6,822
	// states.
	suiteWorld("cooperative-kip/eager-needs-rejoin"),
	// Not an eager world, but the same hunt for a rejoin that should not happen: the
	// application resubscribes to the topics it already has (alt-topics equal to topics).
	// Java's subscribe() then changes nothing (SubscriptionState.changeSubscription returns
	// false, no rejoin). Catches 600 (rejoin-cause: the unchanged subscription makes the
	// member rejoin).
	suiteWorld("eager/resubscribe-unchanged"),
}
