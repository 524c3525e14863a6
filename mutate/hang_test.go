package mutate

import (
	"sync/atomic"
	"testing"
	"time"
)

// TestWatchdogSeesAHungStep: while hooks are called the watchdog stays quiet however much CPU
// goes by; once they stop and more than the world's hangCPU passes, it names the world. The
// test drives the ticks: a tick is sent only once the previous one was looked at.
func TestWatchdogSeesAHungStep(t *testing.T) {
	var cpu atomic.Int64 // milliseconds of fake CPU
	d := &watchdog{}
	b := Baseline{World: World{Name: "eager/spin"}, CPU: 1} // hangCPU: 8 s
	d.explore(&b)
	ticks, got := make(chan time.Time), make(chan string, 1)
	go d.watch(ticks, func() float64 { return float64(cpu.Load()) / 1000 }, func(w string) { got <- w })
	for range 200 { // 20 s of CPU with a hook call every 100 ms of it
		cpu.Add(100)
		d.beat()
		ticks <- time.Time{}
	}
	ticks <- time.Time{} // the last progress has been looked at
	if len(got) > 0 {
		t.Fatalf("a run that makes progress was called hung in %s", <-got)
	}
	cpu.Add(9000) // 9 s of CPU in one step, no hook call
	ticks <- time.Time{}
	select {
	case w := <-got:
		if w != "eager/spin" {
			t.Errorf("hung in %q, want eager/spin", w)
		}
	case <-time.After(10 * time.Second):
		t.Fatal("a step that took 9 s of CPU (hangCPU 8 s) was not called hung")
	}
}

// TestWatchdogStopsWhenDone: once the mutant's run has returned, no hang is reported, even for
// a world whose hooks then stay silent through far more than its hangCPU (without the done
// check this very tick would fire).
func TestWatchdogStopsWhenDone(t *testing.T) {
	var cpu atomic.Int64
	d := &watchdog{}
	b := Baseline{World: World{Name: "eager/spin"}}
	d.explore(&b)
	ticks, got, returned := make(chan time.Time), make(chan string, 1), make(chan struct{})
	go func() {
		d.watch(ticks, func() float64 { return float64(cpu.Load()) / 1000 }, func(w string) { got <- w })
		close(returned)
	}()
	ticks <- time.Time{} // looked at with no CPU gone by
	cpu.Add(60000)
	d.done.Store(true)
	ticks <- time.Time{}
	<-returned
	if len(got) > 0 {
		t.Fatalf("called hung in %s after the run returned", <-got)
	}
}
