package main

import (
	"bytes"
	"encoding/json"
	"fmt"
	"io"
	"os"
	"slices"
	"strings"

	"github.com/groupcheck/groupcheck/traces"
)

// mergeCmd combines the --json reports of the shards of one simulation into the report of the
// unsharded run: the same walks, steps, deadlocks, coverage and findings (for each property
// the first walk over all shards, with its trace, and the sum of the counts). It refuses
// reports of different runs and an incomplete or repeated set of shards, naming what is wrong.
func mergeCmd(args []string, stdout, stderr io.Writer) int {
	fs := newFlags("merge", stderr)
	asJSON := fs.Bool("json", false, "print one JSON object on stdout")
	out := fs.String("out", "", "directory to write each property's first violation to")
	showExpected := fs.Bool("show-expected", false, "also print the trace of each expected violation (by default: its reason, in one line)")
	if code, ok := fs.parse(args); !ok {
		return code
	}
	if fs.NArg() == 0 {
		fmt.Fprintln(stderr, "groupcheck merge: want one or more REPORT.json files (simulate --shard I/N --json)")
		return 2
	}
	var shards []*simReport
	for _, name := range fs.Args() {
		r, err := readSimReport(name)
		if err != nil {
			fmt.Fprintf(stderr, "groupcheck merge: %v\n", err)
			return 2
		}
		shards = append(shards, r)
	}
	rep, err := mergeReports(shards, fs.Args())
	if err != nil {
		fmt.Fprintf(stderr, "groupcheck merge: %v\n", err)
		return 2
	}
	return rep.emit("merge", *out, *asJSON, *showExpected, stdout, stderr)
}

// readSimReport reads one shard's report strictly: unknown fields are errors, and every
// finding's trace must parse.
func readSimReport(name string) (*simReport, error) {
	b, err := os.ReadFile(name)
	if err != nil {
		return nil, err
	}
	dec := json.NewDecoder(bytes.NewReader(b))
	dec.DisallowUnknownFields()
	var r simReport
	if err := dec.Decode(&r); err != nil {
		return nil, fmt.Errorf("%s: not a simulate --json report: %v", name, err)
	}
	if r.Config == "" || r.Walks < 0 || r.Depth < 1 {
		return nil, fmt.Errorf("%s: not a simulate --json report (config, walks or depth missing)", name)
	}
	for i, v := range r.Violations {
		if v.Text == "" {
			return nil, fmt.Errorf("%s: finding %d (%s) has no trace_text", name, i, v.Property)
		}
		t, err := traces.Parse(name, strings.NewReader(v.Text))
		if err != nil {
			return nil, fmt.Errorf("%s: finding %d (%s): %v", name, i, v.Property, err)
		}
		t.Name = r.Config // as the simulation that found it names it
		r.found = append(r.found, t)
	}
	return &r, nil
}

// mergeReports checks that the shards are exactly 0..N-1 of one run and combines them.
func mergeReports(shards []*simReport, names []string) (*simReport, error) {
	first := shards[0]
	noEnv := func(string) string { return "" }
	sh, err := parseShard(first.Shard, noEnv)
	if err != nil {
		return nil, fmt.Errorf("%s: %v", names[0], err)
	}
	total := first.Walks
	if first.Shard != "" {
		total = first.TotalWalks
	}
	seen := make([]string, sh.Count)
	for i, r := range shards {
		s, err := parseShard(r.Shard, noEnv)
		if err != nil {
			return nil, fmt.Errorf("%s: %v", names[i], err)
		}
		switch {
		case r.Config != first.Config:
			return nil, fmt.Errorf("%s is world %s, %s is %s", names[i], r.Config, names[0], first.Config)
		case r.Seed != first.Seed || r.Depth != first.Depth:
			return nil, fmt.Errorf("%s has seed %d depth %d, %s seed %d depth %d", names[i], r.Seed, r.Depth, names[0], first.Seed, first.Depth)
		case s.Count != sh.Count || (r.Shard != "" && r.TotalWalks != total):
			return nil, fmt.Errorf("%s is shard %s of %d walks, %s shard %s of %d", names[i], s, r.TotalWalks, names[0], sh, total)
		case seen[s.Index] != "":
			return nil, fmt.Errorf("%s and %s are both shard %s", seen[s.Index], names[i], s)
		case r.Walks != s.walks(total):
			return nil, fmt.Errorf("%s: shard %s of %d walks should take %d walks, it reports %d", names[i], s, total, s.walks(total), r.Walks)
		}
		seen[s.Index] = names[i]
	}
	var missing []string
	for i, n := range seen {
		if n == "" {
			missing = append(missing, fmt.Sprint(i))
		}
	}
	if len(missing) > 0 {
		return nil, fmt.Errorf("shards %s of %d are missing", strings.Join(missing, ", "), sh.Count)
	}
	m := &simReport{Config: first.Config, Seed: first.Seed, Depth: first.Depth, Walks: total, Note: sampleNote,
		Violations: []simFinding{}}
	taken := make(map[string]int)
	at := map[string]int{}
	for _, r := range shards {
		m.Steps += r.Steps
		m.Deadlocks += r.Deadlocks
		m.Seconds += r.Seconds
		for k, n := range r.Coverage {
			taken[k] += n
		}
		for i, v := range r.Violations {
			j, ok := at[v.Property]
			if !ok {
				at[v.Property] = len(m.Violations)
				v.Trace = ""
				m.Violations = append(m.Violations, v)
				m.found = append(m.found, r.found[i])
				continue
			}
			count := m.Violations[j].Count + v.Count
			if v.Walk < m.Violations[j].Walk {
				v.Trace = ""
				m.Violations[j], m.found[j] = v, r.found[i]
			}
			m.Violations[j].Count = count
		}
	}
	m.mergeCoverage(taken, shards)
	m.sortFindings()
	return m, nil
}

// mergeCoverage sums the shards' coverage; a kind is never taken if no shard took it.
func (r *simReport) mergeCoverage(taken map[string]int, shards []*simReport) {
	r.Coverage, r.NeverTaken = taken, []string{}
	for _, k := range shards[0].NeverTaken {
		if taken[k] == 0 {
			r.NeverTaken = append(r.NeverTaken, k)
		}
	}
}

// sortFindings orders the findings as the unsharded run met them: by their first walk (a walk
// has at most one finding).
func (r *simReport) sortFindings() {
	idx := make([]int, len(r.Violations))
	for i := range idx {
		idx[i] = i
	}
	slices.SortFunc(idx, func(a, b int) int { return r.Violations[a].Walk - r.Violations[b].Walk })
	vs, found := make([]simFinding, len(idx)), make([]*traces.Trace, len(idx))
	for i, j := range idx {
		vs[i], found[i] = r.Violations[j], r.found[j]
	}
	r.Violations, r.found = vs, found
}
