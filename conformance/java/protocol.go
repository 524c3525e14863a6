package java

import (
	h "github.com/groupcheck/groupcheck/conformance/harness"
	"github.com/groupcheck/groupcheck/oracle/history"
)

// classic is group.protocol=classic with a client-side assignor. Java's classic consumer
// stops heartbeating while its JoinGroup is parked (AbstractCoordinator's heartbeat thread
// skips a member that has not joined), hence JoinSafeTiming against kfake. Every leader round
// and the callbacks after every SyncGroup are compared with the reference (CheckReference).
func classic(name, strategy string, opt options) h.Protocol {
	opt.settings = append([]string{"group.protocol=classic", "partition.assignment.strategy=" + strategy}, opt.settings...)
	return h.Protocol{Name: name, Proto: history.Classic, ServerTap: true, Timing: h.JoinSafeTiming, Start: start(opt),
		Check: CheckReference}
}

// kip848 is group.protocol=consumer (KIP-848) with a server-side assignor.
func kip848(name, assignor string, opt options) h.Protocol {
	opt.settings = append([]string{"group.protocol=consumer", "group.remote.assignor=" + assignor}, opt.settings...)
	return h.Protocol{Name: name, Proto: history.Consumer, ServerTap: true, Start: start(opt), Check: CheckReference848}
}

// mixed gives a cooperative protocol its Mixed form: the range assignor listed after the
// cooperative one, as KIP-429's first rolling bounce leaves a consumer. Such a consumer
// rebalances eagerly (ConsumerCoordinator's constructor takes the protocol every assignor
// supports), while the group still picks cooperative-sticky (the first of its list that
// every member supports, ClassicGroup.selectProtocol).
func mixed(p h.Protocol) h.Protocol {
	p.Mixed = start(options{settings: []string{"group.protocol=classic",
		"partition.assignment.strategy=" + cooperativeAssignor + "," + rangeAssignor}})
	return p
}

const (
	rangeAssignor       = "org.apache.kafka.clients.consumer.RangeAssignor"
	roundRobinAssignor  = "org.apache.kafka.clients.consumer.RoundRobinAssignor"
	cooperativeAssignor = "org.apache.kafka.clients.consumer.CooperativeStickyAssignor"
)

// The protocols of issue 30 §3: classic eager (range, roundrobin), classic cooperative-sticky
// (KIP-429), and the consumer protocol with the uniform and range server assignors; and
// static members (KIP-345, group.instance.id) under cooperative-sticky and uniform.
var (
	Range             = classic("range", rangeAssignor, options{})
	RoundRobin        = classic("roundrobin", roundRobinAssignor, options{})
	Cooperative       = mixed(classic("cooperative-sticky", cooperativeAssignor, options{}))
	CooperativeStatic = classic("cooperative-sticky-static", cooperativeAssignor, options{static: true})
	Uniform           = kip848("kip848-uniform", "uniform", options{})
	UniformStatic     = kip848("kip848-uniform-static", "uniform", options{static: true})
	RangeServer       = kip848("kip848-range", "range", options{})
)

// Protocols lists them but UniformStatic, whose graceful leave kfake mishandles: a static
// KIP-848 member that leaves (epoch -2) keeps its partitions for ever there, where Kafka
// releases them when its session expires (TestKfakeStaticLeaveNeverExpires). UniformStatic
// runs the scenarios without a leave before a settle (StaticScenarios).
var Protocols = []h.Protocol{Range, RoundRobin, Cooperative, CooperativeStatic, Uniform, RangeServer}

// StaticScenarios are the scenarios UniformStatic runs against kfake.
var StaticScenarios = []h.Scenario{h.Crash, h.Fence}
