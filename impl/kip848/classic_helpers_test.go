package kip848

import (
	"testing"

	"github.com/groupcheck/groupcheck/impl"
)

const coop = "cooperative-sticky"

// cjoin is a classic JoinGroup (v9) naming the cooperative-sticky protocol, with a v2
// subscription to topics owning the given partitions.
func cjoin(id impl.MemberID, inst impl.InstanceID, own string, topics ...string) impl.JoinGroupRequest {
	return impl.JoinGroupRequest{Conn: 3, Version: 9, MemberID: id, InstanceID: inst,
		Protocols: []impl.GroupProtocol{{Name: coop, Metadata: impl.NewSubscription(2, topics, ps(own), impl.NoGeneration)}}}
}

func csync(id impl.MemberID, gen impl.Generation) impl.SyncGroupRequest {
	return impl.SyncGroupRequest{Conn: 4, MemberID: id, Generation: gen, ProtocolName: coop}
}

func cbeat(id impl.MemberID, gen impl.Generation) impl.HeartbeatRequest {
	return impl.HeartbeatRequest{Conn: 5, MemberID: id, Generation: gen}
}

// classicStep sends a classic JoinGroup that must succeed without a downgrade.
func classicStep(t *testing.T, g Group, req impl.JoinGroupRequest, fresh impl.MemberID) (Group, impl.JoinGroupResponse) {
	t.Helper()
	ng, out, d := g.ClassicJoinGroup(req, fresh)
	if d != nil {
		t.Fatalf("join %+v: unexpected downgrade %+v", req, d)
	}
	r := joinResp(t, out)
	if r.Error != impl.None {
		t.Fatalf("join %+v: %s", req, r.Error)
	}
	return ng, r
}

func joinResp(t *testing.T, out []impl.Reply) impl.JoinGroupResponse {
	t.Helper()
	if len(out) != 1 {
		t.Fatalf("want one reply, got %d", len(out))
	}
	r, ok := out[0].Response.(impl.JoinGroupResponse)
	if !ok {
		t.Fatalf("want JoinGroup response, got %T", out[0].Response)
	}
	return r
}

func syncResp(t *testing.T, out []impl.Reply) impl.SyncGroupResponse {
	t.Helper()
	if len(out) != 1 {
		t.Fatalf("want one reply, got %d", len(out))
	}
	return out[0].Response.(impl.SyncGroupResponse)
}

func beatCode(t *testing.T, out []impl.Reply) impl.ErrorCode {
	t.Helper()
	if len(out) != 1 {
		t.Fatalf("want one reply, got %d", len(out))
	}
	return out[0].Response.(impl.HeartbeatResponse).Error
}

// mixed: consumer-protocol member a holds all of t at epoch 1; classic member c joins
// (epoch 2, UNRELEASED_PARTITIONS: its target is still a's).
func mixed(t *testing.T, cfg Config) Group {
	t.Helper()
	g := New(cfg, cluster)
	g, _ = step(t, g, joinReq("a", "t"), "")
	g, _ = classicStep(t, g, cjoin("c", "", "", "t"), "")
	return g
}
