package traces

import (
	"bufio"
	"fmt"
	"io"
	"strings"

	"github.com/groupcheck/groupcheck/explorer"
	"github.com/groupcheck/groupcheck/invariants"
	"github.com/groupcheck/groupcheck/spec"
)

var lookup = invariants.Lookup

// Write writes the trace of an explorer path: the header, one step per action with the
// output the model produces, and a final check. It fails if the path does not re-execute
// (an action not enabled), which would mean a nondeterministic model.
func Write(w io.Writer, h Header, cfg spec.Config, p *explorer.Path[spec.World, spec.Action]) error {
	acts := make([]spec.Action, len(p.Steps))
	for i, s := range p.Steps {
		acts[i] = s.Action
	}
	t, err := Rewrite(New(cfg.Name, h, cfg, acts))
	if err != nil {
		return err
	}
	for i, s := range t.Steps {
		if !s.Check && len(s.Expected) == 1 && s.Expected[0] == notEnabled {
			return fmt.Errorf("traces: %s of the path is not enabled on re-execution", t.Label(i))
		}
	}
	return Format(w, t)
}

// Format writes t in the v1 text format (see the package documentation).
func Format(w io.Writer, t *Trace) error {
	bw := bufio.NewWriter(w)
	if err := formatHeader(bw, t); err != nil {
		return err
	}
	for _, s := range t.Steps {
		bw.WriteString("\n")
		for _, c := range s.Comments {
			writeComment(bw, c)
		}
		bw.WriteString(s.Text + "\n----\n")
		if blockNeedsDouble(s.Expected) {
			bw.WriteString("----\n")
			for _, l := range s.Expected {
				bw.WriteString(l + "\n")
			}
			bw.WriteString("----\n----\n")
			continue
		}
		for _, l := range s.Expected {
			bw.WriteString(l + "\n")
		}
	}
	if len(t.Trailing) > 0 {
		bw.WriteString("\n")
		for _, c := range t.Trailing {
			writeComment(bw, c)
		}
	}
	return bw.Flush()
}

func formatHeader(bw *bufio.Writer, t *Trace) error {
	h := t.Header
	bw.WriteString(FormatVersion + "\n")
	for i, l := range h.About {
		if i == 0 {
			bw.WriteString("# about: " + l + "\n")
		} else {
			bw.WriteString("#   " + l + "\n")
		}
	}
	if h.Property != "" {
		pl, err := propertyLine(h.Property)
		if err != nil {
			return err
		}
		bw.WriteString("# property: " + pl + "\n")
	}
	if c := h.cycleLine(); c != "" {
		bw.WriteString("# cycle: " + c + "\n")
	}
	found := h.Found
	if found == "" {
		found = "hand-written"
	}
	model := h.Model
	if model == "" {
		model = ModelVersion
	}
	fmt.Fprintf(bw, "# found: %s\n# model: %s\n# config:\n", found, model)
	for _, l := range splitLines(t.Config.Format()) {
		bw.WriteString("#   " + l + "\n")
	}
	return nil
}

func writeComment(bw *bufio.Writer, c string) {
	if c == "" {
		bw.WriteString("#\n")
		return
	}
	bw.WriteString("# " + c + "\n")
}

// blockNeedsDouble: a block with a blank line, or one that starts with or contains "----",
// needs the ----/---- form to parse back.
func blockNeedsDouble(lines []string) bool {
	for _, l := range lines {
		if strings.TrimSpace(l) == "" || l == "----" {
			return true
		}
	}
	return false
}
