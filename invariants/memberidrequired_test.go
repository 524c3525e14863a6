package invariants

import (
	"strings"
	"testing"

	"github.com/groupcheck/groupcheck/impl"
	"github.com/groupcheck/groupcheck/spec"
)

// eagerOneMember is one eager member of a one-partition topic.
const eagerOneMember = `protocol eager
consumer kafka
coordinator kafka
assignor range
topic t 1
member a topics=t
`

// TestMemberIDRequired: a dynamic member's first JoinGroup at v4 is answered MEMBER_ID_REQUIRED
// with a new pending id, at v3 admitted at once; the property holds on both steps and names a
// v4 join answered or admitted at once (114: `req.Version <= 4`), a v3 or static join told
// MEMBER_ID_REQUIRED, and an answer whose id the coordinator does not hold pending.
func TestMemberIDRequired(t *testing.T) {
	run := func(version string) (pre, post spec.World, ev []spec.Event) {
		ws := walk(t, config(t, strings.Replace(eagerOneMember, "topics=t", "topics=t join-version="+version, 1)), "poll a")
		pre = ws[len(ws)-1]
		ev = stepEvents(t, pre, "deliver-request a")
		post = walk(t, *pre.Config(), "poll a", "deliver-request a")[2]
		if got := memberIDRequired.Step(&pre, ev, &post); got != "" {
			t.Fatalf("v%s: the reference: %s", version, got)
		}
		return pre, post, ev
	}
	pre, post, ev := run("4")
	q, _ := handledJoin(&pre, ev, &post)
	var answer spec.ReplyEvent
	for _, e := range ev {
		if r, ok := e.(spec.ReplyEvent); ok {
			answer = r
		}
	}
	if a, _ := answer.Response.(impl.JoinGroupResponse); a.Error != impl.MemberIDRequired || !post.Coord.IsPending(a.MemberID) {
		t.Fatalf("v4: the answer %v", answer)
	}
	v3pre, v3post, _ := run("3")
	if len(v3post.Coord.Members()) != 1 {
		t.Fatalf("v3: not admitted: %v", v3post.Coord.Members())
	}
	at := func(code impl.ErrorCode) []spec.Event {
		r := answer
		a := r.Response.(impl.JoinGroupResponse)
		a.Error = code
		r.Response = a
		return []spec.Event{r}
	}
	static := q
	static.InstanceID = "a"
	for _, tc := range []struct {
		name      string
		pre, post spec.World
		q         impl.JoinGroupRequest
		ev        []spec.Event
		want      string
	}{
		{"v4 admitted", v3pre, v3post, q, nil, "v4 without member id is admitted as a#1"},
		{"v4 answered at once", pre, post, q, at(impl.None), "without member id is answered at once"},
		{"static told to ask", pre, post, static, ev, "(instance \"a\") is answered MEMBER_ID_REQUIRED"},
		{"no pending id", pre, pre, q, ev, "which the coordinator does not hold pending"},
		{"an id already pending", post, post, q, ev, "an id the coordinator already held"},
	} {
		if got := idRequiredWrong(&tc.pre, tc.q, tc.ev, &tc.post); !strings.Contains(got, tc.want) {
			t.Errorf("%s: %q, want …%s…", tc.name, got, tc.want)
		}
	}
}
