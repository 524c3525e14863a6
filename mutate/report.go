package mutate

import (
	"bufio"
	"bytes"
	"encoding/json"
	"fmt"
	"io"
	"os"
	"slices"
	"sort"
	"strings"
	"time"
)

// Score is one package's tally. Score = Killed / (Killed + Survived + TimedOut), equivalents
// left out; Survived includes the points no world reaches (NotReached) and those no world
// infects (NotInfected).
type Score struct {
	Pkg         string  `json:"pkg"`
	Mutants     int     `json:"mutants"`
	Killed      int     `json:"killed"`
	Survived    int     `json:"survived"`
	NotReached  int     `json:"not_reached"`
	NotInfected int     `json:"not_infected"`
	Equivalent  int     `json:"equivalent"`
	TimedOut    int     `json:"timed_out"`
	Score       float64 `json:"score"`
}

// tally fills Scores (one per package, then the total) and Killers.
func (r *Report) tally(pkgs []string) {
	by := map[string]*Score{}
	total := &Score{Pkg: "total"}
	for _, p := range pkgs {
		by[p] = &Score{Pkg: p}
	}
	killers := map[string]int{}
	for _, res := range r.Results {
		s := by[res.Pkg]
		for _, s := range []*Score{s, total} {
			s.Mutants++
			switch {
			case res.Equivalent != "":
				s.Equivalent++
			case res.Status == Killed:
				s.Killed++
			case res.Status == TimedOut:
				s.TimedOut++
			case res.Status == NotReached:
				s.NotReached++
				s.Survived++
			case res.Status == NotInfected:
				s.NotInfected++
				s.Survived++
			default:
				s.Survived++
			}
		}
		if res.Status == Killed {
			for _, k := range res.Killers {
				killers[k]++
			}
		}
	}
	for _, p := range append(append([]string(nil), pkgs...), "total") {
		s := by[p]
		if p == "total" {
			s = total
		}
		if n := s.Killed + s.Survived + s.TimedOut; n > 0 {
			s.Score = float64(s.Killed) / float64(n)
		}
		r.Scores = append(r.Scores, *s)
	}
	for k, n := range killers {
		r.Killers = append(r.Killers, Count{k, n})
	}
	sort.Slice(r.Killers, func(i, j int) bool {
		if r.Killers[i].N != r.Killers[j].N {
			return r.Killers[i].N > r.Killers[j].N
		}
		return r.Killers[i].Name < r.Killers[j].Name
	})
}

// WriteText writes the tables: per package, per property, then every mutant that was not
// killed and is not listed as equivalent (the blind spots to triage).
func (r *Report) WriteText(w io.Writer) {
	fmt.Fprintf(w, "| package | mutants | killed | survived (not reached, not infected) | equivalent | timed out | score |\n|---|---:|---:|---:|---:|---:|---:|\n")
	for _, s := range r.Scores {
		fmt.Fprintf(w, "| %s | %d | %d | %d (%d, %d) | %d | %d | %.1f %% |\n", s.Pkg, s.Mutants, s.Killed, s.Survived, s.NotReached, s.NotInfected, s.Equivalent, s.TimedOut, 100*s.Score)
	}
	fmt.Fprintf(w, "\nkilled by (first catching world; a mutant may count for several properties there):\n")
	for _, k := range r.Killers {
		fmt.Fprintf(w, "  %-36s %d\n", k.Name, k.N)
	}
	if r.Jobs > 0 {
		fmt.Fprintf(w, "\n%d points left out because their schema does not compile; %.0f s with %d jobs\n", r.NotBuilt, r.Seconds, r.Jobs)
	}
	fmt.Fprintf(w, "\nnot killed (key, line, verdict):\n")
	for _, res := range r.Results {
		if res.Status != Killed && res.Equivalent == "" {
			fmt.Fprintf(w, "  %s  (line %d) -> %q: %s\n", res.Key, res.Line, res.Mut, res.Verdict)
		}
	}
}

// ReadResults reads a run's verdicts: a --json report, or the verdicts.jsonl a run writes
// into its work directory as it goes (so a run stopped early can still be tallied).
func ReadResults(path string) ([]Result, error) {
	data, err := os.ReadFile(path)
	if err != nil {
		return nil, err
	}
	var rep Report
	if json.Unmarshal(data, &rep) == nil && rep.Date != "" {
		return rep.Results, nil
	}
	var out []Result
	dec := json.NewDecoder(bytes.NewReader(data))
	for dec.More() {
		var r Result
		if err := dec.Decode(&r); err != nil {
			return nil, fmt.Errorf("%s: %v", path, err)
		}
		out = append(out, r)
	}
	return out, nil
}

// Tally is a report of verdicts already reached (ReadResults), with the equivalents applied
// afresh: how a stopped run is scored.
func Tally(results []Result, pkgs []string, equivalents map[string]string) *Report {
	rep := &Report{Date: time.Now().UTC().Format("2006-01-02")}
	for _, r := range results {
		r.Equivalent = equivalents[r.Key]
		rep.Results = append(rep.Results, r)
	}
	slices.SortFunc(rep.Results, func(a, b Result) int { return strings.Compare(a.Key, b.Key) })
	rep.tally(pkgs)
	return rep
}

// ReadEquivalents reads the list of equivalent mutants: one per line, the mutant's Key, " => ",
// and why it cannot change any behaviour the properties see; # starts a comment line.
func ReadEquivalents(path string) (map[string]string, error) {
	f, err := os.Open(path)
	if err != nil {
		return nil, err
	}
	defer f.Close()
	out := map[string]string{}
	sc := bufio.NewScanner(f)
	n := 0
	for sc.Scan() {
		n++
		l := strings.TrimSpace(sc.Text())
		if l == "" || strings.HasPrefix(l, "#") {
			continue
		}
		key, why, ok := strings.Cut(l, " => ")
		if !ok || strings.TrimSpace(why) == "" {
			return nil, fmt.Errorf("%s:%d: want KEY => why it is equivalent", path, n)
		}
		out[strings.TrimSpace(key)] = strings.TrimSpace(why)
	}
	return out, sc.Err()
}

// MergeResults joins the verdicts of several runs over the same mutants — a run stopped early,
// then a --rerun of what it did not kill —, keyed by mutant key, in order of first appearance:
// a later verdict replaces an earlier one, except that a kill is never replaced by anything
// but a kill (a rerun keeps kills without running them again; a later kill, e.g. the hang
// rerun of 2026-12-02 that told the CPU-limit stops once scored as crashes for the hangs they
// were, names the catch).
func MergeResults(runs ...[]Result) []Result {
	var out []Result
	at := map[string]int{}
	for _, run := range runs {
		for _, r := range run {
			i, seen := at[r.Key]
			switch {
			case !seen:
				at[r.Key] = len(out)
				out = append(out, r)
			case out[i].Status != Killed || r.Status == Killed:
				out[i] = r
			}
		}
	}
	return out
}
