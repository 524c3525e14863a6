package main

import (
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"
)

// Every bad input is refused in one line that names what is wrong and where, with exit 2:
// bounds that cannot mean what was asked, an unknown format or flag (with the nearest valid
// name), a flag's bad value, a config validation error (with its line), a history field of
// the wrong shape (with the line and the shape it takes).
func TestBadInputIsNamed(t *testing.T) {
	conf := writeConfig(t, tiny)
	badConf := writeConfig(t, strings.Replace(tiny, "member b topics=t\n", "member b topics=u\n", 1))
	history := filepath.Join(t.TempDir(), "h.jsonl")
	if err := os.WriteFile(history, []byte(`{"seq":1,"t_ns":1,"kind":"start","node":"a","proto":"classic"}`+"\n"+`{"seq":2,"t_ns":2,"kind":"assign","phase":"begin","id":1,"node":"a","parts":["t-0"]}`+"\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	trace := filepath.Join(t.TempDir(), "x.trace")
	if err := os.WriteFile(trace, []byte("# groupcheck trace v1\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	for _, tc := range []struct {
		args []string
		want string
	}{
		{[]string{"explore", "--config", conf, "--max-time", "-5s"}, "groupcheck explore: --max-time -5s: want a positive duration such as 30s (leave the flag out for no bound)"},
		{[]string{"explore", "--config", conf, "--max-time", "0"}, "groupcheck explore: --max-time 0s: want a positive duration"},
		{[]string{"explore", "--config", conf, "--max-depth", "-3"}, "groupcheck explore: --max-depth -3: want a positive depth (leave the flag out for no bound)"},
		{[]string{"explore", "--config", conf, "--max-depth", "0"}, "groupcheck explore: --max-depth 0: want a positive depth"},
		{[]string{"explore", "--config", conf, "--max-states", "0"}, "groupcheck explore: --max-states 0: want a positive number of states"},
		{[]string{"explore", "--config", conf, "--max-states", "-10"}, "groupcheck explore: --max-states -10: want a positive number of states"},
		{[]string{"explore", "--config", conf, "--workers", "-1"}, "groupcheck explore: --workers -1: want 1 or more (0 or none: every core)"},
		{[]string{"bench", "twophase", "--rm", "2", "--workers", "-1"}, "groupcheck bench twophase: --workers -1: want 1 or more"},
		{[]string{"explore", "--config", conf, "--max-dept", "3"}, "groupcheck explore: unknown flag --max-dept (did you mean --max-depth?); groupcheck explore --help lists the flags"},
		{[]string{"explore", "--presets", "eager"}, "groupcheck explore: unknown flag --presets (did you mean --preset?)"},
		{[]string{"explore", "--colour"}, "groupcheck explore: unknown flag --colour; groupcheck explore --help lists the flags"},
		{[]string{"explore", "--max-depth", "x"}, `groupcheck explore: invalid value "x" for flag --max-depth: parse error`},
		{[]string{"explore", "--config"}, "groupcheck explore: flag needs an argument: --config"},
		{[]string{"check-history", history, "--linearisability"}, "groupcheck check-history: unknown flag --linearisability (did you mean --linearizability?)"},
		{[]string{"simulate", "--seeds", "3"}, "groupcheck simulate: unknown flag --seeds (did you mean --seed?)"},
		{[]string{"show", trace, "--format", "pdf"}, "groupcheck show: --format pdf: unknown format; want text, mermaid, itf, json, html"},
		{[]string{"properties", "--writ", "x"}, "groupcheck properties: unknown flag --writ (did you mean --write?)"},
		{[]string{"simulate", "--walks", "0"}, "groupcheck simulate: --walks 0 --depth 200: want each 1 or more"},
		{[]string{"simulate", "extra"}, `groupcheck simulate: unexpected argument "extra"`},
		{[]string{"mutate", "--jobs", "0"}, "groupcheck mutate: --jobs 0 --sample 0: want --jobs 1 or more and --sample 0 or more"},
		{[]string{"check-history", history, "--timeout", "-1s"}, "groupcheck check-history: --timeout -1s: want a positive duration, or 0 for none"},
		{[]string{"check-history", history, "--settle", "-30s"}, "groupcheck check-history: --settle -30s: want a positive duration such as 30s (leave the flag out for no bound)"},
		{[]string{"check-history", history, "--settle", "0"}, "groupcheck check-history: --settle 0s: want a positive duration"},
		{[]string{"check-history", history, "--settle", "half a minute"}, `groupcheck check-history: invalid value "half a minute" for flag --settle: parse error`},
		{[]string{"shrink", trace, "--property", "exclusive-ownershp"}, "groupcheck shrink: --property exclusive-ownershp: no such property (did you mean exclusive-ownership?)"},
		{[]string{"explore", "--mutant", "eager-keeps-owned-lists"}, "groupcheck explore: --mutant eager-keeps-owned-lists: unknown mutant (did you mean eager-keeps-owned-list?); groupcheck mutants lists them"},
		{[]string{"simulate", "--mutant", "gremlins"}, "groupcheck simulate: --mutant gremlins: unknown mutant; groupcheck mutants lists them"},
		{[]string{"explor"}, `groupcheck: unknown command "explor" (did you mean explore?); groupcheck help lists the commands`},
		{[]string{"explore", "--config", badConf}, `groupcheck explore: world.conf:7: member b: topic "u" is not a configured topic`},
		{[]string{"check-history", history}, `groupcheck check-history: ` + history + `: history line 2: field "parts": want an object of topic to partition numbers, such as {"t":[0,1]}; got an array`},
	} {
		code, out, errs := runCLI(t, tc.args...)
		if code != 2 || !strings.HasPrefix(errs, tc.want) {
			t.Errorf("%q: exit %d, stderr %q; want 2 and a line starting %q", tc.args, code, errs, tc.want)
		}
		if n := strings.Count(errs, "\n"); n != 1 || out != "" {
			t.Errorf("%q: %d lines on stderr, %d bytes on stdout; want the one line", tc.args, n, len(out))
		}
	}
}

// --help lists a command's flags and exits 0.
func TestFlagHelp(t *testing.T) {
	code, _, errs := runCLI(t, "explore", "--help")
	if code != 0 || !strings.HasPrefix(errs, "flags of groupcheck explore:\n") || !strings.Contains(errs, "-max-depth int") {
		t.Errorf("explore --help: exit %d\n%s", code, errs)
	}
}

// check-history on a history with no coordinator request says there is nothing to search,
// with --linearizability or without, rather than "linearizable: yes".
func TestCheckHistoryNothingToSearch(t *testing.T) {
	h := filepath.Join(t.TempDir(), "h.jsonl")
	text := `{"seq":1,"t_ns":1,"kind":"start","node":"a","proto":"classic"}` + "\n" +
		`{"seq":2,"t_ns":2,"kind":"assign","phase":"begin","id":1,"node":"a","parts":{"t":[0]}}` + "\n" +
		`{"seq":3,"t_ns":3,"kind":"assign","phase":"end","id":1,"node":"a"}` + "\n"
	if err := os.WriteFile(h, []byte(text), 0o644); err != nil {
		t.Fatal(err)
	}
	for _, args := range [][]string{{"check-history", h}, {"check-history", "--linearizability", h}, {"check-history", "--linearizability", "--html", filepath.Join(t.TempDir(), "h.html"), h}} {
		code, out, errs := runCLI(t, args...)
		if code != 0 || !strings.Contains(out, "linearizable: nothing to search: the history has no coordinator requests\n") || strings.Contains(out, "needs a search") {
			t.Errorf("%q: exit %d\n%s%s", args, code, out, errs)
		}
	}
}

// distance and nearest: the misspelling's nearest name, none when nothing is close.
func TestNearest(t *testing.T) {
	names := []string{"max-depth", "max-states", "max-time", "preset", "property"}
	for _, tc := range []struct{ s, want string }{
		{"max-dept", "max-depth"}, {"maxdepth", "max-depth"}, {"max-state", "max-states"},
		{"presets", "preset"}, {"propety", "property"}, {"colour", ""}, {"x", ""},
	} {
		if got := nearest(tc.s, names); got != tc.want {
			t.Errorf("nearest(%q) = %q, want %q", tc.s, got, tc.want)
		}
	}
}

// Every command the nearest-name list knows is one the usage lists, and the other way round.
func TestCommandsListed(t *testing.T) {
	for _, c := range commands {
		if c != "help" && !strings.Contains(usage, "groupcheck "+c+" ") {
			t.Errorf("command %s is not in the usage text", c)
		}
	}
	for _, l := range strings.Split(usage, "\n") {
		if f := strings.Fields(l); len(f) > 1 && f[0] == "groupcheck" && !slices.Contains(commands, f[1]) {
			t.Errorf("usage lists %s, which commands lacks", f[1])
		}
	}
}
