package mutate

import (
	"strings"

	"github.com/groupcheck/groupcheck/invariants"
	"github.com/groupcheck/groupcheck/spec"
	"github.com/groupcheck/groupcheck/worlds"
)

// World is one world of the suite every mutant runs against.
type World struct {
	Name string `json:"name"`
	Text string `json:"text"` // the config, in the config-file format
}

// Suite is the fixed set of small worlds a mutant runs against: every preset, with a budget of
// several kinds of event split into one world per kind (so each stays small: the presets'
// pairs of events multiply their state spaces), the world of every named mutant
// (invariants.Mutants) without its fault, each once, and three small worlds standing in for
// the large ones left out (skipped). Names say where a world comes from: "eager/crashes" is
// the eager preset with its crash and not its session timeout.
func Suite() []World {
	var out []World
	seen := map[string]bool{}
	add := func(name, text string) {
		if seen[text] {
			return
		}
		seen[text] = true // a skipped world stays skipped under another name
		if skipped[name] == "" {
			out = append(out, World{Name: name, Text: text})
		}
	}
	for _, p := range spec.Presets {
		for _, w := range splitBudget(p.Name, p.Text) {
			add(w.Name, w.Text)
		}
	}
	for _, m := range invariants.Mutants {
		if m.World != "" {
			add("mutant-world/"+m.Fault.String(), m.World)
		}
	}
	for _, ws := range [][]World{standIns, coordinatorWorlds, consumerWorlds, kip848Worlds, leaderWorlds, kip848ClientWorlds, eagerWorlds} {
		for _, w := range ws {
			add(w.Name, w.Text)
		}
	}
	return out
}

// skipped are the worlds the suite leaves out, each over 100 K states (a surviving mutant
// explores every world that reaches it), and what
// takes their paths instead.
var skipped = map[string]string{
	"cooperative-kafka/session-timeouts":              "mutant-world/skip-join-prepare-after-reset (the same without commits) and cooperative-kafka/crashes (commits)",
	"static-kafka/session-timeouts":                   "static-kip423/session-timeouts (the coordinator's static expiry) and static-kafka/restarts",
	"cooperative-join":                                "join/cooperative-kafka",
	"mutant-world/reset-generation-on-sync-rebalance": "join/cooperative-kafka",
	"mutant-world/stale-check-on-rejoin":              "kip848/lost-responses",
}

// suiteWorld is the mutation suite's world name, its text read from worlds/suite/<name>.conf.
func suiteWorld(name string) World {
	return World{Name: name, Text: worlds.MustText("suite/" + name)}
}

// standIns are small worlds for the paths of the skipped ones — a member joining a running
// group (v2 and v1 subscriptions), a KIP-848 response lost — and for paths no preset takes
// (found by coverage and survivors): a live member missing the join deadline, the roundrobin assignor, a KIP-848 member leaving, a partition added,
// a subscription changed under the range assignor, every valid target (assignor any).
var standIns = []World{
	suiteWorld("join/cooperative-kafka"),
	suiteWorld("join/cooperative-kafka-v1"),
	suiteWorld("kip848/lost-responses"),
	suiteWorld("eager/roundrobin-crashes"),
	suiteWorld("cooperative-kafka/join-timeouts"),
	suiteWorld("kip848/leaves"),
	suiteWorld("kip848/partition-additions"),
	suiteWorld("kip848/range-subscription-changes"),
	suiteWorld("kip848/any-crashes"),
	// Blind spots of the 2026-12-01 sample: classic `assignor any`; a second failover (the
	// loaded group's log read again); the group size limit; librdkafka's and franz-go's commit
	// handling (a commit refused after a session expiry); a KIP-848 commit answered after the
	// member's epoch moved on (retried); a KIP-423 member whose first JoinGroup answer is lost
	// (it rejoins with identity and RESTART in a Stable group: no rebalance); a KIP-848 member
	// that unsubscribes and subscribes again; a KIP-423 leader's metadata rejoin (its
	// TOPIC_METADATA_CHANGE reason).
	suiteWorld("eager/any"),
	suiteWorld("eager/two-failovers"),
	suiteWorld("kip848/two-failovers"),
	suiteWorld("eager/group-max-size"),
	suiteWorld("eager/group-max-size-join"),
	suiteWorld("kip848/group-max-size"),
	suiteWorld("kip848/group-max-size-join"),
	suiteWorld("eager/librdkafka-session-timeouts"),
	suiteWorld("eager/franz-go-session-timeouts"),
	suiteWorld("kip848/commit-join"),
	suiteWorld("kip848/commit-join-leave"),
	suiteWorld("kip848/unsubscribe-resubscribe"),
	// Blind spots of the 2026-12-02 full run: a classic member's subscription change (only
	// KIP-848 worlds changed one), with commits: the eager, KIP-429's and Kafka's cooperative
	// reactions, and Java's commit after an assignment that misses the new subscription.
	suiteWorld("eager/subscription-changes"),
	suiteWorld("cooperative-kip/subscription-changes"),
	suiteWorld("cooperative-kafka/subscription-changes"),
	suiteWorld("kip423/partition-additions"),
	suiteWorld("kip423/lost-responses"),
	// KIP-848 blind spots of the 2026-12-02 full run: a poll timeout (LEAVING, then STALE and
	// onPartitionsLost, a rejoin at the next poll), which no KIP-848 world budgeted.
	suiteWorld("kip848/poll-timeouts"),
	// A live member's rebalance timer as the only timer (a joins alone, then revokes for b):
	// kip848-fenced-reachable sees a timer that never fences or never removes its member.
	suiteWorld("kip848/rebalance-timeouts"),
	// A static member that unsubscribes (a temporary leave, -2) and subscribes again: its
	// rejoin replaces its own record (resolveStatic's replacement path).
	suiteWorld("kip848/static-unsubscribe-resubscribe"),
	// A member that switches topics while in the group (a known member's subscription change:
	// the unsubscribe worlds leave and rejoin instead).
	suiteWorld("kip848/subscription-changes"),
	// Every target (assignor any) where one topic has a single subscriber.
	suiteWorld("kip848/any-single-subscriber"),
	// One member whose epoch moves twice while both answers are lost: its retry is fenced with
	// FENCED_MEMBER_EPOCH (two epochs behind), the smallest world that answers it.
	suiteWorld("kip848/epoch-moves-unheard"),
	// A static member that closes (a temporary leave, -2) and starts again: a new incarnation
	// with a fresh member id replaces it, its target entry renamed.
	suiteWorld("kip848/static-leave-rejoin"),
	// A join whose rebalance meets a failover: the acknowledgement is answered NOT_COORDINATOR
	// and retried.
	suiteWorld("kip848/join-failovers"),
	// A join whose rebalance meets a lost answer, measured over two events (twoEvents): the join
	// or acknowledgement heartbeat lost and re-sent.
	suiteWorld("kip848/join-lost-responses"),
	// Blind spots of impl/consumer in the 2026-12-02 full run: a lone member's application
	// commits (every other commit world also auto-commits before rebalancing, which hid a
	// commit path that never sends, franz-go's included); a static member restarting after a
	// subscription change (Kafka answers the old assignment without rebalancing, and only
	// onJoinComplete's subscription check makes it rejoin); two processes sharing one
	// instance id, whose commits are fenced (FENCED_INSTANCE_ID); a classic poll timeout,
	// which no classic world budgeted (its LeaveGroup and reset, a SyncGroup answer after it);
	// a static member closing (KIP-345: no LeaveGroup).
	suiteWorld("eager/franz-go-commits"),
	suiteWorld("eager/poll-timeouts"),
	suiteWorld("static/subscription-restart"),
	suiteWorld("static/twin-commits"),
	suiteWorld("static/leaves"),
	// impl/coordinator and impl/leader blind spots of the 2026-12-02 full run: the sticky
	// balancer with two subscriptions (every sticky world had one: a partition placed or moved to
	// a non-subscriber went unseen), and a static member replaced in Stable that then crashes
	// (its session must still expire).
	suiteWorld("cooperative-kafka/two-subscriptions"),
	suiteWorld("eager/static-restart-crash"),
	// The roundrobin assignor with one subscription, where it promises balance
	// (converged-balanced); its other world has two subscriptions, where it promises none.
	suiteWorld("eager/roundrobin"),
	// Two members that share no assignor: the second is refused INCONSISTENT_GROUP_PROTOCOL
	// and stops (no world had members with different assignor lists).
	suiteWorld("eager/incompatible-assignors"),
	// A member joining one that owns four partitions: the balancer must move two (one move
	// per call would need a third cooperative round).
	suiteWorld("join/cooperative-kafka-four"),
	// A lone member's session expiring, then a failover: the group emptied by the join phase
	// must be logged Empty, or the new coordinator loads the expired member back (an orphan).
	suiteWorld("eager/session-timeout-failover"),
	// impl/coordinator blind spots of the triage (mutate/survivors/coordinator.md): members
	// whose assignor lists share every assignor in another order (the vote, and a member's
	// protocols normalised to its own list: 185, 187, 253); a leave that meets a failover (54);
	// a static restart, then a failover (the log must name the new incarnation: 250); a KIP-423
	// coordinator where a member changes its subscription (156, 158) and where a static
	// member restarts and the group then rebalances (its stored protocols: 159).
	suiteWorld("eager/two-assignor-lists"),
	suiteWorld("eager/leave-failover"),
	suiteWorld("static/restart-failover"),
	suiteWorld("kip423/subscription-changes"),
	suiteWorld("kip423/static-restart-join"),
}

// twoEvents are the suite worlds whose rounds measure takes up to two environment events (a
// first one in a converged group, another before it converges again; explore --events 2): a
// harm that shows only when a second event meets the reaction to the first — an answer lost or
// refused in the middle of a rebalance — is invisible to the one-event measure.
var twoEvents = map[string]bool{
	"kip848/join-lost-responses": true,
}

// Events is how many environment events the world's rounds measure takes (LiveBounds.Events).
func (w World) Events() int {
	if twoEvents[w.Name] {
		return 2
	}
	return 1
}

// splitBudget is the world once per kind of budgeted event, or itself when it budgets at most
// one kind.
func splitBudget(name, text string) []World {
	lines := strings.Split(text, "\n")
	at, fields := -1, []string(nil)
	for i, l := range lines {
		if f := strings.Fields(l); len(f) > 0 && f[0] == "budget" {
			at, fields = i, f[1:]
		}
	}
	if at < 0 || len(fields) < 2 {
		return []World{{Name: name, Text: text}}
	}
	var out []World
	for _, f := range fields {
		ls := append([]string(nil), lines...)
		ls[at] = "budget " + f
		kind, _, _ := strings.Cut(f, "=")
		out = append(out, World{Name: name + "/" + kind, Text: strings.Join(ls, "\n")})
	}
	return out
}
