package main

import (
	"encoding/json"
	"flag"
	"fmt"
	"io"
	"os"

	"github.com/groupcheck/groupcheck/oracle"
)

// stdin is where `check-history -` reads; a variable so that tests can feed it.
var stdin io.Reader = os.Stdin

// checkHistory: groupcheck check-history FILE [--json]. It checks a JSON-lines history (FILE,
// or - for standard input) with the oracle and prints the report. Exit 0 when it holds (zombies
// do not fail it), 1 on a violation, 2 on a malformed file (the error names the line) or bad
// usage.
func checkHistory(args []string, stdout, stderr io.Writer) int {
	fs := flag.NewFlagSet("check-history", flag.ContinueOnError)
	fs.SetOutput(stderr)
	asJSON := fs.Bool("json", false, "print the report as JSON")
	pos, err := parseInterspersed(fs, args)
	if err != nil {
		return 2
	}
	if len(pos) != 1 {
		fmt.Fprintln(stderr, "usage: groupcheck check-history FILE [--json]   (FILE - reads standard input)")
		return 2
	}
	r, err := readReport(pos[0])
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
	if !r.OK() {
		return 1
	}
	return 0
}

func readReport(path string) (oracle.Report, error) {
	if path == "-" {
		return oracle.CheckReader(stdin, oracle.Options{})
	}
	f, err := os.Open(path)
	if err != nil {
		return oracle.Report{}, err
	}
	defer f.Close()
	return oracle.CheckReader(f, oracle.Options{})
}
