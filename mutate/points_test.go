package mutate

import (
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"runtime"
	"strings"
	"testing"
)

// snippet has one function per operator; the table below says, for each function, the mutants
// expected in it and how its result changes on an input when each is switched on.
const snippet = `package snip

type gen int

func boundary(a, b gen) bool { return a < b }

func flip(a, b int) bool { return a == b }

func negate(x int) int {
	if x > 0 {
		return 1
	}
	return 0
}

func andOr(a, b bool) bool { return a && b }

func drop(x int) int {
	x = 7
	return x
}

func force(x int) bool { return x == 3 }

func sub(a, b int) int { return a - b }

func swap(a, b int) int { return sub(a, b) }

const limit = 3

func constant() bool { return limit < 4 }

func mustNot(x int) int {
	if x < 0 {
		panic("negative")
	}
	return x
}
`

func TestSchemaOperators(t *testing.T) {
	var next int32
	muts, out, err := Schema("snip/snip.go", "snip", []byte(snippet), &next, nil)
	if err != nil {
		t.Fatal(err)
	}
	got := map[string][]string{}
	for _, m := range muts {
		got[m.Func] = append(got[m.Func], fmt.Sprintf("%s: %s -> %s", m.Op, m.Orig, m.Mut))
	}
	want := map[string][]string{
		"boundary": {"return-true: return a < b -> return true", "return-false: return a < b -> return false", "boundary: a < b -> a <= b"},
		"flip":     {"return-true: return a == b -> return true", "return-false: return a == b -> return false", "flip: a == b -> a != b"},
		"negate":   {"negate: x > 0 -> !(x > 0)", "boundary: x > 0 -> x >= 0"},
		"andOr":    {"return-true: return a && b -> return true", "return-false: return a && b -> return false", "and-or: a && b -> a || b"},
		"drop":     {"drop: x = 7 -> "},
		"force":    {"return-true: return x == 3 -> return true", "return-false: return x == 3 -> return false", "flip: x == 3 -> x != 3"},
		"swap":     {"swap: sub(a, b) -> sub(b, a)"},
		"constant": {"return-true: return limit < 4 -> return true", "return-false: return limit < 4 -> return false", "boundary: limit < 4 -> limit <= 4"},
		"mustNot":  {"negate: x < 0 -> !(x < 0)", "boundary: x < 0 -> x <= 0"},
	}
	for fn, w := range want {
		if fmt.Sprint(got[fn]) != fmt.Sprint(w) {
			t.Errorf("%s: got %q\nwant %q", fn, got[fn], w)
		}
	}
	if len(got) != len(want) {
		t.Errorf("mutants in %d functions, want %d: %v", len(got), len(want), got)
	}
	// Without type information a constant comparison is still mutated; panic is never dropped.
	if strings.Contains(string(out), "if !gcrt.On") && strings.Contains(string(out), "{ panic") {
		t.Errorf("panic dropped:\n%s", out)
	}
	// Every line keeps its number.
	if a, b := strings.Count(snippet, "\n"), strings.Count(string(out), "\n"); a != b {
		t.Errorf("schema has %d lines, source %d", b, a)
	}
}

func TestKeysAreStableAndDistinct(t *testing.T) {
	src := "package p\n\nfunc f(a, b int) bool {\n\tif a < b {\n\t\treturn a < b\n\t}\n\treturn false\n}\n"
	var next int32
	muts, _, err := Schema("p/p.go", "p", []byte(src), &next, nil)
	if err != nil {
		t.Fatal(err)
	}
	seen := map[string]bool{}
	for _, m := range muts {
		if seen[m.Key] {
			t.Errorf("key %q twice", m.Key)
		}
		seen[m.Key] = true
	}
	if !seen["p/p.go|f|boundary|a < b#2"] {
		t.Errorf("keys %v: want the second a < b numbered #2", seen)
	}
	// A line added above moves line numbers, not keys.
	var next2 int32
	muts2, _, _ := Schema("p/p.go", "p", []byte(strings.Replace(src, "package p\n", "package p\n\n// moved\n", 1)), &next2, nil)
	for i := range muts {
		if muts[i].Key != muts2[i].Key || muts[i].Line == muts2[i].Line {
			t.Errorf("mutant %d: key %q → %q, line %d → %d", i, muts[i].Key, muts2[i].Key, muts[i].Line, muts2[i].Line)
		}
	}
}

// TestSchemaCompilesAndSwitches builds the snippet's schema in a scratch module with the
// switchboard and checks each mutant's effect on one input: off, every function computes
// the original; on, exactly the mutated expression.
func TestSchemaCompilesAndSwitches(t *testing.T) {
	if testing.Short() {
		t.Skip("builds a scratch module")
	}
	dir := t.TempDir()
	var next int32
	muts, out, err := Schema("snip/snip.go", "snip", []byte(snippet), &next, nil)
	if err != nil {
		t.Fatal(err)
	}
	_, self, _, _ := runtime.Caller(0)
	rtSrc, err := os.ReadFile(filepath.Join(filepath.Dir(self), "rt", "rt.go"))
	if err != nil {
		t.Fatal(err)
	}
	files := map[string]string{
		"go.mod":          "module github.com/groupcheck/groupcheck\n\ngo 1.26\n",
		"mutate/rt/rt.go": string(rtSrc),
		"snip/snip.go":    string(out),
		"snip/main_test.go": `package snip

import (
	"fmt"
	"testing"

	"github.com/groupcheck/groupcheck/mutate/rt"
)

func TestPrint(t *testing.T) {
	for id := int32(0); id <= ` + fmt.Sprint(next) + `; id++ {
		rt.Set(id)
		fmt.Println(id, boundary(2, 2), flip(1, 2), negate(5), andOr(true, false), drop(1), force(3), swap(5, 2), constant(), try(mustNot, 0))
	}
}

func try(f func(int) int, x int) (out any) {
	defer func() {
		if recover() != nil {
			out = "panic"
		}
	}()
	return f(x)
}
`,
	}
	for name, text := range files {
		p := filepath.Join(dir, name)
		if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(p, []byte(text), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	cmd := exec.Command("go", "test", "-count=1", "-v", "./snip")
	cmd.Dir = dir
	cmd.Env = append(os.Environ(), "GOWORK=off", "GOFLAGS=-mod=mod")
	res, err := cmd.CombinedOutput()
	if err != nil {
		t.Fatalf("the schema does not build or run: %v\n%s\n%s", err, res, out)
	}
	lines := map[string]string{}
	for _, l := range strings.Split(string(res), "\n") {
		if id, rest, ok := strings.Cut(l, " "); ok {
			lines[id] = rest
		}
	}
	orig := "false false 1 false 7 true 3 true 0"
	if lines["0"] != orig {
		t.Fatalf("no mutant: %q, want %q", lines["0"], orig)
	}
	// The one field each mutant changes (0-based), and to what.
	want := map[string][2]any{
		"boundary|boundary":     {0, "true"},
		"boundary|return-true":  {0, "true"},
		"flip|flip":             {1, "true"},
		"flip|return-true":      {1, "true"},
		"negate|negate":         {2, "0"},
		"andOr|and-or":          {3, "true"},
		"andOr|return-true":     {3, "true"},
		"drop|drop":             {4, "1"},
		"force|return-false":    {5, "false"},
		"force|flip":            {5, "false"},
		"swap|swap":             {6, "-3"},
		"constant|return-false": {7, "false"},
		"mustNot|negate":        {8, "panic"}, // x = 0 is not negative
		"mustNot|boundary":      {8, "panic"},
	}
	for _, m := range muts {
		w, ok := want[m.Func+"|"+string(m.Op)]
		got := strings.Fields(lines[fmt.Sprint(m.ID)])
		if !ok {
			if strings.Join(got, " ") != orig {
				t.Errorf("%s: %v, want the original %q (no change on this input)", m.Key, got, orig)
			}
			continue
		}
		exp := strings.Fields(orig)
		exp[w[0].(int)] = w[1].(string)
		if strings.Join(got, " ") != strings.Join(exp, " ") {
			t.Errorf("%s: %v, want %v", m.Key, got, exp)
		}
	}
}
