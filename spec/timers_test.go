package spec

import (
	"strings"
	"testing"
)

const timersClassic = "protocol eager\nconsumer kafka\ncoordinator kafka\nassignor range\ntopic t 2\nmember a topics=t\n"

// Kafka's defaults, and a timers directive overriding some of them, round-tripping through
// Format. Reference: ConsumerConfig (heartbeat.interval.ms 3000, session.timeout.ms 45000,
// max.poll.interval.ms 300000, request.timeout.ms 30000), GroupCoordinatorConfig
// (group.initial.rebalance.delay.ms 3000, group.consumer.heartbeat.interval.ms 5000,
// group.consumer.session.timeout.ms 45000).
func TestTimersDefaultsAndOverrides(t *testing.T) {
	c, err := ParseConfigString("x.conf", timersClassic)
	if err != nil {
		t.Fatal(err)
	}
	d := c.Durations()
	for _, tc := range []struct {
		t    Timer
		want int
	}{{NetworkWait, 0}, {PollWait, 0}, {HeartbeatWait, 3000}, {SessionWait, 45000}, {InitialDelayWait, 3000},
		{RebalanceWait, 300000}, {ConsumerHeartbeat, 5000}, {ConsumerSession, 45000}, {RequestWait, 30000},
		{PollIntervalWait, 300000}, {MetadataWait, 300000}, {NoWait, 0}} {
		if got := d.Of(tc.t); got != tc.want {
			t.Errorf("default %s = %d, want %d", tc.t, got, tc.want)
		}
	}
	if strings.Contains(c.Format(), "timers") {
		t.Errorf("defaults formatted as a timers directive:\n%s", c.Format())
	}
	c, err = ParseConfigString("x.conf", timersClassic+"timers session-timeout=10s heartbeat-interval=500\ntimers initial-delay=0 network-delay=5ms rebalance-timeout=1min\n")
	if err != nil {
		t.Fatal(err)
	}
	d = c.Durations()
	if d.SessionTimeout != 10000 || d.HeartbeatInterval != 500 || d.InitialDelay != 0 || d.NetworkDelay != 5 || d.RebalanceTimeout != 60000 || d.MaxPollInterval != 300000 {
		t.Errorf("overrides: %+v", d)
	}
	back, err := ParseConfigString("x.conf", c.Format())
	if err != nil || back.Durations() != d {
		t.Errorf("does not round-trip (%v):\n%s", err, c.Format())
	}
}

func TestTimersErrorsNameTheLine(t *testing.T) {
	for _, tc := range []struct{ text, want string }{
		{"timers heartbeat=3s\n", `x.conf:7: timers: unknown key "heartbeat"`},
		{"timers session-timeout=-1\n", `x.conf:7: timers session-timeout: "-1" is not a duration`},
		{"timers session-timeout=3h\n", `x.conf:7: timers session-timeout: "3h" is not a duration`},
		{"timers session-timeout\n", `x.conf:7: timers: "session-timeout" is not KEY=DURATION`},
		{"timers\n", "x.conf:7: timers needs KEY=DURATION pairs"},
		{"timers request-timeout=99999999min\n", `x.conf:7: timers request-timeout: "99999999min" is longer than a day`},
		{"# comment\ntimers heartbeat-interval=45s\n", "x.conf:8: timers heartbeat-interval: 45000 ms is not below session-timeout 45000 ms"},
	} {
		_, err := ParseConfigString("x.conf", timersClassic+tc.text)
		if err == nil || !strings.HasPrefix(err.Error(), tc.want) {
			t.Errorf("%q: error = %v, want it to start %q", tc.text, err, tc.want)
		}
	}
}

// Every timer has a key in the directive, and the keys are distinct.
func TestTimerKeys(t *testing.T) {
	var d Timers
	seen := map[string]bool{}
	for _, f := range d.fields() {
		if seen[f.t.String()] {
			t.Errorf("key %s twice", f.t)
		}
		seen[f.t.String()] = true
	}
	if len(seen) != int(numTimers)-1 {
		t.Errorf("%d keys for %d timers", len(seen), numTimers-1)
	}
}

// What the steps of a classic group's first rebalance and of a KIP-848 member's heartbeat
// wait for: the initial delay from Empty (InitialDelayedJoin, docs/protocol.md §1.3), the
// network for deliveries, a KIP-848 JOINING member's heartbeat at once (§3.7).
func TestWaits(t *testing.T) {
	c, err := ParseConfigString("x.conf", timersClassic)
	if err != nil {
		t.Fatal(err)
	}
	w := Init(c)
	sawInitial := false
	for range 6 {
		var next World
		moved := false
		for _, a := range Actions(w, nil) {
			n, ok := Next(w, a)
			if !ok {
				continue
			}
			switch got := Waits(w, a); a.Kind {
			case DeliverRequest, DeliverResponse:
				if got != NetworkWait {
					t.Errorf("%s waits %s", a.Text(&c), got)
				}
			case JoinTimeout:
				sawInitial = sawInitial || got == InitialDelayWait
			}
			if !moved {
				next, moved = n, true
			}
		}
		if !moved {
			break
		}
		w = next
	}
	if !sawInitial {
		t.Errorf("the first join phase's timer was never the initial delay")
	}
	k, err := ParseConfigString("k.conf", "protocol consumer\nconsumer kafka\ncoordinator kafka\nassignor uniform\ntopic t 2\nmember a topics=t\n")
	if err != nil {
		t.Fatal(err)
	}
	kw := Init(k)
	for _, a := range Actions(kw, nil) {
		if a.Kind == Heartbeat && Waits(kw, a) != ConsumerHeartbeat && !kw.Slots[a.Slot].Member.State().Urgent() {
			t.Errorf("KIP-848 heartbeat of a %s member waits %s", kw.Slots[a.Slot].Member.State(), Waits(kw, a))
		}
	}
}
