package mutate

import (
	"fmt"
	"go/ast"
	"go/importer"
	"go/parser"
	"go/token"
	"go/types"
	"os"
	"path/filepath"
	"slices"
)

// typer parses and type-checks the packages to mutate, once each: the types decide which
// arguments may be swapped and which conditions are plain bools, so the schemata compile.
type typer struct {
	root    string
	exclude []string // base names of files not to mutate
	fset    *token.FileSet
	imp     types.Importer
	pkgs    map[string]*typedPkg
}

type typedPkg struct {
	fset  *token.FileSet
	files []*ast.File
	names []string // module-relative, slash-separated, in files' order
	keep  []bool   // false: excluded, type-checked but not mutated
	srcs  [][]byte
	info  *types.Info
}

func newTyper(root string, exclude []string) *typer {
	if abs, err := filepath.Abs(root); err == nil {
		root = abs
	}
	fset := token.NewFileSet()
	return &typer{root: root, exclude: exclude, fset: fset, imp: importer.ForCompiler(fset, "source", nil), pkgs: map[string]*typedPkg{}}
}

// load parses and type-checks the non-test files of the module directory pkg.
func (t *typer) load(pkg string) (*typedPkg, error) {
	if p, ok := t.pkgs[pkg]; ok {
		return p, nil
	}
	names, err := goFiles(filepath.Join(t.root, pkg))
	if err != nil {
		return nil, err
	}
	p := &typedPkg{fset: t.fset, info: &types.Info{Types: map[ast.Expr]types.TypeAndValue{}}}
	for _, n := range names {
		rel := filepath.ToSlash(filepath.Join(pkg, n))
		src, err := os.ReadFile(filepath.Join(t.root, rel))
		if err != nil {
			return nil, err
		}
		f, err := parser.ParseFile(t.fset, filepath.Join(t.root, rel), src, parser.ParseComments|parser.SkipObjectResolution)
		if err != nil {
			return nil, err
		}
		p.files, p.names, p.srcs = append(p.files, f), append(p.names, rel), append(p.srcs, src)
		p.keep = append(p.keep, !slices.Contains(t.exclude, n))
	}
	conf := types.Config{Importer: t.imp}
	if _, err := conf.Check(pkg, t.fset, p.files, p.info); err != nil {
		return nil, fmt.Errorf("mutate: type-checking %s: %w", pkg, err)
	}
	t.pkgs[pkg] = p
	return p, nil
}
