package conform

import (
	"errors"

	"github.com/groupcheck/groupcheck/impl"
	"github.com/groupcheck/groupcheck/impl/consumer"
	"github.com/groupcheck/groupcheck/impl/kip848client"
)

// Adapter starts members of the implementation under test: one per incarnation of a
// trace's member slot (a trace's start and restart begin a new incarnation, a crash ends
// one). An implementation of one protocol returns ErrUnsupported from the other Start, and
// the traces of that protocol are skipped.
type Adapter interface {
	// Start begins a new incarnation of a classic consumer group member (JoinGroup,
	// SyncGroup), subscribed to s.Topics with s.Config. Its own requests are not compared:
	// a classic member sends nothing until its first poll.
	Start(s Start) (Member, error)
	// Start848 begins a new, unsubscribed incarnation of a KIP-848 member
	// (ConsumerGroupHeartbeat). Its first input subscribes it.
	Start848(s Start848) (Member848, error)
}

// ErrUnsupported is what an Adapter's Start or Start848 returns for a protocol the
// implementation does not have.
var ErrUnsupported = errors.New("conform: protocol not supported by this adapter")

// Member is one incarnation of the classic consumer under test, driven one input at a time.
type Member interface {
	// Step delivers one input — a poll, a heartbeat or commit timer, the check for a
	// follow-up rebalance the assignor asked for (consumer.FollowupTick), a coordinator response,
	// the leader's computed assignment, a subscription or metadata change, a close, a lost
	// response — and returns what the member did in response, in order: the requests it
	// sends (consumer.Send), the rebalance callbacks it invokes (consumer.Callback) and a
	// fatal error (consumer.Fatal). Other effects are allowed and ignored. An error means the
	// adapter could not deliver the input; Run stops there.
	Step(in consumer.Input) ([]consumer.Effect, error)
}

// Member848 is one incarnation of the KIP-848 consumer under test.
type Member848 interface {
	// Step delivers one input (kip848client.Input: subscribe, poll, heartbeat timer,
	// heartbeat or commit response, close, lost response, poll timeout) and returns the
	// requests sent (kip848client.Send), callbacks invoked (kip848client.Callback) and fatal
	// errors (kip848client.FatalError), in order.
	Step(in kip848client.Input) ([]kip848client.Effect, error)
}

// Start is what a new classic member is configured with: the reference member's configuration.
type Start struct {
	// Name is the member slot's name in the trace ("a").
	Name string
	// Config is the reference consumer's configuration: assignors in preference order,
	// subscription and JoinGroup versions, group.instance.id, the variant (Kafka as shipped,
	// or the KIP-429 seed) and the faults the trace switches on. Conn only names the
	// harness's connection and is never compared.
	Config consumer.Config
	// Cluster is the member's view of the topic metadata; Topics its subscription.
	Cluster impl.Cluster
	Topics  []string
}

// Start848 is what a new KIP-848 member is configured with: its group.instance.id, the
// variant and faults of the trace (kip848client.Config; Conn is never compared).
type Start848 struct {
	Name   string
	Config kip848client.Config
}

// Classic is an Adapter of a classic-only implementation: start creates its members.
func Classic(start func(Start) (Member, error)) Adapter { return adapter{classic: start} }

// KIP848 is an Adapter of a KIP-848-only implementation.
func KIP848(start func(Start848) (Member848, error)) Adapter { return adapter{kip848: start} }

type adapter struct {
	classic func(Start) (Member, error)
	kip848  func(Start848) (Member848, error)
}

func (a adapter) Start(s Start) (Member, error) {
	if a.classic == nil {
		return nil, ErrUnsupported
	}
	return a.classic(s)
}

func (a adapter) Start848(s Start848) (Member848, error) {
	if a.kip848 == nil {
		return nil, ErrUnsupported
	}
	return a.kip848(s)
}

// Reference is the adapter of groupcheck's own members (impl/consumer, impl/kip848client):
// it conforms on every trace of the corpus by construction, and it is the template of an
// adapter — create the member from Start, hand each input to it, return its effects.
func Reference() Adapter {
	return adapter{
		classic: func(s Start) (Member, error) {
			c, _ := consumer.New(s.Config, s.Cluster).Subscribe(s.Topics)
			return &referenceMember{c: c}, nil
		},
		kip848: func(s Start848) (Member848, error) {
			return &referenceMember848{m: kip848client.New(s.Config)}, nil
		},
	}
}

type referenceMember struct{ c consumer.Consumer }

func (m *referenceMember) Step(in consumer.Input) ([]consumer.Effect, error) {
	var effs []consumer.Effect
	m.c, effs = m.c.Step(in)
	return effs, nil
}

type referenceMember848 struct{ m kip848client.Member }

func (m *referenceMember848) Step(in kip848client.Input) ([]kip848client.Effect, error) {
	var effs []kip848client.Effect
	m.m, effs = m.m.Step(in)
	return effs, nil
}
