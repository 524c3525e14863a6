package harness

import (
	"errors"
	"fmt"
	"math"
	"os"
	"path/filepath"
	"slices"
	"sort"
	"strings"
	"time"

	"github.com/groupcheck/groupcheck/oracle"
	"github.com/groupcheck/groupcheck/oracle/history"
)

// Verdict is what one run came to: the oracle's report on its history, and what the harness
// itself saw go wrong.
type Verdict struct {
	History history.History
	Report  oracle.Report
	RunErr  error    // a step failed (a settle that timed out, a leave that hung)
	Broker  []string // kfake ERROR lines and tap failures (Observer.Errors)
	Logs    map[string]string
	// Known: the coordinator answered in a way no reference coordinator could, by a kfake
	// deviation already recorded (knownKfake, with its fixture): reported, not a failure.
	Known []string
	// Checked and Notes are what Protocol.Check found: failures, and remarks.
	Checked, Notes []string
}

// knownKfake are kfake deviations from Kafka that the oracle finds, by a plain coordinator
// check (property), by the reference search at or after that finding, or by the
// linearizability check (detail), each with a fixture in testdata/
// (TestLinearizabilityFixtures). A run that hits one is reported, not failed: it says nothing
// new about the client under test.
var knownKfake = []struct{ detail, property, what string }{
	{"has two leaders", oracle.OneLeaderPerGeneration, "kfake names every member leader when the old leader is gone (groups.go completeRebalance; testdata/kfake-two-leaders-cooperative.jsonl)"},
}

// knownOracle are findings of the oracle about correct behaviour: oracle errors, reported
// to the oracle's owner with a fixture, classified here so that they do not fail a run.
var knownOracle = []struct{ detail, property, what string }{
	// None now: the KIP-1251 commit (conformance/confluent/testdata/kip1251-stale-epoch-commit-kip848.jsonl)
	// is accepted by the reference search and the linearizability check, which both step the
	// reference consumer coordinator and judge the commit rule exactly.
}

// kfake848 is why the reference search's verdict on a KIP-848 run against kfake is not a
// failure: kfake's consumer-group coordinator is not Kafka's, in ways the probe has found and
// classified as kfake findings on which Kafka 4.4.0 agrees with the reference (docs/probe.md:
// kfake-eager-target, kfake-keepalive-fenced, kfake-session-both, kfake-static-empty-state),
// and the search, which judges by the reference coordinator exactly, stops at the first such
// answer. Against a real broker the same verdict fails the run.
const kfake848 = "kfake's KIP-848 coordinator differs from Kafka's where the probe classifies it (docs/probe.md, Differences: kfake-eager-target and others)"

// classifyKfake848 moves the reference search's violation of a KIP-848 history to Known.
func (v *Verdict) classifyKfake848() {
	if !slices.ContainsFunc(v.History, func(e history.Event) bool { return e.Op == history.ConsumerGroupHeartbeat }) {
		return
	}
	v.Report.Violations = slices.DeleteFunc(v.Report.Violations, func(x oracle.Violation) bool {
		if x.Property != oracle.ReferenceSearch {
			return false
		}
		v.Known = append(v.Known, kfake848+": "+x.Message)
		return true
	})
}

// ClassifyKnown moves the report's findings of known kfake deviations and oracle errors to
// Known. A settle that timed out after one of them is known too: kfake broke the group by a
// deviation its fixture already shows, and that the group then never settles (two leaders'
// SyncGroups leave a member owning what kfake fenced it from) says nothing about the client.
func (v *Verdict) ClassifyKnown() {
	hit := v.classifyKnown(append(knownKfake[:len(knownKfake):len(knownKfake)], knownOracle...))
	hit = v.classifyParkedExpiry() || hit
	if hit && errors.Is(v.RunErr, ErrNotSettled) {
		v.Known = append(v.Known, "after a known kfake deviation: "+v.RunErr.Error())
		v.RunErr = nil
	}
}

// classifyKnown moves the report's findings of the known deviations ks to Known, and says
// whether there were any.
func (v *Verdict) classifyKnown(ks []struct{ detail, property, what string }) (hit bool) {
	for _, k := range ks {
		matched := false
		if strings.HasPrefix(v.Report.Linearizable, "no:") && strings.Contains(v.Report.Linearizable, k.detail) {
			v.Known = append(v.Known, k.what+": "+v.Report.Linearizable)
			v.Report.Linearizable = "known deviation (see Known)"
			hit = true
		}
		kept := v.Report.Violations[:0]
		from := int64(math.MaxInt64) // the first event of the deviation's plain findings
		for _, x := range v.Report.Violations {
			if k.property != "" && x.Property == k.property {
				v.Known = append(v.Known, k.what+": "+x.Message)
				matched = true
				if len(x.Events) > 0 {
					from = min(from, x.Events[0].Seq)
				}
				continue
			}
			kept = append(kept, x)
		}
		// The reference search stops at the first answer no behaviour gives: at or after the
		// deviation's first event that is the deviation (a group kfake broke need not go on
		// as any reference's would); before it, it is something else, and stays.
		v.Report.Violations = slices.DeleteFunc(kept, func(x oracle.Violation) bool {
			if !matched || x.Property != oracle.ReferenceSearch || len(x.Events) == 0 || x.Events[0].Seq < from {
				return false
			}
			v.Known = append(v.Known, k.what+": "+x.Message)
			return true
		})
		hit = hit || matched
		// The plain check found the deviation in this run, so the coordinator's answers are
		// already known not to be a reference coordinator's: a "no" from the search is the
		// same deviation, whatever operation it stopped at (three leaders of one generation
		// stop it before the second one is named).
		if matched && strings.HasPrefix(v.Report.Linearizable, "no:") {
			v.Known = append(v.Known, k.what+": "+v.Report.Linearizable)
			v.Report.Linearizable = "known deviation (see Known)"
		}
	}
	return hit
}

// Judge checks the harness's history with the oracle, the reference search of the
// coordinator's answers included — except after an injected fence, whose error answer is the
// harness's, not the coordinator's (the reference coordinator would never fence a member at
// its current epoch, and the search rightly says so) — and the group's progress within
// Timing.StallMax, so that a run that does not settle because the group stopped changing has
// the oracle's rebalance-completes verdict, with the events that show the stall, beside its
// settle timeout. Call it after Close, so that the history is complete.
func Judge(h *Harness, runErr error) Verdict {
	hist := h.History()
	o := oracle.Options{Settle: h.cfg.Timing.StallMax()}
	h.mu.Lock()
	o.NoReference = h.injected
	h.mu.Unlock()
	v := Verdict{History: hist, Report: oracle.Check(hist, o), RunErr: runErr,
		Broker: h.Observer().Errors(), Logs: h.Logs()}
	if h.cluster != nil {
		v.ClassifyKnown()
		v.classifyKfake848()
	} else {
		v.classifyKnown(knownOracle) // a kfake deviation says nothing about another broker
	}
	v.classifyBugs(h.cfg.Protocol.KnownBug)
	if c := h.cfg.Protocol.Check; c != nil {
		v.Checked, v.Notes = c(hist)
	}
	return v
}

// classifyBugs moves violations that known says are the client library's known bug to Known.
func (v *Verdict) classifyBugs(known func(history.History, oracle.Violation) (string, bool)) {
	if known == nil {
		return
	}
	kept := v.Report.Violations[:0]
	for _, x := range v.Report.Violations {
		if what, ok := known(v.History, x); ok {
			v.Known = append(v.Known, "client bug: "+what+": "+x.Message)
			continue
		}
		kept = append(kept, x)
	}
	v.Report.Violations = kept
}

// OK reports whether the run is clean: no violation, no failed step, no failed Protocol.Check,
// nothing wrong on the broker side. Zombies do not fail a run: they are Kafka's allowed window
// (docs/clients.md §6.4).
func (v Verdict) OK() bool {
	return v.Report.OK() && v.RunErr == nil && len(v.Broker) == 0 && len(v.Checked) == 0
}

// Has reports whether the report holds a finding of the property in class naming node.
func (v Verdict) Has(property, class, node string) bool {
	list := v.Report.Violations
	if class == oracle.ClassZombie {
		list = v.Report.Zombies
	}
	for _, x := range list {
		if x.Property == property && strings.Contains(x.Message, node) {
			return true
		}
	}
	return false
}

// Summary is one line about the run.
func (v Verdict) Summary() string {
	s := fmt.Sprintf("%d events, %d members, %d violations, %d zombies",
		v.Report.Events, v.Report.Members, len(v.Report.Violations), len(v.Report.Zombies))
	if ref, _, _ := strings.Cut(v.Report.Reference, "\n"); ref != "" {
		s += ", reference " + ref // an undecided search fails nothing, but shows here
	}
	if v.RunErr != nil {
		s += ", run error: " + v.RunErr.Error()
	}
	if len(v.Broker) > 0 {
		s += ", broker: " + strings.Join(v.Broker, "; ")
	}
	if len(v.Checked) > 0 {
		s += ", check: " + strings.Join(v.Checked, "; ")
	}
	return s
}

// ZombieSpans measures each exclusive-ownership zombie: how long the two owners overlapped,
// from the later of the two assigns to the first release (or the end of the history).
func (v Verdict) ZombieSpans() []time.Duration {
	var end int64
	if n := len(v.History); n > 0 {
		end = v.History[n-1].T
	}
	var spans []time.Duration
	for _, z := range v.Report.Zombies {
		if z.Property != oracle.ExclusiveOwnership || len(z.Events) < 2 {
			continue
		}
		from, to := int64(0), end
		for _, e := range z.Events {
			if e.Kind == history.Assign && e.Phase == history.Begin && e.T > from {
				from = e.T
			}
		}
		for _, e := range z.Events {
			if releases(e) && e.T >= from && e.T < to {
				to = e.T
			}
		}
		spans = append(spans, time.Duration(to-from))
	}
	sort.Slice(spans, func(i, j int) bool { return spans[i] < spans[j] })
	return spans
}

// releases reports whether e can end an ownership: a revoke's or lost's end, a crash, a
// restart, a close's end.
func releases(e history.Event) bool {
	switch e.Kind {
	case history.Revoke, history.Lost, history.Close:
		return e.Phase == history.End
	case history.Crash, history.Start:
		return true
	}
	return false
}

// Save writes the history (JSON lines), the report, and the kfake and kgo logs to dir, and
// returns the history's path.
func (v Verdict) Save(dir, name string) (string, error) {
	if err := os.MkdirAll(dir, 0o755); err != nil {
		return "", err
	}
	path := filepath.Join(dir, name+".jsonl")
	f, err := os.Create(path)
	if err != nil {
		return "", err
	}
	werr := v.History.Write(f)
	if cerr := f.Close(); werr == nil {
		werr = cerr
	}
	if werr != nil {
		return "", werr
	}
	report := v.Report.String() + "\n" + v.Summary() + "\n"
	if err := os.WriteFile(filepath.Join(dir, name+".report.txt"), []byte(report), 0o644); err != nil {
		return "", err
	}
	for who, log := range v.Logs {
		if err := os.WriteFile(filepath.Join(dir, name+"."+who+".log"), []byte(log), 0o644); err != nil {
			return "", err
		}
	}
	return path, nil
}
