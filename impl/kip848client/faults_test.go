package kip848client

import (
	"testing"

	"github.com/google/go-cmp/cmp"
	"github.com/groupcheck/groupcheck/impl"
)

// TestFaultInFlightStuckOnError: with impl.FaultInFlightStuckOnError an error response leaves
// the in-flight marker set, so the member — fenced and rejoining, or retrying after
// NOT_COORDINATOR — never sends another heartbeat; the correct member does.
// Reference: docs/bugs.md B21 (KAFKA-16215 / KAFKA-16178).
func TestFaultInFlightStuckOnError(t *testing.T) {
	type outcome struct {
		State          State
		InFlight       bool
		WantsHeartbeat bool
		Sent           int // heartbeats sent by the response and three ticks after it
	}
	cases := []struct {
		name         string
		resp         impl.ErrorCode
		correct, bug outcome
	}{
		{"fenced", impl.FencedMemberEpoch, outcome{Joining, true, false, 1}, outcome{Joining, true, false, 0}},
		{"unknown member", impl.UnknownMemberID, outcome{Joining, true, false, 1}, outcome{Joining, true, false, 0}},
		{"not coordinator", impl.NotCoordinator, outcome{Stable, true, false, 1}, outcome{Stable, true, false, 0}},
		{"coordinator not available", impl.CoordinatorNotAvailable, outcome{Stable, true, false, 1}, outcome{Stable, true, false, 0}},
	}
	run := func(t *testing.T, faults impl.Faults, code impl.ErrorCode) outcome {
		cfg := dynamicCfg()
		cfg.Faults = faults
		m := ticked(t, stable(t, cfg, set(0)))
		m, effs := m.OnHeartbeatResponse(errResp(code))
		n := countHeartbeats(effs)
		for range 3 {
			m, effs = m.HeartbeatTick()
			n += countHeartbeats(effs)
		}
		return outcome{m.State(), m.InFlight(), m.WantsHeartbeat(), n}
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			if diff := cmp.Diff(c.correct, run(t, 0, c.resp)); diff != "" {
				t.Errorf("correct (-want +got):\n%s", diff)
			}
			bug := impl.Faults(0).With(impl.FaultInFlightStuckOnError)
			if diff := cmp.Diff(c.bug, run(t, bug, c.resp)); diff != "" {
				t.Errorf("faulty (-want +got):\n%s", diff)
			}
		})
	}
	// Successful responses still clear the marker under the fault.
	cfg := dynamicCfg()
	cfg.Faults = impl.Faults(0).With(impl.FaultInFlightStuckOnError)
	if m := stable(t, cfg, set(0)); m.InFlight() {
		t.Errorf("success left the marker set: %s", m)
	}
	if impl.FaultInFlightStuckOnError.String() != "in-flight-stuck-on-error" {
		t.Errorf("fault name %q", impl.FaultInFlightStuckOnError)
	}
}

func countHeartbeats(effs []Effect) int {
	n := 0
	for _, e := range effs {
		if s, ok := e.(Send); ok {
			if _, ok := s.Request.(impl.ConsumerGroupHeartbeatRequest); ok {
				n++
			}
		}
	}
	return n
}
