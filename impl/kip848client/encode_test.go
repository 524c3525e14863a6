package kip848client

import (
	"bytes"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"
	"github.com/groupcheck/groupcheck/impl"
)

// states builds a variety of distinct states through the public transitions.
func states(t *testing.T) map[string]Member {
	st := stable(t, dynamicCfg(), set(0, 1))
	rec, _ := ticked(t, st).OnHeartbeatResponse(ok(2, ptr(set(0))))
	await, _ := ticked(t, st).CommitTick()
	await, _ = await.OnHeartbeatResponse(ok(2, ptr(set(1))))
	stale, _ := st.PollTimeout()
	fatal, _ := ticked(t, st).OnHeartbeatResponse(errResp(impl.GroupMaxSizeReached))
	closed, _ := st.Close()
	return map[string]Member{
		"new": New(dynamicCfg()), "joining": joining(dynamicCfg()),
		"stable": st, "stable ticked": ticked(t, st), "reconciling": rec, "awaiting commit": await,
		"stale": stale, "fatal": fatal, "closed": closed,
	}
}

// TestEncodingDistinguishesStates: equal states encode equally, distinct ones differently.
func TestEncodingDistinguishesStates(t *testing.T) {
	seen := map[string]string{}
	for name, m := range states(t) {
		enc := string(m.AppendEncoding(nil))
		if other, dup := seen[enc]; dup {
			t.Errorf("%s and %s encode equally", name, other)
		}
		seen[enc] = name
	}
	a, b := stable(t, dynamicCfg(), set(0, 1)), stable(t, dynamicCfg(), set(0, 1))
	if !bytes.Equal(a.AppendEncoding([]byte("x")), b.AppendEncoding([]byte("x"))) {
		t.Error("equal states encode differently")
	}
}

func TestString(t *testing.T) {
	ss := states(t)
	for name, want := range map[string][]string{
		"reconciling":     {"RECONCILING", `member="m1"`, "reconciling-to=(t-0)", "revocation-commit-in-flight@2"},
		"awaiting commit": {"await-commit", "commit-in-flight@1"},
		"stale":           {"STALE", "epoch=-1", "hb-in-flight@-1"},
		"fatal":           {"FATAL", "fatal=GROUP_MAX_SIZE_REACHED"},
		"closed":          {"UNSUBSCRIBED", "closed"},
		"stable":          {"STABLE", "owned=(t-0 t-1)", "sent=(topics=[t] owned=(t-0 t-1))"},
	} {
		s := ss[name].String()
		for _, w := range want {
			if !strings.Contains(s, w) {
				t.Errorf("%s: %q lacks %q", name, s, w)
			}
		}
	}
	_, effs := ticked(t, stable(t, staticCfg(), set(0))).OnHeartbeatResponse(errResp(impl.FencedInstanceID))
	effs = append(effs, hb("m1", 0, "i1", []string{"t"}, ptr(set())), commitReq(3, set(1)),
		CommitResult{TimedOut: true}, CommitResult{Retried: true}, CommitResult{Error: impl.StaleMemberEpoch, Revocation: true},
		CommitResult{Accepted: true}, Send{Request: impl.HeartbeatRequest{}}, Callback{Kind: CallbackKind(9)})
	var got []string
	for _, e := range effs {
		got = append(got, e.(interface{ String() string }).String())
	}
	want := []string{
		"callback lost (t-0)",
		"fatal FENCED_INSTANCE_ID",
		`send ConsumerGroupHeartbeat member="m1" epoch=0 instance="i1" topics=[t] owned=()`,
		`send OffsetCommit member="m1" epoch=3 (t-1)`,
		"commit-result timed-out error=NONE epoch=0 ()",
		"commit-result retried error=NONE epoch=0 ()",
		"commit-result refused revocation error=STALE_MEMBER_EPOCH epoch=0 ()",
		"commit-result accepted error=NONE epoch=0 ()",
		"send impl.HeartbeatRequest",
		"callback invalid-callback ()",
	}
	if diff := cmp.Diff(want, got); diff != "" {
		t.Errorf("effect strings (-want +got):\n%s", diff)
	}
	if KindCommit.String() != "OffsetCommit" || KindHeartbeat.String() != "ConsumerGroupHeartbeat" {
		t.Error("kind names")
	}
}

// TestStepRoutes: Step reaches the same transition as the method it names.
func TestStepRoutes(t *testing.T) {
	st := stable(t, dynamicCfg(), set(0, 1))
	inFlight := ticked(t, st)
	committing, _ := st.CommitTick()
	for _, c := range []struct {
		name   string
		m      Member
		in     Input
		direct func(Member) (Member, []Effect)
	}{
		{"subscribe", st, SubscribeInput{[]string{"u"}}, func(m Member) (Member, []Effect) { return m.Subscribe([]string{"u"}) }},
		{"unsubscribe", st, UnsubscribeInput{}, Member.Unsubscribe},
		{"close", st, CloseInput{}, Member.Close},
		{"poll", st, PollInput{}, Member.Poll},
		{"tick", st, HeartbeatTickInput{}, Member.HeartbeatTick},
		{"poll timeout", st, PollTimeoutInput{}, Member.PollTimeout},
		{"commit tick", st, CommitTickInput{}, Member.CommitTick},
		{"response", inFlight, HeartbeatResponseInput{ok(2, ptr(set(2)))}, func(m Member) (Member, []Effect) {
			return m.OnHeartbeatResponse(ok(2, ptr(set(2))))
		}},
		{"commit response", committing, CommitResponseInput{impl.OffsetCommitResponse{}}, func(m Member) (Member, []Effect) {
			return m.OnOffsetCommitResponse(impl.OffsetCommitResponse{})
		}},
		{"timeout", inFlight, RequestTimedOutInput{KindHeartbeat}, func(m Member) (Member, []Effect) {
			return m.RequestTimedOut(KindHeartbeat)
		}},
	} {
		m1, e1 := c.m.Step(c.in)
		m2, e2 := c.direct(c.m)
		if diff := cmp.Diff(m2, m1, cmpOpts); diff != "" {
			t.Errorf("%s: state (-direct +step):\n%s", c.name, diff)
		}
		if diff := cmp.Diff(e2, e1, cmpOpts); diff != "" {
			t.Errorf("%s: effects (-direct +step):\n%s", c.name, diff)
		}
	}
}
