package main

import (
	"bytes"
	"encoding/json"
	"flag"
	"fmt"
	"io"
	"os"
	"runtime/debug"
	"strings"
	"time"

	"github.com/groupcheck/groupcheck/oracle"
	"github.com/groupcheck/groupcheck/oracle/history"
	"github.com/groupcheck/groupcheck/oracle/search"
)

// stdin is where `check-history -` reads; a variable so that tests can feed it.
var stdin io.Reader = os.Stdin

// checkHistory: groupcheck check-history FILE [--json] [--settle D]. It checks a JSON-lines history (FILE,
// or - for standard input) with the oracle and prints the report. Exit 0 when it holds (zombies
// do not fail it), 1 on a violation, 2 on a malformed file (the error names the line) or bad
// usage.
func checkHistory(args []string, stdout, stderr io.Writer) int {
	fs := newFlags("check-history", stderr)
	asJSON := fs.Bool("json", false, "print the report as JSON")
	linearizability := fs.Bool("linearizability", false, "also check the coordinator's operations for linearizability: porcupine orders them, the reference coordinator judges each order (search.Linearize)")
	timeout := fs.Duration("timeout", 60*time.Second, "bound on porcupine's search of --linearizability (0: none); past it the verdict is not checked")
	reference := fs.Bool("reference", true, "judge the coordinator's answers by searching the reference coordinator for a behaviour that produces them (oracle/search); --reference=false: the plain checks only, faster")
	budget := fs.Int("budget", search.DefaultBudget, "the most reference states the search may explore for one answer (--linearizability: for one request) before it says undecided")
	settle := fs.Duration("settle", 0, "also judge rebalance-completes: no stretch longer than this (on the history's clock) in which the group does not change while a partition has no live owner or a member lacks its assignment; more than the session and rebalance timeouts the history ran with")
	html := fs.String("html", "", "write the report as one self-contained HTML page here; porcupine's visualization of a linearizability failure goes beside it (FILE.porcupine.html)")
	pos, err := parseInterspersed(fs, args)
	if err != nil {
		return fs.badFlags(err)
	}
	if *timeout < 0 {
		fmt.Fprintf(stderr, "groupcheck check-history: --timeout %v: want a positive duration, or 0 for none\n", *timeout)
		return 2
	}
	if err := positiveSettle(fs, *settle); err != nil {
		fmt.Fprintf(stderr, "groupcheck check-history: %v\n", err)
		return 2
	}
	if *budget <= 0 {
		fmt.Fprintf(stderr, "groupcheck check-history: --budget %d: want a positive number of states\n", *budget)
		return 2
	}
	if len(pos) != 1 {
		fmt.Fprintln(stderr, "usage: groupcheck check-history FILE [--json] [--html FILE] [--reference=false | --budget N] [--linearizability [--timeout D]] [--settle D]   (FILE - reads standard input)")
		return 2
	}
	o := oracle.Options{Reference: &search.Options{Budget: *budget}, NoReference: !*reference, Settle: *settle}
	var htmlErr error
	lo := search.Options{Budget: *budget}
	if *linearizability {
		o.LinearizabilityStream = oracle.LinearizableStreamUnder(lo, *timeout) // the history is not held
	}
	prog := newProgress(stderr)
	r, err := readReport(pos[0], o, prog)
	prog.Done()
	if err != nil {
		fmt.Fprintf(stderr, "groupcheck check-history: %s: %v\n", pos[0], err)
		return 2
	}
	if *asJSON {
		if r.Violations == nil {
			r.Violations = []oracle.Violation{}
		}
		if r.Zombies == nil {
			r.Zombies = []oracle.Violation{}
		}
		enc := json.NewEncoder(stdout)
		enc.SetIndent("", "  ")
		if err := enc.Encode(r); err != nil {
			fmt.Fprintf(stderr, "groupcheck check-history: %v\n", err)
			return 2
		}
	} else {
		fmt.Fprint(stdout, r)
	}
	if *html != "" && *linearizability && strings.HasPrefix(r.Linearizable, "no:") && pos[0] != "-" {
		// Only a failure is drawn: the visualization needs the whole history searched at once.
		htmlErr = writeVisualization(porcupineFile(*html), pos[0], lo, *timeout)
	}
	if htmlErr == nil && *html != "" {
		htmlErr = writeHistoryPage(*html, pos[0], r)
	}
	if htmlErr != nil {
		fmt.Fprintf(stderr, "groupcheck check-history: %v\n", htmlErr)
		return 2
	}
	if !r.OK() {
		if *html != "" && *linearizability && r.Linearizable != oracle.LinYes {
			fmt.Fprintf(stderr, "porcupine's visualization: %s\n", porcupineFile(*html))
		}
		return 1
	}
	if r.Undecided() {
		return 3
	}
	return 0
}

// writeVisualization writes porcupine's visualization of the linearizability check of the
// history at path to file: the whole history read and searched at once (search.Visualize).
func writeVisualization(file, path string, lo search.Options, timeout time.Duration) error {
	h, err := history.ReadFile(path)
	if err != nil {
		return err
	}
	var page bytes.Buffer
	if _, err := search.Visualize(h, lo, timeout, &page); err != nil {
		return err
	}
	return os.WriteFile(file, page.Bytes(), 0o644)
}

// positiveSettle refuses a --settle that was given and is not a positive duration: a zero
// bound would flag every unsettled instant, a negative one nothing.
func positiveSettle(fs *flags, d time.Duration) error {
	given := false
	fs.Visit(func(f *flag.Flag) { given = given || f.Name == "settle" })
	if given && d <= 0 {
		return fmt.Errorf("--settle %v: want a positive duration such as 30s (leave the flag out for no bound)", d)
	}
	return nil
}

// readReport checks the history at path (- for standard input): a file is given to the oracle
// as it is, so that it can read it twice without holding it, and the status line shows each
// pass.
func readReport(path string, o oracle.Options, prog *progress) (oracle.Report, error) {
	in := stdin
	var size int64
	if path != "-" {
		f, err := os.Open(path)
		if err != nil {
			return oracle.Report{}, err
		}
		defer f.Close()
		if st, err := f.Stat(); err == nil {
			size = st.Size()
		}
		in = f
	}
	defer limitMemory(size, o.LinearizabilityStream != nil)()
	if prog != nil {
		o.Progress = func(pass int, n int64) {
			what := "reading"
			switch pass {
			case 0:
			case 3:
				what = "pass 3, the whole reference search" // the simplest explanations found none
			default:
				what = fmt.Sprintf("pass %d of 2", pass)
			}
			if size > 0 {
				prog.Printf("check-history %s: %s, read %d%% (%d of %d MiB)", path, what, 100*n/size, n>>20, size>>20)
			} else {
				prog.Printf("check-history %s: %s, read %d MiB", path, what, n>>20)
			}
		}
	}
	return oracle.CheckReader(in, o)
}

// memoryMargin is what the process holds outside the garbage-collected heap (code, stacks,
// runtime), left out of the heap's limit.
const memoryMargin = 8 << 20

// limitMemory asks the garbage collector to keep the heap small unless GOMEMLIMIT says
// otherwise: 32 MiB for the plain check and the reference search, whose live state does not
// grow with the file (the search holds its frontier and the events of its longest open
// request), and within twice the file's size with the linearizability search, which holds
// the coordinator's requests.
// Without a limit the collector lets garbage grow with the reading rate, and more so on a
// loaded machine. The limit is soft: a check that needs more (a failing history searched
// whole) gets it, at the cost of more collection. It returns what puts the previous limit
// back.
func limitMemory(size int64, search bool) (restore func()) {
	if os.Getenv("GOMEMLIMIT") != "" || (search && size <= 0) { // standard input: no size to go by
		return func() {}
	}
	limit := int64(32 << 20)
	if search {
		limit = max(limit, 2*size-memoryMargin)
	}
	old := debug.SetMemoryLimit(limit)
	return func() { debug.SetMemoryLimit(old) }
}
