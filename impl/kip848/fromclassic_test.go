package kip848

import (
	"testing"

	"github.com/groupcheck/groupcheck/impl"
)

func classicGroupMember(id impl.MemberID, inst impl.InstanceID, asg string) ClassicGroupMember {
	return ClassicGroupMember{ID: id, InstanceID: inst, Protocols: cjoin(id, inst, "", "t").Protocols,
		Assignment: impl.Assignment{Partitions: ps(asg)}}
}

// Reference: ConsumerGroup.fromClassicGroup (apache/kafka group-coordinator 4.4.0): epochs
// from the generation, every member STABLE holding its stored assignment as its target.
func TestFromClassic(t *testing.T) {
	g, err := FromClassic(Config{}, cluster, 4, coop, []ClassicGroupMember{
		classicGroupMember("x", "", "t-0 t-1"), classicGroupMember("s", "i1", "t-2"),
	})
	if err != nil {
		t.Fatal(err)
	}
	if g.GroupEpoch() != 4 || g.AssignmentEpoch() != 4 || g.State() != StableGroup {
		t.Errorf("group = %s, want STABLE at 4", g)
	}
	x := member(t, g, "x")
	if !x.IsStableAt(4) || x.PreviousMemberEpoch != 4 || !x.AssignedPartitions.Equal(ps("t-0 t-1")) ||
		!g.TargetOf("x").Equal(ps("t-0 t-1")) || !x.UsesClassicProtocol() || x.Classic.JoinTimer || x.Classic.SyncTimer {
		t.Errorf("x = %s target %s", x, g.TargetOf("x"))
	}
	if len(x.SubscribedTopics) != 1 || x.SubscribedTopics[0] != "t" {
		t.Errorf("x subscribes %v, want the selected protocol's (t)", x.SubscribedTopics)
	}
	if s, ok := g.StaticMember("i1"); !ok || s.ID != "s" {
		t.Errorf("instance i1: %v %v", s, ok)
	}
	// The classic members go on heartbeating at their generation.
	if _, out := g.ClassicHeartbeat(cbeat("x", 4)); beatCode(t, out) != impl.None {
		t.Errorf("heartbeat at the old generation: %s", beatCode(t, out))
	}
	// A consumer-protocol member joining takes its share from the next target.
	g, _ = step(t, g, joinReq("k", "t"), "")
	if g.GroupEpoch() != 5 || g.TargetOf("k").IsEmpty() {
		t.Errorf("after k joined: %s", g)
	}
	followup := classicGroupMember("y", "", "t-3")
	followup.Assignment.Followup = true
	other := classicGroupMember("y", "", "t-3")
	other.Protocols[0].Name = "range"
	for name, tc := range map[string]struct {
		protocol string
		members  []ClassicGroupMember
	}{
		"no selected protocol":          {"", []ClassicGroupMember{classicGroupMember("x", "", "")}},
		"a member without the protocol": {coop, []ClassicGroupMember{other}},
		"assignment user data":          {coop, []ClassicGroupMember{followup}},
		"a partition held twice":        {coop, []ClassicGroupMember{classicGroupMember("x", "", "t-0"), classicGroupMember("y", "", "t-0")}},
		"a member twice":                {coop, []ClassicGroupMember{classicGroupMember("x", "", "t-0"), classicGroupMember("x", "", "t-1")}},
	} {
		if _, err := FromClassic(Config{}, cluster, 4, tc.protocol, tc.members); err == nil {
			t.Errorf("%s: want an error", name)
		}
	}
}
