package mutate

import (
	"fmt"
	"go/ast"
	"go/token"
	"go/types"
)

// walk visits one function body and adds every mutation point in it.
func (m *fileMutator) walk(fd *ast.FuncDecl) {
	ast.PreorderStack(fd, nil, func(n ast.Node, stack []ast.Node) bool {
		switch n := n.(type) {
		case *ast.DeclStmt: // local constants stay constant
			if g, ok := n.Decl.(*ast.GenDecl); ok && g.Tok == token.CONST {
				return false
			}
		case *ast.IfStmt:
			m.negate(n.Cond)
		case *ast.ForStmt:
			if n.Cond != nil {
				m.negate(n.Cond)
			}
		case *ast.BinaryExpr:
			m.binary(n)
		case *ast.ReturnStmt:
			m.forceReturn(n, stack)
		case *ast.BlockStmt:
			m.drops(n.List)
		case *ast.CaseClause:
			m.drops(n.Body)
		case *ast.CommClause:
			m.drops(n.Body)
		case *ast.CallExpr:
			m.swaps(n)
		}
		return true
	})
}

// negate wraps a condition in a negation, unless it is a comparison by == or != (the flip of
// the comparison is the same mutant).
func (m *fileMutator) negate(cond ast.Expr) {
	if b, ok := ast.Unparen(cond).(*ast.BinaryExpr); ok && (b.Op == token.EQL || b.Op == token.NEQ) {
		return
	}
	if !m.isBool(cond) {
		return
	}
	if id := m.add(cond, OpNegate, m.text(cond), "!("+m.text(cond)+")"); id != 0 {
		m.wrap(id, cond, fmt.Sprintf("%s.Not(%d, ", rtName, id), ")")
	}
}

var boundary = map[token.Token]struct {
	mut  token.Token
	name string
}{
	token.LSS: {token.LEQ, "Lt"}, token.LEQ: {token.LSS, "Le"},
	token.GTR: {token.GEQ, "Gt"}, token.GEQ: {token.GTR, "Ge"},
}

func (m *fileMutator) binary(b *ast.BinaryExpr) {
	if isLit(b.X) && isLit(b.Y) || m.isConst(b) {
		return // a constant expression
	}
	x, y := m.text(b.X), m.text(b.Y)
	switch b.Op {
	case token.EQL, token.NEQ:
		mut := token.NEQ
		if b.Op == token.NEQ {
			mut = token.EQL
		}
		if id := m.add(b, OpFlip, m.text(b), x+" "+mut.String()+" "+y); id != 0 {
			m.wrap(id, b, fmt.Sprintf("%s.Not(%d, ", rtName, id), ")")
		}
	case token.LSS, token.LEQ, token.GTR, token.GEQ:
		bd := boundary[b.Op]
		if id := m.add(b, OpBoundary, m.text(b), x+" "+bd.mut.String()+" "+y); id != 0 {
			m.wrapBinary(id, b, fmt.Sprintf("%s.%s(%d, ", rtName, bd.name, id), ", ", ")")
		}
	case token.LAND, token.LOR:
		if !m.isBool(b.X) || !m.isBool(b.Y) {
			return
		}
		name, mut := "And", token.LOR
		if b.Op == token.LOR {
			name, mut = "Or", token.LAND
		}
		if id := m.add(b, OpAndOr, m.text(b), x+" "+mut.String()+" "+y); id != 0 {
			m.wrapBinary(id, b, fmt.Sprintf("%s.%s(%d, ", rtName, name, id), ", func() bool { return (", ") })")
		}
	}
}

// wrapBinary turns x op y into open x mid y close.
func (m *fileMutator) wrapBinary(id int32, b *ast.BinaryExpr, open, mid, close string) {
	m.wrap(id, b, open, close)
	m.replace(id, b.OpPos, b.OpPos+token.Pos(len(b.Op.String())), mid)
}

func isLit(e ast.Expr) bool {
	switch e := ast.Unparen(e).(type) {
	case *ast.BasicLit:
		return true
	case *ast.Ident:
		return e.Name == "nil" || e.Name == "true" || e.Name == "false"
	}
	return false
}

// forceReturn makes a function with one bool result return true, and false, instead.
func (m *fileMutator) forceReturn(r *ast.ReturnStmt, stack []ast.Node) {
	if len(r.Results) != 1 || !returnsBool(stack) {
		return
	}
	e := r.Results[0]
	if !m.isBool(e) {
		return
	}
	t := m.text(e)
	for _, v := range []string{"true", "false"} {
		if t == v {
			continue
		}
		op := OpTrue
		if v == "false" {
			op = OpFalse
		}
		if id := m.add(r, op, "return "+t, "return "+v); id != 0 {
			m.wrap(id, e, fmt.Sprintf("%s.Force(%d, %s, ", rtName, id, v), ")")
		}
	}
}

// returnsBool reports whether the innermost function around a statement has exactly one
// result, of type bool.
func returnsBool(stack []ast.Node) bool {
	for i := len(stack) - 1; i >= 0; i-- {
		var ft *ast.FuncType
		switch f := stack[i].(type) {
		case *ast.FuncLit:
			ft = f.Type
		case *ast.FuncDecl:
			ft = f.Type
		default:
			continue
		}
		if ft.Results == nil || len(ft.Results.List) != 1 || len(ft.Results.List[0].Names) > 1 {
			return false
		}
		id, ok := ft.Results.List[0].Type.(*ast.Ident)
		return ok && id.Name == "bool"
	}
	return false
}

// drops makes each droppable statement of a list skippable: calls (but panic, whose removal
// leaves a function without its terminating statement), assignments to existing variables,
// and increments.
func (m *fileMutator) drops(list []ast.Stmt) {
	for _, s := range list {
		switch s := s.(type) {
		case *ast.ExprStmt:
			c, ok := s.X.(*ast.CallExpr)
			if !ok {
				continue
			}
			if id, ok := c.Fun.(*ast.Ident); ok && id.Name == "panic" {
				continue
			}
		case *ast.AssignStmt:
			if s.Tok == token.DEFINE || allBlank(s.Lhs) {
				continue
			}
		case *ast.IncDecStmt:
		default:
			continue
		}
		id := m.add(s, OpDrop, m.text(s), "")
		if id == 0 {
			continue
		}
		if a, ok := s.(*ast.AssignStmt); ok && len(a.Lhs) == 1 && m.savable(a.Lhs[0]) {
			// The target is saved before and compared after, so that coverage knows
			// whether the assignment changed anything (rt.Assigned).
			lhs, old := m.text(a.Lhs[0]), fmt.Sprintf("gcBefore%d", id)
			m.wrap(id, s, fmt.Sprintf("if !%s.On(%d) { %s := %s; ", rtName, id, old, lhs),
				fmt.Sprintf("; %s.Assigned(%d, %s, %s) }", rtName, id, old, lhs))
			continue
		}
		m.wrap(id, s, fmt.Sprintf("if !%s.Drop(%d) { ", rtName, id), " }")
	}
}

// savable is an assignment target that can be read before the assignment, without side
// effects and with the same meaning: a name or a chain of field selections, indexes of
// slices or arrays by plain names or literals, and dereferences. A map element is not (the
// assignment may add the key while storing the value the missing key reads as).
func (m *fileMutator) savable(e ast.Expr) bool {
	if m.info == nil {
		return false
	}
	switch e := e.(type) {
	case *ast.Ident:
		return plain(e)
	case *ast.SelectorExpr:
		return m.savable(e.X)
	case *ast.ParenExpr:
		return m.savable(e.X)
	case *ast.StarExpr:
		return m.savable(e.X)
	case *ast.IndexExpr:
		tv, ok := m.info.Types[e.X]
		if !ok || tv.Type == nil {
			return false
		}
		if _, isMap := tv.Type.Underlying().(*types.Map); isMap {
			return false
		}
		_, lit := e.Index.(*ast.BasicLit)
		return m.savable(e.X) && (lit || plain(e.Index))
	}
	return false
}

func allBlank(es []ast.Expr) bool {
	for _, e := range es {
		if id, ok := e.(*ast.Ident); !ok || id.Name != "_" {
			return false
		}
	}
	return true
}

// noSwap are the builtins whose arguments either differ in kind or commute.
var noSwap = map[string]bool{"append": true, "min": true, "max": true, "make": true, "new": true,
	"len": true, "cap": true, "delete": true, "panic": true, "print": true, "println": true}

// swaps swaps each pair of adjacent plain arguments (names and field selections, which are
// evaluated twice without harm); pairs of different types do not compile and are dropped.
func (m *fileMutator) swaps(c *ast.CallExpr) {
	if len(c.Args) < 2 || c.Ellipsis.IsValid() {
		return
	}
	if id, ok := c.Fun.(*ast.Ident); ok && noSwap[id.Name] {
		return
	}
	texts := make([]string, len(c.Args))
	for i, a := range c.Args {
		texts[i] = m.text(a)
	}
	cur := append([]string(nil), texts...)
	changed := make([]bool, len(c.Args))
	for i := 0; i+1 < len(c.Args); i++ {
		a, b := c.Args[i], c.Args[i+1]
		if !plain(a) || !plain(b) || texts[i] == texts[i+1] || !m.sameType(a, b) {
			continue
		}
		mut := make([]string, len(texts))
		copy(mut, texts)
		mut[i], mut[i+1] = texts[i+1], texts[i]
		id := m.add(c, OpSwap, m.text(c), m.text(c.Fun)+"("+joinArgs(mut)+")")
		if id == 0 {
			continue
		}
		cur[i] = fmt.Sprintf("%s.Pick(%d, %s, %s)", rtName, id, cur[i], texts[i+1])
		cur[i+1] = fmt.Sprintf("%s.Pick(%d, %s, %s)", rtName, id, texts[i+1], texts[i])
		changed[i], changed[i+1] = true, true
	}
	for i, a := range c.Args {
		if changed[i] {
			m.replace(0, a.Pos(), a.End(), cur[i])
		}
	}
}

func joinArgs(as []string) string {
	out := ""
	for i, a := range as {
		if i > 0 {
			out += ", "
		}
		out += a
	}
	return out
}

// plain is an argument that can be evaluated twice: a name (not a constant literal) or a
// chain of field selections.
func plain(e ast.Expr) bool {
	switch e := e.(type) {
	case *ast.Ident:
		return e.Name != "nil" && e.Name != "true" && e.Name != "false" && e.Name != "_"
	case *ast.SelectorExpr:
		return plain(e.X)
	}
	return false
}

// isBool reports whether e is a plain (not a named) bool, as the switchboard's helpers take;
// without type information it assumes so.
func (m *fileMutator) isBool(e ast.Expr) bool {
	if m.info == nil {
		return true
	}
	tv, ok := m.info.Types[e]
	if !ok {
		return false
	}
	b, ok := tv.Type.(*types.Basic)
	return ok && (b.Kind() == types.Bool || b.Kind() == types.UntypedBool)
}

// isConst reports whether e is a constant expression.
func (m *fileMutator) isConst(e ast.Expr) bool {
	if m.info == nil {
		return false
	}
	tv, ok := m.info.Types[e]
	return ok && tv.Value != nil
}

// sameType reports whether two arguments have identical types and neither is a constant
// (whose type would be inferred anew); without type information it assumes so.
func (m *fileMutator) sameType(a, b ast.Expr) bool {
	if m.info == nil {
		return true
	}
	ta, oka := m.info.Types[a]
	tb, okb := m.info.Types[b]
	return oka && okb && ta.Value == nil && tb.Value == nil && ta.Type != nil && types.Identical(ta.Type, tb.Type)
}
