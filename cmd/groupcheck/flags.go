package main

import (
	"errors"
	"flag"
	"fmt"
	"github.com/groupcheck/groupcheck/internal/spell"
	"io"
	"strings"
)

// flags is a command's flag set that prints nothing itself: a parse error is one line on
// stderr (badFlags), not the flag package's error followed by every flag's usage.
type flags struct {
	*flag.FlagSet
	stderr io.Writer
}

func newFlags(name string, stderr io.Writer) *flags {
	fs := flag.NewFlagSet(name, flag.ContinueOnError)
	fs.SetOutput(io.Discard)
	fs.Usage = func() {}
	return &flags{fs, stderr}
}

// parse parses args; on failure it has reported the error and returns the exit status (0 for
// --help, 2 otherwise) and false.
func (fs *flags) parse(args []string) (int, bool) {
	if err := fs.Parse(args); err != nil {
		return fs.badFlags(err), false
	}
	return 0, true
}

// badFlags reports a parse error in one line — an unknown flag with the nearest valid name —
// and returns the exit status. --help lists the flags and exits 0.
func (fs *flags) badFlags(err error) int {
	if errors.Is(err, flag.ErrHelp) {
		fmt.Fprintf(fs.stderr, "flags of groupcheck %s:\n", fs.Name())
		fs.SetOutput(fs.stderr)
		fs.PrintDefaults()
		fs.SetOutput(io.Discard)
		return 0
	}
	fmt.Fprintf(fs.stderr, "groupcheck %s: %s\n", fs.Name(), flagMessage(fs.FlagSet, err))
	return 2
}

// positional refuses arguments beyond the n a command takes, naming the first.
func positional(fs *flags, n int) error {
	if fs.NArg() > n {
		return fmt.Errorf("unexpected argument %q", fs.Arg(n))
	}
	return nil
}

// flagMessage is the flag package's error in the command line's own spelling (--name), with
// the nearest valid name for an unknown flag.
func flagMessage(fs *flag.FlagSet, err error) string {
	msg := err.Error()
	if name, ok := strings.CutPrefix(msg, "flag provided but not defined: -"); ok {
		msg = "unknown flag --" + name
		var names []string
		fs.VisitAll(func(f *flag.Flag) { names = append(names, f.Name) })
		if near := nearest(name, names); near != "" {
			msg += " (did you mean --" + near + "?)"
		}
		return msg + "; groupcheck " + fs.Name() + " --help lists the flags"
	}
	msg = strings.Replace(msg, "for flag -", "for flag --", 1)
	return strings.Replace(msg, "needs an argument: -", "needs an argument: --", 1)
}

// nearest is spell.Nearest: the candidate a misspelled name was probably meant to be.
func nearest(s string, candidates []string) string { return spell.Nearest(s, candidates) }
