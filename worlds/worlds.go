// Package worlds holds the built-in worlds as config files: the presets (worlds/<name>.conf),
// the mutants' worlds (worlds/mutants/<fault>.conf), the mutation suite's own worlds
// (worlds/suite/<name>.conf, named as mutate.Suite names them), the tests' worlds
// (worlds/tests/) and the pinned state counts of the exhaustive tests (worlds/pins.txt, each
// world pinned once). They are data, read by name, so that a world is written once and a
// reviewer reads it as the config a user would write (spec.ParseConfig's format).
//
// A world's text is its file without the lines that start with '#': the comments say why the
// world is what it is, and the text the rest of the code compares and parses stays the config.
// Blank lines are kept: most presets' files open with one, as their Go literals did, because
// mutate.Suite tells worlds apart by text (without it cooperative-kafka/session-timeouts, a
// world the suite skips, would hide mutant-world/commit-ignores-fencing).
package worlds

import (
	"embed"
	"fmt"
	"io/fs"
	"slices"
	"strings"
)

//go:embed *.conf mutants/*.conf tests/*.conf suite
var files embed.FS

// Text is the named world's config ("cooperative-kafka", "mutants/balance-moves-owned"),
// without its comment lines.
func Text(name string) (string, error) {
	b, err := files.ReadFile(name + ".conf")
	if err != nil {
		return "", fmt.Errorf("unknown world %q (worlds: %s)", name, strings.Join(Names(), ", "))
	}
	var out strings.Builder
	for _, l := range strings.SplitAfter(string(b), "\n") {
		if !strings.HasPrefix(l, "#") {
			out.WriteString(l)
		}
	}
	return out.String(), nil
}

// MustText is Text for the package-level tables of built-in worlds (spec.Presets,
// invariants.Mutants), whose names the tests check; an unknown name is a bug in the table
// and panics with the name.
func MustText(name string) string {
	t, err := Text(name)
	if err != nil {
		panic("worlds: " + err.Error())
	}
	return t
}

// Names lists every world, sorted.
func Names() []string {
	var names []string
	_ = fs.WalkDir(files, ".", func(path string, d fs.DirEntry, err error) error {
		if err == nil && !d.IsDir() && strings.HasSuffix(path, ".conf") {
			names = append(names, strings.TrimSuffix(path, ".conf"))
		}
		return nil
	})
	slices.Sort(names)
	return names
}
