package harness

import (
	"context"
	"fmt"
	"time"
)

// Op is what a Step does.
type Op string

// The steps a scenario is made of.
const (
	OpStart         Op = "start"          // start Node (with Fault)
	OpStartMixed    Op = "start-mixed"    // start Node with Protocol.Mixed's assignors
	OpLeave         Op = "leave"          // close Node gracefully
	OpLeaveAll      Op = "leave-all"      // close every running node at once
	OpCrash         Op = "crash"          // kill Node without leaving
	OpCut           Op = "cut"            // cut Node off from the coordinator
	OpHeal          Op = "heal"           // end Node's cut
	OpAddPartitions Op = "add-partitions" // add two partitions to t1
	OpFence         Op = "fence"          // have kfake fence Node's next heartbeat
	OpCreateTopic   Op = "create-topic"   // create LateTopic, subscribed to from the start
	OpCrashMidJoin  Op = "crash-mid-join" // crash Node at its next join answer (CrashMidJoin)
	OpDelayCommit   Op = "delay-commit"   // hold Node's next OffsetCommit across a rebalance
	OpSettle        Op = "settle"         // wait for the settle signature
)

// Step is one action of a scenario.
type Step struct {
	Op    Op
	Node  string
	Fault Fault
}

func (s Step) String() string {
	switch {
	case s.Node == "":
		return string(s.Op)
	case s.Fault != NoFault:
		return fmt.Sprintf("%s %s fault=%s", s.Op, s.Node, s.Fault)
	}
	return fmt.Sprintf("%s %s", s.Op, s.Node)
}

// Scenario is a named script. Zombie scenarios leave a member running that the coordinator
// has fenced; they are slower and skipped under -short (docs/clients.md §6.5).
type Scenario struct {
	Name   string
	Zombie bool
	// Long scenarios run only in the long form (-soak) or without -short: their findings
	// are still being classified (docs/real-kafka.md), and a short form must stay green.
	Long  bool
	Steps []Step
	// For, Round and Tail make a soak (Soak8): after Steps, Round(0), Round(1), ... run
	// while For has not passed since the scenario began, then Tail.
	For   time.Duration
	Round func(round int) []Step
	Tail  []Step
}

// Starts is a start step for each node.
func Starts(nodes ...string) []Step {
	var s []Step
	for _, n := range nodes {
		s = append(s, Step{Op: OpStart, Node: n})
	}
	return s
}

// Steps concatenates step lists.
func Steps(parts ...[]Step) []Step {
	var s []Step
	for _, p := range parts {
		s = append(s, p...)
	}
	return s
}

// SettleStep is a settle, as a step list.
var SettleStep = []Step{{Op: OpSettle}}

// The scenarios of issue 7 item 2: churn (joins, graceful leaves, partitions added), a crash
// without leaving, an injected fence, and a member cut off from the coordinator.
var (
	Churn = Scenario{Name: "churn", Steps: Steps(Starts("a", "b", "c"), SettleStep,
		Starts("d"), SettleStep,
		[]Step{{Op: OpLeave, Node: "b"}}, SettleStep,
		[]Step{{Op: OpAddPartitions}}, SettleStep,
		[]Step{{Op: OpLeaveAll}})}
	Crash = Scenario{Name: "crash", Steps: Steps(Starts("a", "b", "c"), SettleStep,
		[]Step{{Op: OpCrash, Node: "b"}}, SettleStep,
		Starts("e"), SettleStep,
		[]Step{{Op: OpLeaveAll}})}
	Fence = Scenario{Name: "fence", Steps: Steps(Starts("a", "b", "c"), SettleStep,
		[]Step{{Op: OpFence, Node: "b"}}, SettleStep,
		[]Step{{Op: OpLeaveAll}})}
	Cut = Scenario{Name: "cut", Zombie: true, Steps: Steps(Starts("a", "b", "c"), SettleStep,
		[]Step{{Op: OpCut, Node: "b"}}, SettleStep,
		[]Step{{Op: OpHeal, Node: "b"}}, SettleStep,
		[]Step{{Op: OpLeaveAll}})}
)

// The scenarios real deployments have and polite runs miss (issue 30 §1): a topic created
// while its consumers run, churn with no settling between steps, a crash between a join
// answer and the next step of the join.
var (
	TopicCreated = Scenario{Name: "topic-created", Steps: Steps(Starts("a", "b"), SettleStep,
		[]Step{{Op: OpCreateTopic}}, SettleStep,
		Starts("c"), SettleStep,
		[]Step{{Op: OpLeaveAll}})}
	Burst = Scenario{Name: "burst", Steps: Steps(Starts("a", "b", "c"), SettleStep,
		Starts("d"), []Step{{Op: OpLeave, Node: "a"}}, Starts("e"), []Step{{Op: OpAddPartitions},
			{Op: OpCrash, Node: "c"}}, Starts("f"), SettleStep,
		[]Step{{Op: OpLeaveAll}})}
	CrashMidJoin = Scenario{Name: "crash-mid-join", Steps: Steps(Starts("a", "b", "c"), SettleStep,
		[]Step{{Op: OpCrashMidJoin, Node: "b"}}, Starts("d"), SettleStep,
		Starts("e"), SettleStep,
		[]Step{{Op: OpLeaveAll}})}
	DelayedCommit = Scenario{Name: "delayed-commit", Long: true, Steps: Steps(Starts("a", "b", "c"), SettleStep,
		[]Step{{Op: OpDelayCommit, Node: "b"}}, Starts("d"), SettleStep,
		[]Step{{Op: OpLeaveAll}})}
)

// MixedUpgrade is the second rolling bounce of KIP-429's upgrade to cooperative rebalancing
// (KIP-429 "Compatibility, Deprecation, and Migration Plan"): members that list the
// cooperative assignor first and an eager one after it (b, c: eager rebalancing) share the
// group with upgraded members (a, d: cooperative), while b is bounced into an upgraded d and
// c crashes. Only protocols with a Mixed start run it.
var MixedUpgrade = Scenario{Name: "mixed-upgrade", Steps: Steps(Starts("a"), StartsMixed("b", "c"), SettleStep,
	[]Step{{Op: OpLeave, Node: "b"}}, Starts("d"), SettleStep,
	[]Step{{Op: OpCrash, Node: "c"}}, SettleStep,
	StartsMixed("e"), SettleStep,
	[]Step{{Op: OpLeaveAll}})}

// Scenarios lists the clean scenarios.
var Scenarios = []Scenario{Churn, Crash, Fence, Cut, TopicCreated, Burst, CrashMidJoin, DelayedCommit, MixedUpgrade}

// StartsMixed is a start-mixed step for each node.
func StartsMixed(nodes ...string) []Step {
	var s []Step
	for _, n := range nodes {
		s = append(s, Step{Op: OpStartMixed, Node: n})
	}
	return s
}

// NeedsMixed reports whether a scenario starts a member with Protocol.Mixed.
func (sc Scenario) NeedsMixed() bool {
	for _, s := range sc.Steps {
		if s.Op == OpStartMixed {
			return true
		}
	}
	return false
}

// Run executes the scenario's steps in order, with a jitter pause before each.
func (h *Harness) Run(ctx context.Context, sc Scenario) error {
	h.mark(Coordinator, "scenario %s protocol %s seed %d", sc.Name, h.cfg.Protocol.Name, h.cfg.Seed)
	for _, s := range sc.Steps {
		if s.Op == OpCreateTopic {
			h.mu.Lock()
			h.late = true
			h.mu.Unlock()
		}
	}
	start := time.Now()
	if err := h.steps(ctx, sc.Steps, ""); err != nil {
		return err
	}
	n, err := h.rounds(ctx, sc, start)
	if sc.Round != nil {
		h.mark(Coordinator, "%d rounds in %v", n, time.Since(start).Round(time.Second))
	}
	if err != nil {
		return err
	}
	return h.steps(ctx, sc.Tail, "tail ")
}

// steps executes steps in order, with a jitter pause before each; where prefixes a failed
// step's place.
func (h *Harness) steps(ctx context.Context, steps []Step, where string) error {
	for i, s := range steps {
		h.jitter()
		if err := h.Do(ctx, s); err != nil {
			return fmt.Errorf("%sstep %d (%s): %w", where, i+1, s, err)
		}
	}
	return nil
}

// Do executes one step.
func (h *Harness) Do(ctx context.Context, s Step) error {
	switch s.Op {
	case OpStart:
		_, err := h.Start(s.Node, s.Fault)
		return err
	case OpStartMixed:
		_, err := h.StartMixed(s.Node)
		return err
	case OpLeave:
		return h.Leave(s.Node)
	case OpLeaveAll:
		return h.LeaveAll()
	case OpCrash:
		return h.Crash(s.Node)
	case OpCut:
		return h.Cut(s.Node)
	case OpHeal:
		return h.Heal(s.Node)
	case OpAddPartitions:
		return h.AddPartitions(ctx, "t1", 2)
	case OpFence:
		return h.Fence(ctx, s.Node)
	case OpCreateTopic:
		return h.CreateTopic(ctx)
	case OpCrashMidJoin:
		return h.CrashMidJoin(s.Node)
	case OpDelayCommit:
		return h.DelayCommit(s.Node)
	case OpSettle:
		if err := h.Settle(ctx); err != nil {
			return err
		}
		return h.unfired()
	}
	return fmt.Errorf("unknown op %q", s.Op)
}
