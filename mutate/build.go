package mutate

import (
	"bytes"
	"fmt"
	"io"
	"io/fs"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"sort"
	"strconv"
	"strings"
)

// Build is a mutated copy of the module and the one binary built from it.
type Build struct {
	Dir     string   // the copy
	Binary  string   // groupcheck built from the copy
	Mutants []Mutant // every point, in id order
	// Dropped are the points whose schema did not compile (e.g. two arguments of different
	// types swapped, a named bool type where bool is expected), with the compiler's words.
	Dropped map[int32]string

	types *typer
}

// NewBuild copies the module at root into dir (without tests, testdata and nested modules), rewrites the non-test files of pkgs (module
// directories such as impl/consumer) into their schemata, and builds cmd/groupcheck from the
// copy; files whose base name is in exclude are copied as they are. Points that do not compile are left out one round of the compiler at a time (every
// error of a package is reported with -gcflags=-e) and listed in Dropped.
func NewBuild(root, dir string, pkgs, exclude []string, log io.Writer) (*Build, error) {
	if err := copyModule(root, dir); err != nil {
		return nil, err
	}
	b := &Build{Dir: dir, Binary: filepath.Join(dir, "groupcheck-mutant"), Dropped: map[int32]string{}}
	b.types = newTyper(root, exclude)
	for round := 0; ; round++ {
		if err := b.write(root, pkgs); err != nil {
			return nil, err
		}
		out, err := b.compile()
		if err == nil {
			return b, nil
		}
		bad := b.blame(out)
		if len(bad) == 0 || round > 20 {
			return nil, fmt.Errorf("mutate: the schemata do not build and no mutant is to blame:\n%s", out)
		}
		fmt.Fprintf(log, "mutate: build round %d: %d points do not compile; leaving them out\n", round+1, len(bad))
		for id, why := range bad {
			b.Dropped[id] = why
		}
	}
}

// List enumerates the mutation points of pkgs without building anything.
func List(root string, pkgs, exclude []string) ([]Mutant, error) {
	dir, err := os.MkdirTemp("", "groupcheck-mutate-list-")
	if err != nil {
		return nil, err
	}
	defer os.RemoveAll(dir)
	if err := copyModule(root, dir); err != nil {
		return nil, err
	}
	b := &Build{Dir: dir, types: newTyper(root, exclude)}
	err = b.write(root, pkgs)
	return b.Mutants, err
}

// write (re)generates every mutated file from the originals, leaving out Dropped.
func (b *Build) write(root string, pkgs []string) error {
	b.Mutants = b.Mutants[:0]
	var next int32
	skip := map[int32]bool{}
	for id := range b.Dropped {
		skip[id] = true
	}
	for _, pkg := range pkgs {
		p, err := b.types.load(pkg)
		if err != nil {
			return err
		}
		for i, f := range p.files {
			if !p.keep[i] {
				continue
			}
			rel := p.names[i]
			muts, out, err := schema(p.fset, f, rel, pkg, p.srcs[i], &next, skip, p.info)
			if err != nil {
				return err
			}
			b.Mutants = append(b.Mutants, muts...)
			if err := os.WriteFile(filepath.Join(b.Dir, rel), out, 0o644); err != nil {
				return err
			}
		}
	}
	return nil
}

// goFiles are the non-test Go files of a directory, sorted.
func goFiles(dir string) ([]string, error) {
	ents, err := os.ReadDir(dir)
	if err != nil {
		return nil, err
	}
	var out []string
	for _, e := range ents {
		n := e.Name()
		if !e.IsDir() && strings.HasSuffix(n, ".go") && !strings.HasSuffix(n, "_test.go") {
			out = append(out, n)
		}
	}
	sort.Strings(out)
	return out, nil
}

func (b *Build) compile() (string, error) {
	cmd := exec.Command("go", "build", "-gcflags=all=-e", "-o", b.Binary, "./cmd/groupcheck")
	cmd.Dir = b.Dir
	cmd.Env = append(os.Environ(), "GOFLAGS=-mod=mod", "GOWORK=off")
	out, err := cmd.CombinedOutput()
	return string(out), err
}

var (
	errLine = regexp.MustCompile(`(?m)^(?:\./)?([^\s:]+\.go):(\d+):(\d+): (.*)$`)
	opener  = regexp.MustCompile(rtName + `\.\w+\((\d+)`)
)

// blame maps each compiler error to the point whose wrapper opens nearest before it on its
// line: an argument that does not fit the switchboard's helper stands right after the opener.
func (b *Build) blame(out string) map[int32]string {
	bad := map[int32]string{}
	for _, m := range errLine.FindAllStringSubmatch(out, -1) {
		src, err := os.ReadFile(filepath.Join(b.Dir, m[1]))
		if err != nil {
			continue
		}
		line, _ := strconv.Atoi(m[2])
		col, _ := strconv.Atoi(m[3])
		lines := bytes.Split(src, []byte("\n"))
		if line < 1 || line > len(lines) {
			continue
		}
		text := lines[line-1]
		best := int32(0)
		for _, loc := range opener.FindAllSubmatchIndex(text, -1) {
			if loc[0] > col-1 {
				break
			}
			id, _ := strconv.Atoi(string(text[loc[2]:loc[3]]))
			best = int32(id)
		}
		if best != 0 {
			bad[best] = m[4]
		}
	}
	return bad
}

// copyModule copies every file of the module at root but tests (files a package embeds
// included), without nested modules, hidden directories and testdata.
func copyModule(root, dir string) error {
	return filepath.WalkDir(root, func(path string, d fs.DirEntry, err error) error {
		if err != nil {
			return err
		}
		rel, _ := filepath.Rel(root, path)
		if d.IsDir() {
			if rel != "." && (strings.HasPrefix(d.Name(), ".") || d.Name() == "testdata") {
				return filepath.SkipDir
			}
			if rel != "." {
				if _, err := os.Stat(filepath.Join(path, "go.mod")); err == nil {
					return filepath.SkipDir
				}
			}
			return os.MkdirAll(filepath.Join(dir, rel), 0o755)
		}
		if strings.HasSuffix(d.Name(), "_test.go") || !d.Type().IsRegular() {
			return nil
		}
		src, err := os.ReadFile(path)
		if err != nil {
			return err
		}
		return os.WriteFile(filepath.Join(dir, rel), src, 0o644)
	})
}
