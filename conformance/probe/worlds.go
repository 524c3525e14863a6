package main

import (
	"fmt"
	"slices"
	"strings"

	"github.com/groupcheck/groupcheck/impl/kip848"
	"github.com/groupcheck/groupcheck/spec"
)

// world is one small reference world the probe draws schedules from, in the groupcheck
// config format. Probe worlds change no cluster metadata and fail no coordinator over: the
// probe drives the broker's group coordinator only, through its group requests.
type world struct {
	name, summary, text string
}

// worlds are the probe's worlds, small enough to explore exhaustively in seconds. Each
// member's JoinGroup is version 9 and its subscription version 2 (the defaults); KIP-848
// members let the coordinator name them (ConsumerGroupHeartbeat v0).
var worlds = []world{
	{"eager-one", "one eager range member: join, commit, leave, crash, restart as a new member", `
protocol eager
consumer kafka
coordinator kafka
assignor range
topic t 2
member a topics=t
budget leaves=1 crashes=1 joins=1 lost-responses=1
commits on
`},
	{"eager-two", "two eager range members, one late; a leave and a crash", `
protocol eager
consumer kafka
coordinator kafka
assignor range
topic t 2
member a topics=t
member b topics=t absent
budget joins=1 leaves=1 crashes=1
commits on
`},
	{"cooperative-two", "two cooperative-sticky members, one late; a leave", `
protocol cooperative
consumer kafka
coordinator kafka
assignor cooperative-sticky
topic t 2
member a topics=t
member b topics=t absent
budget joins=1 leaves=1
commits on
`},
	{"static-two", "two static members; a restart (same instance id, new member id) and a leave", `
protocol eager
consumer kafka
coordinator kafka
assignor range
topic t 2
member a topics=t static
member b topics=t static
budget restarts=1 leaves=1
commits on
`},
	{"static-twins", "one instance id run by two processes: KIP-345 fencing", `
protocol eager
consumer kafka
coordinator kafka
assignor range
topic t 1
member a topics=t static instance=x
member b topics=t static instance=x absent
budget joins=1
`},
	{"timers-one", "one eager member: its session expires, a pending member id expires", `
protocol eager
consumer kafka
coordinator kafka
assignor range
topic t 1
member a topics=t
budget session-timeouts=1 lost-responses=1
`},
	{"timers-two", "two eager members: the join and sync phases time out on a live member", `
protocol eager
consumer kafka
coordinator kafka
assignor range
topic t 2
member a topics=t
member b topics=t
budget join-timeouts=1 sync-timeouts=1
`},
	{"kip848-one", "one KIP-848 member: join, commit, leave, crash, rejoin", `
protocol consumer
consumer kafka
coordinator kafka
assignor uniform
topic t 2
member a topics=t
budget leaves=1 crashes=1 joins=1 lost-responses=1
commits on
`},
	{"kip848-two", "two KIP-848 members, one late: revocation and reconciliation; a leave", `
protocol consumer
consumer kafka
coordinator kafka
assignor uniform
topic t 2
member a topics=t
member b topics=t absent
budget joins=1 leaves=1
commits on
`},
	{"kip848-static", "two static KIP-848 members: temporary leave (-2) and rejoin", `
protocol consumer
consumer kafka
coordinator kafka
assignor uniform
topic t 2
member a topics=t static
member b topics=t static
budget restarts=1 leaves=1
`},
	{"kip848-timers", "two KIP-848 members: a session expiry and a rebalance timeout", `
protocol consumer
consumer kafka
coordinator kafka
assignor uniform
topic t 2
member a topics=t
member b topics=t absent
budget joins=1 session-timeouts=1 rebalance-timeouts=1
`},
}

// shortWorlds are the worlds of the CI short form (go test -short).
var shortWorlds = []string{"eager-one", "eager-two", "static-twins", "timers-one", "kip848-one", "kip848-two"}

// The reference coordinator's commit rules (spec's commit-epochs, kip848.CommitRule): exact,
// Kafka 4.0 to 4.2; KIP-1251's, Kafka 4.3 on and kfake (spec's default).
var (
	ruleExact   = kip848.CommitExactEpoch.String()
	ruleKIP1251 = kip848.CommitAssignmentEpochs.String()
)

// commitRuleFor is the commit rule of a Kafka version ("4.4.0"): KIP-1251's from 4.3 on.
// "" is kfake, which implements KIP-1251 (franz-go pkg/kfake groups.go keeps each
// partition's assignment epoch and accepts an OffsetCommit whose epoch is at or after it).
// The probe never takes spec's default: it names the rule of the broker it probes.
func commitRuleFor(version string) (string, error) {
	if version == "" {
		return ruleKIP1251, nil
	}
	var major, minor int
	if _, err := fmt.Sscanf(version, "%d.%d", &major, &minor); err != nil {
		return "", fmt.Errorf("-kafka-version %q: not a Kafka version such as 4.4.0", version)
	}
	if major > 4 || major == 4 && minor >= 3 {
		return ruleKIP1251, nil
	}
	return ruleExact, nil
}

// lookupWorldRule is lookupWorld under a commit rule (ruleExact or ruleKIP1251; "" is
// ruleExact); a classic world has none.
func lookupWorldRule(name, rule string) (world, spec.Config, error) {
	w, cfg, err := lookupWorld(name)
	if err != nil {
		return w, cfg, err
	}
	if rule == "" {
		rule = ruleExact
	}
	r, ok := kip848.ParseCommitRule(rule)
	if !ok {
		return w, cfg, fmt.Errorf("commit-epochs %q: not %s or %s", rule, ruleExact, ruleKIP1251)
	}
	if cfg.ConsumerProtocol {
		cfg.CommitRule = r
	}
	return w, cfg, nil
}

func lookupWorld(name string) (world, spec.Config, error) {
	i := slices.IndexFunc(worlds, func(w world) bool { return w.name == name })
	if i < 0 {
		names := make([]string, len(worlds))
		for j, w := range worlds {
			names[j] = w.name
		}
		return world{}, spec.Config{}, fmt.Errorf("unknown world %q (worlds: %s)", name, strings.Join(names, ", "))
	}
	cfg, err := spec.ParseConfigString(name, "name "+name+"\n"+worlds[i].text)
	if err != nil {
		return world{}, spec.Config{}, fmt.Errorf("world %s: %w", name, err)
	}
	return worlds[i], cfg, nil
}
