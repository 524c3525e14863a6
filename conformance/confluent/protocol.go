package confluent

import (
	"github.com/confluentinc/confluent-kafka-go/v2/kafka"
	h "github.com/groupcheck/groupcheck/conformance/harness"
	"github.com/groupcheck/groupcheck/oracle/history"
)

func classic(strategy string) h.Protocol {
	return h.Protocol{Name: strategy, Proto: history.Classic, ServerTap: true, Timing: h.JoinSafeTiming,
		Start: start(kafka.ConfigMap{"group.protocol": "classic", "partition.assignment.strategy": strategy})}
}

// eager is a classic eager protocol, with librdkafka's eager bug classified (knownBug).
func eager(strategy string) h.Protocol {
	p := classic(strategy)
	p.KnownBug = knownBug
	return p
}

// The protocols librdkafka 2.11.1 (bundled by confluent-kafka-go v2.11.1) speaks: classic
// eager (range, roundrobin), classic cooperative-sticky (KIP-429), and KIP-848's consumer
// protocol with kfake's "uniform" server assignor.
var (
	Range      = eager("range")
	RoundRobin = eager("roundrobin")
	// Cooperative has no Mixed form (harness.MixedUpgrade): librdkafka refuses a
	// partition.assignment.strategy list that mixes cooperative and eager assignors
	// (rdkafka_assignor.c, rd_kafka_assignors_init), so KIP-429's two-bounce upgrade cannot be
	// configured in it.
	Cooperative = classic("cooperative-sticky")
	KIP848      = h.Protocol{Name: "kip848", Proto: history.Consumer, ServerTap: true,
		Start: start(kafka.ConfigMap{"group.protocol": "consumer", "group.remote.assignor": "uniform"})}
)

// Protocols lists the four.
var Protocols = []h.Protocol{Range, RoundRobin, Cooperative, KIP848}
