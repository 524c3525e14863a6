package sarama

import (
	ibm "github.com/IBM/sarama"
	h "github.com/groupcheck/groupcheck/conformance/harness"
	"github.com/groupcheck/groupcheck/oracle/history"
)

// The strategies Sarama v1.61.1 ships (balance_strategy.go, consumer_group_cooperative.go),
// each a classic-protocol run. Sarama has no KIP-848 consumer.
var (
	Range      = h.Protocol{Name: "range", Proto: history.Classic, Timing: h.JoinSafeTiming, Start: start(ibm.NewBalanceStrategyRange)}
	RoundRobin = h.Protocol{Name: "roundrobin", Proto: history.Classic, Timing: h.JoinSafeTiming, Start: start(ibm.NewBalanceStrategyRoundRobin)}
	Sticky     = h.Protocol{Name: "sticky", Proto: history.Classic, Timing: h.JoinSafeTiming, Start: start(ibm.NewBalanceStrategySticky)}
	// Cooperative is KIP-429's cooperative-sticky: one session across rebalances, revoking
	// only what moves. Its Mixed members list range after it and so rebalance eagerly
	// (rebalance_protocol.go selectRebalanceProtocol: cooperative only if every strategy
	// supports it).
	Cooperative = h.Protocol{Name: "cooperative-sticky", Proto: history.Classic, Timing: h.JoinSafeTiming,
		Start: start(ibm.NewBalanceStrategyCooperativeSticky),
		Mixed: start(ibm.NewBalanceStrategyCooperativeSticky, ibm.NewBalanceStrategyRange)}
)

// Protocols lists the four, each with Sarama's known claim lag (knownBug).
var Protocols = withKnownBug(Range, RoundRobin, Sticky, Cooperative)

func withKnownBug(ps ...h.Protocol) []h.Protocol {
	for i := range ps {
		ps[i].KnownBug = knownBug
	}
	return ps
}
