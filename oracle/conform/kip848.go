package conform

import (
	"fmt"
	"slices"

	"github.com/groupcheck/groupcheck/impl"
	"github.com/groupcheck/groupcheck/impl/consumer"
	"github.com/groupcheck/groupcheck/impl/kip848client"
	"github.com/groupcheck/groupcheck/spec"
	"github.com/groupcheck/groupcheck/traces"
)

// kip848Driver drives KIP-848 members (impl/kip848client). A start subscribes the new
// member at once (spec's startMember), so its join heartbeat is compared.
type kip848Driver struct {
	a       Adapter
	opts    Options
	members []Member848
	slot    int
	name    string
	want    []kip848client.Effect
}

func (d *kip848Driver) start(i int, name string, s spec.Slot) ([]string, []string, error) {
	cfg, topics := s.Member.Config, slices.Clone(s.Member.Topics)
	m, err := d.a.Start848(Start848{Name: name, Config: cfg})
	d.members[i], d.slot, d.name = m, i, name
	if err != nil {
		return nil, nil, err
	}
	in := kip848client.SubscribeInput{Topics: topics}
	_, d.want = kip848client.New(cfg).Step(in)
	got, err := runMember(d.members, i, func(m Member848) ([]kip848client.Effect, error) { return m.Step(in) })
	return d.opts.outputs848(d.want), d.opts.outputs848(got), err
}

func (d *kip848Driver) step(sr traces.StepResult, i int) (string, []string, []string, bool, error) {
	in, ok := kip848Input(sr)
	if !ok {
		return "", nil, nil, false, nil
	}
	d.slot, d.name = i, sr.Pre.Config().Members[i].Name
	_, d.want = sr.Pre.Slots[i].Member.Step(in)
	got, err := runMember(d.members, i, func(m Member848) ([]kip848client.Effect, error) { return m.Step(in) })
	desc := fmt.Sprintf("%T%+v", in, in)
	if r, ok := in.(kip848client.HeartbeatResponseInput); ok {
		desc = spec.ReplyEvent{Name: d.name, Response: r.Response}.String()
	}
	return desc, d.opts.outputs848(d.want), d.opts.outputs848(got), true, err
}

func (d *kip848Driver) reference() []string {
	out := []string{}
	for _, e := range d.want {
		switch e := e.(type) {
		case kip848client.Send:
			out = append(out, spec.SendEvent{Slot: d.slot, Name: d.name, Request: e.Request}.String())
		case kip848client.Callback:
			out = append(out, spec.CallbackEvent{Slot: d.slot, Name: d.name, Kind: callbackKind(e.Kind), Partitions: e.Partitions}.String())
		}
	}
	return out
}

func (d *kip848Driver) drop(i int) { d.members[i] = nil }

// kip848Input is the input the step's action delivers to its KIP-848 member, as spec's
// doKIP848 delivers it; false for actions that concern no member.
func kip848Input(sr traces.StepResult) (kip848client.Input, bool) {
	a := sr.Step.Action
	i := int(a.Slot)
	pre := sr.Pre.Slots[i]
	switch a.Kind {
	case spec.Poll:
		return kip848client.PollInput{}, true
	case spec.Heartbeat:
		return kip848client.HeartbeatTickInput{}, true
	case spec.Commit:
		return kip848client.CommitTickInput{}, true
	case spec.DeliverResponse:
		if r, ok := pre.In[0].(impl.OffsetCommitResponse); ok {
			return kip848client.CommitResponseInput{Response: r}, true
		}
		return kip848client.HeartbeatResponseInput{Response: pre.In[0].(impl.ConsumerGroupHeartbeatResponse)}, true
	case spec.LoseResponse:
		if _, ok := pre.In[0].(impl.OffsetCommitResponse); ok {
			return kip848client.RequestTimedOutInput{Kind: kip848client.KindCommit}, true
		}
		return kip848client.RequestTimedOutInput{Kind: kip848client.KindHeartbeat}, true
	case spec.PollTimeout:
		return kip848client.PollTimeoutInput{}, true
	case spec.Leave:
		return kip848client.CloseInput{}, true
	case spec.Resubscribe:
		return kip848client.SubscribeInput{Topics: topicsAfter(sr, i)}, true
	}
	return nil, false
}

func callbackKind(k kip848client.CallbackKind) consumer.CallbackKind {
	switch k {
	case kip848client.Revoked:
		return consumer.Revoked
	case kip848client.Lost:
		return consumer.Lost
	}
	return consumer.Assigned
}
