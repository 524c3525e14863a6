package invariants

import (
	"flag"
	"fmt"
	"os"
	"sync"
	"testing"

	"github.com/groupcheck/groupcheck/explorer"
	"github.com/groupcheck/groupcheck/spec"
	"github.com/groupcheck/groupcheck/worlds"
)

var rewrite = flag.Bool("rewrite", false, "write the counts measured into worlds/pins.txt instead of comparing them")

// measured holds the counts the tests measured under -rewrite, written by TestMain.
var measured = struct {
	sync.Mutex
	pins worlds.Pins
}{pins: worlds.Pins{}}

func TestMain(m *testing.M) {
	flag.Parse()
	code := m.Run()
	if *rewrite && len(measured.pins) > 0 {
		if err := worlds.RewritePins(worlds.PinsFile, measured.pins); err != nil {
			fmt.Fprintln(os.Stderr, "rewrite:", err)
			code = 1
		}
	}
	os.Exit(code)
}

// world is the named world of worlds/ ("tests/two-members", a preset's name), parsed.
func world(t *testing.T, name string) spec.Config {
	t.Helper()
	text, err := worlds.Text(name)
	if err != nil {
		t.Fatal(err)
	}
	return config(t, text)
}

// pinOf is the named world's pin in worlds/pins.txt, for a test that sizes its work by it.
func pinOf(t *testing.T, name string) worlds.Pin {
	t.Helper()
	ps, err := worlds.LoadPins()
	if err != nil {
		t.Fatal(err)
	}
	return ps[name]
}

// pinned checks that r explored the named world exhaustively, with the counts worlds/pins.txt
// pins for it (those it leaves out are not compared); under -rewrite it records them instead.
func pinned(t *testing.T, name string, r explorer.Report[spec.World, spec.Action]) {
	t.Helper()
	if !r.Exhaustive {
		t.Fatalf("%s: not exhaustive: stopped by %s", name, r.StoppedBy)
	}
	ps, err := worlds.LoadPins()
	if err != nil {
		t.Fatal(err)
	}
	want, ok := ps[name]
	if !ok && !*rewrite {
		t.Fatalf("%s: no pin in worlds/pins.txt (go test -rewrite adds it)", name)
	}
	got := worlds.Pin{Distinct: r.Distinct, Generated: r.Generated, Depth: r.Depth}
	if ok && want.Generated == worlds.Unpinned {
		got.Generated = worlds.Unpinned
	}
	if ok && want.Depth == worlds.Unpinned {
		got.Depth = worlds.Unpinned
	}
	if *rewrite {
		measured.Lock()
		measured.pins[name] = got
		measured.Unlock()
		return
	}
	if got != want {
		t.Errorf("%s: distinct, generated, depth = %v, worlds/pins.txt pins %v", name, got, want)
	}
}
