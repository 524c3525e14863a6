package spec

import (
	"fmt"
	"strings"

	"github.com/groupcheck/groupcheck/impl"
	"github.com/groupcheck/groupcheck/impl/consumer"
	"github.com/groupcheck/groupcheck/impl/kip848"
)

// Format writes the config in the config-file format that ParseConfig reads, every directive
// spelled out, so that Format and ParseConfig round-trip and a trace header carries its world.
func (c Config) Format() string {
	var b strings.Builder
	coord := map[impl.Variant]string{impl.Kafka: "kafka", impl.KIP: "kip423"}[c.Coordinator]
	protocol := c.Protocol.String()
	if c.ConsumerProtocol {
		protocol = "consumer"
	}
	fmt.Fprintf(&b, "name %s\nprotocol %s\nconsumer %s\ncoordinator %s\nassignor %s\n",
		c.Name, protocol, c.Consumer, coord, c.Assignor)
	for _, t := range c.Topics {
		fmt.Fprintf(&b, "topic %s %d\n", t.Name, t.Partitions)
	}
	for _, m := range c.Members {
		b.WriteString(m.format(c.ConsumerProtocol))
	}
	if budget := c.Budget.String(); budget != "" {
		fmt.Fprintf(&b, "budget %s\n", budget)
	}
	for _, f := range impl.AllFaults() {
		if c.Faults.Has(f) {
			fmt.Fprintf(&b, "fault %s\n", f)
		}
	}
	if c.ClientMemberIDs {
		b.WriteString("member-ids client\n")
	}
	if c.CommitRule != kip848.CommitAssignmentEpochs {
		fmt.Fprintf(&b, "commit-epochs %s\n", c.CommitRule)
	}
	if c.Mixed() && c.MigrationPolicy != kip848.MigrationBidirectional {
		fmt.Fprintf(&b, "migration-policy %s\n", c.MigrationPolicy)
	}
	if c.MaxSize > 0 {
		fmt.Fprintf(&b, "group-max-size %d\n", c.MaxSize)
	}
	if c.OnFatal != consumer.FatalStops {
		fmt.Fprintf(&b, "on-fatal %s\n", c.OnFatal)
	}
	if t := c.Durations().String(); t != "" {
		fmt.Fprintf(&b, "timers %s\n", t)
	}
	if c.Commits && c.CommitPolicy != consumer.CommitJava {
		fmt.Fprintf(&b, "commits %s\n", c.CommitPolicy)
	} else if c.Commits {
		b.WriteString("commits on\n")
	}
	return b.String()
}

func (m MemberConfig) format(consumerProtocol bool) string {
	s := fmt.Sprintf("member %s topics=%s", m.Name, strings.Join(m.Topics, ","))
	if len(m.AltTopics) > 0 {
		s += " alt-topics=" + strings.Join(m.AltTopics, ",")
	}
	if m.Unsubscribes {
		s += " alt-topics=-"
	}
	if m.Static {
		s += " static"
	}
	if m.Instance != "" {
		s += " instance=" + m.Instance
	}
	if m.Absent {
		s += " absent"
	}
	if m.StartsConsumer {
		s += " group-protocol=consumer"
	}
	if consumerProtocol {
		return s + "\n" // version, join-version, assignors and protocol are classic-only
	}
	s += fmt.Sprintf(" version=%d join-version=%d", m.SubscriptionVersion, m.JoinVersion)
	if len(m.Assignors) > 0 {
		s += " assignors=" + strings.Join(m.Assignors, ",")
	}
	if m.Protocol != nil {
		s += " protocol=" + m.Protocol.String()
	}
	return s + "\n"
}
