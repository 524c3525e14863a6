package kafkago

import (
	h "github.com/groupcheck/groupcheck/conformance/harness"
	"github.com/groupcheck/groupcheck/oracle/history"
	kafka "github.com/segmentio/kafka-go"
)

// The balancers kafka-go v0.4.51 ships for its (eager, classic) consumer groups
// (groupbalancer.go). RackAffinityGroupBalancer is range by rack and needs racks, which the
// kfake cluster here does not set. kafka-go has no cooperative protocol and no KIP-848.
var (
	Range      = h.Protocol{Name: "range", Proto: history.Classic, Timing: h.JoinSafeTiming, Start: start(kafka.RangeGroupBalancer{})}
	RoundRobin = h.Protocol{Name: "roundrobin", Proto: history.Classic, Timing: h.JoinSafeTiming, Start: start(kafka.RoundRobinGroupBalancer{})}
)

// Protocols lists the two.
var Protocols = []h.Protocol{Range, RoundRobin}
