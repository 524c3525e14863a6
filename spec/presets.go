package spec

import (
	"fmt"
	"slices"
	"strings"

	"github.com/groupcheck/groupcheck/worlds"
)

// Preset is a named built-in world, written in the config-file format.
type Preset struct {
	Name    string
	Summary string // one line: what the world is for
	Text    string // the config, in ParseConfig's format (worlds/<Name>.conf)
}

// Config parses the preset. Presets are tested to parse, so an error here is a bug.
func (p Preset) Config() (Config, error) {
	return ParseConfigString(p.Name, "name "+p.Name+"\n"+p.Text)
}

// DefaultPreset is what `groupcheck explore` runs with no flags.
const DefaultPreset = "cooperative-kafka"

// Presets are the built-in worlds, in the order `groupcheck presets` lists them.
var Presets = []Preset{
	preset("eager", "eager range assignor; a crash and a session timeout; commits"),
	preset("cooperative-kip", "KIP-429 as written (leader plan, NEEDS_REJOIN); a crash and a session timeout"),
	preset("cooperative-kafka", "cooperative-sticky as Apache Kafka ships it; a crash and a session timeout"),
	preset("cooperative-join", "cooperative-sticky as shipped, a third member joining a running group"),
	preset("cooperative-failover", "cooperative-sticky as shipped; the group coordinator fails over (it loads the group from the log) and a crash; commits"),
	preset("cooperative-followup", "cooperative-sticky as shipped; the assignor asks a member for a follow-up rebalance (Kafka Streams, KIP-441) and a crash; commits"),
	preset("static-kip423", "static members that restart, sending KIP-423 RESTART to a coordinator that honours it"),
	preset("static-kafka", "the same static world as Apache Kafka ships it, for comparison"),
	preset("static-slow-rejoin", "static members as shipped, one slow rejoin (a join timeout): the deadline keeps the absent one (KAFKA-8220); commits"),
	preset("static-slow-rejoin-eager", "the same slow static rejoin under eager range; commits"),
	preset("upgrade-v0-leader", "KIP-429 hazard: a v0-only eager member (it may lead) beside cooperative v1 members"),
	preset("upgrade-skip-bounce", "KIP-429 hazard: skipping the double bounce, old v0 eager members beside a new v1 cooperative one"),
	preset("upgrade-bounce1", "KIP-429's first bounce done right: a v0 leader, v1 members still eager"),
	preset("cooperative-three", "three shipped cooperative-sticky members: a third joins, a crash, a session timeout; three partitions"),
	preset("cooperative-three-crash", "three shipped cooperative-sticky members: a third joins and a crash, no session timeout; three partitions (the largest classic three-member world exhausted here)"),
	preset("kip848-kafka", "KIP-848 as Apache Kafka ships it (docs/protocol.md §3): a crash and a session timeout; commits"),
	preset("kip848-three", "three KIP-848 members as shipped: a third joins, a crash, a session timeout; three partitions"),
	preset("kip848-kip", "the same KIP-848 world under the KIP-848 draft's reconciliation of docs/protocol.md §8 (revoke, acknowledge, then assign)"),
	preset("kip848-failover", "KIP-848 as shipped; the group coordinator fails over (the new one replays the group's records) and a crash; commits"),
	preset("kip848-static", "KIP-848 static members (temporary leave -2, replacement) with a restart; commits"),
	preset("migration-upgrade", "a classic cooperative group whose two members bounce, one by one, to the consumer protocol, the group converted online (docs/protocol.md §9); commits"),
	preset("migration-downgrade", "the rolling bounce back: two consumer-protocol members bounce to the classic cooperative protocol, and a crash; the group is downgraded online; commits"),
	preset("migration-static", "migration-upgrade with static members: a bounce closes without a LeaveGroup; commits"),
}

// preset is the built-in world name, its text read from worlds/<name>.conf.
func preset(name, summary string) Preset {
	return Preset{Name: name, Summary: summary, Text: worlds.MustText(name)}
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
