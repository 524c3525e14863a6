package java

import (
	h "github.com/groupcheck/groupcheck/conformance/harness"
	"github.com/groupcheck/groupcheck/oracle/history"
)

// classic is group.protocol=classic with a client-side assignor. Java's classic consumer
// stops heartbeating while its JoinGroup is parked (AbstractCoordinator's heartbeat thread
// skips a member that has not joined), hence JoinSafeTiming against kfake.
func classic(name, strategy string, extra ...string) h.Protocol {
	return h.Protocol{Name: name, Proto: history.Classic, ServerTap: true, Timing: h.JoinSafeTiming,
		Start: start("continue", append([]string{"group.protocol=classic",
			"partition.assignment.strategy=" + strategy}, extra...)...)}
}

// consumer is group.protocol=consumer (KIP-848) with a server-side assignor.
func consumer(name, assignor string) h.Protocol {
	return h.Protocol{Name: name, Proto: history.Consumer, ServerTap: true,
		Start: start("continue", "group.protocol=consumer", "group.remote.assignor="+assignor)}
}

// The protocols of issue 30 §3: classic eager (range, roundrobin), classic cooperative-sticky
// (KIP-429), and the consumer protocol with the uniform and range server assignors.
var (
	Range       = classic("range", "org.apache.kafka.clients.consumer.RangeAssignor")
	RoundRobin  = classic("roundrobin", "org.apache.kafka.clients.consumer.RoundRobinAssignor")
	Cooperative = classic("cooperative-sticky", "org.apache.kafka.clients.consumer.CooperativeStickyAssignor")
	Uniform     = consumer("kip848-uniform", "uniform")
	RangeServer = consumer("kip848-range", "range")
)

// Protocols lists them.
var Protocols = []h.Protocol{Range, RoundRobin, Cooperative, Uniform, RangeServer}
