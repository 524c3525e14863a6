package spec

import (
	"bufio"
	"fmt"
	"github.com/groupcheck/groupcheck/internal/spell"
	"io"
	"slices"
	"strconv"
	"strings"

	"github.com/groupcheck/groupcheck/impl"
	"github.com/groupcheck/groupcheck/impl/consumer"
	"github.com/groupcheck/groupcheck/impl/kip848"
)

// ParseConfig reads a world from the groupcheck config format, one directive a line:
//
//	# a comment; blank lines are ignored
//	name        NAME                          optional; defaults to the file's name
//	protocol    eager | cooperative | consumer  required; consumer is KIP-848
//	consumer    kafka | kip                   required: consumer and leader variant; under
//	                                          protocol consumer the kip848 variant (kip = docs/protocol.md §8)
//	coordinator kafka | kip423                required: coordinator variant; kafka under protocol
//	                                          consumer (its one coordinator; kip423 is an error)
//	assignor    range | roundrobin | sticky | cooperative-sticky | any    required
//	            uniform | range | any         under protocol consumer (server assignors)
//	topic       NAME PARTITIONS               at least one
//	member      NAME topics=T1,T2 [alt-topics=T3|-] [static] [absent]
//	            [version=0|1|2] [join-version=N] [assignors=A1,A2]
//	            [protocol=eager|cooperative]      (consumer kip only: KIP-429's rebalance.protocol)
//	            [group-protocol=classic|consumer]  the protocol the member starts on; a member
//	                                          with consumer (or budget bounces) makes the
//	                                          world mixed: classic and KIP-848 members in
//	                                          one group, converted online (mixed.go)
//	            [instance=NAME]               static only: the group.instance.id, if not the
//	                                          member's name (two members may share one: two
//	                                          processes with one instance id)
//	                                          alt-topics=- (protocol consumer): the
//	                                          subscription change unsubscribes, the
//	                                          next subscribes again
//	                                          at least one; version defaults to 2,
//	                                          join-version to 9 (DefaultJoinVersion),
//	                                          assignors to what protocol and assignor
//	                                          imply; version, join-version, assignors
//	                                          and protocol= are classic-only: an error
//	                                          under protocol consumer
//	budget      KEY=N ...                     any of the Budget keys; unnamed keys are 0;
//	                                          join-/sync-timeouts are classic-only,
//	                                          rebalance-timeouts KIP-848-only, hangs
//	                                          classic-only; failovers (the coordinator
//	                                          moves and the new one loads the group from
//	                                          the log) in both protocols; pauses (a
//	                                          member's whole process stops and resumes
//	                                          later) in both protocols; followups (the
//	                                          leader's assignor asks a member of the
//	                                          round to rejoin after applying its
//	                                          assignment, KIP-441) classic-only;
//	                                          bounces (a member closes and restarts on the
//	                                          other group.protocol) mixed worlds only
//	fault       NAME                          a mutant (see groupcheck mutants)
//	member-ids  server | client               protocol consumer only; default server:
//	                                          the coordinator names a joining member;
//	                                          client is KIP-1082, each client names
//	                                          itself (slot#incarnation) from the start
//	commits     on | off | java | librdkafka | franz-go
//	                                          default off; on is java: commits only while
//	                                          STABLE; librdkafka and franz-go commit in
//	                                          other join states with the generation they
//	                                          hold and react to the answers as those
//	                                          clients do (consumer.CommitPolicy);
//	                                          classic only
//	commit-epochs kip-1251 | exact            protocol consumer only; default kip-1251
//	                                          (Kafka 4.3 on): a commit at an epoch older
//	                                          than the member's is accepted for partitions
//	                                          held since it; exact (Kafka 4.0 to 4.2): a
//	                                          commit carries the member's epoch
//	                                          (docs/protocol.md §3.1)
//	migration-policy bidirectional | upgrade | downgrade | disabled
//	                                          mixed worlds only; default bidirectional:
//	                                          group.consumer.migration.policy
//	on-fatal    stop | poll-again             default stop: a classic member whose poll
//	                                          throws a fatal error stops for good;
//	                                          poll-again: the application catches it and
//	                                          polls on (consumer.FatalReaction); classic only
//	timers      KEY=DURATION ...              the durations of what steps wait for (Timers),
//	                                          in ms or with a unit (ms, s, min): network-delay,
//	                                          poll-interval, heartbeat-interval, session-timeout,
//	                                          initial-delay, rebalance-timeout,
//	                                          consumer-heartbeat-interval,
//	                                          consumer-session-timeout, request-timeout,
//	                                          max-poll-interval, metadata-max-age; unnamed
//	                                          keys keep Kafka's defaults (DefaultTimers)
//	group-max-size N                          default 0, unlimited: the coordinator's
//	                                          group.max.size (classic) or
//	                                          group.consumer.max.size (KIP-848); a member
//	                                          joining a full group is refused with
//	                                          GROUP_MAX_SIZE_REACHED (docs/protocol.md §1.4, §3.3)
//
// Every directive but topic, member, budget, timers and fault may appear once. Parsing is strict: an
// unknown directive, key or value, a repeated directive or a missing required one is an error
// naming the line. The config is validated (Config.Validate) before it is returned.
func ParseConfig(name string, r io.Reader) (Config, error) {
	p := parser{cfg: Config{Name: name}, seen: map[string]int{}, lines: map[string]int{}}
	var classicKeys []string // "member a: version": fields protocol consumer does not have
	sc := bufio.NewScanner(r)
	for n := 1; sc.Scan(); n++ {
		line := strings.TrimSpace(sc.Text())
		if line == "" || strings.HasPrefix(line, "#") {
			continue
		}
		f := strings.Fields(line)
		if f[0] == "member" && len(f) > 1 {
			for _, a := range f[2:] {
				if k, _, _ := strings.Cut(a, "="); slices.Contains([]string{"version", "join-version", "assignors", "protocol"}, k) {
					classicKeys = append(classicKeys, fmt.Sprintf("%s:%d: member %s: %s", name, n, f[1], k))
				}
			}
		}
		p.record(f, n)
		if err := p.directive(f); err != nil {
			return Config{}, fmt.Errorf("%s:%d: %w", name, n, err)
		}
	}
	if err := sc.Err(); err != nil {
		return Config{}, fmt.Errorf("%s: %w", name, err)
	}
	for _, d := range []string{"protocol", "consumer", "coordinator", "assignor", "topic", "member"} {
		if p.seen[d] == 0 {
			return Config{}, fmt.Errorf("%s: missing required directive %q", name, d)
		}
	}
	if p.seen["migration-policy"] > 0 && !p.cfg.Mixed() {
		// Also the default's name: a world with one protocol converts nothing.
		return Config{}, fmt.Errorf("%s:%d: migration-policy %s: a policy of mixed worlds only (a member with group-protocol=consumer, or budget bounces)", name, p.lines["migration-policy"], p.cfg.MigrationPolicy)
	}
	if p.seen["commit-epochs"] > 0 && !p.cfg.ConsumerProtocol {
		// Also the default's name: a classic world has no commit-epochs at all.
		return Config{}, fmt.Errorf("%s:%d: commit-epochs %s: %s", name, p.lines["commit-epochs"], p.cfg.CommitRule, commitEpochsClassic)
	}
	if p.cfg.ConsumerProtocol && len(classicKeys) > 0 {
		return Config{}, fmt.Errorf("%s: classic-protocol only (protocol consumer has no JoinGroup subscription, versions or client assignors)", classicKeys[0])
	}
	slices.SortFunc(p.cfg.Topics, func(a, b impl.TopicMetadata) int { return strings.Compare(a.Name, b.Name) })
	if err := p.cfg.Validate(); err != nil {
		if n, ok := p.lineOf(err); ok {
			return Config{}, fmt.Errorf("%s:%d: %w", name, n, err)
		}
		return Config{}, fmt.Errorf("%s: %w", name, err)
	}
	return p.cfg, nil
}

// ParseConfigString is ParseConfig on a config held in a string (a preset, a mutant's world,
// a test's world).
func ParseConfigString(name, text string) (Config, error) {
	return ParseConfig(name, strings.NewReader(text))
}

type parser struct {
	cfg  Config
	seen map[string]int
	// lines is the line of each directive, and of each member, topic and budget key by name
	// ("member b", "budget hangs"): the last one seen.
	lines       map[string]int
	memberLines []int // the line of each member, in order
}

// record notes the line n of directive f, so that a validation error about it can name it.
func (p *parser) record(f []string, n int) {
	d, args := f[0], f[1:]
	p.lines[d] = n
	switch d {
	case "member", "topic":
		if len(args) > 0 {
			p.lines[d+" "+args[0]] = n
		}
		if d == "member" {
			p.memberLines = append(p.memberLines, n)
		}
	case "budget", "timers":
		for _, a := range args {
			k, _, _ := strings.Cut(a, "=")
			p.lines[d+" "+k] = n
		}
	}
}

// lineOf is the line of the directive a validation error is about. Config.Validate's errors
// open with what they are about, "DIRECTIVE[ NAME]: …" ("assignor: …", "member b: …",
// "budget hangs: …", "member 2: …" by index, "members: …" for one too many), which names it.
func (p *parser) lineOf(err error) (int, bool) {
	subject, _, ok := strings.Cut(err.Error(), ":")
	f := strings.Fields(subject)
	if !ok || len(f) == 0 {
		return 0, false
	}
	if len(f) > 1 {
		if n, ok := p.lines[f[0]+" "+f[1]]; ok {
			return n, true
		}
		if i, err := strconv.Atoi(f[1]); err == nil && f[0] == "member" && i < len(p.memberLines) {
			return p.memberLines[i], true
		}
	}
	if f[0] == "members" && len(p.memberLines) > 0 {
		return p.memberLines[len(p.memberLines)-1], true
	}
	n, ok := p.lines[f[0]]
	return n, ok
}

// directives are the config file's directives, in the order its documentation gives them.
var directives = []string{"name", "protocol", "consumer", "coordinator", "assignor", "topic", "member", "budget", "fault", "member-ids", "commits", "commit-epochs", "group-max-size", "on-fatal", "timers", "migration-policy"}

var repeatable = map[string]bool{"topic": true, "member": true, "budget": true, "fault": true, "timers": true}

func (p *parser) directive(f []string) error {
	d, args := f[0], f[1:]
	p.seen[d]++
	if p.seen[d] > 1 && !repeatable[d] {
		return fmt.Errorf("directive %q repeated", d)
	}
	switch d {
	case "name":
		return one(d, args, func(v string) error { p.cfg.Name = v; return nil })
	case "protocol":
		return one(d, args, func(v string) error {
			// consumer is KIP-848's protocol: eager in the classic half, which it leaves unused.
			var consumer bool
			err := choose(d, v, &consumer, map[string]bool{"eager": false, "cooperative": false, "consumer": true})
			if err != nil {
				return err
			}
			p.cfg.Protocol, p.cfg.ConsumerProtocol = impl.Eager, consumer
			if v == "cooperative" {
				p.cfg.Protocol = impl.Cooperative
			}
			return nil
		})
	case "consumer":
		return one(d, args, func(v string) error {
			return choose(d, v, &p.cfg.Consumer, map[string]impl.Variant{"kafka": impl.Kafka, "kip": impl.KIP})
		})
	case "coordinator":
		return one(d, args, func(v string) error {
			return choose(d, v, &p.cfg.Coordinator, map[string]impl.Variant{"kafka": impl.Kafka, "kip423": impl.KIP})
		})
	case "assignor":
		return one(d, args, func(v string) error { p.cfg.Assignor = v; return nil })
	case "topic":
		return p.topic(args)
	case "member":
		return p.member(args)
	case "budget":
		return p.budget(args)
	case "timers":
		return p.timers(args)
	case "fault":
		return one(d, args, func(v string) error {
			f, ok := impl.ParseFault(v)
			if !ok {
				return fmt.Errorf("fault: unknown mutant %q", v)
			}
			p.cfg.Faults = p.cfg.Faults.With(f)
			return nil
		})
	case "group-max-size":
		return one(d, args, func(v string) error {
			n, err := strconv.Atoi(v)
			if err != nil || n < 0 {
				return fmt.Errorf("group-max-size: %q is not a member count (0 or more)", v)
			}
			p.cfg.MaxSize = n
			return nil
		})
	case "commit-epochs":
		return one(d, args, func(v string) error {
			r, ok := kip848.ParseCommitRule(v)
			if !ok {
				return fmt.Errorf("commit-epochs: %q is not kip-1251 (Kafka 4.3 on) or exact (Kafka 4.0 to 4.2)", v)
			}
			p.cfg.CommitRule = r
			return nil
		})
	case "migration-policy":
		return one(d, args, func(v string) error {
			pol, err := kip848.ParseMigrationPolicy(v)
			if err != nil {
				return fmt.Errorf("migration-policy: %w", err)
			}
			p.cfg.MigrationPolicy = pol
			return nil
		})
	case "member-ids":
		return one(d, args, func(v string) error {
			return choose(d, v, &p.cfg.ClientMemberIDs, map[string]bool{"server": false, "client": true})
		})
	case "on-fatal":
		return one(d, args, func(v string) error {
			r, ok := consumer.ParseFatalReaction(v)
			if !ok {
				return fmt.Errorf("on-fatal: %q is not stop or poll-again", v)
			}
			p.cfg.OnFatal = r
			return nil
		})
	case "commits":
		return one(d, args, func(v string) error {
			if pol, ok := consumer.ParseCommitPolicy(v); ok {
				p.cfg.Commits, p.cfg.CommitPolicy = true, pol
				return nil
			}
			return choose(d, v, &p.cfg.Commits, map[string]bool{"on": true, "off": false, "java": true, "librdkafka": true, "franz-go": true})
		})
	}
	return fmt.Errorf("unknown directive %q%s (directives: %s)", d, spell.Hint(d, directives), strings.Join(directives, ", "))
}

func one(d string, args []string, set func(string) error) error {
	if len(args) != 1 {
		return fmt.Errorf("%s takes exactly one value, got %d", d, len(args))
	}
	return set(args[0])
}

func choose[T any](d, v string, dst *T, options map[string]T) error {
	o, ok := options[v]
	if !ok {
		keys := make([]string, 0, len(options))
		for k := range options {
			keys = append(keys, k)
		}
		slices.Sort(keys)
		return fmt.Errorf("%s: %q is not one of %s%s", d, v, strings.Join(keys, ", "), spell.Hint(v, keys))
	}
	*dst = o
	return nil
}

func (p *parser) topic(args []string) error {
	if len(args) != 2 {
		return fmt.Errorf("topic takes a name and a partition count")
	}
	n, err := strconv.Atoi(args[1])
	if err != nil {
		return fmt.Errorf("topic %s: partition count %q is not an integer", args[0], args[1])
	}
	for _, t := range p.cfg.Topics {
		if t.Name == args[0] {
			return fmt.Errorf("topic %s declared twice", args[0])
		}
	}
	p.cfg.Topics = append(p.cfg.Topics, impl.TopicMetadata{Name: args[0], Partitions: int32(n)})
	return nil
}

// DefaultJoinVersion is the JoinGroup version a member sends unless its join-version says
// otherwise: v9 (KIP-814's SkipAssignment), what Java's consumer sends since Kafka 3.2
// (KAFKA-13435, apache/kafka c8fbe26: the highest version both sides support). The older
// versions stay variants a member selects with join-version: 5 is KIP-345's static
// membership without SkipAssignment (Java 2.3–3.1, and clients that stop at v5: a restarted
// static leader is told the old leader id), 4 the two-step join of KIP-394 without static
// membership, 0–3 the one-step join. SyncGroup carries nothing the model distinguishes by
// version. docs/protocol.md §1.1, §1.10.
const DefaultJoinVersion = 9

func (p *parser) member(args []string) error {
	if len(args) == 0 {
		return fmt.Errorf("member needs a name")
	}
	m := MemberConfig{Name: args[0], SubscriptionVersion: impl.MaxSubscriptionVersion, JoinVersion: DefaultJoinVersion}
	for _, a := range args[1:] {
		k, v, hasValue := strings.Cut(a, "=")
		if err := m.set(k, v, hasValue); err != nil {
			return fmt.Errorf("member %s: %w", m.Name, err)
		}
	}
	p.cfg.Members = append(p.cfg.Members, m)
	return nil
}

func (m *MemberConfig) set(k, v string, hasValue bool) error {
	flag := map[string]*bool{"static": &m.Static, "absent": &m.Absent}
	if dst, ok := flag[k]; ok {
		if hasValue {
			return fmt.Errorf("%s takes no value", k)
		}
		*dst = true
		return nil
	}
	if !hasValue {
		return fmt.Errorf("unknown flag %q%s (flags: static, absent)", k, spell.Hint(k, []string{"static", "absent"}))
	}
	if k == "alt-topics" && v == "-" {
		m.Unsubscribes = true
		return nil
	}
	switch k {
	case "instance":
		m.Instance = v
	case "group-protocol":
		return choose(k, v, &m.StartsConsumer, map[string]bool{"classic": false, "consumer": true})
	case "topics", "alt-topics", "assignors":
		list := strings.Split(v, ",")
		if slices.Contains(list, "") {
			return fmt.Errorf("%s: empty entry in %q", k, v)
		}
		switch k {
		case "topics":
			m.Topics = sortedSet(list)
		case "alt-topics":
			m.AltTopics = sortedSet(list)
		default:
			m.Assignors = list
		}
	case "protocol":
		var p impl.RebalanceProtocol
		if err := choose(k, v, &p, map[string]impl.RebalanceProtocol{"eager": impl.Eager, "cooperative": impl.Cooperative}); err != nil {
			return err
		}
		m.Protocol = &p
	case "version", "join-version":
		n, err := strconv.Atoi(v)
		if err != nil {
			return fmt.Errorf("%s: %q is not an integer", k, v)
		}
		if k == "version" {
			m.SubscriptionVersion = int8(n)
			if int(m.SubscriptionVersion) != n {
				return fmt.Errorf("version %d out of range", n)
			}
		} else {
			m.JoinVersion = int16(n)
		}
	default:
		keys := []string{"topics", "alt-topics", "instance", "version", "join-version", "assignors", "protocol", "group-protocol"}
		return fmt.Errorf("unknown key %q%s (keys: %s)", k, spell.Hint(k, keys), strings.Join(keys, ", "))
	}
	return nil
}

func sortedSet(s []string) []string {
	s = slices.Clone(s)
	slices.Sort(s)
	return slices.Compact(s)
}

func (p *parser) budget(args []string) error {
	if len(args) == 0 {
		return fmt.Errorf("budget needs KEY=N pairs")
	}
	for _, a := range args {
		k, v, ok := strings.Cut(a, "=")
		if !ok {
			return fmt.Errorf("budget: %q is not KEY=N", a)
		}
		n, err := strconv.Atoi(v)
		if err != nil {
			return fmt.Errorf("budget %s: %q is not an integer", k, v)
		}
		if err := p.cfg.Budget.set(k, n); err != nil {
			return err
		}
	}
	return nil
}

func (b *Budget) set(k string, n int) error {
	var names []string
	for _, f := range b.fields() {
		if f.name == k {
			*f.v = n
			return nil
		}
		names = append(names, f.name)
	}
	return fmt.Errorf("budget: unknown key %q%s (keys: %s)", k, spell.Hint(k, names), strings.Join(names, ", "))
}

// timers reads KEY=DURATION pairs over the durations read so far (Kafka's defaults first).
func (p *parser) timers(args []string) error {
	if len(args) == 0 {
		return fmt.Errorf("timers needs KEY=DURATION pairs")
	}
	d := p.cfg.Durations()
	for _, a := range args {
		k, v, ok := strings.Cut(a, "=")
		if !ok {
			return fmt.Errorf("timers: %q is not KEY=DURATION", a)
		}
		if err := d.set(k, v); err != nil {
			return err
		}
	}
	p.cfg.Timers = &d
	return nil
}
