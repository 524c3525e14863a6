package main

import (
	"fmt"
	"io"
	"strings"

	"github.com/groupcheck/groupcheck/htmlreport"
	"github.com/groupcheck/groupcheck/traces"
)

// showFormats are the renderings of `groupcheck show`, by --format name.
var showFormats = map[string]func(io.Writer, *traces.Trace, *traces.Result) error{
	"text":    traces.Text,
	"mermaid": traces.Mermaid,
	"itf":     traces.ITF,
	"json":    traces.JSON,
	"html":    htmlreport.WriteTrace,
}

// showFormatNames are showFormats' names, in the order usage lists them.
var showFormatNames = []string{"text", "mermaid", "itf", "json", "html"}

// show: groupcheck show FILE [--format text|mermaid|itf|json|html]. It renders what the model does
// now; a divergence from the file's expected blocks is reported by the text and JSON formats
// and does not change the exit status (replay is the check).
func show(args []string, stdout, stderr io.Writer) int {
	fs := newFlags("show", stderr)
	format := fs.String("format", "text", "text, mermaid, itf, json or html (one self-contained page)")
	pos, err := parseInterspersed(fs, args)
	if err != nil {
		return fs.badFlags(err)
	}
	render, ok := showFormats[*format]
	if !ok {
		fmt.Fprintf(stderr, "groupcheck show: --format %s: unknown format; want %s\n", *format, strings.Join(showFormatNames, ", "))
		return 2
	}
	if len(pos) != 1 {
		fmt.Fprintln(stderr, "usage: groupcheck show FILE [--format text|mermaid|itf|json|html]")
		return 2
	}
	t, err := loadTrace(pos[0])
	if err != nil {
		fmt.Fprintf(stderr, "groupcheck show: %v\n", err)
		return 2
	}
	res, err := traces.Replay(t)
	if err == nil {
		err = render(stdout, t, res)
	}
	if err != nil {
		fmt.Fprintf(stderr, "groupcheck show: %v\n", err)
		return 2
	}
	return 0
}
