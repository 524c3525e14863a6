package mutate

import (
	"fmt"
	"go/ast"
	"go/parser"
	"go/token"
	"go/types"
	"sort"
	"strings"
)

// Operator is a kind of mutation.
type Operator string

// The operators, after the classic mutation-testing set (negated conditions, boundary changes,
// dropped statements, swapped arguments) and the ones that suit protocol code (bool results).
const (
	OpNegate   Operator = "negate"       // an if or for condition negated
	OpFlip     Operator = "flip"         // == ↔ !=
	OpBoundary Operator = "boundary"     // < ↔ <=, > ↔ >=
	OpAndOr    Operator = "and-or"       // && ↔ ||
	OpDrop     Operator = "drop"         // an expression statement, assignment or ++/-- dropped
	OpTrue     Operator = "return-true"  // a bool function's result forced to true
	OpFalse    Operator = "return-false" // a bool function's result forced to false
	OpSwap     Operator = "swap"         // two adjacent arguments of a call swapped
)

// Mutant is one mutation point: one small change to one file of impl/.
type Mutant struct {
	ID   int32    `json:"id"`   // the runtime switch (GROUPCHECK_MUTANT); stable only for the same sources
	Key  string   `json:"key"`  // stable across edits elsewhere: file|function|operator|source text[#n]
	Pkg  string   `json:"pkg"`  // e.g. impl/consumer
	File string   `json:"file"` // e.g. impl/consumer/join.go
	Func string   `json:"func"` // e.g. (Consumer).onJoin
	Line int      `json:"line"` // for the reader only
	Op   Operator `json:"op"`
	Orig string   `json:"orig"` // the source text changed
	Mut  string   `json:"mut"`  // what it becomes
}

// rtImport is the name the generated code gives the switchboard.
const (
	rtName = "gcrt"
	rtPath = "github.com/groupcheck/groupcheck/mutate/rt"
)

// edit is one insertion or replacement in a file: a wrapper's opening text (prefix), its
// closing text (suffix), or a replaced token or leaf (replace).
type edit struct {
	off, end int    // replace covers [off, end); prefix and suffix insert at off
	kind     int    // editSuffix, editPrefix, editReplace: the order at one offset
	span     int    // the wrapped node's length: outer wrappers open first and close last
	seq      int    // creation order, for wrappers of one node
	id       int32  // the mutant it belongs to
	text     string // what is inserted or replaces
}

const (
	editSuffix = iota
	editPrefix
	editReplace
)

// fileMutator enumerates one file's mutation points and the edits that make its schema.
type fileMutator struct {
	fset  *token.FileSet
	src   []byte
	file  string
	pkg   string
	next  *int32
	skip  map[int32]bool
	muts  []Mutant
	edits []edit
	seen  map[string]int
	fn    string
	info  *types.Info // nil: no type information, syntactic checks only
}

// Schema parses one Go file and returns its mutants (numbered from *next on) and its schema:
// the source with every point not in skip wrapped so that the switchboard chooses between the
// original and the mutant at run time. A file without points is returned unchanged.
func Schema(file, pkg string, src []byte, next *int32, skip map[int32]bool) ([]Mutant, []byte, error) {
	fset := token.NewFileSet()
	f, err := parser.ParseFile(fset, file, src, parser.ParseComments|parser.SkipObjectResolution)
	if err != nil {
		return nil, nil, err
	}
	return schema(fset, f, file, pkg, src, next, skip, nil)
}

// schema is Schema on a parsed file, with the package's type information when there is some:
// then only swaps of identically typed arguments and wrappers of plain bools are made.
func schema(fset *token.FileSet, f *ast.File, file, pkg string, src []byte, next *int32, skip map[int32]bool, info *types.Info) ([]Mutant, []byte, error) {
	m := &fileMutator{fset: fset, src: src, file: file, pkg: pkg, next: next, skip: skip, seen: map[string]int{}, info: info}
	for _, d := range f.Decls {
		fd, ok := d.(*ast.FuncDecl)
		if !ok || fd.Body == nil || display(fd) {
			continue
		}
		m.fn = funcName(fd)
		m.walk(fd)
	}
	if len(m.edits) == 0 {
		return m.muts, src, nil
	}
	// The import goes on the package clause's line, so every line keeps its number.
	m.edits = append(m.edits, edit{off: m.offset(f.Name.End()), kind: editPrefix, span: 1 << 30,
		text: fmt.Sprintf("; import %s %q", rtName, rtPath)})
	return m.muts, m.apply(), nil
}

// display reports whether a function only renders a value for people (String, or a name
// ending in String): its mutants change text, never a step of the protocol.
func display(fd *ast.FuncDecl) bool { return strings.HasSuffix(fd.Name.Name, "String") }

func funcName(fd *ast.FuncDecl) string {
	if fd.Recv == nil || len(fd.Recv.List) == 0 {
		return fd.Name.Name
	}
	t := fd.Recv.List[0].Type
	if s, ok := t.(*ast.StarExpr); ok {
		t = s.X
	}
	if ix, ok := t.(*ast.IndexExpr); ok {
		t = ix.X
	}
	if id, ok := t.(*ast.Ident); ok {
		return "(" + id.Name + ")." + fd.Name.Name
	}
	return fd.Name.Name
}

func (m *fileMutator) offset(p token.Pos) int { return m.fset.Position(p).Offset }

func (m *fileMutator) text(n ast.Node) string {
	return string(m.src[m.offset(n.Pos()):m.offset(n.End())])
}

// oneLine collapses a source fragment to one short line for keys and reports.
func oneLine(s string) string {
	s = strings.Join(strings.Fields(s), " ")
	if len(s) > 100 {
		s = s[:97] + "..."
	}
	return s
}

// add registers a mutant and returns its id, or 0 when it is skipped (it is still numbered, so
// ids do not move when another point is left out).
func (m *fileMutator) add(n ast.Node, op Operator, orig, mut string) int32 {
	*m.next++
	id := *m.next
	orig, mut = oneLine(orig), oneLine(mut)
	key := m.file + "|" + m.fn + "|" + string(op) + "|" + orig
	m.seen[key]++
	if c := m.seen[key]; c > 1 {
		key += fmt.Sprintf("#%d", c)
	}
	m.muts = append(m.muts, Mutant{ID: id, Key: key, Pkg: m.pkg, File: m.file, Func: m.fn,
		Line: m.fset.Position(n.Pos()).Line, Op: op, Orig: orig, Mut: mut})
	if m.skip[id] {
		return 0
	}
	return id
}

// wrap surrounds node n with open and close text on behalf of mutant id.
func (m *fileMutator) wrap(id int32, n ast.Node, open, close string) {
	span := m.offset(n.End()) - m.offset(n.Pos())
	seq := len(m.edits)
	m.edits = append(m.edits,
		edit{off: m.offset(n.Pos()), kind: editPrefix, span: span, seq: seq, id: id, text: open},
		edit{off: m.offset(n.End()), kind: editSuffix, span: span, seq: seq, id: id, text: close})
}

// replace replaces [from, to) with text on behalf of mutant id.
func (m *fileMutator) replace(id int32, from, to token.Pos, text string) {
	m.edits = append(m.edits, edit{off: m.offset(from), end: m.offset(to), kind: editReplace, id: id, text: text, seq: len(m.edits)})
}

// apply writes the source with every edit made.
func (m *fileMutator) apply() []byte {
	es := m.edits
	sort.SliceStable(es, func(i, j int) bool {
		a, b := es[i], es[j]
		if a.off != b.off {
			return a.off < b.off
		}
		if a.kind != b.kind {
			return a.kind < b.kind
		}
		switch a.kind {
		case editPrefix: // outer first
			if a.span != b.span {
				return a.span > b.span
			}
			return a.seq < b.seq
		case editSuffix: // inner first
			if a.span != b.span {
				return a.span < b.span
			}
			return a.seq > b.seq
		}
		return a.seq < b.seq
	})
	var out strings.Builder
	pos := 0
	for _, e := range es {
		if e.off < pos {
			panic(fmt.Sprintf("mutate: overlapping edits in %s at offset %d", m.file, e.off))
		}
		out.Write(m.src[pos:e.off])
		out.WriteString(e.text)
		pos = e.off
		if e.kind == editReplace {
			pos = e.end
		}
	}
	out.Write(m.src[pos:])
	return []byte(out.String())
}
