package spec

import (
	"bytes"
	"fmt"
	"math/rand/v2"
	"os"
	"path/filepath"
	"reflect"
	"slices"
	"strings"
	"testing"

	"github.com/groupcheck/groupcheck/impl"
)

// symmetricConfigs are worlds with interchangeable members that NewSymmetry keeps: protocol
// consumer with the `any` assignor, each with a different mix of roles and events.
var symmetricConfigs = map[string]string{
	// kip848-kafka with the any assignor.
	"kip848-any": `
protocol consumer
consumer kafka
coordinator kafka
assignor any
topic t 2
member a topics=t
member b topics=t
budget crashes=1 session-timeouts=1
commits on
`,
	// kip848-kip's reconciliation, three dynamic members, a late joiner pair.
	"kip848-kip-three": `
protocol consumer
consumer kip
coordinator kafka
assignor any
topic t 2
member a topics=t
member b topics=t absent
member c topics=t absent
budget joins=1 leaves=1
`,
	// static members restarting.
	"kip848-static-any": `
protocol consumer
consumer kafka
coordinator kafka
assignor any
topic t 2
member a topics=t static
member b topics=t static
budget restarts=1
`,
	// docs/protocol.md §8's reconciliation; a subscription change to another topic and a crash.
	"kip848-resubscribe": `
protocol consumer
consumer kip
coordinator kafka
assignor any
topic t 1
topic u 1
member a topics=t alt-topics=u
member b topics=t alt-topics=u
budget subscription-changes=1 crashes=1
`,
	// static members with every timer and a lost response (walks only: too large to exhaust
	// in a test).
	"kip848-static-rich": `
protocol consumer
consumer kafka
coordinator kafka
assignor any
topic t 2
member a topics=t static
member b topics=t static
budget restarts=1 lost-responses=1 rebalance-timeouts=1 session-timeouts=1
commits on
`,
	// three interchangeable dynamic members (a group of 6).
	"kip848-three-dynamic": `
protocol consumer
consumer kafka
coordinator kafka
assignor any
topic t 2
member a topics=t
member b topics=t
member c topics=t
`,
	// two classes and a singleton.
	"kip848-two-classes": `
protocol consumer
consumer kafka
coordinator kafka
assignor any
topic t 3
member a topics=t
member b topics=t
member c topics=t static
member d topics=t static
member e topics=t absent
budget joins=1 crashes=1 restarts=1
`,
}

func parse(t testing.TB, name, text string) Config {
	t.Helper()
	c, err := ParseConfigString(name, "name "+name+"\n"+text)
	if err != nil {
		t.Fatalf("%s: %v", name, err)
	}
	return c
}

// enabled lists the actions enabled in w with their successors.
func enabled(w World) ([]Action, []World) {
	var as []Action
	var ws []World
	for _, a := range Actions(w, nil) {
		if n, ok := Next(w, a); ok {
			as = append(as, a)
			ws = append(ws, n)
		}
	}
	return as, ws
}

func actionTexts(c *Config, as []Action) []string {
	out := make([]string, len(as))
	for i, a := range as {
		out[i] = a.Text(c)
	}
	slices.Sort(out)
	return out
}

// checkAutomorphism walks w and, for every permutation, the world the permuted actions
// reach. At each step the image of w must encode as that world does, the two must share their
// canonical encoding, and the actions enabled in the image must be exactly the images of
// those enabled in w. It returns the first disagreement, or "".
func checkAutomorphism(s Symmetry, c Config, rng *rand.Rand, depth int) string {
	w := Init(c)
	images := make([]World, len(s.perms))
	for k := range images {
		images[k] = Init(c)
	}
	var path []string
	for step := 0; ; step++ {
		as, ws := enabled(w)
		canon := string(s.Encode(w, nil))
		for k := 1; k < len(s.perms); k++ {
			p, img := s.perms[k], images[k]
			if got, want := s.encodeImage(w, p, nil), img.Encode(nil); !bytes.Equal(got, want) {
				return fmt.Sprintf("after %v, permutation %v: the image encodes differently from the world the permuted actions reach:\n%s\nimage of:\n%s", path, p, img, w)
			}
			if string(s.Encode(img, nil)) != canon {
				return fmt.Sprintf("after %v, permutation %v: canonical encodings differ", path, p)
			}
			mapped := make([]Action, len(as))
			for i, a := range as {
				mapped[i] = s.Action(k, a)
			}
			got, _ := enabled(img)
			if want := actionTexts(&c, mapped); !slices.Equal(actionTexts(&c, got), want) {
				return fmt.Sprintf("after %v, permutation %v: image enables %v, want %v", path, p, actionTexts(&c, got), want)
			}
		}
		if len(as) == 0 || step == depth {
			return ""
		}
		i := rng.IntN(len(as))
		path = append(path, as[i].Text(&c))
		for k := 1; k < len(s.perms); k++ {
			n, ok := Next(images[k], s.Action(k, as[i]))
			if !ok {
				return fmt.Sprintf("after %v: the image of the last action is not enabled", path)
			}
			images[k] = n
		}
		w = ws[i]
	}
}

// TestImagesAreReachable: in the worlds NewSymmetry reduces, every permutation is an
// automorphism along seeded random walks — the permuted walk is enabled step by step, reaches
// exactly the image encodeImage writes, and enables exactly the permuted actions. Every fault
// is switched on in turn in one of them, since NewSymmetry does not look at faults. Three
// walks of 50 steps a world by default, 16 of 80 under GROUPCHECK_LONG.
func TestImagesAreReachable(t *testing.T) {
	walks, depth := 16, 80
	if !long() {
		walks, depth = 3, 50
	}
	type world struct {
		name  string
		c     Config
		walks int
	}
	var worlds []world
	for name, text := range symmetricConfigs {
		worlds = append(worlds, world{name, parse(t, name, text), walks})
	}
	for _, f := range impl.AllFaults() {
		c := parse(t, "kip848-kip-three", symmetricConfigs["kip848-kip-three"])
		c.Faults = c.Faults.With(f)
		worlds = append(worlds, world{"kip848-kip-three+" + f.String(), c, max(walks/4, 1)})
	}
	for _, wd := range worlds {
		s := NewSymmetry(wd.c)
		if s.Order() < 2 {
			t.Fatalf("%s: no symmetry: %s", wd.name, s)
		}
		for seed := range wd.walks {
			if why := checkAutomorphism(s, wd.c, rand.New(rand.NewPCG(uint64(seed), 4)), depth); why != "" {
				t.Fatalf("%s, seed %d: %s", wd.name, seed, why)
			}
		}
	}
}

// TestImageOfIdentity: the image under the identity is World.Encode's bytes, on every world
// of a breadth-first walk of every preset and the any worlds of both protocols — so the
// coordinators' encodings written from their exported views keep AppendCanonical's layout.
// The first 600 worlds of each by default, 3,000 under GROUPCHECK_LONG.
func TestImageOfIdentity(t *testing.T) {
	limit := 3000
	if !long() {
		limit = 600
	}
	for name, c := range fastEncodeConfigs(t) {
		s := newSymmetry(c, nil)
		id := s.perms[0]
		ws, _ := reach(c, func(w World) string { return string(w.Encode(nil)) }, limit)
		for _, w := range ws {
			if got, want := s.encodeImage(w, id, nil), w.Encode(nil); !bytes.Equal(got, want) {
				t.Fatalf("%s: identity image differs from World.Encode for\n%s", name, w)
			}
		}
	}
}

// reach explores c breadth-first, one world per key, up to limit worlds; it reports whether
// it was exhaustive.
func reach(c Config, key func(World) string, limit int) ([]World, bool) {
	seen := map[string]bool{}
	w0 := Init(c)
	seen[key(w0)] = true
	ws := []World{w0}
	for i := 0; i < len(ws); i++ {
		_, next := enabled(ws[i])
		for _, n := range next {
			k := key(n)
			if seen[k] {
				continue
			}
			if len(ws) == limit {
				return ws, false
			}
			seen[k] = true
			ws = append(ws, n)
		}
	}
	return ws, true
}

// orbitCounts explores c without reduction and with the canonical encoding canon, and returns
// how many orbits the plain search reaches (its worlds grouped by canon) and how many worlds
// the reduced search keeps; for an exact reduction they are equal.
func orbitCounts(t *testing.T, c Config, canon func(World) string) (orbits, reduced, plain int) {
	t.Helper()
	all, ok := reach(c, func(w World) string { return string(w.Encode(nil)) }, 2_000_000)
	if !ok {
		t.Fatalf("%s: too large", c.Name)
	}
	keys := map[string]bool{}
	for _, w := range all {
		keys[canon(w)] = true
	}
	red, _ := reach(c, canon, 2_000_000)
	return len(keys), len(red), len(all)
}

// TestExactOrbits: the reduced search keeps one world per orbit the plain search reaches —
// not more (a canonical form that under-reduces) and not fewer (a reduction that merges
// worlds with different futures) — under both canonical rules (canon.go): the least image
// over the whole group, and over the images that sort the classes by signature.
func TestExactOrbits(t *testing.T) {
	names := []string{"kip848-kip-three", "kip848-resubscribe"}
	if long() {
		names = append(names, "kip848-three-dynamic", "kip848-static-any", "kip848-any")
	}
	for _, name := range names {
		c := parse(t, name, symmetricConfigs[name])
		s := NewSymmetry(c)
		for rule, canon := range map[string]func(World) string{
			"all":    func(w World) string { return string(s.leastImage(w, s.perms, nil)) },
			"sorted": func(w World) string { return string(s.leastSorted(w, nil)) },
		} {
			orbits, reduced, plain := orbitCounts(t, c, canon)
			t.Logf("%s, %s: %d worlds, %d orbits, %d kept by the reduced search", name, rule, plain, orbits, reduced)
			if reduced != orbits {
				t.Errorf("%s, %s: the reduced search keeps %d worlds for %d orbits", name, rule, reduced, orbits)
			}
			if orbits >= plain {
				t.Errorf("%s, %s: %d orbits for %d worlds: nothing was reduced", name, rule, orbits, plain)
			}
		}
	}
}

// TestIDOrderBreaksSymmetry is why NewSymmetry refuses deterministic assignors: forcing the
// classes on two cooperative-sticky members (README "two members" world, the assignor gives
// a t-0 and b t-1, never the swap) merges worlds with different futures, and the reduced
// search misses orbits the plain search reaches.
func TestIDOrderBreaksSymmetry(t *testing.T) {
	c := parse(t, "two-members", `
protocol cooperative
consumer kafka
coordinator kafka
assignor cooperative-sticky
topic t 2
member a topics=t
member b topics=t
`)
	if s := NewSymmetry(c); s.Order() != 1 || s.Blocked() == "" {
		t.Fatalf("NewSymmetry kept classes for a deterministic assignor: %s", s)
	}
	forced := newSymmetry(c, roleClasses(c))
	orbits, reduced, plain := orbitCounts(t, c, func(w World) string { return string(forced.Encode(w, nil)) })
	t.Logf("%d worlds, %d orbits, %d kept by the forced reduction", plain, orbits, reduced)
	if reduced >= orbits {
		t.Errorf("the forced reduction keeps %d worlds for %d orbits: the id-order choice no longer breaks symmetry (revisit idOrderChoice)", reduced, orbits)
	}
}

// TestNewSymmetry: which slots are interchangeable, and why equal roles are refused where
// the model chooses by member-id order (symmetry.go).
func TestNewSymmetry(t *testing.T) {
	preset := func(name string) Config {
		p, err := LookupPreset(name)
		if err != nil {
			t.Fatal(err)
		}
		c, err := p.Config()
		if err != nil {
			t.Fatal(err)
		}
		return c
	}
	four := parse(t, "four", "protocol consumer\nconsumer kafka\ncoordinator kafka\nassignor any\ntopic t 4\n"+
		"member a topics=t\nmember b topics=t\nmember c topics=t\nmember d topics=t\n")
	for _, tc := range []struct {
		name    string
		c       Config
		classes [][]string
		order   int
		blocked string // a word the reason must contain; "" for none
	}{
		{"kip848-two-classes", parse(t, "x", symmetricConfigs["kip848-two-classes"]), [][]string{{"a", "b"}, {"c", "d"}}, 4, ""},
		{"absent pair beside a present member", parse(t, "x", symmetricConfigs["kip848-kip-three"]), [][]string{{"b", "c"}}, 2, ""},
		{"four dynamic members", four, [][]string{{"a", "b", "c", "d"}}, 24, ""},
		// Presets: every deterministic assignor, and the classic coordinator's election.
		{"cooperative-kafka", preset("cooperative-kafka"), [][]string{}, 1, "cooperative-sticky"},
		{"eager", preset("eager"), [][]string{}, 1, "range"},
		{"kip848-kafka", preset("kip848-kafka"), [][]string{}, 1, "uniform"},
		{"upgrade-skip-bounce: a and b alike, c not", preset("upgrade-skip-bounce"), [][]string{}, 1, "range"},
		// upgrade-v0-leader: a (v0), b and c (absent) all differ, so nothing is refused.
		{"upgrade-v0-leader", preset("upgrade-v0-leader"), [][]string{}, 1, ""},
		{"classic any", parse(t, "x", "protocol eager\nconsumer kafka\ncoordinator kafka\nassignor any\ntopic t 1\nmember a topics=t\nmember b topics=t\n"), [][]string{}, 1, "elects"},
	} {
		s := NewSymmetry(tc.c)
		if got := s.Classes(); !reflect.DeepEqual(got, tc.classes) || s.Order() != tc.order {
			t.Errorf("%s: classes %v order %d, want %v order %d", tc.name, got, s.Order(), tc.classes, tc.order)
		}
		if tc.blocked == "" && s.Blocked() != "" || !strings.Contains(s.Blocked(), tc.blocked) {
			t.Errorf("%s: blocked %q, want it to name %q", tc.name, s.Blocked(), tc.blocked)
		}
		if str := s.String(); (tc.order > 1) != strings.HasPrefix(str, "interchangeable") {
			t.Errorf("%s: String() = %q", tc.name, str)
		}
	}
}

// TestGroupElements: the group is every product of per-class permutations, each once, the
// identity excluded from perms.
func TestGroupElements(t *testing.T) {
	if got := permutations(3); !reflect.DeepEqual(got, [][]int{{0, 1, 2}, {0, 2, 1}, {1, 0, 2}, {1, 2, 0}, {2, 0, 1}, {2, 1, 0}}) {
		t.Errorf("permutations(3) = %v", got)
	}
	c := parse(t, "x", symmetricConfigs["kip848-two-classes"])
	s := NewSymmetry(c)
	want := [][]int{{0, 1, 2, 3, 4}, {0, 1, 3, 2, 4}, {1, 0, 2, 3, 4}, {1, 0, 3, 2, 4}}
	if !reflect.DeepEqual(s.perms, want) {
		t.Errorf("perms = %v, want %v", s.perms, want)
	}
}

// TestSameRole: any field but the name separates two slots.
func TestSameRole(t *testing.T) {
	p := impl.Cooperative
	base := MemberConfig{Name: "a", Topics: []string{"t"}, SubscriptionVersion: 2, JoinVersion: 5}
	for _, tc := range []struct {
		name   string
		change func(*MemberConfig)
		same   bool
	}{
		{"name only", func(m *MemberConfig) { m.Name = "b" }, true},
		{"static", func(m *MemberConfig) { m.Static = true }, false},
		{"absent", func(m *MemberConfig) { m.Absent = true }, false},
		{"topics", func(m *MemberConfig) { m.Topics = []string{"u"} }, false},
		{"alt topics", func(m *MemberConfig) { m.AltTopics = []string{"u"} }, false},
		{"assignors", func(m *MemberConfig) { m.Assignors = []string{"range"} }, false},
		{"protocol", func(m *MemberConfig) { m.Protocol = &p }, false},
		{"version", func(m *MemberConfig) { m.SubscriptionVersion = 1 }, false},
		{"join version", func(m *MemberConfig) { m.JoinVersion = 4 }, false},
	} {
		o := base
		tc.change(&o)
		if got := sameRole(base, o); got != tc.same {
			t.Errorf("%s: sameRole = %v, want %v", tc.name, got, tc.same)
		}
	}
}

// TestRenamer: what a permutation renames (symmetry.go) — ids by their name part, instance
// ids, connections by their slot bits — and what it keeps: ids of no slot, unset connections.
func TestRenamer(t *testing.T) {
	r := renamer{names: []string{"a", "b", "c"}, to: []int{1, 0, 2}}
	for _, tc := range []struct{ in, want impl.MemberID }{
		{"a#1", "b#1"}, {"b#12", "a#12"}, {"c#2", "c#2"}, {"", ""}, {"x#1", "x#1"}, {"a", "a"},
	} {
		if got := r.id(tc.in); got != tc.want {
			t.Errorf("id(%q) = %q, want %q", tc.in, got, tc.want)
		}
	}
	if got := r.instance("a"); got != "b" {
		t.Errorf("instance(a) = %q, want b", got)
	}
	if got := r.instance(""); got != "" {
		t.Errorf("instance(\"\") = %q", got)
	}
	for _, tc := range []struct{ in, want impl.Conn }{
		{connOf(0, 1), connOf(1, 1)}, {connOf(1, 3), connOf(0, 3)}, {connOf(2, 2), connOf(2, 2)},
		{0, 0}, {connOf(1, 0), connOf(1, 0)}, {connOf(7, 1), connOf(7, 1)},
	} {
		if got := r.conn(tc.in); got != tc.want {
			t.Errorf("conn(%d) = %d, want %d", tc.in, got, tc.want)
		}
	}
	got := r.joinMembers([]impl.JoinGroupMember{{MemberID: "a#1"}, {MemberID: "b#1", InstanceID: "b"}})
	if want := []impl.JoinGroupMember{{MemberID: "a#1", InstanceID: "a"}, {MemberID: "b#1"}}; !reflect.DeepEqual(got, want) {
		t.Errorf("joinMembers = %v, want %v (renamed, in id order)", got, want)
	}
	leave := r.response(impl.LeaveGroupResponse{Members: []impl.LeaveMemberResponse{{MemberID: "a#2", InstanceID: "a"}}})
	if want := (impl.LeaveGroupResponse{Members: []impl.LeaveMemberResponse{{MemberID: "b#2", InstanceID: "b"}}}); !reflect.DeepEqual(leave, want) {
		t.Errorf("LeaveGroup response renamed to %v, want %v", leave, want)
	}
	if got := r.response(impl.SyncGroupResponse{ProtocolName: "range"}); !reflect.DeepEqual(got, impl.SyncGroupResponse{ProtocolName: "range"}) {
		t.Errorf("SyncGroup response changed: %v", got)
	}
	for _, bad := range []func(){func() { r.request(nil) }, func() { r.response(nil) }} {
		func() {
			defer func() {
				if recover() == nil {
					t.Error("renaming a message of no known type did not panic")
				}
			}()
			bad()
		}()
	}
}

// TestTestdataConfigs: the worlds spec/testdata proposes for symmetry parse, and each has
// interchangeable members that NewSymmetry keeps.
func TestTestdataConfigs(t *testing.T) {
	files, err := filepath.Glob("testdata/*.conf")
	if err != nil || len(files) == 0 {
		t.Fatalf("no testdata configs: %v", err)
	}
	for _, f := range files {
		data, err := os.ReadFile(f)
		if err != nil {
			t.Fatal(err)
		}
		c, err := ParseConfigString(filepath.Base(f), string(data))
		if err != nil {
			t.Fatal(err)
		}
		if s := NewSymmetry(c); s.Order() < 2 {
			t.Errorf("%s: %s", f, s)
		}
	}
}

// TestSignatureNamesNoSlot: a slot and its renamed copy under any permutation have the same
// signature (the condition for canon.go's sorted rule to be exact), on every world of a
// breadth-first walk of every preset and the any worlds of both protocols.
func TestSignatureNamesNoSlot(t *testing.T) {
	limit := 1500
	if testing.Short() {
		limit = 300
	}
	for name, c := range fastEncodeConfigs(t) {
		all := permutations(len(c.Members))
		names := newSymmetry(c, nil).names
		ws, _ := reach(c, func(w World) string { return string(w.Encode(nil)) }, limit)
		for k, w := range ws {
			p := all[k%len(all)]
			r := renamer{names: names, to: p}
			e := encoder{base: w.Coord.Generation(), epochBase: w.Group.GroupEpoch(), genAsEpoch: c.ConsumerProtocol}
			for i := range w.Slots {
				e.buf = nil
				e.signature(w.Slots[i])
				want := e.buf
				img := r.slot(*w.Slots[i], c.ConsumerProtocol || c.Mixed(), !c.ConsumerProtocol)
				e.buf = nil
				e.signature(&img)
				if !bytes.Equal(e.buf, want) {
					t.Fatalf("%s: slot %d's signature changes under %v in\n%s", name, i, p, w)
				}
			}
		}
	}
}

// TestMessageCodes: the signature's message codes are the encoding's type codes.
func TestMessageCodes(t *testing.T) {
	for typ, code := range typeCodes {
		if got := messageCode(reflect.New(typ).Elem().Interface()); got != code {
			t.Errorf("%v: code %d, want %d", typ, got, code)
		}
	}
	if messageCode(42) != 0 {
		t.Error("an unknown kind has a code")
	}
}
