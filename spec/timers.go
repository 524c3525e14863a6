package spec

import (
	"fmt"
	"strings"

	"github.com/groupcheck/groupcheck/internal/spell"
)

// Timer names what a step waits for before it can happen: one of Kafka's timers, the
// application's poll loop, or the network. The world's actions fire timers as
// nondeterministic choices; a Timer and the config's Timers give each a duration, so that the
// liveness graph can sum, along a path, the time a group spends waiting (invariants: time to
// converge). The durations change no state: the state space does not depend on them.
type Timer uint8

const (
	NoWait            Timer = iota // the step needs no timer
	NetworkWait                    // a request or response crosses the network
	PollWait                       // the application's next poll
	HeartbeatWait                  // a classic member's heartbeat thread: heartbeat.interval.ms
	SessionWait                    // the coordinator's session timer of a classic member id
	InitialDelayWait               // the join phase of a group that was Empty: group.initial.rebalance.delay.ms
	RebalanceWait                  // the join, sync or KIP-848 rebalance timer: the rebalance timeout
	ConsumerHeartbeat              // a KIP-848 member's heartbeat interval (the coordinator's)
	ConsumerSession                // the KIP-848 coordinator's session timer of a member id
	RequestWait                    // a client's request timer after its response is lost
	PollIntervalWait               // a member's poll timer, max.poll.interval.ms, runs out
	MetadataWait                   // a client's metadata refresh: metadata.max.age.ms
	numTimers
)

var timerNames = [numTimers]string{
	"none", "network-delay", "poll-interval", "heartbeat-interval", "session-timeout",
	"initial-delay", "rebalance-timeout", "consumer-heartbeat-interval",
	"consumer-session-timeout", "request-timeout", "max-poll-interval", "metadata-max-age",
}

// String is the timer's key in the config's timers directive.
func (t Timer) String() string { return timerNames[t] }

// Timers are the durations, in milliseconds, of what a step can wait for (Timer). The
// defaults are Kafka's (DefaultTimers); the config's timers directive overrides them.
type Timers struct {
	// NetworkDelay is what one delivery of a request or a response costs (default 0: the
	// network is free, only timers cost).
	NetworkDelay int
	// PollInterval is the application's time between polls (default 0: it polls at once;
	// Kafka has no such setting, the application's loop decides).
	PollInterval int
	// HeartbeatInterval is the classic consumer's heartbeat.interval.ms (ConsumerConfig,
	// default 3000): a member learns of a rebalance from its next heartbeat.
	HeartbeatInterval int
	// SessionTimeout is the classic consumer's session.timeout.ms (ConsumerConfig, default
	// 45000 since Kafka 3.0, KIP-735), which it sends in JoinGroup.
	SessionTimeout int
	// InitialDelay is the coordinator's group.initial.rebalance.delay.ms
	// (GroupCoordinatorConfig.GROUP_INITIAL_REBALANCE_DELAY_MS_DEFAULT, 3000): the join phase
	// of a group that was Empty (InitialDelayedJoin).
	InitialDelay int
	// RebalanceTimeout is max.poll.interval.ms (ConsumerConfig, default 300000), which the
	// Java consumer sends as its rebalance timeout (JoinGroup v1+, ConsumerGroupHeartbeat):
	// the join and sync timers of a classic group, the KIP-848 rebalance timer.
	RebalanceTimeout int
	// MaxPollInterval is max.poll.interval.ms again, as the member's own poll timer: what a
	// poll-timeout event waits (default 300000).
	MaxPollInterval int
	// ConsumerHeartbeatInterval is the KIP-848 coordinator's
	// group.consumer.heartbeat.interval.ms
	// (GroupCoordinatorConfig.CONSUMER_GROUP_HEARTBEAT_INTERVAL_MS_DEFAULT, 5000).
	ConsumerHeartbeatInterval int
	// ConsumerSessionTimeout is group.consumer.session.timeout.ms
	// (GroupCoordinatorConfig.CONSUMER_GROUP_SESSION_TIMEOUT_MS_DEFAULT, 45000).
	ConsumerSessionTimeout int
	// RequestTimeout is the client's request.timeout.ms (ConsumerConfig, default 30000): how
	// long a client waits for a response that was lost.
	RequestTimeout int
	// MetadataMaxAge is metadata.max.age.ms (CommonClientConfigs, default 300000): how late a
	// member's metadata may catch up with the cluster.
	MetadataMaxAge int
	_              struct{}
}

// DefaultTimers are Kafka's defaults (see each field).
func DefaultTimers() Timers {
	return Timers{HeartbeatInterval: 3000, SessionTimeout: 45000, InitialDelay: 3000,
		RebalanceTimeout: 300000, MaxPollInterval: 300000, ConsumerHeartbeatInterval: 5000,
		ConsumerSessionTimeout: 45000, RequestTimeout: 30000, MetadataMaxAge: 300000}
}

type timerField struct {
	t Timer
	v *int
}

func (d *Timers) fields() []timerField {
	return []timerField{
		{NetworkWait, &d.NetworkDelay}, {PollWait, &d.PollInterval},
		{HeartbeatWait, &d.HeartbeatInterval}, {SessionWait, &d.SessionTimeout},
		{InitialDelayWait, &d.InitialDelay}, {RebalanceWait, &d.RebalanceTimeout},
		{ConsumerHeartbeat, &d.ConsumerHeartbeatInterval}, {ConsumerSession, &d.ConsumerSessionTimeout},
		{RequestWait, &d.RequestTimeout}, {PollIntervalWait, &d.MaxPollInterval},
		{MetadataWait, &d.MetadataMaxAge},
	}
}

// Of is the duration of timer t in milliseconds; 0 for NoWait.
func (d Timers) Of(t Timer) int {
	for _, f := range d.fields() {
		if f.t == t {
			return *f.v
		}
	}
	return 0
}

// set overrides one duration by its key; a bad key or value is an error naming it.
func (d *Timers) set(k, v string) error {
	var names []string
	for _, f := range d.fields() {
		if f.t.String() != k {
			names = append(names, f.t.String())
			continue
		}
		n, err := ParseMillis(v)
		if err != nil {
			return fmt.Errorf("timers %s: %w", k, err)
		}
		*f.v = n
		return nil
	}
	return fmt.Errorf("timers: unknown key %q%s (keys: %s)", k, spell.Hint(k, names), strings.Join(names, ", "))
}

// ParseMillis reads a duration: milliseconds, or a whole number with the unit ms, s or min
// (the timers directive's values, groupcheck's --max-converge-time).
func ParseMillis(v string) (int, error) {
	num, unit := v, 1
	for _, u := range []struct {
		suffix string
		ms     int
	}{{"ms", 1}, {"min", 60000}, {"s", 1000}} {
		if s, ok := strings.CutSuffix(v, u.suffix); ok {
			num, unit = s, u.ms
			break
		}
	}
	var n int
	if _, err := fmt.Sscanf(num, "%d", &n); err != nil || fmt.Sprint(n) != num || n < 0 {
		return 0, fmt.Errorf("%q is not a duration (milliseconds, or a whole number of ms, s or min; 0 or more)", v)
	}
	if n > 24*3600*1000/unit {
		return 0, fmt.Errorf("%q is longer than a day", v)
	}
	return n * unit, nil
}

// Durations are the config's timer durations: its timers directive over Kafka's defaults.
func (c Config) Durations() Timers {
	if c.Timers == nil {
		return DefaultTimers()
	}
	return *c.Timers
}

// Waits is the timer action a waits for in world w: what has to run out before the step can
// happen. A delivery waits for the network, a poll for the application's loop, a heartbeat
// for the heartbeat interval (a KIP-848 member in JOINING, ACKNOWLEDGING or LEAVING sends at
// once, docs/protocol.md §3.7), a coordinator's timer for its timeout, a lost response for the
// client's request timeout. Environment events that are no timer (a start, a crash) wait for
// nothing: when they happen is the environment's choice.
func Waits(w World, a Action) Timer {
	switch a.Kind {
	case DeliverRequest, DeliverResponse:
		return NetworkWait
	case Poll:
		return PollWait
	case Heartbeat:
		if !w.ConsumerSlot(int(a.Slot)) {
			return HeartbeatWait
		}
		if s := w.Slots[a.Slot]; s.Member != nil && s.Member.State().Urgent() {
			return NoWait
		}
		return ConsumerHeartbeat
	case SessionExpiry, PendingExpiry:
		if w.IsConsumerGroup() {
			return ConsumerSession
		}
		return SessionWait
	case JoinTimeout:
		if w.Coord.InitialJoin() {
			return InitialDelayWait
		}
		return RebalanceWait
	case SyncTimeout, RebalanceTimeout:
		return RebalanceWait
	case LoseResponse:
		return RequestWait
	case PollTimeout:
		return PollIntervalWait
	case Refresh:
		return MetadataWait
	}
	return NoWait
}

// validate checks what would make the durations contradict each other.
func (d Timers) validate() error {
	if d.HeartbeatInterval >= d.SessionTimeout && d.SessionTimeout > 0 {
		return fmt.Errorf("timers heartbeat-interval: %d ms is not below session-timeout %d ms (every session would expire between two heartbeats)", d.HeartbeatInterval, d.SessionTimeout)
	}
	if d.ConsumerHeartbeatInterval >= d.ConsumerSessionTimeout && d.ConsumerSessionTimeout > 0 {
		return fmt.Errorf("timers consumer-heartbeat-interval: %d ms is not below consumer-session-timeout %d ms (every session would expire between two heartbeats)", d.ConsumerHeartbeatInterval, d.ConsumerSessionTimeout)
	}
	return nil
}

// String lists the durations that differ from Kafka's defaults as KEY=MS pairs (the timers
// directive's form), "" when none does.
func (d Timers) String() string {
	def := DefaultTimers()
	df := def.fields()
	var parts []string
	for i, f := range d.fields() {
		if *f.v != *df[i].v {
			parts = append(parts, fmt.Sprintf("%s=%d", f.t, *f.v))
		}
	}
	return strings.Join(parts, " ")
}
