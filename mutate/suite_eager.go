package mutate

// eagerWorlds are where an eager member rejoins owning something it must give up first, the
// worlds of eager-joins-empty (issue 12): each comment names the mutants it catches.
var eagerWorlds = []World{
	// The seed's upgrade, first bounce (KIP-429 compatibility): members already on
	// cooperative-sticky with rebalance.protocol still eager, so every rejoin revokes
	// everything. Catches 440 (the seed's per-member protocol ignored for the assignors': the
	// member keeps its partitions into the JoinGroup). 262 states.
	{"eager-kip/first-bounce-join", `protocol cooperative
consumer kip
coordinator kafka
assignor cooperative-sticky
topic t 2
member a topics=t assignors=cooperative-sticky protocol=eager
member b topics=t assignors=cooperative-sticky protocol=eager absent
budget joins=1
`},
	// The seed's leader (cooperative, v1) withholds t-1 from an eager v1 member that joins,
	// which still gets the unowned u-0, and answers everyone NEEDS_REJOIN: the eager member
	// revokes u-0 before it rejoins (KIP-429 §1.f). Catches 755 and 756 (the eager member
	// taking the cooperative plan and keeping u-0 into its JoinGroup). 254 states.
	{"cooperative-kip/eager-needs-rejoin", `protocol cooperative
consumer kip
coordinator kafka
assignor range
topic t 2
topic u 1
member a topics=t assignors=range protocol=cooperative
member b topics=t,u assignors=range protocol=eager absent
budget joins=1
`},
}
