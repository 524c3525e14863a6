package main

import (
	"bytes"
	"errors"
	"fmt"
	"io"
	"os"
	"path/filepath"

	"github.com/groupcheck/groupcheck/traces"
)

// parseInterspersed parses flags that may come before or after the positional arguments
// (`replay FILE --rewrite` as well as `replay --rewrite FILE`).
func parseInterspersed(fs *flags, args []string) ([]string, error) {
	var pos []string
	for {
		if err := fs.Parse(args); err != nil {
			return nil, err
		}
		if fs.NArg() == 0 {
			return pos, nil
		}
		pos = append(pos, fs.Arg(0))
		args = fs.Args()[1:]
	}
}

// loadTrace reads and parses a trace file; the error names file:line when it is malformed.
func loadTrace(path string) (*traces.Trace, error) {
	data, err := os.ReadFile(path)
	if err != nil {
		return nil, err
	}
	return traces.Parse(filepath.Base(path), bytes.NewReader(data))
}

// replay: groupcheck replay FILE [--rewrite]. Exit 0 when the trace replays, 1 on a
// divergence (the first divergent step and its diff), 2 on a malformed file or bad usage.
func replay(args []string, stdout, stderr io.Writer) int {
	fs := newFlags("replay", stderr)
	rewrite := fs.Bool("rewrite", false, "regenerate every expected block from the model and write the file back")
	pos, err := parseInterspersed(fs, args)
	if err != nil {
		return fs.badFlags(err)
	}
	if len(pos) != 1 {
		fmt.Fprintln(stderr, "usage: groupcheck replay FILE [--rewrite]")
		return 2
	}
	t, err := loadTrace(pos[0])
	if err != nil {
		fmt.Fprintf(stderr, "groupcheck replay: %v\n", err)
		return 2
	}
	if *rewrite {
		return rewriteFile(pos[0], t, stdout, stderr)
	}
	res, err := traces.Replay(t)
	if err != nil {
		fmt.Fprintf(stderr, "groupcheck replay: %v\n", err)
		return 2
	}
	if res.Note != "" {
		fmt.Fprintf(stdout, "note: %s\n", res.Note)
	}
	if d := res.Divergence; d != nil {
		fmt.Fprintf(stdout, "%s: diverges at %s: %s\n", pos[0], d.Label, d.Reason)
		diff, err := renderingDiff(t)
		if err != nil {
			fmt.Fprintf(stderr, "groupcheck replay: %v\n", err)
			return 2
		}
		fmt.Fprintf(stdout, "--- %s (the trace)\n+++ what the model does now (replay --rewrite writes it)\n%s", pos[0], diff)
		return 1
	}
	fmt.Fprintf(stdout, "%s: ok, %d steps replay\n", pos[0], len(res.Steps))
	return 0
}

// renderingDiff is a line diff of t as written against t as the model renders it now (its
// rewrite), so that every step that changed shows, each in its context.
func renderingDiff(t *traces.Trace) (string, error) {
	nt, err := traces.Rewrite(t)
	if err != nil {
		return "", err
	}
	var was, now bytes.Buffer
	if err := traces.Format(&was, t); err != nil {
		return "", err
	}
	if err := traces.Format(&now, nt); err != nil {
		return "", err
	}
	return lineDiff(was.String(), now.String()), nil
}

func rewriteFile(path string, t *traces.Trace, stdout, stderr io.Writer) int {
	nt, err := traces.Rewrite(t)
	if err != nil {
		fmt.Fprintf(stderr, "groupcheck replay: %v\n", err)
		return 2
	}
	var b bytes.Buffer
	if err := traces.Format(&b, nt); err != nil {
		fmt.Fprintf(stderr, "groupcheck replay: %v\n", err)
		return 2
	}
	if err := os.WriteFile(path, b.Bytes(), 0o644); err != nil {
		fmt.Fprintf(stderr, "groupcheck replay: %v\n", err)
		return 2
	}
	fmt.Fprintf(stdout, "%s: rewritten, %d steps\n", path, len(nt.Steps))
	return 0
}

// shrink: groupcheck shrink FILE [--property NAME] [--out FILE]. The property defaults to
// the trace's header property, else the first always-property that fails at its end.
func shrink(args []string, stdout, stderr io.Writer) int {
	fs := newFlags("shrink", stderr)
	prop := fs.String("property", "", "the always-property to keep violated (default: the trace's)")
	out := fs.String("out", "", "write the shrunk trace here instead of stdout")
	pos, err := parseInterspersed(fs, args)
	if err != nil {
		return fs.badFlags(err)
	}
	if len(pos) != 1 {
		fmt.Fprintln(stderr, "usage: groupcheck shrink FILE [--property NAME] [--out FILE]")
		return 2
	}
	if *prop != "" {
		if err := knownProperty(*prop); err != nil {
			fmt.Fprintf(stderr, "groupcheck shrink: %v\n", err)
			return 2
		}
	}
	t, err := loadTrace(pos[0])
	if err != nil {
		fmt.Fprintf(stderr, "groupcheck shrink: %v\n", err)
		return 2
	}
	name, err := shrinkProperty(t, *prop)
	if err != nil {
		fmt.Fprintf(stderr, "groupcheck shrink: %v\n", err)
		return 1
	}
	st := traces.Shrink(t, name)
	if st == nil {
		fmt.Fprintf(stderr, "groupcheck shrink: %s: the trace does not violate %s\n", pos[0], name)
		return 1
	}
	var b bytes.Buffer
	if err := traces.Format(&b, st); err != nil {
		fmt.Fprintf(stderr, "groupcheck shrink: %v\n", err)
		return 2
	}
	if *out == "" {
		_, _ = stdout.Write(b.Bytes())
		return 0
	}
	if err := os.WriteFile(*out, b.Bytes(), 0o644); err != nil {
		fmt.Fprintf(stderr, "groupcheck shrink: %v\n", err)
		return 2
	}
	fmt.Fprintf(stdout, "%s: %d steps, shrunk to %d, written to %s\n", pos[0], len(t.Actions()), len(st.Actions()), *out)
	return 0
}

func shrinkProperty(t *traces.Trace, flagValue string) (string, error) {
	switch {
	case flagValue != "":
		return flagValue, nil
	case t.Header.Property != "":
		return t.Header.Property, nil
	}
	res, err := traces.Replay(t)
	if err != nil {
		return "", err
	}
	for i := len(res.Steps) - 1; i >= 0; i-- {
		if s := res.Steps[i]; s.Step.Check && len(s.Violations) > 0 {
			return s.Violations[0].Property, nil
		}
	}
	return "", errors.New("no property given and the trace's checks find no violation")
}
