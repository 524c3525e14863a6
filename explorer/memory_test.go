package explorer_test

import (
	"bytes"
	"encoding/binary"
	"encoding/json"
	"fmt"
	"os"
	"os/exec"
	"runtime"
	"runtime/debug"
	"strconv"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"

	"github.com/groupcheck/groupcheck/explorer"
	"github.com/groupcheck/groupcheck/explorer/twophase"
)

// memoryRun is what the child process of TestMaxMemory reports.
type memoryRun struct {
	Limit, Base, HighWater uint64
	StoppedBy              string
	Exhaustive             bool
	Distinct               int64
	Depth                  int
	Levels                 []int64
	Status                 string // of TCConsistent
	Err                    string
}

// memoryHeadroom is how far above its resident set at the start the
// child sets MaxMemory: about half of what TwoPhase RM=8 needs (1.7 M
// states at 15 bytes each), so the run must stop midway.
const memoryHeadroom = 12 << 20

// TestMaxMemory runs TwoPhase RM=8 under a MaxMemory it cannot finish in,
// in a child process so that the kernel's high-water mark of the
// resident set (VmHWM) measures this run alone: it must stop with
// StoppedBy max-memory, report complete levels only (the same as a run
// bounded by depth there), and never pass the limit. Twice: with
// pointer-free states (off the Go heap, spilled to a file) and with
// states on the Go heap (rebuilt, and the collector held to the limit).
func TestMaxMemory(t *testing.T) {
	for _, kind := range []string{"packed", "boxed", "burst"} {
		t.Run(kind, func(t *testing.T) {
			cmd := exec.Command(os.Args[0], "-test.run=^TestMaxMemoryChild$", "-test.v")
			cmd.Env = append(os.Environ(), "EXPLORER_MEMORY_CHILD="+kind)
			out, err := cmd.CombinedOutput()
			if err != nil {
				t.Fatalf("child: %v\n%s", err, out)
			}
			_, js, ok := bytes.Cut(out, []byte("RESULT "))
			if !ok {
				t.Fatalf("child said no result:\n%s", out)
			}
			js, _, _ = bytes.Cut(js, []byte("\n"))
			var r memoryRun
			if err := json.Unmarshal(js, &r); err != nil {
				t.Fatalf("child result %q: %v", js, err)
			}
			t.Logf("limit %d MiB (start %d MiB): high water %d KiB, depth %d, %d states, stopped by %q",
				r.Limit>>20, r.Base>>20, r.HighWater>>10, r.Depth, r.Distinct, r.StoppedBy)
			if r.StoppedBy != explorer.StopMaxMemory || r.Exhaustive || r.Err != "" {
				t.Fatalf("stopped by %q, exhaustive %v, err %q; want stopped by max-memory", r.StoppedBy, r.Exhaustive, r.Err)
			}
			if r.HighWater > r.Limit {
				t.Errorf("resident set reached %d bytes, over the limit %d by %d", r.HighWater, r.Limit, r.HighWater-r.Limit)
			}
			if r.Status != explorer.Unknown.String() {
				t.Errorf("TCConsistent is %s on a bounded run, want unknown", r.Status)
			}
			if kind == "burst" {
				if want := []int64{burstWidth, burstWidth}; !cmp.Equal(r.Levels, want) {
					t.Errorf("levels %v, want %v", r.Levels, want)
				}
				return
			}
			m, props := twophase.New(8)
			ref := explorer.Check(m, props, explorer.Options{MaxDepth: r.Depth})
			if r.Distinct != ref.Distinct || !cmp.Equal(r.Levels, ref.Levels) {
				t.Errorf("levels %v (%d states), want the complete levels %v (%d states)", r.Levels, r.Distinct, ref.Levels, ref.Distinct)
			}
			if r.Depth < 5 {
				t.Errorf("stopped at depth %d: the limit leaves room for more", r.Depth)
			}
		})
	}
}

// TestMaxMemoryChild is the child process of TestMaxMemory.
func TestMaxMemoryChild(t *testing.T) {
	kind := os.Getenv("EXPLORER_MEMORY_CHILD")
	if kind == "" {
		t.Skip("run by TestMaxMemory")
	}
	runtime.GC()
	debug.FreeOSMemory()
	base := rss(t, "VmRSS")
	o := explorer.Options{Workers: 2, MaxMemory: base + memoryHeadroom}
	var r memoryRun
	switch kind {
	case "packed":
		m, props := twophase.New(8)
		rep := explorer.Check(m, props, o)
		r = memoryRun{StoppedBy: rep.StoppedBy, Exhaustive: rep.Exhaustive, Distinct: rep.Distinct, Depth: rep.Depth,
			Levels: rep.Levels, Status: rep.Property("TCConsistent").Status.String(), Err: fmt.Sprint(rep.Err)}
	case "boxed":
		m, props := boxedTwoPhase(twophase.New(8))
		rep := explorer.Check(m, props, o)
		r = memoryRun{StoppedBy: rep.StoppedBy, Exhaustive: rep.Exhaustive, Distinct: rep.Distinct, Depth: rep.Depth,
			Levels: rep.Levels, Status: rep.Property("TCConsistent").Status.String(), Err: fmt.Sprint(rep.Err)}
	case "burst":
		rep := explorer.Check[uint64, int](burst{}, []explorer.Property[uint64]{burstProp}, o)
		r = memoryRun{StoppedBy: rep.StoppedBy, Exhaustive: rep.Exhaustive, Distinct: rep.Distinct, Depth: rep.Depth,
			Levels: rep.Levels, Status: rep.Properties[0].Status.String(), Err: fmt.Sprint(rep.Err)}
	}
	if r.Err == "<nil>" {
		r.Err = ""
	}
	r.Limit, r.Base, r.HighWater = o.MaxMemory, base, rss(t, "VmHWM")
	js, _ := json.Marshal(r)
	fmt.Printf("RESULT %s\n", js)
}

// rss reads a field of /proc/self/status in bytes.
func rss(t *testing.T, field string) uint64 {
	b, err := os.ReadFile("/proc/self/status")
	if err != nil {
		t.Skipf("no /proc: %v", err)
	}
	for _, line := range strings.Split(string(b), "\n") {
		if v, ok := strings.CutPrefix(line, field+":"); ok {
			kb, err := strconv.ParseUint(strings.TrimSpace(strings.TrimSuffix(strings.TrimSpace(v), "kB")), 10, 64)
			if err != nil {
				t.Fatalf("%s: %v", line, err)
			}
			return kb << 10
		}
	}
	t.Fatalf("no %s in /proc/self/status", field)
	return 0
}

// TestMaxMemoryRoomEnough: a limit the run fits in changes nothing, nor
// does spilling under it, for states off and on the Go heap.
func TestMaxMemoryRoomEnough(t *testing.T) {
	checkSpill(t, func(o explorer.Options) explorer.Report[twophase.State, twophase.Action] {
		m, props := twophase.New(5)
		o.MaxMemory = 4 << 30
		return explorer.Check(m, props, o)
	})
	checkSpill(t, func(o explorer.Options) explorer.Report[boxedState, twophase.Action] {
		m, props := boxedTwoPhase(twophase.New(5))
		o.MaxMemory = 4 << 30
		return explorer.Check(m, props, o)
	})
}

// TestMaxMemoryStopsMidLevel: in this process, a level far wider than
// forecast (burst) is stopped while it is expanded and discarded; the
// report keeps the complete levels, counts and coverage of those only.
func TestMaxMemoryStopsMidLevel(t *testing.T) {
	for _, w := range []int{1, 2} {
		o := explorer.Options{Workers: w, MaxMemory: rss(t, "VmRSS") + 24<<20}
		r := explorer.Check[uint64, int](burst{}, []explorer.Property[uint64]{burstProp}, o)
		if r.StoppedBy != explorer.StopMaxMemory || !cmp.Equal(r.Levels, []int64{burstWidth, burstWidth}) {
			t.Fatalf("workers=%d: stopped by %q with levels %v", w, r.StoppedBy, r.Levels)
		}
		if r.Generated != 2*burstWidth || r.Coverage[0].Count != burstWidth {
			t.Errorf("workers=%d: %d generated, %v: the discarded level was counted", w, r.Generated, r.Coverage)
		}
	}
}

// burst is a model whose level 2 is a hundred times wider than level 1,
// which the forecast (growth of at most four) cannot see coming: the
// monitor must stop the expansion in progress. Level 0 and 1 have
// burstWidth states each (i and i+burstWidth); each state of level 1 has
// a hundred successors.
type burst struct{}

const burstWidth = 20_000

var burstProp = explorer.Property[uint64]{Name: "any", Kind: explorer.Always, Check: func(uint64) bool { return true }}

func (burst) Init() []uint64 {
	out := make([]uint64, burstWidth)
	for i := range out {
		out[i] = uint64(i)
	}
	return out
}

func (burst) Actions(s uint64, buf []int) []int {
	n := 0
	switch {
	case s < burstWidth:
		n = 1
	case s < 2*burstWidth:
		n = 100
	}
	for i := range n {
		buf = append(buf, i)
	}
	return buf
}

func (burst) Next(s uint64, a int) (uint64, bool) {
	if s < burstWidth {
		return s + burstWidth, true
	}
	return 2*burstWidth + (s-burstWidth)*100 + uint64(a), true
}

func (burst) Encode(s uint64, buf []byte) []byte { return binary.LittleEndian.AppendUint64(buf, s) }
func (burst) ActionKinds() []string              { return []string{"step"} }
func (burst) ActionKind(int) int                 { return 0 }

// TestPeakResidentOutlivesTheSet: the peak remembers memory that has since been given back,
// which the resident set now does not (what the liveness graph's runs report as their peak).
func TestPeakResidentOutlivesTheSet(t *testing.T) {
	if runtime.GOOS != "linux" {
		t.Skip("VmHWM is Linux's")
	}
	const size = 256 << 20
	b := make([]byte, size)
	for i := 0; i < len(b); i += 4096 {
		b[i] = 1
	}
	during := explorer.ResidentBytes()
	runtime.KeepAlive(b)
	debug.FreeOSMemory()
	peak, now := explorer.PeakResidentBytes(), explorer.ResidentBytes()
	if now >= size {
		t.Skipf("the runtime kept the freed memory (resident %d MiB): nothing to tell apart", now>>20)
	}
	// The kernel's high-water mark lags the resident set by its per-thread counters, so the
	// peak is judged against what was held, not against the sample taken while holding it.
	if during < size || peak < size {
		t.Fatalf("resident %d MiB while holding %d MiB, peak %d MiB: the peak must cover what was held", during>>20, size>>20, peak>>20)
	}
}
