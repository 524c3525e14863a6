package spec

import (
	"fmt"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"
	"github.com/groupcheck/groupcheck/impl"
	"github.com/groupcheck/groupcheck/impl/consumer"
	"github.com/groupcheck/groupcheck/impl/kip848"
	"github.com/groupcheck/groupcheck/impl/kip848client"
)

func TestPresetsParseAndRoundTrip(t *testing.T) {
	for _, p := range Presets {
		c, err := p.Config()
		if err != nil {
			t.Fatalf("preset %s: %v", p.Name, err)
		}
		back, err := ParseConfig(p.Name, strings.NewReader(c.Format()))
		if err != nil {
			t.Fatalf("preset %s: formatted config does not parse: %v\n%s", p.Name, err, c.Format())
		}
		if d := cmp.Diff(c, back, cmp.AllowUnexported(Config{}, MemberConfig{})); d != "" {
			t.Errorf("preset %s: Format/ParseConfig round trip (-want +got):\n%s", p.Name, d)
		}
	}
	if _, err := LookupPreset(DefaultPreset); err != nil {
		t.Fatalf("default preset: %v", err)
	}
}

func TestParseConfigErrorsNameTheProblem(t *testing.T) {
	base := "protocol eager\nconsumer kafka\ncoordinator kafka\nassignor range\ntopic t 2\nmember a topics=t\n"
	for _, tc := range []struct {
		name, text, want string
	}{
		{"unknown directive", base + "colour blue\n", `:7: unknown directive "colour" (directives: name, protocol, consumer, coordinator, assignor, topic, member, budget, fault, member-ids, commits, commit-epochs, group-max-size, on-fatal, timers, migration-policy)`},
		{"misspelled directive", base + "budgett crashes=1\n", `:7: unknown directive "budgett"; did you mean "budget"?`},
		{"misspelled budget key", base + "budget crashs=1\n", `budget: unknown key "crashs"; did you mean "crashes"?`},
		{"misspelled member key", base + "member b instanse=x\n", `member b: unknown key "instanse"; did you mean "instance"?`},
		{"misspelled protocol", strings.Replace(base, "protocol eager", "protocol cooprative", 1), `did you mean "cooperative"?`},
		{"repeated directive", base + "protocol eager\n", `:7: directive "protocol" repeated`},
		{"missing directive", "protocol eager\nconsumer kafka\ncoordinator kafka\nassignor range\ntopic t 2\n", `missing required directive "member"`},
		{"bad protocol", strings.Replace(base, "protocol eager", "protocol lazy", 1), `protocol: "lazy" is not one of consumer, cooperative, eager`},
		{"bad assignor", strings.Replace(base, "assignor range", "assignor magic", 1), `assignor: "magic" is not one of`},
		{"cooperative range", strings.Replace(base, "protocol eager", "protocol cooperative", 1), `assignor: "range" does not support the cooperative protocol`},
		{"unknown topic", base + "member b topics=u\n", `member b: topic "u" is not a configured topic`},
		{"duplicate member", base + "member a topics=t\n", "member a: name used twice"},
		{"bad member key", base + "member b topics=t colour=red\n", `:7: member b: unknown key "colour"`},
		{"bad flag", base + "member b topics=t sticky\n", `unknown flag "sticky"`},
		{"bad version", base + "member b topics=t version=3\n", "subscription version 3 outside 0..2"},
		{"static old join", base + "member b topics=t static join-version=4\n", "static membership needs join version ≥ 5"},
		{"bad budget key", base + "budget crashs=1\n", `budget: unknown key "crashs"`},
		{"budget range", base + "budget crashes=9\n", "budget crashes: 9 outside 0..8"},
		{"bad fault", base + "fault gremlins\n", `fault: unknown mutant "gremlins"`},
		{"zero partitions", strings.Replace(base, "topic t 2", "topic t 0", 1), "topic t: partitions 0 outside 1..16"},
		{"member protocol under kafka", base + "member b topics=t protocol=cooperative\n", "member b: protocol: a per-member rebalance.protocol is KIP-429's config"},
		{"eager cooperative-sticky", strings.Replace(base, "assignor range", "assignor cooperative-sticky", 1), "cooperative-sticky alone makes a member cooperative"},
		{"unknown commit client", base + "commits sarama\n", `commits: "sarama" is not one of franz-go, java, librdkafka, off, on`},
		{"client member ids under classic", base + "member-ids client\n", "member-ids client: KIP-1082 is for protocol consumer"},
		{"bad fatal reaction", base + "on-fatal retry\n", `on-fatal: "retry" is not stop or poll-again`},
		{"bad member ids", base + "member-ids uuid\n", `member-ids: "uuid" is not one of client, server`},
		// The default's name too: a classic world has no commit rule to name.
		{"KIP-1251 under classic", base + "commit-epochs kip-1251\n", ":7: commit-epochs kip-1251: a rule of the KIP-848 coordinator"},
		{"exact under classic", base + "commit-epochs exact\n", ":7: commit-epochs exact: a rule of the KIP-848 coordinator"},
		{"bad commit epochs", base + "commit-epochs loose\n", `commit-epochs: "loose" is not kip-1251 (Kafka 4.3 on) or exact (Kafka 4.0 to 4.2)`},
	} {
		t.Run(tc.name, func(t *testing.T) {
			_, err := ParseConfig("x.conf", strings.NewReader(tc.text))
			if err == nil || !strings.Contains(err.Error(), tc.want) {
				t.Fatalf("ParseConfig error = %v, want it to contain %q", err, tc.want)
			}
		})
	}
}

func TestParseConfigConsumerProtocolErrors(t *testing.T) {
	base := "protocol consumer\nconsumer kafka\ncoordinator kafka\nassignor uniform\ntopic t 2\nmember a topics=t\n"
	classic := "protocol eager\nconsumer kafka\ncoordinator kafka\nassignor range\ntopic t 2\nmember a topics=t\n"
	for _, tc := range []struct {
		name, text, want string
	}{
		{"kip423 coordinator", strings.Replace(base, "coordinator kafka", "coordinator kip423", 1), "coordinator: protocol consumer has one coordinator"},
		{"classic assignor", strings.Replace(base, "assignor uniform", "assignor sticky", 1), `assignor: "sticky" is not one of [uniform range any]`},
		{"uniform under classic", strings.Replace(classic, "assignor range", "assignor uniform", 1), `assignor: "uniform" is a KIP-848 server assignor`},
		{"version", base + "member b topics=t version=1\n", ":7: member b: version: classic-protocol only"},
		{"join-version", base + "member b topics=t static join-version=5\n", ":7: member b: join-version: classic-protocol only"},
		{"assignors", base + "member b topics=t assignors=range\n", ":7: member b: assignors: classic-protocol only"},
		{"member protocol", base + "member b topics=t protocol=eager\n", ":7: member b: protocol: classic-protocol only"},
		{"join-timeouts", base + "budget join-timeouts=1\n", "budget join-timeouts: protocol consumer has no join phase"},
		{"sync-timeouts", base + "budget sync-timeouts=1\n", "budget sync-timeouts: protocol consumer has no sync phase"},
		{"instance without static", classic + "member b topics=t instance=a\n", "member b: instance=a: a group.instance.id needs static"},
		{"instance not a name", classic + "member b topics=t static instance=A\n", "member b: instance=A: a group.instance.id needs static"},
		{"pauses out of range", classic + "budget pauses=-1\n", "budget pauses: -1 outside 0..8"},
		{"failovers out of range", classic + "budget failovers=9\n", "budget failovers: 9 outside 0..8"},
		{"rebalance-timeouts under classic", classic + "budget rebalance-timeouts=1\n", "budget rebalance-timeouts: the KIP-848 rebalance timer exists only under protocol consumer"},
		{"bad protocol", strings.Replace(base, "protocol consumer", "protocol lazy", 1), `protocol: "lazy" is not one of consumer, cooperative, eager`},
		{"classic commit client", base + "commits librdkafka\n", "commits librdkafka: a classic client's commit handling"},
		{"fatal reaction under protocol consumer", base + "on-fatal poll-again\n", "on-fatal poll-again: the reaction of a classic client"},
		{"followups under protocol consumer", base + "budget followups=1\n", "budget followups: a follow-up is asked for by a client-side assignor"},
		{"followups out of range", classic + "budget followups=9\n", "budget followups: 9 outside 0..8"},
		{"followups not a number", classic + "budget followups=x\n", "followups"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			_, err := ParseConfig("x.conf", strings.NewReader(tc.text))
			if err == nil || !strings.Contains(err.Error(), tc.want) {
				t.Fatalf("ParseConfig error = %v, want it to contain %q", err, tc.want)
			}
		})
	}
	// A static KIP-848 member needs no join version, and the config round-trips.
	c, err := ParseConfig("ok", strings.NewReader(base+"member b topics=t static absent\nbudget rebalance-timeouts=1 session-timeouts=1\nmember-ids client\ncommit-epochs kip-1251\n"))
	if err != nil {
		t.Fatal(err)
	}
	// commit-epochs kip-1251 is the default, which Format leaves out.
	if !c.ConsumerProtocol || c.Budget.RebalanceTimeouts != 1 || !c.ClientMemberIDs || c.CommitRule != kip848.CommitAssignmentEpochs || strings.Contains(c.Format(), "version") ||
		!strings.Contains(c.Format(), "member-ids client\n") || strings.Contains(c.Format(), "commit-epochs") {
		t.Errorf("parsed %+v, formatted:\n%s", c, c.Format())
	}
	// The rule of Kafka 4.0 to 4.2 is written out and round-trips.
	exact, err := ParseConfig("exact", strings.NewReader(base+"commit-epochs exact\n"))
	if err != nil {
		t.Fatal(err)
	}
	back, err := ParseConfig("back", strings.NewReader(exact.Format()))
	if err != nil || exact.CommitRule != kip848.CommitExactEpoch || back.CommitRule != kip848.CommitExactEpoch || !strings.Contains(exact.Format(), "commit-epochs exact\n") {
		t.Errorf("commit-epochs exact: %s, back %s (%v), formatted:\n%s", exact.CommitRule, back.CommitRule, err, exact.Format())
	}
}

// TestCommitsAndJoinVersionDefaults: a member sends JoinGroup v9 unless it says otherwise
// (DefaultJoinVersion), `commits on` is Java's handling, and a client's name selects its own;
// each round-trips through Format.
func TestCommitsAndJoinVersionDefaults(t *testing.T) {
	base := "protocol cooperative\nconsumer kafka\ncoordinator kafka\nassignor cooperative-sticky\ntopic t 2\nmember a topics=t\nmember b topics=t static join-version=5\n"
	for _, tc := range []struct {
		line string
		want consumer.CommitPolicy
	}{{"commits on", consumer.CommitJava}, {"commits java", consumer.CommitJava}, {"commits librdkafka", consumer.CommitLibrdkafka}, {"commits franz-go", consumer.CommitFranzGo}} {
		c, err := ParseConfig("x.conf", strings.NewReader(base+tc.line+"\n"))
		if err != nil {
			t.Fatal(err)
		}
		if !c.Commits || c.CommitPolicy != tc.want || c.Members[0].JoinVersion != DefaultJoinVersion || c.Members[1].JoinVersion != 5 {
			t.Errorf("%s: commits %v %v, join versions %d %d", tc.line, c.Commits, c.CommitPolicy, c.Members[0].JoinVersion, c.Members[1].JoinVersion)
		}
		back, err := ParseConfig("x.conf", strings.NewReader(c.Format()))
		if err != nil || back.CommitPolicy != c.CommitPolicy || back.Commits != c.Commits {
			t.Errorf("%s: does not round-trip (%v):\n%s", tc.line, err, c.Format())
		}
	}
}

// TestOnFatal: a classic member stops on a fatal error unless the config says the application
// polls again; the directive round-trips through Format.
func TestOnFatal(t *testing.T) {
	base := "protocol cooperative\nconsumer kafka\ncoordinator kafka\nassignor cooperative-sticky\ntopic t 2\nmember a topics=t static\n"
	for _, tc := range []struct {
		text string
		want consumer.FatalReaction
	}{{base, consumer.FatalStops}, {base + "on-fatal stop\n", consumer.FatalStops}, {base + "on-fatal poll-again\n", consumer.FatalPollsAgain}} {
		c, err := ParseConfig("x.conf", strings.NewReader(tc.text))
		if err != nil {
			t.Fatal(err)
		}
		back, err := ParseConfig("x.conf", strings.NewReader(c.Format()))
		if c.OnFatal != tc.want || err != nil || back.OnFatal != tc.want {
			t.Errorf("%q: on-fatal %s, round trip %s (%v)", tc.text, c.OnFatal, back.OnFatal, err)
		}
		if w := Init(c); w.Slots[0].Client.Config.OnFatal != tc.want {
			t.Errorf("%q: the member's consumer reacts %s", tc.text, w.Slots[0].Client.Config.OnFatal)
		}
	}
}

func TestMemberProtocol(t *testing.T) {
	// Reference: docs/protocol.md §2.1 (protocol = highest supported by all assignors) and §2.7.
	c, err := ParseConfig("x", strings.NewReader(`protocol cooperative
consumer kafka
coordinator kafka
assignor cooperative-sticky
topic t 1
member a topics=t
member b topics=t assignors=cooperative-sticky,range
`))
	if err != nil {
		t.Fatal(err)
	}
	if got := c.MemberProtocol(0); got != impl.Cooperative {
		t.Errorf("member a: %v, want cooperative", got)
	}
	if got := c.MemberProtocol(1); got != impl.Eager {
		t.Errorf("member b (double bounce, bounce 1): %v, want eager", got)
	}
}

// TestGroupMaxSize: group-max-size parses, round-trips and reaches the coordinators' limit —
// a second member of a group of at most one is refused with GROUP_MAX_SIZE_REACHED, which
// stops it (Java throws it to the application), in both protocols; without the directive no
// member is refused. docs/protocol.md §1.4, §3.3.
func TestGroupMaxSize(t *testing.T) {
	for _, proto := range []string{"protocol eager\nassignor range\n", "protocol consumer\nassignor uniform\n"} {
		base := proto + "consumer kafka\ncoordinator kafka\ntopic t 1\nmember a topics=t\nmember b topics=t\n"
		for _, limit := range []int{0, 1} {
			text := base
			if limit > 0 {
				text += fmt.Sprintf("group-max-size %d\n", limit)
			}
			c, err := ParseConfigString("x.conf", text)
			if err != nil {
				t.Fatal(err)
			}
			if back, err := ParseConfigString("x.conf", c.Format()); err != nil || back.MaxSize != limit || c.MaxSize != limit {
				t.Fatalf("group-max-size %d does not round-trip (%v):\n%s", limit, err, c.Format())
			}
			ws, ok := reach(c, func(w World) string { return string(w.Encode(nil)) }, 100_000)
			if !ok {
				t.Fatalf("%s: more than 100,000 worlds", text)
			}
			refused := false
			for _, w := range ws {
				for _, s := range w.Slots {
					refused = refused || s.Client.FatalError == impl.GroupMaxSizeReached || s.Member.FatalError == impl.GroupMaxSizeReached
				}
			}
			if refused != (limit > 0) {
				t.Errorf("%sgroup-max-size %d: a member refused with GROUP_MAX_SIZE_REACHED: %v", proto, limit, refused)
			}
		}
	}
	for _, bad := range []string{"-1", "x"} {
		_, err := ParseConfigString("x.conf", "protocol eager\nconsumer kafka\ncoordinator kafka\nassignor range\ntopic t 1\nmember a topics=t\ngroup-max-size "+bad+"\n")
		if want := fmt.Sprintf("group-max-size: %q is not a member count", bad); err == nil || !strings.Contains(err.Error(), want) {
			t.Errorf("group-max-size %s: %v, want %q", bad, err, want)
		}
	}
}

// TestUnsubscribeAsSubscriptionChange: alt-topics=- parses and round-trips under protocol
// consumer, is refused elsewhere and beside other alt-topics, and makes the subscription
// change an unsubscribe (the client leaves: UNSUBSCRIBED) and the next one a subscribe again
// (it rejoins). docs/protocol.md §3.7.
func TestUnsubscribeAsSubscriptionChange(t *testing.T) {
	base := "protocol consumer\nconsumer kafka\ncoordinator kafka\nassignor uniform\ntopic t 1\nbudget subscription-changes=2\n"
	c, err := ParseConfigString("x.conf", base+"member a topics=t alt-topics=-\n")
	if err != nil {
		t.Fatal(err)
	}
	if back, err := ParseConfigString("x.conf", c.Format()); err != nil || !back.Members[0].Unsubscribes {
		t.Fatalf("alt-topics=- does not round-trip (%v):\n%s", err, c.Format())
	}
	for text, want := range map[string]string{
		strings.Replace(base, "protocol consumer\nconsumer kafka\ncoordinator kafka\nassignor uniform", "protocol eager\nconsumer kafka\ncoordinator kafka\nassignor range", 1) + "member a topics=t alt-topics=-\n": "alt-topics=-: an unsubscribe",
		base + "member a topics=t alt-topics=t alt-topics=-\n": "alt-topics=-: an unsubscribe",
	} {
		if _, err := ParseConfigString("x.conf", text); err == nil || !strings.Contains(err.Error(), want) {
			t.Errorf("%s: %v, want %q", text, err, want)
		}
	}
	ws, ok := reach(c, func(w World) string { return string(w.Encode(nil)) }, 100_000)
	if !ok {
		t.Fatal("more than 100,000 worlds")
	}
	var left, rejoined bool
	for _, w := range ws {
		m := w.Slots[0].Member
		left = left || m.State() == kip848client.Unsubscribed && w.Left.SubscriptionChanges == 1
		rejoined = rejoined || m.State() == kip848client.Stable && w.Left.SubscriptionChanges == 0
	}
	if !left || !rejoined {
		t.Errorf("unsubscribed %v, rejoined after %v", left, rejoined)
	}
}

// A validation error (Config.Validate, after parsing) names the line of the directive it is
// about, as a parse error does: the assignor, a member, a topic, a budget key, commits,
// member-ids, the coordinator, the member one too many.
func TestValidationErrorsNameTheLine(t *testing.T) {
	classic := "protocol eager\nconsumer kafka\ncoordinator kafka\nassignor range\ntopic t 2\nmember a topics=t\n"
	consumer := "protocol consumer\nconsumer kafka\ncoordinator kafka\nassignor uniform\ntopic t 2\nmember a topics=t\n"
	nine := classic
	for _, m := range []string{"b", "c", "d", "e", "f", "g", "h", "i"} {
		nine += "member " + m + " topics=t\n"
	}
	for _, tc := range []struct {
		name, text, want string
	}{
		{"cooperative range", "protocol cooperative\nconsumer kafka\ncoordinator kafka\n\n# the assignor\nassignor range\ntopic t 2\nmember a topics=t\n", `x.conf:6: assignor: "range" does not support the cooperative protocol`},
		{"unknown topic", classic + "member b topics=u\n", `x.conf:7: member b: topic "u" is not a configured topic`},
		{"duplicate member", classic + "budget crashes=1\nmember a topics=t\n", "x.conf:8: member a: name used twice"},
		{"budget range", classic + "budget crashes=1\nbudget pauses=9\n", "x.conf:8: budget pauses: 9 outside 0..8"},
		{"zero partitions", strings.Replace(classic, "topic t 2", "topic t 0", 1), "x.conf:5: topic t: partitions 0 outside 1..16"},
		{"static old join", classic + "member b topics=t static join-version=4\n", "x.conf:7: member b: static membership needs join version ≥ 5"},
		{"bad member name", classic + "member B topics=t\n", `x.conf:7: member 1: name "B" must be lower-case letters`},
		{"nine members", nine, "x.conf:14: members: 9 members; a world has 1..8"},
		{"commits under consumer", consumer + "commits librdkafka\n", "x.conf:7: commits librdkafka: a classic client's commit handling"},
		{"member ids under classic", classic + "member-ids client\n", "x.conf:7: member-ids client: KIP-1082 is for protocol consumer"},
		{"kip423 coordinator", strings.Replace(consumer, "coordinator kafka", "coordinator kip423", 1), "x.conf:3: coordinator: protocol consumer has one coordinator"},
		{"hangs under consumer", consumer + "budget hangs=1\n", "x.conf:7: budget hangs: a member hangs in its client-side assignor"},
		{"eager cooperative-sticky", strings.Replace(classic, "assignor range", "assignor cooperative-sticky", 1) + "member b topics=t\n", "x.conf:6: member a: assignors: cooperative-sticky alone"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			_, err := ParseConfigString("x.conf", tc.text)
			if err == nil || !strings.HasPrefix(err.Error(), tc.want) {
				t.Fatalf("ParseConfig error = %v, want it to start %q", err, tc.want)
			}
		})
	}
}

// The directives an unknown one is told are the ones the parser reads.
func TestDirectivesListed(t *testing.T) {
	for _, d := range directives {
		p := parser{cfg: Config{}, seen: map[string]int{}, lines: map[string]int{}}
		if err := p.directive([]string{d}); err != nil && strings.HasPrefix(err.Error(), "unknown directive") {
			t.Errorf("directives lists %q, which the parser does not read", d)
		}
	}
}
