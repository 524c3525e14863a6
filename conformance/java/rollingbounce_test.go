package java

import (
	"fmt"
	"testing"
	"time"

	h "github.com/groupcheck/groupcheck/conformance/harness"
	"github.com/groupcheck/groupcheck/oracle/history"
)

// TestRealKafkaRollingBounce is the migration every Kafka user makes (issue 27,
// docs/protocol.md §9): a classic cooperative-sticky group of three Java consumers against the
// broker at $KAFKA_BOOTSTRAP (skipped without it) restarts its members one by one with
// group.protocol=consumer — the first restart converts the group online
// (GroupMetadataManager.consumerGroupHeartbeat → convertToConsumerGroup), the others join a
// consumer group that still serves classic members — and then one by one back to classic, the
// last consumer-protocol member's leave converting it back (convertToClassicGroup). After
// every restart the live members must own every partition once between them, and the whole
// history of callbacks and commits, across both protocols, must pass the oracle.
//
// The dynamic members leave on close; the static ones (group.instance.id = node name) do not
// under classic (AbstractCoordinator.maybeLeaveGroup sends no LeaveGroup for a static member)
// and leave temporarily under the consumer protocol (member epoch -2), so each of their
// restarts is a replacement of the same instance across the two protocols.
func TestRealKafkaRollingBounce(t *testing.T) {
	env := newRealKafka(t, "java-bounce-")
	for _, static := range []bool{false, true} {
		name := "dynamic"
		if static {
			name = "static"
		}
		for i := range h.Runs() { // -soak N: N runs each
			run := name
			if h.Runs() > 1 {
				run = fmt.Sprintf("%s/run%d", name, i)
			}
			t.Run(run, func(t *testing.T) { bounce(t, env, static) })
		}
	}
}

// bounceSettings are each protocol's consumer settings in the rolling bounce.
var bounceSettings = map[string][]string{
	history.Classic:  {"group.protocol=classic", "partition.assignment.strategy=" + cooperativeAssignor},
	history.Consumer: {"group.protocol=consumer", "group.remote.assignor=uniform"},
}

// bounce is one TestRealKafkaRollingBounce run: three classic members, each restarted onto
// the consumer protocol in turn, then each back.
func bounce(t *testing.T, env *realKafka, static bool) {
	r := env.newRun(t, "java-bounce")
	defer r.close()
	names := []string{"a", "b", "c"}
	// restart bounces member name onto proto and checks the group's type after it: a
	// consumer group while any member speaks the consumer protocol, classic once none does.
	restart := func(name, proto, want string) time.Duration {
		t.Helper()
		r.leave(name)
		r.start(name, proto, options{settings: bounceSettings[proto], static: static})
		took := r.settle(names...)
		if got := r.groupType(); got != want {
			t.Errorf("after %s restarted with group.protocol=%s the group is %q, want %q", name, proto, got, want)
		}
		return took
	}
	for _, n := range names {
		r.start(n, history.Classic, options{settings: bounceSettings[history.Classic], static: static})
	}
	r.settle(names...)
	if got := r.groupType(); got != history.Classic {
		t.Fatalf("the group starts %q, want classic", got)
	}
	var up, down time.Duration
	for _, n := range names {
		up += restart(n, history.Consumer, history.Consumer)
	}
	for i, n := range names {
		want := history.Consumer
		if i == len(names)-1 {
			want = history.Classic
		}
		down += restart(n, history.Classic, want)
	}
	t.Logf("rolling bounce settled: upgrade %v, downgrade %v (three restarts each)",
		up.Round(time.Millisecond), down.Round(time.Millisecond))
	for _, n := range names {
		r.leave(n)
	}
	r.judge()
}

// groupType is the run's group's type as the broker lists it (ListGroups v5: "classic" or
// "consumer").
func (r *realRun) groupType() string {
	r.t.Helper()
	gs, err := r.adm.ListGroups(r.ctx)
	if err != nil {
		r.t.Fatalf("list groups: %v", err)
	}
	g, ok := gs[r.run]
	if !ok {
		r.t.Fatalf("list groups: no group %s", r.run)
	}
	return g.GroupType
}
