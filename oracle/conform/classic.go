package conform

import (
	"fmt"
	"slices"

	"github.com/groupcheck/groupcheck/impl/consumer"
	"github.com/groupcheck/groupcheck/spec"
	"github.com/groupcheck/groupcheck/traces"
)

// classicDriver drives classic members (impl/consumer).
type classicDriver struct {
	a       Adapter
	opts    Options
	members []Member
	slot    int
	name    string
	want    []consumer.Effect // the reference member's effects in the last step
}

func (d *classicDriver) start(i int, name string, s spec.Slot) ([]string, []string, error) {
	c := s.Client
	m, err := d.a.Start(Start{Name: name, Config: c.Config, Cluster: c.Metadata, Topics: slices.Clone(c.Topics)})
	d.members[i], d.slot, d.name, d.want = m, i, name, nil
	return []string{}, []string{}, err
}

func (d *classicDriver) step(sr traces.StepResult, i int) (string, []string, []string, bool, error) {
	in, ok := classicInput(sr)
	if !ok {
		return "", nil, nil, false, nil
	}
	d.slot, d.name = i, sr.Pre.Config().Members[i].Name
	_, d.want = sr.Pre.Slots[i].Client.Step(in)
	got, err := runMember(d.members, i, func(m Member) ([]consumer.Effect, error) { return m.Step(in) })
	return describe(d.name, in), d.opts.outputs(d.want), d.opts.outputs(got), true, err
}

func (d *classicDriver) reference() []string {
	out := []string{}
	for _, e := range d.want {
		switch e := e.(type) {
		case consumer.Send:
			out = append(out, spec.SendEvent{Slot: d.slot, Name: d.name, Request: e.Request}.String())
		case consumer.Callback:
			out = append(out, spec.CallbackEvent{Slot: d.slot, Name: d.name, Kind: e.Kind, Partitions: e.Partitions}.String())
		}
	}
	return out
}

func (d *classicDriver) drop(i int) { d.members[i] = nil }

// classicInput is the consumer input the step's action delivers to its member, as spec.Step
// delivers it; false for actions that concern no member.
func classicInput(sr traces.StepResult) (consumer.Input, bool) {
	a := sr.Step.Action
	i := int(a.Slot)
	pre := sr.Pre.Slots[i]
	switch a.Kind {
	case spec.Poll:
		return consumer.PollTick{}, true
	case spec.Heartbeat:
		return consumer.HeartbeatTick{}, true
	case spec.Commit:
		return consumer.CommitTick{}, true
	case spec.Followup:
		return consumer.FollowupTick{}, true
	case spec.Refresh:
		return consumer.MetadataChanged{Cluster: sr.Pre.Cluster}, true
	case spec.DeliverResponse:
		return consumer.Received{Response: pre.In[0]}, true
	case spec.LoseResponse:
		return consumer.RequestTimedOut{Kind: consumer.KindOf(pre.In[0])}, true
	case spec.PollTimeout:
		return consumer.PollTimeout{}, true
	case spec.Leave:
		return consumer.Close{}, true
	case spec.Resubscribe:
		return consumer.SubscriptionChanged{Topics: topicsAfter(sr, i)}, true
	case spec.Assign:
		for _, e := range sr.Events {
			if ae, ok := e.(spec.AssignEvent); ok && ae.Slot == i {
				if ae.Failed != "" {
					return consumer.AssignmentFailed{}, true
				}
				return consumer.AssignmentComputed{Assignments: ae.Assignments}, true
			}
		}
	}
	return nil, false
}

// topicsAfter is the subscription a resubscribe switches slot i to.
func topicsAfter(sr traces.StepResult, i int) []string {
	m := sr.Pre.Config().Members[i]
	if sr.Post.Slots[i].Alt {
		return m.AltTopics
	}
	return m.Topics
}

// describe names a classic input in a Mismatch.
func describe(name string, in consumer.Input) string {
	switch in := in.(type) {
	case consumer.Received:
		return spec.ReplyEvent{Name: name, Response: in.Response}.String()
	case consumer.AssignmentComputed:
		return "the leader's assignment " + spec.AssignEvent{Name: name, Assignments: in.Assignments}.String()
	}
	return fmt.Sprintf("%T%+v", in, in)
}
