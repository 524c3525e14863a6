package harness

import (
	"context"
	"time"

	"github.com/groupcheck/groupcheck/oracle"
	"github.com/groupcheck/groupcheck/oracle/history"
)

// Protocol is one way a client library's consumers share a group: a subtest name, the
// history's protocol, and how its driver starts one consumer.
type Protocol struct {
	Name  string // subtest name, e.g. "cooperative-sticky"
	Proto string // history.Classic or history.Consumer
	// Start starts one consumer process of the client library as node n: it joins Group,
	// subscribes to n.Topics(), dials through n.Net(), and reports its callbacks, commits and
	// polls through n's methods. It returns once the client is created, not once it joined.
	Start func(n *Node) (Client, error)
	// Mixed, if set, starts a consumer of the same library in the middle of KIP-429's
	// upgrade: its assignors list the protocol's cooperative one first and an eager one
	// after it, so the group still chooses the cooperative assignor while this member,
	// whose assignors are not all cooperative, rebalances eagerly (Java's
	// ConsumerCoordinator picks the protocol all its assignors support). Scenarios with an
	// OpStartMixed step are skipped for protocols without it.
	Mixed func(n *Node) (Client, error)
	// ServerTap taps and cuts the client's connections on kfake's side (Server), for client
	// libraries that dial on their own and cannot be given Net.DialContext (librdkafka).
	ServerTap bool
	// Timing, if set, replaces DefaultTiming for this protocol's runs.
	Timing Timing
	// KnownBug, if set, says whether a violation is a known bug of this client library (and
	// names it), from the run's history: such a violation is reported (Verdict.Known), not
	// failed. Only for bugs of the library under test, reproduced in its module's testdata/,
	// and matched as narrowly as the history allows.
	KnownBug func(h history.History, x oracle.Violation) (string, bool)
	// Check, if set, is a further check of each run's history beside the oracle's (a driver
	// comparing its client with the reference, say): fail lists what fails the run, note what
	// is only logged.
	Check func(h history.History) (fail, note []string)
}

// Client is one running consumer, as its driver exposes it to the harness.
type Client interface {
	// Group returns the member ID and generation (classic) or member epoch (KIP-848) the
	// client is on now ("" before it joined).
	Group() (member string, gen int32)
	// Leave closes the consumer gracefully, as an application shutting down does: the
	// client revokes what it owns (the driver commits in the revoke), leaves the group and
	// is closed. It returns an error if the leave failed or did not finish within ctx.
	Leave(ctx context.Context) error
	// Kill tears the client down without leaving, after its network went down (a crash).
	// Whatever it calls back from then on is dropped by the recorder. It may block for as
	// long as the client retries.
	Kill()
}

// Timing holds the group timings: the clients' defaults (45 s session, 3 s heartbeat) and
// kfake's (6 s minimum classic session, 5 s KIP-848 heartbeat) would make every run take
// minutes (docs/clients.md §5, "Set kfake's group timing").
type Timing struct {
	Session   time.Duration // classic session timeout, and KIP-848's group.consumer.session.timeout.ms
	Heartbeat time.Duration // the clients' heartbeat interval, and group.consumer.heartbeat.interval.ms
	Rebalance time.Duration // the clients' rebalance timeout
	Poll      time.Duration // how long one poll may wait
	Commit    time.Duration // between commits from the poll loop; and the bound on one commit
	Quiet     time.Duration // how long the settle signature must hold still
	SettleMax time.Duration // how long a settle may take before the run fails
	LateAck   time.Duration // how late the EarlyRevokeAck client finishes its revoke
}

// DefaultTiming is what docs/clients.md measured to work on a 2-core machine.
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

// StallMax is the settle bound Judge gives the oracle (oracle.Options.Settle, judging
// rebalance-completes): the longest the group may sit unchanged while a partition has no live
// owner or a member lacks its assignment. In a healthy run every such wait is on a timer (a
// session expiring, a join or sync phase waiting out the rebalance timeout), so three times
// the longest chain of them is a stall no timer explains. It is below SettleMax because Settle
// counts from its call, and a group that stops changing during a settle has then waited less
// than SettleMax without change when the settle times out (conformance/sarama's
// kfake-join-expiry fixture: 26.7 s in a 30 s settle).
func (t Timing) StallMax() time.Duration { return min(t.SettleMax, 3*(t.Session+t.Rebalance)) }

// JoinSafeTiming is DefaultTiming with the session timeout above the rebalance timeout, for
// clients that stop heartbeating while their JoinGroup is parked (Sarama, kafka-go,
// librdkafka; Kafka keeps a member awaiting join alive). kfake does not: its session timer
// removes a member whose JoinGroup waits longer than a session for a slower member, and never
// answers that JoinGroup (groups.go updateHeartbeat/removeMember; the finding in
// conformance/sarama/testdata/kfake-join-expiry-cooperative-sticky.jsonl). With the session
// longer than the rebalance timeout, the rebalance completes before any session can lapse.
var JoinSafeTiming = func() Timing {
	t := DefaultTiming
	t.Session, t.Rebalance = 3*time.Second, 2500*time.Millisecond
	return t
}()
