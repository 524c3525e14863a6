package conform

import (
	"math/rand/v2"
	"strings"
	"testing"

	"github.com/groupcheck/groupcheck/spec"
	"github.com/groupcheck/groupcheck/traces"
)

// walkTrace is a seeded random walk of a world as a trace (expected blocks filled by
// Rewrite): every environment action the corpus lacks (crashes, graceful leaves,
// resubscriptions, lost responses, poll timeouts, restarts) gets delivered to members.
func walkTrace(t *testing.T, cfg spec.Config, seed uint64, steps int) *traces.Trace {
	rng := rand.New(rand.NewPCG(seed, 7))
	w := spec.Init(cfg)
	var acts []spec.Action
	for range steps {
		var enabled []spec.Action
		var next []spec.World
		for _, a := range spec.Actions(w, nil) {
			if n, ok := spec.Next(w, a); ok {
				enabled, next = append(enabled, a), append(next, n)
			}
		}
		if len(enabled) == 0 {
			break
		}
		k := rng.IntN(len(enabled))
		acts, w = append(acts, enabled[k]), next[k]
	}
	tr, err := traces.Rewrite(traces.New(cfg.Name+".trace", traces.Header{Found: "simulation"}, cfg, acts))
	if err != nil {
		t.Fatal(err)
	}
	return tr
}

func walkConfigs(t *testing.T) []spec.Config {
	members := `
topic t 3
topic u 1
member a topics=t alt-topics=t,u
member b topics=t
member c topics=t absent
commits on
budget joins=2 leaves=1 crashes=1 lost-responses=2 session-timeouts=1 poll-timeouts=1 subscription-changes=2 partition-additions=1
`
	var out []spec.Config
	for name, head := range map[string]string{
		"walk-cooperative": "protocol cooperative\nconsumer kafka\ncoordinator kafka\nassignor cooperative-sticky",
		"walk-kip":         "protocol cooperative\nconsumer kip\ncoordinator kafka\nassignor cooperative-sticky",
		"walk-eager":       "protocol eager\nconsumer kafka\ncoordinator kafka\nassignor sticky",
		"walk-static":      "protocol cooperative\nconsumer kafka\ncoordinator kafka\nassignor cooperative-sticky",
		"walk-kip848":      "protocol consumer\nconsumer kafka\ncoordinator kafka\nassignor uniform",
	} {
		text := head + members
		if name == "walk-static" {
			text = strings.ReplaceAll(text, "member b topics=t", "member b topics=t static") + "budget restarts=2\n"
		}
		cfg, err := spec.ParseConfigString(name, "name "+name+"\n"+text)
		if err != nil {
			t.Fatalf("%s: %v", name, err)
		}
		out = append(out, cfg)
	}
	return out
}

// The reference conforms on random walks of every kind of input, and the harness's
// self-check (the reference member given the derived input sends what the trace records)
// holds on every step of them.
func TestReferenceConformsOnWalks(t *testing.T) {
	seeds := 8
	if testing.Short() {
		seeds = 3
	}
	kinds := map[spec.Kind]int{}
	inputs := 0
	for _, cfg := range walkConfigs(t) {
		for seed := range uint64(seeds) {
			tr := walkTrace(t, cfg, seed, 120)
			r, err := Run(Reference(), tr, Options{})
			if err != nil {
				t.Fatalf("%s seed %d: %v", cfg.Name, seed, err)
			}
			if r.Mismatch != nil || r.Skipped != "" {
				t.Fatalf("%s seed %d: %+v", cfg.Name, seed, r)
			}
			inputs += r.Inputs
			for _, s := range tr.Steps {
				kinds[s.Action.Kind]++
			}
		}
	}
	for _, k := range []spec.Kind{spec.Crash, spec.Leave, spec.Resubscribe, spec.LoseResponse, spec.PollTimeout, spec.Start, spec.Restart, spec.Assign} {
		if kinds[k] == 0 {
			t.Errorf("no walk took %s", k)
		}
	}
	t.Logf("%d member inputs compared on random walks; actions: %v", inputs, kinds)
}
