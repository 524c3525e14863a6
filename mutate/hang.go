package mutate

import (
	"sync/atomic"
	"time"
)

// HangName is the pseudo-property of a mutant whose step does not return: a role of impl/ —
// pure functions, each step microseconds in the reference — spins in a loop the mutation broke
// (a dropped increment, a negated exit test). The explorer's hooks (pass.world, pass.step) stop
// being called while the process goes on burning CPU; the watchdog sees that and the worker
// reports the hang as a kill, as mutation tools do with a mutant that never finishes (PIT's
// TIMED_OUT, Stryker's Timeout). A mutant whose exploration only grows is stopped by the state
// caps instead, and one that the CPU limit stops while it still makes progress is timed out.
const HangName = "hang"

// hangCPU is the CPU a world may take without a hook call before its step counts as hung: a
// margin, plus three times the reference's whole CPU in the world, which bounds the liveness
// analysis after the graph (up to three times the reference's states, no hook called).
func hangCPU(b Baseline) float64 { return 5 + 3*b.CPU }

// watchdog watches the pass's hooks for one mutant's process.
type watchdog struct {
	beats atomic.Int64
	world atomic.Pointer[Baseline] // the world being explored
	done  atomic.Bool              // the mutant's run returned: nothing hangs any more
}

func (d *watchdog) beat() { d.beats.Add(1) }

// explore records that world b is explored from now on.
func (d *watchdog) explore(b *Baseline) {
	d.world.Store(b)
	d.beat()
}

// watch looks at every tick until a world's hook calls stop for more than its hangCPU seconds
// of the process's CPU (cpu), then calls hung with that world, or until done.
func (d *watchdog) watch(ticks <-chan time.Time, cpu func() float64, hung func(world string)) {
	last, since := d.beats.Load(), cpu()
	for range ticks {
		if d.done.Load() {
			return
		}
		b := d.world.Load()
		switch n, now := d.beats.Load(), cpu(); {
		case n != last || b == nil:
			last, since = n, now
		case now-since > hangCPU(*b):
			hung(b.Name)
			return
		}
	}
}
