package main

import (
	"bufio"
	"fmt"
	"io"
	"strings"

	"github.com/groupcheck/groupcheck/impl/kip848"
	"github.com/groupcheck/groupcheck/spec"
)

// A schedule file is replayable: `go run . -replay FILE` runs it again. Its format, one
// directive a line ('#' starts a comment):
//
//	world NAME        one of the probe's worlds (go run . -worlds list)
//	commit-epochs R   the reference coordinator's commit rule, when not exact (kip-1251:
//	                  Kafka 4.3 on and kfake; docs/protocol.md §3.1); right after world.
//	                  Without it the rule is exact (Kafka 4.0 to 4.2), whatever spec's
//	                  default, so that a file keeps the rule it ran under
//	target TEXT       what the schedule was built to reach (free text)
//	ACTION            the reference world's actions in spec's text form, in order
func (s schedule) write(w io.Writer, cfg *spec.Config, note []string) error {
	var b strings.Builder
	b.WriteString("# groupcheck probe schedule\n")
	for _, l := range note {
		b.WriteString("# " + l + "\n")
	}
	fmt.Fprintf(&b, "world %s\n", s.World)
	if cfg.ConsumerProtocol && cfg.CommitRule != kip848.CommitExactEpoch {
		b.WriteString("commit-epochs " + cfg.CommitRule.String() + "\n")
	}
	fmt.Fprintf(&b, "target %s\n", s.Target)
	for _, a := range s.Actions {
		b.WriteString(a.Text(cfg) + "\n")
	}
	_, err := io.WriteString(w, b.String())
	return err
}

// readSchedule parses a schedule file; name is for errors.
func readSchedule(name string, r io.Reader) (schedule, spec.Config, error) {
	var s schedule
	var cfg spec.Config
	sc := bufio.NewScanner(r)
	for line := 1; sc.Scan(); line++ {
		text := strings.TrimSpace(sc.Text())
		if text == "" || strings.HasPrefix(text, "#") {
			continue
		}
		word, rest, _ := strings.Cut(text, " ")
		switch {
		case word == "world" && s.World == "":
			_, c, err := lookupWorldRule(rest, ruleExact)
			if err != nil {
				return s, cfg, fmt.Errorf("%s:%d: %w", name, line, err)
			}
			s.World, cfg = rest, c
		case s.World == "":
			return s, cfg, fmt.Errorf("%s:%d: the first directive must be world NAME", name, line)
		case word == "commit-epochs" && len(s.Actions) == 0:
			_, c, err := lookupWorldRule(s.World, rest)
			if err != nil {
				return s, cfg, fmt.Errorf("%s:%d: %w", name, line, err)
			}
			cfg = c
		case word == "target":
			s.Target = rest
		default:
			a, err := spec.ParseAction(&cfg, text)
			if err != nil {
				return s, cfg, fmt.Errorf("%s:%d: %w", name, line, err)
			}
			s.Actions = append(s.Actions, a)
		}
	}
	if err := sc.Err(); err != nil {
		return s, cfg, fmt.Errorf("%s: %w", name, err)
	}
	if s.World == "" || len(s.Actions) == 0 {
		return s, cfg, fmt.Errorf("%s: no world or no actions", name)
	}
	return s, cfg, nil
}
