package mutate

import (
	"strings"

	"github.com/groupcheck/groupcheck/invariants"
	"github.com/groupcheck/groupcheck/spec"
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

// standIns are small worlds for the paths of the skipped ones — a member joining a running
// group (v2 and v1 subscriptions), a KIP-848 response lost — and for paths no preset takes
// (found by coverage and survivors): a live member missing the join deadline, the roundrobin assignor, a KIP-848 member leaving, a partition added,
// a subscription changed under the range assignor, every valid target (assignor any).
var standIns = []World{
	{"join/cooperative-kafka", `protocol cooperative
consumer kafka
coordinator kafka
assignor cooperative-sticky
topic t 2
member a topics=t
member b topics=t absent
budget joins=1
commits on
`},
	{"join/cooperative-kafka-v1", `protocol cooperative
consumer kafka
coordinator kafka
assignor cooperative-sticky
topic t 2
member a topics=t version=1
member b topics=t absent version=1
budget joins=1
`},
	{"kip848/lost-responses", `protocol consumer
consumer kafka
coordinator kafka
assignor uniform
topic t 2
member a topics=t
member b topics=t
budget lost-responses=1
commits on
`},
	{"eager/roundrobin-crashes", `protocol eager
consumer kafka
coordinator kafka
assignor roundrobin
topic t 2
topic u 1
member a topics=t,u
member b topics=t
budget crashes=1
commits on
`},
	{"cooperative-kafka/join-timeouts", `protocol cooperative
consumer kafka
coordinator kafka
assignor cooperative-sticky
topic t 2
member a topics=t
member b topics=t
budget join-timeouts=1
`},
	{"kip848/leaves", kip848Two + "budget leaves=1\ncommits on\n"},
	{"kip848/partition-additions", kip848Two + "budget partition-additions=1\n"},
	{"kip848/range-subscription-changes", `protocol consumer
consumer kafka
coordinator kafka
assignor range
topic t 2
topic u 1
member a topics=t,u
member b topics=t
budget subscription-changes=1
`},
	{"kip848/any-crashes", strings.Replace(kip848Two, "uniform", "any", 1) + "budget crashes=1\n"},
	// Blind spots of the 2026-12-01 sample: classic `assignor any`; a second failover (the
	// loaded group's log read again); the group size limit; librdkafka's and franz-go's commit
	// handling (a commit refused after a session expiry); a KIP-848 commit answered after the
	// member's epoch moved on (retried); a KIP-423 member whose first JoinGroup answer is lost
	// (it rejoins with identity and RESTART in a Stable group: no rebalance); a KIP-848 member
	// that unsubscribes and subscribes again; a KIP-423 leader's metadata rejoin (its
	// TOPIC_METADATA_CHANGE reason).
	{"eager/any", eagerTwo + "topic t 2\n"},
	{"eager/two-failovers", eagerOne + "budget failovers=2\ncommits on\n"},
	{"kip848/two-failovers", strings.Replace(strings.Replace(eagerOne, "eager", "consumer", 1), "range", "uniform", 1) + "budget failovers=2\ncommits on\n"},
	{"eager/group-max-size", eagerTwo + "topic t 1\ngroup-max-size 1\n"},
	{"eager/group-max-size-join", strings.Replace(eagerTwo, "topics=t\n", "topics=t absent\n", 1) + "topic t 1\nbudget joins=1\ngroup-max-size 1\n"},
	{"kip848/group-max-size", strings.Replace(kip848Two, "topic t 2", "topic t 1", 1) + "group-max-size 1\n"},
	{"kip848/group-max-size-join", strings.Replace(kip848TwoAbsent, "topic t 2", "topic t 1", 1) + "budget joins=1\ngroup-max-size 1\n"},
	{"eager/librdkafka-session-timeouts", strings.Replace(eagerTwo, "any", "range", 1) + "topic t 1\nbudget session-timeouts=1\ncommits librdkafka\n"},
	{"eager/franz-go-session-timeouts", strings.Replace(eagerTwo, "any", "range", 1) + "topic t 1\nbudget session-timeouts=1\ncommits franz-go\n"},
	{"kip848/commit-join", kip848TwoAbsent + "budget joins=1\ncommits on\n"},
	{"kip848/commit-join-leave", kip848TwoAbsent + "budget joins=1 leaves=1\ncommits on\n"},
	{"kip848/unsubscribe-resubscribe", strings.Replace(kip848Two, "member a topics=t\n", "member a topics=t alt-topics=-\n", 1) + "budget subscription-changes=2\n"},
	// Blind spots of the 2026-12-02 full run: a classic member's subscription change (only
	// KIP-848 worlds changed one), with commits: the eager, KIP-429's and Kafka's cooperative
	// reactions, and Java's commit after an assignment that misses the new subscription.
	{"eager/subscription-changes", classicResubscribe("eager", "kafka", "range")},
	{"cooperative-kip/subscription-changes", classicResubscribe("cooperative", "kip", "cooperative-sticky")},
	{"cooperative-kafka/subscription-changes", classicResubscribe("cooperative", "kafka", "cooperative-sticky")},
	{"kip423/partition-additions", `protocol cooperative
consumer kip
coordinator kip423
assignor cooperative-sticky
topic t 1
member a topics=t
member b topics=t
budget partition-additions=1
`},
	{"kip423/lost-responses", `protocol cooperative
consumer kip
coordinator kip423
assignor cooperative-sticky
topic t 2
member a topics=t
member b topics=t
budget lost-responses=1
`},
	// KIP-848 blind spots of the 2026-12-02 full run: a poll timeout (LEAVING, then STALE and
	// onPartitionsLost, a rejoin at the next poll), which no KIP-848 world budgeted.
	{"kip848/poll-timeouts", kip848Two + "budget poll-timeouts=1\n"},
	// A live member's rebalance timer as the only timer (a joins alone, then revokes for b):
	// kip848-fenced-reachable sees a timer that never fences or never removes its member.
	{"kip848/rebalance-timeouts", kip848Two + "budget rebalance-timeouts=1\n"},
	// A static member that unsubscribes (a temporary leave, -2) and subscribes again: its
	// rejoin replaces its own record (resolveStatic's replacement path).
	{"kip848/static-unsubscribe-resubscribe", strings.Replace(strings.Replace(kip848Two, "member a topics=t\n", "member a topics=t static alt-topics=-\n", 1), "member b topics=t\n", "member b topics=t static\n", 1) + "budget subscription-changes=2\n"},
	// A member that switches topics while in the group (a known member's subscription change:
	// the unsubscribe worlds leave and rejoin instead).
	{"kip848/subscription-changes", strings.Replace(kip848Two, "member a topics=t\n", "topic u 1\nmember a topics=t alt-topics=u\n", 1) + "budget subscription-changes=1\n"},
	// Every target (assignor any) where one topic has a single subscriber.
	{"kip848/any-single-subscriber", strings.Replace(strings.Replace(kip848Two, "uniform", "any", 1), "topic t 2\nmember a topics=t\n", "topic t 1\ntopic u 1\nmember a topics=t,u\n", 1)},
	// One member whose epoch moves twice while both answers are lost: its retry is fenced with
	// FENCED_MEMBER_EPOCH (two epochs behind), the smallest world that answers it.
	{"kip848/epoch-moves-unheard", "protocol consumer\nconsumer kafka\ncoordinator kafka\nassignor uniform\ntopic t 1\nmember a topics=t\nbudget partition-additions=2 lost-responses=2\n"},
	// A static member that closes (a temporary leave, -2) and starts again: a new incarnation
	// with a fresh member id replaces it, its target entry renamed.
	{"kip848/static-leave-rejoin", strings.Replace(strings.Replace(kip848Two, "member a topics=t\n", "member a topics=t static\n", 1), "member b topics=t\n", "member b topics=t static\n", 1) + "budget leaves=1 joins=1\n"},
	// A join whose rebalance meets a failover: the acknowledgement is answered NOT_COORDINATOR
	// and retried.
	{"kip848/join-failovers", kip848TwoAbsent + "budget joins=1 failovers=1\n"},
	// A join whose rebalance meets a lost answer, measured over two events (twoEvents): the join
	// or acknowledgement heartbeat lost and re-sent.
	{"kip848/join-lost-responses", kip848TwoAbsent + "budget joins=1 lost-responses=1\n"},
	// Blind spots of impl/consumer in the 2026-12-02 full run: a lone member's application
	// commits (every other commit world also auto-commits before rebalancing, which hid a
	// commit path that never sends, franz-go's included); a static member restarting after a
	// subscription change (Kafka answers the old assignment without rebalancing, and only
	// onJoinComplete's subscription check makes it rejoin); two processes sharing one
	// instance id, whose commits are fenced (FENCED_INSTANCE_ID); a classic poll timeout,
	// which no classic world budgeted (its LeaveGroup and reset, a SyncGroup answer after it);
	// a static member closing (KIP-345: no LeaveGroup).
	{"eager/franz-go-commits", eagerOne + "commits franz-go\n"},
	{"eager/poll-timeouts", eagerOne + "budget poll-timeouts=1\ncommits on\n"},
	{"static/subscription-restart", `protocol eager
consumer kafka
coordinator kafka
assignor range
topic t 1
topic u 1
member a topics=t alt-topics=u static
budget subscription-changes=1 restarts=1
`},
	{"static/twin-commits", staticTwins + "budget joins=1\ncommits on\n"},
	{"static/leaves", `protocol eager
consumer kafka
coordinator kafka
assignor range
topic t 1
member a topics=t static
member b topics=t static
budget leaves=1
`},
	// impl/coordinator and impl/leader blind spots of the 2026-12-02 full run: the sticky
	// balancer with two subscriptions (every sticky world had one: a partition placed or moved to
	// a non-subscriber went unseen), and a static member replaced in Stable that then crashes
	// (its session must still expire).
	{"cooperative-kafka/two-subscriptions", `protocol cooperative
consumer kafka
coordinator kafka
assignor cooperative-sticky
topic t 2
topic u 1
member a topics=t
member b topics=t,u
budget crashes=1
`},
	{"eager/static-restart-crash", `protocol eager
consumer kafka
coordinator kafka
assignor range
topic t 1
member a topics=t static
member b topics=t join-version=3
budget restarts=1 crashes=1
`},
	// The roundrobin assignor with one subscription, where it promises balance
	// (converged-balanced); its other world has two subscriptions, where it promises none.
	{"eager/roundrobin", `protocol eager
consumer kafka
coordinator kafka
assignor roundrobin
topic t 2
member a topics=t
member b topics=t
`},
	// Two members that share no assignor: the second is refused INCONSISTENT_GROUP_PROTOCOL
	// and stops (no world had members with different assignor lists).
	{"eager/incompatible-assignors", `protocol eager
consumer kafka
coordinator kafka
assignor range
topic t 1
member a topics=t assignors=range
member b topics=t assignors=roundrobin
`},
	// A member joining one that owns four partitions: the balancer must move two (one move
	// per call would need a third cooperative round).
	{"join/cooperative-kafka-four", `protocol cooperative
consumer kafka
coordinator kafka
assignor cooperative-sticky
topic t 4
member a topics=t
member b topics=t absent
budget joins=1
`},
	// A lone member's session expiring, then a failover: the group emptied by the join phase
	// must be logged Empty, or the new coordinator loads the expired member back (an orphan).
	{"eager/session-timeout-failover", eagerOne + "budget session-timeouts=1 failovers=1\n"},
	// impl/coordinator blind spots of the triage (mutate/survivors/coordinator.md): members
	// whose assignor lists share every assignor in another order (the vote, and a member's
	// protocols normalised to its own list: 185, 187, 253); a leave that meets a failover (54);
	// a static restart, then a failover (the log must name the new incarnation: 250); a KIP-423
	// coordinator where a member changes its subscription (156, 158) and where a static
	// member restarts and the group then rebalances (its stored protocols: 159).
	{"eager/two-assignor-lists", `protocol eager
consumer kafka
coordinator kafka
assignor range
topic t 2
member a topics=t assignors=range,roundrobin
member b topics=t assignors=roundrobin,range
budget crashes=1
`},
	{"eager/leave-failover", eagerOne + "budget leaves=1 failovers=1\n"},
	{"static/restart-failover", `protocol eager
consumer kafka
coordinator kafka
assignor range
topic t 1
member a topics=t static
budget restarts=1 failovers=1
`},
	{"kip423/subscription-changes", strings.Replace(classicResubscribe("cooperative", "kip", "cooperative-sticky"), "coordinator kafka", "coordinator kip423", 1)},
	{"kip423/static-restart-join", `protocol cooperative
consumer kip
coordinator kip423
assignor cooperative-sticky
topic t 2
member a topics=t static
member b topics=t absent
budget restarts=1 joins=1
`},
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

// eagerTwo is two eager members of topic t under assignor any (its topic line follows).
const eagerTwo = `protocol eager
consumer kafka
coordinator kafka
assignor any
member a topics=t
member b topics=t
`

// staticTwins are two processes of one static instance (b takes a's group.instance.id) on an
// eager range topic of one partition; b starts later (its budget line follows).
const staticTwins = `protocol eager
consumer kafka
coordinator kafka
assignor range
topic t 1
member a topics=t static
member b topics=t static instance=a absent
`

// eagerOne is one eager range member of a one-partition topic.
const eagerOne = `protocol eager
consumer kafka
coordinator kafka
assignor range
topic t 1
member a topics=t
`

const kip848TwoAbsent = `protocol consumer
consumer kafka
coordinator kafka
assignor uniform
topic t 2
member a topics=t
member b topics=t absent
`

const kip848Two = `protocol consumer
consumer kafka
coordinator kafka
assignor uniform
topic t 2
member a topics=t
member b topics=t
`

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

// classicResubscribe is two classic members of topic t with commits, where a may switch to
// topic u once (invariants.TestSubscriptionChangeCommits pins its verdicts).
func classicResubscribe(protocol, consumer, assignor string) string {
	return "protocol " + protocol + "\nconsumer " + consumer + "\ncoordinator kafka\nassignor " + assignor + `
topic t 2
topic u 1
member a topics=t alt-topics=u
member b topics=t
budget subscription-changes=1
commits on
`
}
