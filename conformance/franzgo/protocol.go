package franzgo

import (
	h "github.com/groupcheck/groupcheck/conformance/harness"
	"github.com/groupcheck/groupcheck/oracle/history"
	"github.com/twmb/franz-go/pkg/kgo"
)

// The three protocols the suite runs (issue 7 item 2).
var (
	// Cooperative is classic JoinGroup/SyncGroup with KIP-429 incremental rebalancing.
	// Its Mixed members list the range balancer after cooperative-sticky, as KIP-429's
	// first rolling bounce leaves them: kgo rebalances eagerly unless every balancer is
	// cooperative (consumer_group.go, g.cooperative).
	Cooperative = h.Protocol{Name: "cooperative", Proto: history.Classic,
		Start: start(kgo.Balancers(kgo.CooperativeStickyBalancer())),
		Mixed: start(kgo.Balancers(kgo.CooperativeStickyBalancer(), kgo.RangeBalancer()))}
	// Eager is classic with the range assignor: every member revokes everything before
	// rejoining.
	Eager = h.Protocol{Name: "eager", Proto: history.Classic, Start: start(kgo.Balancers(kgo.RangeBalancer()))}
	// KIP848 is the consumer protocol (ConsumerGroupHeartbeat); kgo's default
	// cooperative-sticky balancer makes it ask for kfake's "uniform" server assignor
	// (docs/clients.md §2, "Turning on KIP-848").
	KIP848 = h.Protocol{Name: "kip848", Proto: history.Consumer, Start: start(kgo.ServerSideBalancer())}
)

// Protocols lists the three.
var Protocols = []h.Protocol{Cooperative, Eager, KIP848}
