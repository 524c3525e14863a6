package mutate

import (
	"io"
	"os"
	"slices"
	"testing"
)

// TestTwoEventWorldsAreInTheSuite: a world measured over two events is named in twoEvents by
// its suite name, so a renamed world would silently fall back to one event.
func TestTwoEventWorldsAreInTheSuite(t *testing.T) {
	in := map[string]bool{}
	for _, w := range Suite() {
		in[w.Name] = true
	}
	for name := range twoEvents {
		if !in[name] {
			t.Errorf("twoEvents names %s, which is not a suite world", name)
		}
		if (World{Name: name}).Events() != 2 {
			t.Errorf("%s: %d events, want 2", name, (World{Name: name}).Events())
		}
	}
	if (World{Name: "kip848/leaves"}).Events() != 1 {
		t.Errorf("a world outside twoEvents is not measured over one event")
	}
}

// TestTwoEventWorldsCatch: a KIP-848 client mutant that only delays a reaction — a lost
// heartbeat not re-sent at once — leaves more partition-steps without an owner only when the
// lost answer meets the rebalance a join started: caught in kip848/join-lost-responses measured
// over two events, surviving the same world measured over one. The sent-fields cache kept after
// an error (a retried acknowledgement omits the owned partitions) is caught beside it in
// kip848/join-failovers, over one event. Long: builds the client's schemata.
func TestTwoEventWorldsCatch(t *testing.T) {
	if os.Getenv("GROUPCHECK_LONG") == "" {
		t.Skip("builds the mutated binary; set GROUPCHECK_LONG=1")
	}
	const (
		sentKept  = "impl/kip848client/heartbeat.go|(Member).OnHeartbeatResponse|flip|resp.Error != impl.None"
		notResent = "impl/kip848client/heartbeat.go|(Member).RequestTimedOut|drop|s.sendUrgent()"
	)
	var worlds, one []World
	for _, w := range Suite() {
		switch w.Name {
		case "kip848/join-failovers", "kip848/join-lost-responses":
			worlds = append(worlds, w)
		}
		if twoEvents[w.Name] {
			one = append(one, World{Name: w.Name + "/one-event", Text: w.Text})
		}
	}
	for _, tc := range []struct {
		suite []World
		keys  []string
		want  string
	}{{worlds, []string{sentKept, notResent}, Killed}, {one, []string{notResent}, Survived}} {
		rep, err := Run(Options{Root: "..", Packages: []string{"impl/kip848client"}, Exclude: []string{"encode.go"}, Jobs: 2,
			Suite: tc.suite, Select: func(m Mutant) bool { return slices.Contains(tc.keys, m.Key) }, Log: io.Discard})
		if err != nil {
			t.Fatal(err)
		}
		if len(rep.Results) != len(tc.keys) {
			t.Fatalf("%d mutants run, want %d", len(rep.Results), len(tc.keys))
		}
		for _, r := range rep.Results {
			if r.Status != tc.want {
				t.Errorf("%s: %s, want %s", r.Key, r.Verdict, tc.want)
			}
		}
	}
}
