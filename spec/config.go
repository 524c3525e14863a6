package spec

import (
	"fmt"
	"slices"
	"strings"

	"github.com/groupcheck/groupcheck/impl"
	"github.com/groupcheck/groupcheck/impl/consumer"
	"github.com/groupcheck/groupcheck/impl/kip848"
)

// commitEpochsClassic is why commit-epochs is refused outside protocol consumer.
const commitEpochsClassic = "a rule of the KIP-848 coordinator (protocol consumer); a classic commit carries the generation"

// Config is one closed world: the group's members, the cluster, the protocol variants, and the
// budgets that bound the environment. A Config is validated strictly by Validate: a bad field is
// an error naming it, never a silent default.
type Config struct {
	Name string // a preset's name, or the file it came from

	Protocol impl.RebalanceProtocol // the protocol the members' default assignor lists imply
	// ConsumerProtocol is `protocol consumer`: KIP-848's ConsumerGroupHeartbeat protocol, with
	// the impl/kip848 coordinator and impl/kip848client members. Protocol is then unused
	// (Eager), Consumer selects the kip848 variant (Kafka as shipped, KIP = docs/protocol.md §8), and
	// Coordinator must be Kafka: there is one KIP-848 coordinator.
	ConsumerProtocol bool
	Consumer         impl.Variant         // consumer and leader: Kafka or KIP (docs/protocol.md §7); KIP-848: the kip848 variant
	Coordinator      impl.Variant         // coordinator: Kafka or KIP (KIP-423, docs/protocol.md §4)
	Assignor         string               // range, roundrobin, sticky, cooperative-sticky, any; KIP-848: uniform, range, any
	Topics           []impl.TopicMetadata // sorted by name
	Members          []MemberConfig       // in slot order; names distinct
	Budget           Budget               // environment events, each bounded
	Faults           impl.Faults          // mutants switched on
	Commits          bool                 // members send OffsetCommits (for commit fencing)
	// CommitPolicy is the client whose commit handling classic members follow when Commits
	// is on: Java's (the zero value: only while STABLE), librdkafka's or franz-go's, which
	// commit in other join states with the generation they hold (`commits librdkafka`).
	CommitPolicy consumer.CommitPolicy
	// ClientMemberIDs is `member-ids client` (protocol consumer only): KIP-1082, each
	// KIP-848 client generates its member id at start (slot name # incarnation) and sends it
	// with its first heartbeat, instead of learning it from the coordinator's first answer.
	ClientMemberIDs bool
	// CommitRule is `commit-epochs` (protocol consumer only): the KIP-848 coordinator's rule
	// for a commit's member epoch. The default, `commit-epochs kip-1251` (Kafka 4.3 on), also
	// accepts an epoch older than the member's for partitions it was assigned at or before
	// that epoch; `commit-epochs exact` is Kafka 4.0 to 4.2: only the member's epoch.
	CommitRule kip848.CommitRule
	// MaxSize is `group-max-size`: the coordinator's group.max.size (classic) or
	// group.consumer.max.size (KIP-848); 0 is unlimited.
	MaxSize int
	// MigrationPolicy is `migration-policy` (mixed worlds only): group.consumer.migration.policy,
	// which online conversions between the classic and the consumer group the coordinator
	// performs (the zero value is Kafka's default, bidirectional).
	MigrationPolicy kip848.MigrationPolicy
	// OnFatal is `on-fatal` (classic only): what the application does when a classic member's
	// poll throws a fatal error — stop (the zero value) or catch it and poll again.
	OnFatal consumer.FatalReaction
	// Timers is the `timers` directive: the durations of what steps wait for (Durations),
	// nil for Kafka's defaults. They are a cost the liveness graph sums along paths, never
	// part of a world's state.
	Timers *Timers
	// mixed is Mixed, set once by Init on the world's copy: the step and the encoders ask it
	// for every candidate action, and Mixed scans the members.
	mixed bool
	_     struct{}
}

// MemberConfig is one member slot. A slot runs one consumer process at a time; crashes and
// restarts give it new incarnations.
type MemberConfig struct {
	Name      string
	Static    bool     // has a group.instance.id (KIP-345): the slot's name
	Topics    []string // subscription, sorted
	AltTopics []string // the subscription a subscription-change switches to (and back)
	// Unsubscribes is `alt-topics=-` (protocol consumer only): the subscription change is an
	// unsubscribe — Java's subscribe(empty), which is unsubscribe() (KafkaConsumer and
	// AsyncKafkaConsumer subscribeInternal) — and the next one subscribes to Topics again.
	Unsubscribes        bool
	Assignors           []string                // preference order; empty = derived from Config.Protocol and Assignor
	Protocol            *impl.RebalanceProtocol // KIP-429's rebalance.protocol (consumer kip only); nil = from assignors
	SubscriptionVersion int8                    // 0, 1 or 2: what this member writes, and reads as leader
	JoinVersion         int16                   // JoinGroup version: ≥ 4 is the two-step join (KIP-394)
	Absent              bool                    // not running at the start; joins later within the join budget
	// StartsConsumer is `group-protocol=consumer` (mixed worlds): the member's first
	// incarnation runs group.protocol=consumer (an impl/kip848client member) where the world's
	// other members run the classic protocol; a bounce switches a member's protocol.
	StartsConsumer bool
	// Instance is the group.instance.id of a static member when it is not the member's own
	// name: two slots with one instance id are two processes configured alike (a copy
	// deployed twice, or a restarted process whose old incarnation still runs). KIP-345's
	// fencing (FENCED_INSTANCE_ID) is what keeps them apart.
	Instance string
	_        struct{}
}

// InstanceID is a static member's group.instance.id: its Instance, else its name.
func (m MemberConfig) InstanceID() impl.InstanceID {
	if m.Instance != "" {
		return impl.InstanceID(m.Instance)
	}
	return impl.InstanceID(m.Name)
}

// Assignor names the config accepts. "any" is every valid assignment, to check safety for all
// assignors at once.
var assignorNames = []string{"range", "roundrobin", "sticky", "cooperative-sticky", "any"}

// serverAssignorNames are the KIP-848 server assignors (group.consumer.assignors) and "any":
// every valid target assignment (docs/protocol.md §3.3 step 5).
var serverAssignorNames = []string{"uniform", "range", "any"}

// Validate checks the config and names the first bad field. Each error opens with what it is
// about, "DIRECTIVE[ NAME]: …" in the config-file format's words, by which ParseConfig names
// that directive's line.
func (c Config) Validate() error {
	if c.ConsumerProtocol {
		if err := c.validateConsumerProtocol(); err != nil {
			return err
		}
	} else if err := c.validateMixed(); err != nil {
		return err
	} else if !slices.Contains(assignorNames, c.Assignor) {
		if c.Assignor == "uniform" {
			return fmt.Errorf("assignor: %q is a KIP-848 server assignor (protocol consumer only)", c.Assignor)
		}
		return fmt.Errorf("assignor: %q is not one of %v", c.Assignor, assignorNames)
	}
	if c.Consumer == impl.Kafka && c.Protocol == impl.Cooperative && c.Assignor != "cooperative-sticky" && c.Assignor != "any" {
		return fmt.Errorf("assignor: %q does not support the cooperative protocol (use cooperative-sticky or any)", c.Assignor)
	}
	if c.Protocol == impl.Eager && c.Assignor == "cooperative-sticky" {
		for _, m := range c.Members {
			if len(m.Assignors) == 0 {
				return fmt.Errorf("member %s: assignors: cooperative-sticky alone makes a member cooperative (docs/protocol.md §2.1); under protocol eager list them, e.g. assignors=cooperative-sticky,range", m.Name)
			}
		}
	}
	if c.CommitPolicy != consumer.CommitJava && (c.ConsumerProtocol || !c.Commits) {
		return fmt.Errorf("commits %s: a classic client's commit handling (protocol consumer members commit with their epoch)", c.CommitPolicy)
	}
	if c.OnFatal != consumer.FatalStops && c.ConsumerProtocol {
		return fmt.Errorf("on-fatal %s: the reaction of a classic client (a KIP-848 member's FATAL state is not modelled as recoverable)", c.OnFatal)
	}
	if c.CommitRule != kip848.CommitAssignmentEpochs && !c.ConsumerProtocol {
		return fmt.Errorf("commit-epochs %s: %s", c.CommitRule, commitEpochsClassic)
	}
	if c.ClientMemberIDs && !c.ConsumerProtocol {
		return fmt.Errorf("member-ids client: KIP-1082 is for protocol consumer (a classic member gets its id from MEMBER_ID_REQUIRED)")
	}
	if err := c.Budget.validateProtocol(c.protocols()); err != nil {
		return err
	}
	if err := c.Durations().validate(); err != nil {
		return err
	}
	if len(c.Topics) == 0 {
		return fmt.Errorf("topics: at least one topic is needed")
	}
	for i, t := range c.Topics {
		if t.Name == "" {
			return fmt.Errorf("topics[%d]: empty name", i)
		}
		if t.Partitions < 1 || t.Partitions > 16 {
			return fmt.Errorf("topic %s: partitions %d outside 1..16", t.Name, t.Partitions)
		}
		if i > 0 && c.Topics[i-1].Name >= t.Name {
			return fmt.Errorf("topic %s: topics must be distinct and sorted by name", t.Name)
		}
	}
	if len(c.Members) == 0 || len(c.Members) > 8 {
		return fmt.Errorf("members: %d members; a world has 1..8", len(c.Members))
	}
	for i, m := range c.Members {
		if err := c.validateMember(i, m); err != nil {
			return err
		}
	}
	return c.Budget.validate()
}

func (c Config) validateMember(i int, m MemberConfig) error {
	if !validName(m.Name) {
		return fmt.Errorf("member %d: name %q must be lower-case letters or digits, starting with a letter", i, m.Name)
	}
	for _, o := range c.Members[:i] {
		if o.Name == m.Name {
			return fmt.Errorf("member %s: name used twice", m.Name)
		}
	}
	if len(m.Topics) == 0 {
		return fmt.Errorf("member %s: topics: a member subscribes to at least one topic", m.Name)
	}
	for _, ts := range [][]string{m.Topics, m.AltTopics} {
		for _, t := range ts {
			if !slices.ContainsFunc(c.Topics, func(tm impl.TopicMetadata) bool { return tm.Name == t }) {
				return fmt.Errorf("member %s: topic %q is not a configured topic", m.Name, t)
			}
		}
	}
	if m.Instance != "" && (!m.Static || !validName(m.Instance)) {
		return fmt.Errorf("member %s: instance=%s: a group.instance.id needs static and a name of lower-case letters or digits", m.Name, m.Instance)
	}
	if m.StartsConsumer && c.ConsumerProtocol {
		return fmt.Errorf("member %s: group-protocol=consumer: every member of a protocol consumer world runs it; a mixed world is written under protocol eager or cooperative (the classic members' rebalance protocol)", m.Name)
	}
	if m.Unsubscribes && (!c.ConsumerProtocol || len(m.AltTopics) > 0) {
		return fmt.Errorf("member %s: alt-topics=-: an unsubscribe as the subscription change is modelled for protocol consumer only, and alone", m.Name)
	}
	if c.ConsumerProtocol {
		switch {
		case len(m.Assignors) > 0:
			return fmt.Errorf("member %s: assignors: classic-protocol only (protocol consumer assigns on the server: use the assignor directive)", m.Name)
		case m.Protocol != nil:
			return fmt.Errorf("member %s: protocol: classic-protocol only (KIP-429's rebalance.protocol)", m.Name)
		}
		return nil
	}
	if m.SubscriptionVersion < 0 || m.SubscriptionVersion > impl.MaxSubscriptionVersion {
		return fmt.Errorf("member %s: subscription version %d outside 0..%d", m.Name, m.SubscriptionVersion, impl.MaxSubscriptionVersion)
	}
	if m.JoinVersion < 0 || m.JoinVersion > 9 {
		return fmt.Errorf("member %s: join version %d outside 0..9", m.Name, m.JoinVersion)
	}
	if m.Static && m.JoinVersion < 5 {
		return fmt.Errorf("member %s: static membership needs join version ≥ 5 (KIP-345), got %d", m.Name, m.JoinVersion)
	}
	if m.Protocol != nil && c.Consumer != impl.KIP {
		return fmt.Errorf("member %s: protocol: a per-member rebalance.protocol is KIP-429's config (consumer kip); Kafka derives it from the assignors (docs/protocol.md §2.1)", m.Name)
	}
	for _, a := range m.Assignors {
		if !slices.Contains(assignorNames[:4], a) {
			return fmt.Errorf("member %s: assignor %q is not one of %v", m.Name, a, assignorNames[:4])
		}
	}
	return nil
}

func (b Budget) validate() error {
	for _, f := range b.fields() {
		if *f.v < 0 || *f.v > 8 {
			return fmt.Errorf("budget %s: %d outside 0..8", f.name, *f.v)
		}
	}
	return nil
}

type budgetField struct {
	name string
	v    *int
}

// fields lists the budgets by their config-file names, in a fixed order: Budget's fields in
// declaration order, each named by its row of the kinds table (kinds.go).
func (b *Budget) fields() []budgetField {
	out := make([]budgetField, len(budgetFields))
	for i, f := range budgetFields {
		out[i] = budgetField{f.name, f.get(b)}
	}
	return out
}

func validName(s string) bool {
	if s == "" || len(s) > 12 || s[0] < 'a' || s[0] > 'z' {
		return false
	}
	for _, r := range s {
		if !(r >= 'a' && r <= 'z' || r >= '0' && r <= '9') {
			return false
		}
	}
	return true
}

// MemberAssignors is the slot's assignor list: its own, or the one the config's protocol and
// assignor imply (cooperative: cooperative-sticky; eager: the assignor, or range for "any").
func (c Config) MemberAssignors(i int) []string {
	if a := c.Members[i].Assignors; len(a) > 0 {
		return a
	}
	switch {
	case c.Protocol == impl.Cooperative:
		return []string{"cooperative-sticky"}
	case c.Assignor == "any":
		return []string{"range"}
	default:
		return []string{c.Assignor}
	}
}

// MemberProtocol is the slot's rebalance protocol. Under consumer kafka it is the highest
// protocol every one of the member's assignors supports (docs/protocol.md §2.1: only cooperative-sticky
// supports cooperative); under consumer kip it is KIP-429's rebalance.protocol setting: the
// member's own, else the config's.
func (c Config) MemberProtocol(i int) impl.RebalanceProtocol {
	if c.Consumer == impl.KIP {
		if p := c.Members[i].Protocol; p != nil {
			return *p
		}
		return c.Protocol
	}
	for _, a := range c.MemberAssignors(i) {
		if a != "cooperative-sticky" {
			return impl.Eager
		}
	}
	return impl.Cooperative
}

// String lists the non-zero budgets as the config file spells them ("crashes=1 joins=2"), or
// "" when every budget is zero.
func (b Budget) String() string {
	var parts []string
	for _, f := range b.fields() {
		if *f.v != 0 {
			parts = append(parts, fmt.Sprintf("%s=%d", f.name, *f.v))
		}
	}
	return strings.Join(parts, " ")
}

// validateConsumerProtocol checks the fields protocol consumer (KIP-848) gives a meaning of its
// own: one coordinator and the server assignors (the budgets it lacks are the kinds table's,
// Budget.validateProtocol).
func (c Config) validateConsumerProtocol() error {
	switch {
	case c.Coordinator != impl.Kafka:
		return fmt.Errorf("coordinator: protocol consumer has one coordinator (impl/kip848); write coordinator kafka (the variant is the consumer directive)")
	case !slices.Contains(serverAssignorNames, c.Assignor):
		return fmt.Errorf("assignor: %q is not one of %v (the KIP-848 server assignors)", c.Assignor, serverAssignorNames)
	}
	return nil
}

// Mixed reports whether the config is a mixed world (mixed.go): a classic world
// (protocol eager or cooperative) in which some member starts on group.protocol=consumer or
// members bounce to the other protocol, under one coordinator that converts the group online
// (impl/migration).
func (c Config) Mixed() bool {
	if c.ConsumerProtocol {
		return false
	}
	return c.Budget.Bounces > 0 || slices.ContainsFunc(c.Members, func(m MemberConfig) bool { return m.StartsConsumer })
}

// validateMixed checks what a mixed world does not model: the environment events and
// assignors of one protocol that the seam between the two does not give a meaning yet.
func (c Config) validateMixed() error {
	if !c.Mixed() {
		if c.MigrationPolicy != kip848.MigrationBidirectional {
			return fmt.Errorf("migration-policy %s: a policy of mixed worlds only (a member with group-protocol=consumer, or budget bounces)", c.MigrationPolicy)
		}
		return nil
	}
	switch {
	case c.Assignor == "any":
		return fmt.Errorf("assignor: any is not modelled in a mixed world (the consumer group's server assignor is uniform)")
	case c.Budget.Failovers != 0:
		return fmt.Errorf("budget failovers: a coordinator failover is not modelled in a mixed world")
	case c.Budget.Hangs != 0:
		return fmt.Errorf("budget hangs: not modelled in a mixed world")
	case c.Budget.Followups != 0:
		return fmt.Errorf("budget followups: not modelled in a mixed world")
	case c.Budget.Cuts != 0:
		return fmt.Errorf("budget cuts: not modelled in a mixed world")
	case c.ClientMemberIDs:
		return fmt.Errorf("member-ids client: not modelled in a mixed world")
	}
	for _, m := range c.Members {
		if m.Unsubscribes {
			return fmt.Errorf("member %s: alt-topics=-: not modelled in a mixed world", m.Name)
		}
	}
	return nil
}
