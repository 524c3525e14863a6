package spec

import (
	"reflect"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"
	"github.com/google/go-cmp/cmp/cmpopts"
	"github.com/groupcheck/groupcheck/impl"
)

// TestActionTextRoundTrips: every action offered in the first worlds of every preset, and in
// an `any` world, spells a text that ParseAction reads back to the same action.
func TestActionTextRoundTrips(t *testing.T) {
	anyWorld, err := ParseConfig("any", strings.NewReader(`protocol cooperative
consumer kafka
coordinator kafka
assignor any
topic t 2
member a topics=t
member b topics=t
budget followups=1
`))
	if err != nil {
		t.Fatal(err)
	}
	kipAny, err := ParseConfig("kip848-any", strings.NewReader(`protocol consumer
consumer kafka
coordinator kafka
assignor any
topic t 2
member a topics=t
member b topics=t
budget crashes=1 rebalance-timeouts=1
`))
	if err != nil {
		t.Fatal(err)
	}
	cfgs := []Config{anyWorld, kipAny}
	for _, p := range Presets {
		c, err := p.Config()
		if err != nil {
			t.Fatal(err)
		}
		cfgs = append(cfgs, c)
	}
	kinds := map[Kind]bool{}
	followups := false
	for _, c := range cfgs {
		frontier := []World{Init(c)}
		for depth := 0; depth < 12 && len(frontier) > 0; depth++ {
			var next []World
			for _, w := range frontier {
				for _, a := range Actions(w, nil) {
					text := a.Text(w.cfg)
					back, err := ParseAction(w.cfg, text)
					if err != nil {
						t.Fatalf("%s: %q does not parse: %v", c.Name, text, err)
					}
					// reflect.DeepEqual first: cmp.Diff on every action was four fifths of the test.
					if !reflect.DeepEqual(a, back) {
						if d := cmp.Diff(a, back, cmpopts.EquateEmpty(), cmp.Comparer(func(x, y impl.PartitionSet) bool { return x.Equal(y) })); d != "" {
							t.Fatalf("%s: %q parses to a different action (-want +got):\n%s", c.Name, text, d)
						}
					}
					kinds[a.Kind] = true
					followups = followups || a.Followup != "" && a.Choice != nil
					if n, ok := Next(w, a); ok && len(next) < 100 {
						next = append(next, n)
					}
				}
			}
			frontier = next
		}
	}
	if !kinds[Assign] || !kinds[SessionExpiry] || !kinds[AddPartition] || !kinds[RebalanceTimeout] || !kinds[Followup] || !followups {
		t.Errorf("round trip never saw assign (with a follow-up), session-expiry, add-partition, rebalance-timeout or followup actions: %v", kinds)
	}
}

func TestParseActionErrors(t *testing.T) {
	c, _ := Presets[0].Config()
	for _, tc := range []struct{ text, want string }{
		{"fly a", `unknown kind "fly"`},
		{"poll zz", `unknown member "zz"`},
		{"add-partition nope", `unknown topic "nope"`},
		{"join-timeout now", "takes no argument"},
		{"session-expiry", "takes one member id"},
		{"rebalance-timeout", "takes one member id"},
		{"poll a a#1=(t-0)", "only assign takes an assignment"},
		{"assign a a#1=(t-x)", `partition "t-x": want topic-N`},
		{"assign a a#1=(t-0", "unclosed parenthesis"},
		{"poll a followup=b#1", "only assign takes followup="},
		{"assign a followup=", "followup= takes one member id"},
	} {
		if _, err := ParseAction(&c, tc.text); err == nil || !strings.Contains(err.Error(), tc.want) {
			t.Errorf("ParseAction(%q) = %v, want an error containing %q", tc.text, err, tc.want)
		}
	}
}
