package spec

import (
	"fmt"
	"slices"
	"strings"
)

// Preset is a named built-in world, written in the config-file format.
type Preset struct {
	Name    string
	Summary string // one line: what the world is for
	Text    string // the config, in ParseConfig's format
}

// Config parses the preset. Presets are tested to parse, so an error here is a bug.
func (p Preset) Config() (Config, error) {
	return ParseConfigString(p.Name, "name "+p.Name+"\n"+p.Text)
}

// threeCooperative is the classic three-member world of cooperative-three and
// cooperative-three-crash: a and b running, c starting later, three partitions.
const threeCooperative = `protocol cooperative
consumer kafka
coordinator kafka
assignor cooperative-sticky
topic t 3
member a topics=t
member b topics=t
member c topics=t absent
`

// staticSlowRejoin is the world of static-slow-rejoin and static-slow-rejoin-eager: two static
// members, one join deadline that may pass while one of them is slow to rejoin, commits.
func staticSlowRejoin(protocol, assignor string) string {
	return "protocol " + protocol + "\nconsumer kafka\ncoordinator kafka\nassignor " + assignor + `
topic t 2
member a topics=t static
member b topics=t static
budget join-timeouts=1
commits on
`
}

// DefaultPreset is what `groupcheck explore` runs with no flags.
const DefaultPreset = "cooperative-kafka"

// Presets are the built-in worlds, in the order `groupcheck presets` lists them.
var Presets = []Preset{
	{"eager", "eager range assignor; a crash and a session timeout; commits", `
protocol eager
consumer kafka
coordinator kafka
assignor range
topic t 2
member a topics=t
member b topics=t
budget crashes=1 session-timeouts=1
commits on
`},
	{"cooperative-kip", "KIP-429 as written (leader plan, NEEDS_REJOIN); a crash and a session timeout", `
protocol cooperative
consumer kip
coordinator kafka
assignor cooperative-sticky
topic t 2
member a topics=t
member b topics=t
budget crashes=1 session-timeouts=1
commits on
`},
	{"cooperative-kafka", "cooperative-sticky as Apache Kafka ships it; a crash and a session timeout", `
protocol cooperative
consumer kafka
coordinator kafka
assignor cooperative-sticky
topic t 2
member a topics=t
member b topics=t
budget crashes=1 session-timeouts=1
commits on
`},
	{"cooperative-join", "cooperative-sticky as shipped, a third member joining a running group", `
protocol cooperative
consumer kafka
coordinator kafka
assignor cooperative-sticky
topic t 2
member a topics=t
member b topics=t
member c topics=t absent
budget joins=1
commits on
`},
	{"cooperative-failover", "cooperative-sticky as shipped; the group coordinator fails over (it loads the group from the log) and a crash; commits", `
protocol cooperative
consumer kafka
coordinator kafka
assignor cooperative-sticky
topic t 2
member a topics=t
member b topics=t
budget failovers=1 crashes=1
commits on
`},
	{"cooperative-followup", "cooperative-sticky as shipped; the assignor asks a member for a follow-up rebalance (Kafka Streams, KIP-441) and a crash; commits", `
protocol cooperative
consumer kafka
coordinator kafka
assignor cooperative-sticky
topic t 2
member a topics=t
member b topics=t
budget followups=1 crashes=1
commits on
`},
	{"static-kip423", "static members that restart, sending KIP-423 RESTART to a coordinator that honours it", `
protocol cooperative
consumer kip
coordinator kip423
assignor cooperative-sticky
topic t 2
member a topics=t static
member b topics=t static
budget restarts=1 session-timeouts=1
commits on
`},
	{"static-kafka", "the same static world as Apache Kafka ships it, for comparison", `
protocol cooperative
consumer kafka
coordinator kafka
assignor cooperative-sticky
topic t 2
member a topics=t static
member b topics=t static
budget restarts=1 session-timeouts=1
commits on
`},
	{"static-slow-rejoin", "static members as shipped, one slow rejoin (a join timeout): the deadline keeps the absent one (KAFKA-8220); commits", staticSlowRejoin("cooperative", "cooperative-sticky")},
	{"static-slow-rejoin-eager", "the same slow static rejoin under eager range; commits", staticSlowRejoin("eager", "range")},
	{"upgrade-v0-leader", "KIP-429 hazard: a v0-only eager member (it may lead) beside cooperative v1 members", `
protocol cooperative
consumer kip
coordinator kafka
assignor range
topic t 3
member a topics=t version=0 assignors=range protocol=eager
member b topics=t version=1 assignors=range protocol=cooperative
member c topics=t version=1 assignors=range protocol=cooperative absent
budget joins=1
`},
	{"upgrade-skip-bounce", "KIP-429 hazard: skipping the double bounce, old v0 eager members beside a new v1 cooperative one", `
protocol cooperative
consumer kip
coordinator kafka
assignor range
topic t 3
member a topics=t version=0 assignors=range protocol=eager
member b topics=t version=0 assignors=range protocol=eager
member c topics=t version=1 assignors=range protocol=cooperative absent
budget joins=1 leaves=1
`},
	{"upgrade-bounce1", "KIP-429's first bounce done right: a v0 leader, v1 members still eager", `
protocol eager
consumer kip
coordinator kafka
assignor range
topic t 3
member a topics=t version=0 assignors=range protocol=eager
member b topics=t version=1 assignors=range protocol=eager
member c topics=t version=1 assignors=range protocol=eager absent
budget joins=1
`},
	{"cooperative-three", "three shipped cooperative-sticky members: a third joins, a crash, a session timeout; three partitions", threeCooperative + "budget joins=1 crashes=1 session-timeouts=1\n"},
	{"cooperative-three-crash", "three shipped cooperative-sticky members: a third joins and a crash, no session timeout; three partitions (the largest classic three-member world exhausted here)", threeCooperative + "budget joins=1 crashes=1\n"},
	{"kip848-kafka", "KIP-848 as Apache Kafka ships it (docs/protocol.md §3): a crash and a session timeout; commits", `
protocol consumer
consumer kafka
coordinator kafka
assignor uniform
topic t 2
member a topics=t
member b topics=t
budget crashes=1 session-timeouts=1
commits on
`},
	{"kip848-three", "three KIP-848 members as shipped: a third joins, a crash, a session timeout; three partitions", `
protocol consumer
consumer kafka
coordinator kafka
assignor uniform
topic t 3
member a topics=t
member b topics=t
member c topics=t absent
budget joins=1 crashes=1 session-timeouts=1
`},
	{"kip848-kip", "the same KIP-848 world under the KIP-848 draft's reconciliation of docs/protocol.md §8 (revoke, acknowledge, then assign)", `
protocol consumer
consumer kip
coordinator kafka
assignor uniform
topic t 2
member a topics=t
member b topics=t
budget crashes=1 session-timeouts=1
commits on
`},
	{"kip848-failover", "KIP-848 as shipped; the group coordinator fails over (the new one replays the group's records) and a crash; commits", `
protocol consumer
consumer kafka
coordinator kafka
assignor uniform
topic t 2
member a topics=t
member b topics=t
budget failovers=1 crashes=1
commits on
`},
	{"kip848-static", "KIP-848 static members (temporary leave -2, replacement) with a restart; commits", `
protocol consumer
consumer kafka
coordinator kafka
assignor uniform
topic t 2
member a topics=t static
member b topics=t static
budget restarts=1
commits on
`},
}

// LookupPreset finds a preset by name.
func LookupPreset(name string) (Preset, error) {
	i := slices.IndexFunc(Presets, func(p Preset) bool { return p.Name == name })
	if i < 0 {
		names := make([]string, len(Presets))
		for j, p := range Presets {
			names[j] = p.Name
		}
		return Preset{}, fmt.Errorf("unknown preset %q (presets: %s)", name, strings.Join(names, ", "))
	}
	return Presets[i], nil
}
