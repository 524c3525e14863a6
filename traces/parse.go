package traces

import (
	"bufio"
	"fmt"
	"io"
	"slices"
	"strings"

	"github.com/groupcheck/groupcheck/invariants"
	"github.com/groupcheck/groupcheck/spec"
)

// ParseError is a malformed trace: the file, the line and what is wrong there.
type ParseError struct {
	File string
	Line int
	Msg  string
}

func (e *ParseError) Error() string { return fmt.Sprintf("%s:%d: %s", e.File, e.Line, e.Msg) }

// Parse reads a v1 trace. Parsing is strict: every malformed line is a *ParseError naming
// name:line — a missing or unknown version line, a header line that is not `# key: value`,
// an unknown or repeated key, a config that spec.ParseConfig refuses, an unknown directive,
// an action that does not parse, a directive without `----`, an unterminated ----/---- block.
func Parse(name string, r io.Reader) (*Trace, error) {
	var lines []string
	sc := bufio.NewScanner(r)
	sc.Buffer(make([]byte, 0, 64<<10), 1<<20)
	for sc.Scan() {
		lines = append(lines, sc.Text())
	}
	if err := sc.Err(); err != nil {
		return nil, fmt.Errorf("%s: %w", name, err)
	}
	p := &traceParser{name: name, lines: lines, t: &Trace{Name: name}}
	if err := p.header(); err != nil {
		return nil, err
	}
	if err := p.body(); err != nil {
		return nil, err
	}
	if err := p.lasso(); err != nil {
		return nil, err
	}
	return p.t, nil
}

type traceParser struct {
	name  string
	lines []string
	i     int // index of the next line; its number is i+1
	t     *Trace
	// cycle and property are the header's `# cycle:` and `# property:` fields, checked
	// against the directives once they are read (lasso).
	cycle, prop *headerField
}

func (p *traceParser) errorf(line int, format string, args ...any) error {
	return &ParseError{File: p.name, Line: line, Msg: fmt.Sprintf(format, args...)}
}

// headerKeys are the keys a header may have; those that take continuation lines are true.
var headerKeys = map[string]bool{"about": true, "property": false, "found": false, "model": false, "config": true, "cycle": false}

type headerField struct {
	line  int
	value string
	more  []string // continuation lines
	start int      // line of the first continuation line
}

func (p *traceParser) header() error {
	if len(p.lines) == 0 || p.lines[0] != FormatVersion {
		if len(p.lines) > 0 && strings.HasPrefix(p.lines[0], "# groupcheck trace ") {
			return p.errorf(1, "unsupported format %q (this groupcheck reads %q)", p.lines[0], FormatVersion)
		}
		return p.errorf(1, "not a groupcheck trace: the first line must be %q", FormatVersion)
	}
	fields := map[string]*headerField{}
	var cur *headerField
	curKey := ""
	for p.i = 1; p.i < len(p.lines) && strings.HasPrefix(p.lines[p.i], "#"); p.i++ {
		l, n := p.lines[p.i], p.i+1
		switch {
		case l == "#":
			cur = nil
		case strings.HasPrefix(l, "#   "):
			if cur == nil || !headerKeys[curKey] {
				return p.errorf(n, "bad header: continuation line outside an about or config block")
			}
			if len(cur.more) == 0 {
				cur.start = n
			}
			cur.more = append(cur.more, l[4:])
		default:
			k, v, ok := strings.Cut(strings.TrimPrefix(l, "# "), ":")
			if _, known := headerKeys[k]; !ok || !strings.HasPrefix(l, "# ") || !known {
				return p.errorf(n, "bad header line %q: want `# key: value` with key one of about, property, found, model, config, cycle", l)
			}
			if fields[k] != nil {
				return p.errorf(n, "bad header: %s given twice (first at line %d)", k, fields[k].line)
			}
			cur, curKey = &headerField{line: n, value: strings.TrimSpace(v)}, k
			fields[k] = cur
		}
	}
	if p.i < len(p.lines) && p.lines[p.i] != "" {
		return p.errorf(p.i+1, "the header must end with a blank line")
	}
	return p.headerValues(fields)
}

func (p *traceParser) headerValues(f map[string]*headerField) error {
	end := p.i + 1
	for _, k := range []string{"found", "model", "config"} {
		if f[k] == nil {
			return p.errorf(end, "bad header: missing `# %s:`", k)
		}
	}
	h := &p.t.Header
	if a := f["about"]; a != nil {
		h.About = append([]string{a.value}, a.more...)
	}
	h.Found, h.Model = f["found"].value, f["model"].value
	if w, _, _ := strings.Cut(h.Found, " "); !slices.Contains(foundWays, w) {
		return p.errorf(f["found"].line, "bad header: found %q must start with one of %s", h.Found, strings.Join(foundWays, ", "))
	}
	if h.Model == "" {
		return p.errorf(f["model"].line, "bad header: empty model")
	}
	for _, k := range []string{"found", "model", "property", "cycle"} {
		if f[k] != nil && len(f[k].more) > 0 {
			return p.errorf(f[k].start, "bad header: %s takes no continuation lines", k)
		}
	}
	if err := p.config(f["config"]); err != nil {
		return err
	}
	p.cycle, p.prop = f["cycle"], f["property"]
	if pf := f["property"]; pf != nil {
		return p.property(pf)
	}
	return nil
}

// config parses the config block. The block is handed to spec.ParseConfig padded with blank
// lines so that its line numbers are the file's.
func (p *traceParser) config(f *headerField) error {
	if f.value != "" {
		return p.errorf(f.line, "bad header: `# config:` takes its lines below it, indented `#   `")
	}
	if len(f.more) == 0 {
		return p.errorf(f.line, "bad header: empty config")
	}
	text := strings.Repeat("\n", f.start-1) + strings.Join(f.more, "\n") + "\n"
	cfg, err := spec.ParseConfig(p.name, strings.NewReader(text))
	if err != nil {
		msg := err.Error()
		if rest, ok := strings.CutPrefix(msg, p.name+":"); ok && rest != "" && rest[0] >= '0' && rest[0] <= '9' {
			return &ParseError{File: p.name, Line: atoiPrefix(rest), Msg: "config: " + afterColon(rest)}
		}
		return p.errorf(f.line, "config: %s", strings.TrimPrefix(msg, p.name+": "))
	}
	p.t.Config = cfg
	return nil
}

func (p *traceParser) property(f *headerField) error {
	name, kind, ok := strings.Cut(f.value, " ")
	if name == invariants.ConvergesName {
		if want := "(" + convergesKind + ")"; ok && kind != want {
			return p.errorf(f.line, "bad header: property %s is %s, not %s", name, want, kind)
		}
		p.t.Header.Property = name
		return nil
	}
	prop, known := invariants.Lookup(name)
	if !known {
		return p.errorf(f.line, "bad header: unknown property %q", name)
	}
	if want := "(" + prop.Kind.String() + ")"; ok && kind != want {
		return p.errorf(f.line, "bad header: property %s is %s, not %s", name, want, kind)
	}
	if !slices.ContainsFunc(invariants.For(p.t.Config), func(q invariants.Property) bool { return q.Name == name }) {
		return p.errorf(f.line, "bad header: property %s does not apply to this config", name)
	}
	p.t.Header.Property = name
	return nil
}

func atoiPrefix(s string) int {
	n := 0
	for _, r := range s {
		if r < '0' || r > '9' {
			break
		}
		n = n*10 + int(r-'0')
	}
	return n
}

func afterColon(s string) string {
	_, rest, _ := strings.Cut(s, ":")
	return strings.TrimSpace(rest)
}
