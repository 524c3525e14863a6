package franzgo

import (
	"time"

	"github.com/groupcheck/groupcheck/oracle/history"
	"github.com/twmb/franz-go/pkg/kgo"
)

// Protocol is one way kgo consumers share a group.
type Protocol struct {
	Name  string // subtest name
	Proto string // history.Classic or history.Consumer
	opt   kgo.Opt
}

// The three protocols the suite runs (issue 7 item 2).
var (
	// Cooperative is classic JoinGroup/SyncGroup with KIP-429 incremental rebalancing.
	Cooperative = Protocol{Name: "cooperative", Proto: history.Classic,
		opt: kgo.Balancers(kgo.CooperativeStickyBalancer())}
	// Eager is classic with the range assignor: every member revokes everything before
	// rejoining.
	Eager = Protocol{Name: "eager", Proto: history.Classic, opt: kgo.Balancers(kgo.RangeBalancer())}
	// KIP848 is the consumer protocol (ConsumerGroupHeartbeat); kgo's default
	// cooperative-sticky balancer makes it ask for kfake's "uniform" server assignor
	// (PEERS.md §2, "Turning on KIP-848").
	KIP848 = Protocol{Name: "kip848", Proto: history.Consumer, opt: kgo.ServerSideBalancer()}
)

// Protocols lists the three.
var Protocols = []Protocol{Cooperative, Eager, KIP848}

// Timing holds the group timings: kgo's defaults (45 s session, 3 s heartbeat) and kfake's
// (6 s minimum classic session, 5 s KIP-848 heartbeat) would make every run take minutes
// (PEERS.md §5, "Set kfake's group timing").
type Timing struct {
	Session   time.Duration // classic session timeout, and KIP-848's group.consumer.session.timeout.ms
	Heartbeat time.Duration // kgo's heartbeat interval, and group.consumer.heartbeat.interval.ms
	Rebalance time.Duration // kgo's rebalance timeout
	Poll      time.Duration // how long one PollFetches may wait
	Commit    time.Duration // between commits from the poll loop; and the bound on one commit
	Quiet     time.Duration // how long the settle signature must hold still
	SettleMax time.Duration // how long a settle may take before the run fails
	LateAck   time.Duration // how late the EarlyRevokeAck client finishes its revoke
}

// DefaultTiming is what PEERS.md measured to work on a 2-core machine.
var DefaultTiming = Timing{
	Session:   1500 * time.Millisecond,
	Heartbeat: 150 * time.Millisecond,
	Rebalance: 3 * time.Second,
	Poll:      100 * time.Millisecond,
	Commit:    300 * time.Millisecond,
	Quiet:     1200 * time.Millisecond,
	SettleMax: 30 * time.Second,
	LateAck:   time.Second,
}
