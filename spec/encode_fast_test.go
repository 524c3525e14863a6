package spec

import (
	"bytes"
	"reflect"
	"testing"

	"github.com/groupcheck/groupcheck/impl"
)

// fastEncodeConfigs are the worlds the fast encoder is checked on: every preset, and an
// `any`-assignor world of each protocol, with richer budgets so every role moves.
func fastEncodeConfigs(t *testing.T) map[string]Config {
	t.Helper()
	cfgs := map[string]Config{}
	for _, p := range Presets {
		c, err := p.Config()
		if err != nil {
			t.Fatal(err)
		}
		cfgs[p.Name] = c
	}
	for name, text := range map[string]string{
		"classic-any": `
protocol cooperative
consumer kafka
coordinator kafka
assignor any
topic t 2
topic u 1
member a topics=t alt-topics=t,u
member b topics=t static
member c topics=t absent
budget joins=1 crashes=1 session-timeouts=1 subscription-changes=1 partition-additions=1 lost-responses=1
commits on
`,
		"kip848-any": `
protocol consumer
consumer kafka
coordinator kafka
assignor any
topic t 2
topic u 1
member a topics=t alt-topics=t,u
member b topics=t static
member c topics=t absent
budget joins=1 restarts=1 crashes=1 session-timeouts=1 subscription-changes=1 partition-additions=1 lost-responses=1
commits on
`,
		"classic-librdkafka-commits": `
protocol cooperative
consumer kafka
coordinator kafka
assignor cooperative-sticky
topic t 2
member a topics=t
member b topics=t static join-version=5
budget session-timeouts=1 lost-responses=1
commits librdkafka
`,
		"kip848-exact": `
protocol consumer
consumer kafka
coordinator kafka
assignor uniform
topic t 2
member a topics=t
member b topics=t static
budget crashes=1 restarts=1 lost-responses=1
commits on
commit-epochs exact
`,
		"kip848-client-ids": `
protocol consumer
consumer kafka
coordinator kafka
assignor uniform
topic t 2
member a topics=t
member b topics=t
budget lost-responses=1 leaves=1 crashes=1
member-ids client
commits on
`,
	} {
		c, err := ParseConfigString(name, "name "+name+"\n"+text)
		if err != nil {
			t.Fatalf("%s: %v", name, err)
		}
		cfgs[name] = c
	}
	return cfgs
}

// TestFastEncodingMatchesReflect walks every config breadth-first and checks that the
// hand-written encoder and the reflection encoder induce the same partition of the worlds
// reached: two worlds encode equal under one iff they do under the other. The first 1,000
// worlds of each config by default, 4,000 under GROUPCHECK_LONG.
func TestFastEncodingMatchesReflect(t *testing.T) {
	limit := 4000
	if !long() {
		limit = 1000
	}
	for name, cfg := range fastEncodeConfigs(t) {
		var worlds []World
		fastRep := map[string]int{}    // fast encoding → first world with it
		reflectRep := map[string]int{} // reflect encoding → first world with it
		// add records w and reports whether it is new (by the reflection encoder, the
		// reference); the two representatives must agree for every world.
		add := func(w World) bool {
			i := len(worlds)
			worlds = append(worlds, w)
			fk, rk := string(w.Encode(nil)), string(w.encodeReflect(nil))
			fi, fok := fastRep[fk]
			ri, rok := reflectRep[rk]
			if !fok {
				fastRep[fk], fi = i, i
			}
			if !rok {
				reflectRep[rk], ri = i, i
			}
			if fi != ri {
				t.Fatalf("%s: world %d is equal to world %d by the fast encoder but to world %d by reflection", name, i, fi, ri)
			}
			if !bytes.Equal([]byte(fk), []byte(rk)) {
				t.Fatalf("%s: world %d: fast encoding differs from the reflection encoding", name, i)
			}
			return !rok
		}
		frontier := []World{Init(cfg)}
		add(frontier[0])
		for len(frontier) > 0 && len(reflectRep) < limit {
			var next []World
			for _, w := range frontier {
				for _, a := range Actions(w, nil) {
					n, ok := Next(w, a)
					if ok && add(n) {
						next = append(next, n)
					}
				}
			}
			frontier = next
		}
		if len(fastRep) != len(reflectRep) {
			t.Fatalf("%s: %d classes by the fast encoder, %d by reflection", name, len(fastRep), len(reflectRep))
		}
		t.Logf("%s: %d worlds, %d distinct", name, len(worlds), len(reflectRep))
	}
}

func BenchmarkEncode(b *testing.B) {
	ws := benchWorlds(b)
	b.Run("fast", func(b *testing.B) {
		var buf []byte
		for i := 0; i < b.N; i++ {
			buf = ws[i%len(ws)].Encode(buf[:0])
		}
	})
	b.Run("reflect", func(b *testing.B) {
		var buf []byte
		for i := 0; i < b.N; i++ {
			buf = ws[i%len(ws)].encodeReflect(buf[:0])
		}
	})
}

func benchWorlds(b *testing.B) []World {
	p, err := LookupPreset(DefaultPreset)
	if err != nil {
		b.Fatal(err)
	}
	cfg, err := p.Config()
	if err != nil {
		b.Fatal(err)
	}
	seen := map[string]bool{}
	ws := []World{Init(cfg)}
	for i := 0; i < len(ws) && len(ws) < 2000; i++ {
		for _, a := range Actions(ws[i], nil) {
			if n, ok := Next(ws[i], a); ok && !seen[string(n.Encode(nil))] {
				seen[string(n.Encode(nil))] = true
				ws = append(ws, n)
			}
		}
	}
	return ws
}

// TestFastTypeCodes checks the fast encoder's type codes against the registry.
func TestFastTypeCodes(t *testing.T) {
	for _, tc := range []struct {
		v    any
		code byte
	}{
		{impl.JoinGroupRequest{}, codeJoinGroupRequest}, {impl.SyncGroupRequest{}, codeSyncGroupRequest},
		{impl.HeartbeatRequest{}, codeHeartbeatRequest}, {impl.LeaveGroupRequest{}, codeLeaveGroupRequest},
		{impl.OffsetCommitRequest{}, codeOffsetCommitRequest}, {impl.JoinGroupResponse{}, codeJoinGroupResponse},
		{impl.SyncGroupResponse{}, codeSyncGroupResponse}, {impl.HeartbeatResponse{}, codeHeartbeatResponse},
		{impl.LeaveGroupResponse{}, codeLeaveGroupResponse}, {impl.OffsetCommitResponse{}, codeOffsetCommitResp},
		{impl.ConsumerGroupHeartbeatRequest{}, codeCGHRequest}, {impl.ConsumerGroupHeartbeatResponse{}, codeCGHResponse},
	} {
		if got := typeCodes[reflect.TypeOf(tc.v)]; got != tc.code {
			t.Errorf("%T: registry code %d, fast encoder code %d", tc.v, got, tc.code)
		}
	}
	if len(typeCodes) != 12 {
		t.Errorf("%d registered types, the fast encoder knows 12", len(typeCodes))
	}
}
