package main

import (
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"os"
	"regexp"
	"strings"

	"github.com/groupcheck/groupcheck/mutate"
)

// defaultMutatePackages are the roles whose mutation score the README reports.
const defaultMutatePackages = "impl/coordinator,impl/consumer,impl/leader,impl/kip848,impl/kip848client"

// mutateCmd is `groupcheck mutate`: automatic mutants of impl/ against the suite of small
// worlds (mutate.Suite), scored per package and per property.
func mutateCmd(args []string, stdout, stderr io.Writer) int {
	fs := newFlags("mutate", stderr)
	pkgs := fs.String("packages", defaultMutatePackages, "comma-separated module directories to mutate")
	exclude := fs.String("exclude", "encode.go", "comma-separated file names left unmutated (the canonical state encoding is the checker's, not the protocol's)")
	jobs := fs.Int("jobs", 2, "mutants run at once, each in its own single-threaded process")
	only := fs.String("only", "", "run only the mutants whose key contains this text")
	equiv := fs.String("equivalents", "mutate/equivalents.txt", "the list of equivalent mutants (KEY => why)")
	jsonOut := fs.String("json", "", "also write the whole report, every mutant's verdict, as JSON to this file")
	tally := fs.String("tally", "", "run nothing: score the verdicts of a --json report or of a run's verdicts.jsonl (a run stopped early); several files, comma-separated, are merged by mutant key (a later verdict replaces an earlier one, a kill stands)")
	rerun := fs.String("rerun", "", "run only the mutants a previous --json report (or verdicts.jsonl, a stopped run's) did not kill (by key: its survivors, and those it never ran), keeping its kills; several files, comma-separated: a kill in any of them stands")
	sampleN := fs.Int("sample", 0, "run only the first N mutants of each package in the order of a hash of their keys: a deterministic sample (0: all)")
	list := fs.Bool("list", false, "list the mutants (key, line, what it becomes) and run nothing")
	work := fs.String("work", "", "keep the mutated copy of the module in this directory (default: a temporary one)")
	if code, ok := fs.parse(args); !ok {
		return code
	}
	if err := positional(fs, 0); err != nil {
		fmt.Fprintf(stderr, "groupcheck mutate: %v\n", err)
		return 2
	}
	if *jobs < 1 || *sampleN < 0 {
		fmt.Fprintf(stderr, "groupcheck mutate: --jobs %d --sample %d: want --jobs 1 or more and --sample 0 or more\n", *jobs, *sampleN)
		return 2
	}
	eq, err := mutate.ReadEquivalents(*equiv)
	if err != nil && !(errors.Is(err, os.ErrNotExist) && *equiv == "mutate/equivalents.txt") {
		fmt.Fprintf(stderr, "groupcheck mutate: %v\n", err)
		return 2
	}
	o := mutate.Options{Root: ".", Packages: splitList(*pkgs), Exclude: splitList(*exclude), Jobs: *jobs, Sample: *sampleN,
		Work: *work, Equivalents: eq, Log: newStatusLog(stderr, mutateProgress)}
	var killed map[string]bool
	if *rerun != "" {
		killed, o.Previous = map[string]bool{}, map[string]mutate.Verdict{}
		for _, f := range splitList(*rerun) { // a kill in any of them stands
			prev, err := mutate.ReadResults(f)
			if err != nil {
				fmt.Fprintf(stderr, "groupcheck mutate: --rerun: %v\n", err)
				return 2
			}
			for _, r := range prev {
				if r.Status == mutate.Killed && !killed[r.Key] {
					killed[r.Key], o.Previous[r.Key] = true, r.Verdict
				}
			}
		}
	}
	o.Select = func(m mutate.Mutant) bool {
		return strings.Contains(m.Key, *only) && !killed[m.Key]
	}
	if *tally != "" {
		var runs [][]mutate.Result
		for _, f := range splitList(*tally) {
			res, err := mutate.ReadResults(f)
			if err != nil {
				fmt.Fprintf(stderr, "groupcheck mutate: --tally: %v\n", err)
				return 2
			}
			runs = append(runs, res)
		}
		rep := mutate.Tally(mutate.MergeResults(runs...), o.Packages, eq)
		rep.WriteText(stdout)
		return 0
	}
	if _, err := os.Stat("go.mod"); err != nil {
		fmt.Fprintf(stderr, "groupcheck mutate: run it from the module's root (no go.mod here)\n")
		return 2
	}
	if *list {
		ms, err := mutate.List(".", o.Packages, o.Exclude)
		if err != nil {
			fmt.Fprintf(stderr, "groupcheck mutate: %v\n", err)
			return 2
		}
		for _, m := range ms {
			if o.Select == nil || o.Select(m) {
				fmt.Fprintf(stdout, "%5d %s (line %d) -> %q\n", m.ID, m.Key, m.Line, m.Mut)
			}
		}
		return 0
	}
	rep, err := mutate.Run(o)
	o.Log.(*statusLog).Done()
	if err != nil {
		fmt.Fprintf(stderr, "groupcheck mutate: %v\n", err)
		return 2
	}
	rep.WriteText(stdout)
	if *jsonOut != "" {
		data, err := json.MarshalIndent(rep, "", "  ")
		if err == nil {
			err = os.WriteFile(*jsonOut, data, 0o644)
		}
		if err != nil {
			fmt.Fprintf(stderr, "groupcheck mutate: %v\n", err)
			return 2
		}
	}
	return 0
}

// mutateProgress are mutate's log lines that only say how far it got ("mutate: 12/340
// mutants (1m5s)"): the status line on a terminal, nothing when piped.
var mutateProgress = regexp.MustCompile(`^mutate: \d+/\d+ mutants`)

func splitList(s string) []string {
	var out []string
	for _, f := range strings.Split(s, ",") {
		if f = strings.TrimSpace(f); f != "" {
			out = append(out, f)
		}
	}
	return out
}

// mutateWorker is the hidden command the mutated binary runs for `groupcheck mutate`: one
// suite world under the reference (--suite FILE --world I), or one mutant against its
// baseline (--baseline FILE --mutant ID); one JSON object on stdout.
func mutateWorker(args []string, stdout, stderr io.Writer) int {
	fs := newFlags("mutate-worker", stderr)
	suite := fs.String("suite", "", "the suite, as JSON")
	world := fs.Int("world", -1, "the suite world to explore with the reference")
	basePath := fs.String("baseline", "", "the reference's baseline, as JSON")
	id := fs.Int("mutant", 0, "the mutant switched on (GROUPCHECK_MUTANT must say the same)")
	cpu := fs.Uint64("cpu", 0, "CPU seconds after which the process is ended (0: no limit)")
	if code, ok := fs.parse(args); !ok {
		return code
	}
	if *cpu > 0 {
		if err := mutate.LimitCPU(*cpu); err != nil {
			fmt.Fprintf(stderr, "mutate-worker: %v\n", err)
			return 2
		}
	}
	var out any
	switch {
	case *suite != "":
		var ws []mutate.World
		if err := readJSON(*suite, &ws); err != nil || *world < 0 || *world >= len(ws) {
			fmt.Fprintf(stderr, "mutate-worker: bad suite or world: %v\n", err)
			return 2
		}
		b, err := mutate.RunBaseline(ws[*world])
		if err != nil {
			fmt.Fprintf(stderr, "mutate-worker: %v\n", err)
			return 2
		}
		out = b
	case *basePath != "":
		var base []mutate.Baseline
		if err := readJSON(*basePath, &base); err != nil {
			fmt.Fprintf(stderr, "mutate-worker: %v\n", err)
			return 2
		}
		if os.Getenv("GROUPCHECK_MUTANT") != fmt.Sprint(*id) {
			fmt.Fprintf(stderr, "mutate-worker: GROUPCHECK_MUTANT=%q, want %d\n", os.Getenv("GROUPCHECK_MUTANT"), *id)
			return 2
		}
		out = mutate.RunMutant(base, int32(*id), func(v mutate.Verdict) {
			// A step that never returns: report it and end the process it spins in.
			if json.NewEncoder(stdout).Encode(v) != nil {
				os.Exit(2)
			}
			os.Exit(0)
		})
	default:
		fmt.Fprintln(stderr, "mutate-worker: want --suite and --world, or --baseline and --mutant")
		return 2
	}
	if err := json.NewEncoder(stdout).Encode(out); err != nil {
		return 2
	}
	return 0
}

func readJSON(path string, v any) error {
	data, err := os.ReadFile(path)
	if err != nil {
		return err
	}
	return json.Unmarshal(data, v)
}
