package worlds

import (
	"bufio"
	"bytes"
	_ "embed"
	"fmt"
	"io"
	"os"
	"slices"
	"strconv"
	"strings"
	"text/tabwriter"
)

// pinsText is pins.txt: every pinned exhaustive state count, one world a line.
//
//go:embed pins.txt
var pinsText []byte

// PinsFile is pins.txt's path from a test of a package one directory below the module root
// (go test runs tests in their package's directory), where -rewrite writes it.
const PinsFile = "../worlds/pins.txt"

// Unpinned marks a count a pin leaves out.
const Unpinned = -1

// Pin is a world's pinned exhaustive count: its distinct and generated states and its depth,
// each Unpinned where the test that reads it does not pin it.
type Pin struct {
	Distinct, Generated int64
	Depth               int
}

// Pins are the pinned counts by world name.
type Pins map[string]Pin

// LoadPins reads the embedded pins.txt.
func LoadPins() (Pins, error) { return ParsePins("worlds/pins.txt", bytes.NewReader(pinsText)) }

// ParsePins reads lines "world distinct generated depth" ('-' for an unpinned count; '#'
// starts a comment line). A world pinned twice, a world without a file, or a count that is not
// a whole number is an error naming the line.
func ParsePins(name string, r io.Reader) (Pins, error) {
	ps := Pins{}
	sc := bufio.NewScanner(r)
	for n := 1; sc.Scan(); n++ {
		line := strings.TrimSpace(sc.Text())
		if line == "" || strings.HasPrefix(line, "#") {
			continue
		}
		f := strings.Fields(line)
		if len(f) != 4 {
			return nil, fmt.Errorf("%s:%d: want \"world distinct generated depth\", got %q", name, n, line)
		}
		if _, ok := ps[f[0]]; ok {
			return nil, fmt.Errorf("%s:%d: world %q is pinned twice", name, n, f[0])
		}
		if _, err := Text(f[0]); err != nil {
			return nil, fmt.Errorf("%s:%d: %w", name, n, err)
		}
		var c [3]int64
		for i, s := range f[1:] {
			if s == "-" {
				c[i] = Unpinned
				continue
			}
			v, err := strconv.ParseInt(strings.ReplaceAll(s, "_", ""), 10, 64)
			if err != nil || v < 0 {
				return nil, fmt.Errorf("%s:%d: count %q is not a whole number", name, n, s)
			}
			c[i] = v
		}
		ps[f[0]] = Pin{Distinct: c[0], Generated: c[1], Depth: int(c[2])}
	}
	return ps, sc.Err()
}

// pinsHeader opens pins.txt.
const pinsHeader = `# Every pinned exhaustive state count: world (worlds/<world>.conf), distinct states,
# generated states, depth; '-' where no test pins it. A change in a count is a change in the
# model: explain it in the commit that makes it. The tests that read a pin rewrite it with
# -rewrite (go test ./invariants -rewrite); review the diff before committing.
`

// Format writes ps in pins.txt's layout, sorted by world.
func (ps Pins) Format() []byte {
	names := make([]string, 0, len(ps))
	for n := range ps {
		names = append(names, n)
	}
	slices.Sort(names)
	var b bytes.Buffer
	b.WriteString(pinsHeader)
	tw := tabwriter.NewWriter(&b, 0, 8, 1, ' ', 0)
	count := func(v int64) string {
		if v == Unpinned {
			return "-"
		}
		return strconv.FormatInt(v, 10)
	}
	for _, n := range names {
		p := ps[n]
		fmt.Fprintf(tw, "%s\t%s\t%s\t%s\n", n, count(p.Distinct), count(p.Generated), count(int64(p.Depth)))
	}
	tw.Flush()
	return b.Bytes()
}

// RewritePins merges measured into the pins file at path (rewrites by the tests of one
// package leave the other packages' pins as they are) and writes it back.
func RewritePins(path string, measured Pins) error {
	b, err := os.ReadFile(path)
	if err != nil {
		return err
	}
	ps, err := ParsePins(path, bytes.NewReader(b))
	if err != nil {
		return err
	}
	for n, p := range measured {
		ps[n] = p
	}
	return os.WriteFile(path, ps.Format(), 0o644)
}
