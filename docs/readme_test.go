// The README and the documents in docs/ are tested like code: their samples are files in
// docs/examples that the documents quote verbatim, the README's config is a valid world whose
// explored states break nothing, its history is judged as the README says, every link, anchor
// and named file exists, and the README stays a few screens long.

package docs_test

import (
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"testing"

	"github.com/groupcheck/groupcheck/explorer"
	"github.com/groupcheck/groupcheck/invariants"
	"github.com/groupcheck/groupcheck/oracle"
	"github.com/groupcheck/groupcheck/oracle/history"
	"github.com/groupcheck/groupcheck/spec"
)

const (
	readmePath   = "../README.md"
	configPath   = "examples/three-cooperative.conf"
	historyPath  = "examples/history.jsonl"
	maxReadme    = 300  // lines: the README is a few screens; results live in docs/
	boundedRun   = 3000 // states: enough to step through both rounds' first moves, fast
	wantProperty = oracle.CommitFromOwner
)

func read(t *testing.T, path string) string {
	t.Helper()
	b, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	return string(b)
}

func TestReadmeIsShort(t *testing.T) {
	if n := strings.Count(read(t, readmePath), "\n"); n > maxReadme {
		t.Errorf("README.md has %d lines, more than %d: move detail to docs/", n, maxReadme)
	}
}

// Each document quotes its samples verbatim, so that what a reader copies is what is tested.
func TestDocsQuoteTheirSamples(t *testing.T) {
	for _, q := range []struct{ doc, sample string }{
		{readmePath, configPath},
		{readmePath, historyPath},
		{"config.md", "examples/kitchen-sink.conf"},
		{"config.md", "examples/kip848.conf"},
	} {
		if !strings.Contains(read(t, q.doc), read(t, q.sample)) {
			t.Errorf("%s does not contain docs/%s verbatim: copy the file into its code block", q.doc, q.sample)
		}
	}
}

// Every example config is a valid world.
func TestExampleConfigsParse(t *testing.T) {
	paths, err := filepath.Glob("examples/*.conf")
	if err != nil || len(paths) < 3 {
		t.Fatalf("examples/*.conf: %v, %d files", err, len(paths))
	}
	for _, path := range paths {
		if _, err := spec.ParseConfigString(path, read(t, path)); err != nil {
			t.Errorf("%v", err)
		}
	}
}

// The README's world: three cooperative-sticky members, c joins. A bounded run must find no
// violation among the states it explores (the README gives the exhaustive run's figures).
func TestReadmeConfigExplores(t *testing.T) {
	f, err := os.Open(configPath)
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	cfg, err := spec.ParseConfig(configPath, f)
	if err != nil {
		t.Fatalf("the README's config does not parse: %v", err)
	}
	if cfg.Name != "three-cooperative" || len(cfg.Members) != 3 {
		t.Fatalf("config %q with %d members, want three-cooperative with 3", cfg.Name, len(cfg.Members))
	}
	m := invariants.NewModel(cfg)
	r := invariants.Check(m, cfg, m.Properties(), explorer.Options{MaxStates: boundedRun})
	if r.Distinct != boundedRun || r.Exhaustive {
		t.Fatalf("bounded run: %d states, exhaustive %v; want %d, bounded", r.Distinct, r.Exhaustive, boundedRun)
	}
	for _, p := range r.Properties {
		if p.Status == explorer.Violated {
			t.Errorf("%s violated in the README's world, which the README says holds everything", p.Name)
		}
	}
}

// The README's history: a commits t-1 after revoking it and b owns it. The README says the
// check fails with exactly one violation, commit-from-owner, and no zombie.
func TestReadmeHistoryJudged(t *testing.T) {
	f, err := os.Open(historyPath)
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	r, err := oracle.CheckReader(f, oracle.Options{})
	if err != nil {
		t.Fatalf("the README's history is refused: %v", err)
	}
	if r.OK() || len(r.Violations) != 1 || len(r.Zombies) != 0 {
		t.Fatalf("got ok=%v, %d violations, %d zombies; the README says one violation, no zombie:\n%s",
			r.OK(), len(r.Violations), len(r.Zombies), r)
	}
	if v := r.Violations[0]; v.Property != wantProperty || !strings.Contains(v.Message, "seq 9") {
		t.Errorf("violation %s: %s; the README says %s at seq 9", v.Property, v.Message, wantProperty)
	}
}

// The README says the history passes without its last two lines (the late commit).
func TestReadmeHistoryWithoutTheCommitPasses(t *testing.T) {
	lines := strings.SplitAfter(read(t, historyPath), "\n")
	r, err := oracle.CheckReader(strings.NewReader(strings.Join(lines[:8], "")), oracle.Options{})
	if err != nil {
		t.Fatal(err)
	}
	if !r.OK() || len(r.Zombies) != 0 {
		t.Errorf("the first eight lines: ok=%v, %d zombies; the README says they pass:\n%s", r.OK(), len(r.Zombies), r)
	}
}

// Files other work writes into docs/; until it lands a link to them cannot be followed here.
var writtenElsewhere = map[string]bool{
	"docs/protocol.md": true, "docs/clients.md": true, "docs/properties.md": true, "docs/cli.md": true,
}

var (
	mdLink  = regexp.MustCompile(`\]\(([^)#\s]*)(#[^)\s]*)?\)`)
	heading = regexp.MustCompile(`(?m)^#+ (.+)$`)
	htmlID  = regexp.MustCompile(`<a\s+(?:id|name)="([^"]+)"`)
	notSlug = regexp.MustCompile(`[^a-z0-9 -]`)
	// a repository path in code quotes: a directory, a slash, a file name with an extension
	repoPath = regexp.MustCompile("`((?:docs|traces|spec|simulate|mutate|oracle|conformance|deploy|invariants|explorer|impl|cmd|htmlreport)/[^`\\s*{}<>]+\\.(?:trace|jsonl|conf|json|go|md|txt))`")
)

// anchors are the GitHub anchors of a markdown file: its headings' (lower case, punctuation
// dropped, spaces as hyphens) and its explicit <a id="..."> ones.
func anchors(text string) map[string]bool {
	a := map[string]bool{}
	for _, m := range heading.FindAllStringSubmatch(text, -1) {
		slug := notSlug.ReplaceAllString(strings.ToLower(strings.TrimSpace(m[1])), "")
		a["#"+strings.ReplaceAll(slug, " ", "-")] = true
	}
	for _, m := range htmlID.FindAllStringSubmatch(text, -1) {
		a["#"+m[1]] = true
	}
	return a
}

// documents are the README and every markdown file in docs/, as paths from docs/.
func documents(t *testing.T) []string {
	t.Helper()
	docs, err := filepath.Glob("*.md")
	if err != nil {
		t.Fatal(err)
	}
	return append([]string{readmePath}, docs...)
}

// Every relative link of the README and of the documents in docs/ names a file of the
// repository, and every anchor a heading of that file.
func TestDocLinksResolve(t *testing.T) {
	for _, doc := range documents(t) {
		for _, m := range mdLink.FindAllStringSubmatch(read(t, doc), -1) {
			target, anchor := m[1], m[2]
			if strings.Contains(target, "://") {
				continue
			}
			path := doc // a bare anchor names a heading of the document itself
			if target != "" {
				path = filepath.Join(filepath.Dir(doc), target) // relative to the docs/ directory
			}
			text, err := os.ReadFile(path)
			if err != nil {
				if !writtenElsewhere[filepath.ToSlash(filepath.Join("docs", path))] {
					t.Errorf("%s links to %s, which does not exist", doc, target)
				}
				continue
			}
			if anchor != "" && !anchors(string(text))[anchor] {
				t.Errorf("%s links to %s%s: no such heading in %s", doc, target, anchor, target)
			}
		}
	}
}

// Every file the documents name by its path in code quotes exists (globs and placeholders
// aside), so that a reader who follows a replay command or a fixture finds it.
func TestDocPathsExist(t *testing.T) {
	for _, doc := range documents(t) {
		for _, m := range repoPath.FindAllStringSubmatch(read(t, doc), -1) {
			if _, err := os.Stat(filepath.Join("..", m[1])); err != nil && !writtenElsewhere[m[1]] {
				t.Errorf("%s names %s, which does not exist", doc, m[1])
			}
		}
	}
}

// readmeSnippet is the README's Go sample, compiled and run: a consumer "c1" records one
// assign callback, and the oracle judges the history.
func readmeSnippet(t *testing.T, id string, gen int32, added history.Parts) {
	// README snippet begins
	rec := history.NewRecorder() // one monotonic clock for every process of the test
	// in each consumer's callbacks (onPartitionsAssigned/Revoked/Lost: hook all three):
	end := rec.Begin(history.Event{Kind: history.Assign, Node: "c1", Member: id, Gen: gen, Parts: added})
	/* ... the callback's work ... */
	end(history.Event{})
	// from the harness: Start, Close, Crash, Cut, Heal; commits as Begin/end pairs (Kind Commit)
	// and, if you tap them, every member's coordinator requests (Kind Request, with Op and Err).
	r := oracle.Check(rec.History(), oracle.Options{})
	if !r.OK() {
		t.Fatal(r) // every violation with the events that show it; zombies are listed, not failed
	}
	// README snippet ends
}

// The README's Go sample is readmeSnippet's body, so it compiles against the module's API
// and runs.
func TestReadmeGoSampleCompiles(t *testing.T) {
	src := read(t, "readme_test.go")
	begin, end := "\t// README snippet begins\n", "\t// README snippet ends\n"
	body := src[strings.Index(src, begin)+len(begin) : strings.Index(src, end)]
	lines := strings.SplitAfter(body, "\n")
	for i, l := range lines {
		lines[i] = strings.TrimPrefix(l, "\t")
	}
	if want := "```go\n" + strings.Join(lines, "") + "```\n"; !strings.Contains(read(t, readmePath), want) {
		t.Errorf("README.md's Go sample is not readmeSnippet's body; want:\n%s", want)
	}
	readmeSnippet(t, "c1-1", 1, history.Parts{"t": {0, 1}})
}
