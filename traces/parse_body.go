package traces

import (
	"slices"
	"strings"

	"github.com/groupcheck/groupcheck/spec"
)

const separator = "----"

// body parses the directives after the header: comments, blank lines, and blocks of
// directive, `----`, expected output.
func (p *traceParser) body() error {
	var comments []string
	for ; p.i < len(p.lines); p.i++ {
		l := p.lines[p.i]
		switch {
		case l == "":
			continue
		case l == "#" || strings.HasPrefix(l, "# "):
			comments = append(comments, strings.TrimPrefix(strings.TrimPrefix(l, "#"), " "))
			continue
		}
		s, err := p.directive(l)
		if err != nil {
			return err
		}
		s.Comments, comments = comments, nil
		if err := p.expected(&s); err != nil {
			return err
		}
		p.t.Steps = append(p.t.Steps, s)
	}
	p.t.Trailing = comments
	return nil
}

// directive parses the directive at the current line.
func (p *traceParser) directive(l string) (Step, error) {
	n := p.i + 1
	s := Step{Line: n, Text: l}
	word, rest, _ := strings.Cut(l, " ")
	switch {
	case word == "check":
		if rest != "" {
			return s, p.errorf(n, "check takes no arguments, got %q", rest)
		}
		s.Check = true
	case slices.Contains(spec.KindNames(), word):
		if l != strings.TrimSpace(l) {
			return s, p.errorf(n, "action %q: leading or trailing blanks", l)
		}
		a, err := spec.ParseAction(&p.t.Config, l)
		if err != nil {
			return s, p.errorf(n, "action does not parse: %v", err)
		}
		if a.Text(&p.t.Config) != l {
			return s, p.errorf(n, "action %q is not in its canonical form %q", l, a.Text(&p.t.Config))
		}
		s.Action = a
	case l == separator:
		return s, p.errorf(n, "---- without a directive above it")
	default:
		return s, p.errorf(n, "unknown directive %q (want check or an action: %s)", word, strings.Join(spec.KindNames(), ", "))
	}
	return s, nil
}

// expected reads `----` and the expected block after the directive at the current line, and
// leaves the current line on the block's last line.
func (p *traceParser) expected(s *Step) error {
	p.i++
	if p.i >= len(p.lines) || p.lines[p.i] != separator {
		return p.errorf(p.i+1, "missing ---- after %q (line %d)", s.Text, s.Line)
	}
	if p.i+1 < len(p.lines) && p.lines[p.i+1] == separator {
		return p.doubleBlock(s)
	}
	s.Expected = []string{}
	for p.i+1 < len(p.lines) && p.lines[p.i+1] != "" {
		p.i++
		if p.lines[p.i] == separator {
			return p.errorf(p.i+1, "unexpected ---- inside the expected block of %q (line %d); a block with blank lines uses the ----/---- form", s.Text, s.Line)
		}
		s.Expected = append(s.Expected, p.lines[p.i])
	}
	return nil
}

// doubleBlock reads a ----/---- block: lines up to a `----` line followed by another.
func (p *traceParser) doubleBlock(s *Step) error {
	open := p.i + 1
	p.i += 2
	s.Expected = []string{}
	for ; p.i < len(p.lines); p.i++ {
		if p.lines[p.i] == separator && p.i+1 < len(p.lines) && p.lines[p.i+1] == separator {
			p.i++
			if p.i+1 < len(p.lines) && p.lines[p.i+1] != "" {
				return p.errorf(p.i+2, "a blank line must follow the ----/---- block of %q", s.Text)
			}
			return nil
		}
		s.Expected = append(s.Expected, p.lines[p.i])
	}
	return p.errorf(open, "unterminated ----/---- block of %q: no closing ---- ---- lines", s.Text)
}
