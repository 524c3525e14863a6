// Package docs_test keeps the repository's citations followable: every `docs/<file>.md §N`
// names a document and a numbered heading the repository has, every `KIP-429 §N` a step of
// docs/protocol.md §7 (which restates the KIP's list with its numbering), every relative
// markdown link a file that exists, and nothing points at notes that are not shipped.
package docs_test

import (
	"bytes"
	"fmt"
	"os"
	"os/exec"
	"path"
	"path/filepath"
	"regexp"
	"slices"
	"strings"
	"testing"
)

// A problem is one unfollowable citation: where it is and what is wrong with it.
type problem struct {
	File string
	Line int
	Msg  string
}

func (p problem) String() string { return fmt.Sprintf("%s:%d: %s", p.File, p.Line, p.Msg) }

// doc is what a citation can point at in one markdown file: its numbered headings (1.12,
// 7.1.c, 4b, B10) and its anchors (explicit ids and GitHub's heading slugs).
type doc struct {
	sections map[string]bool
	anchors  map[string]bool
}

// idPattern is a section id: 1, 1.12, 4b, 7.1.c, 7.3.5.2, or a bug id B8a.
const idPattern = `(?:\d+[a-z]?(?:\.(?:\d+|[a-z]))*|B\d+[a-z]?)`

var (
	headingRE = regexp.MustCompile(`^#{1,6}\s+(` + idPattern + `)\.?(?:\s|$)`)
	anchorRE  = regexp.MustCompile(`<a\s+(?:id|name)="([^"]+)"`)
	// citeRE is a citation of a document in docs/: "docs/protocol.md §1.4", "clients.md §2",
	// "docs/bugs.md B10", followed by more ids in a chain (", §3.7", "–§2.6", "–3.6", ", B8a");
	// or a bare "docs/findings.md".
	citeRE  = regexp.MustCompile(`(\bdocs/)?\b([A-Za-z0-9_-]+)\.md((?:\s?§\s?` + idPattern + `|\s(?:B\d+[a-z]?)\b)(?:\s?(?:,|–|-|/|and)\s?(?:§\s?)?` + idPattern + `\b)*)?`)
	chainID = regexp.MustCompile(idPattern)
	// kipRE is a KIP cited by section: only KIP-429's list numbering means something here.
	kipRE = regexp.MustCompile(`\bKIP-(\d+)((?:\s?§\s?` + idPattern + `)(?:\s?(?:,|–|/)\s?(?:§\s?)?` + idPattern + `\b)*)`)
	// linkRE is a markdown link's target.
	linkRE = regexp.MustCompile(`\[[^\]\n]*\]\(([^)\s]+)\)`)
	// teamNotesRE names the notes the team kept outside the repository.
	teamNotesRE = regexp.MustCompile(`\b(?:KAFKA|PEERS|BUGS|DESIGN|STYLE)\.md\b|\.\./shared\b|(?i:\bseeds?\s00\d|\bseeds/)`)
)

// parseDoc indexes one markdown document's headings and anchors.
func parseDoc(text string) doc {
	d := doc{sections: map[string]bool{}, anchors: map[string]bool{}}
	inFence := false
	for _, line := range strings.Split(text, "\n") {
		if strings.HasPrefix(strings.TrimSpace(line), "```") {
			inFence = !inFence
			continue
		}
		if inFence {
			continue
		}
		if m := headingRE.FindStringSubmatch(line); m != nil {
			d.sections[m[1]] = true
		}
		if strings.HasPrefix(line, "#") {
			d.anchors[slug(strings.TrimLeft(line, "# "))] = true
		}
		for _, m := range anchorRE.FindAllStringSubmatch(line, -1) {
			d.anchors[m[1]] = true
		}
	}
	return d
}

// slug is GitHub's anchor for a heading: lower case, punctuation dropped, spaces to dashes.
func slug(h string) string {
	var b strings.Builder
	for _, r := range strings.ToLower(strings.TrimSpace(h)) {
		switch {
		case r == ' ':
			b.WriteRune('-')
		case r == '-' || r == '_' || r >= '0' && r <= '9' || r >= 'a' && r <= 'z' || r > 127 && r != '—' && r != '–' && r != '→' && r != '§':
			b.WriteRune(r)
		}
	}
	return b.String()
}

// repo is what checkFile needs to know of the repository: its documents under docs/ by base
// name, and whether a path (relative to the root) exists.
type repo struct {
	docs   map[string]doc // "protocol" -> docs/protocol.md
	exists func(rel string) bool
	// anchorsOf indexes any markdown file a link points at, by path relative to the root.
	anchorsOf func(rel string) (doc, bool)
}

// checkFile returns every unfollowable citation in one file's text.
func checkFile(rel, text string, r repo) []problem {
	var ps []problem
	isMarkdown := strings.HasSuffix(rel, ".md")
	inFence := false
	for i, line := range strings.Split(text, "\n") {
		if isMarkdown && strings.HasPrefix(strings.TrimSpace(line), "```") {
			inFence = !inFence
		}
		add := func(format string, args ...any) {
			ps = append(ps, problem{rel, i + 1, fmt.Sprintf(format, args...)})
		}
		for _, m := range teamNotesRE.FindAllString(line, -1) {
			add("cites %q, a team note the repository does not ship: cite docs/protocol.md, docs/clients.md, docs/bugs.md, a KIP, a JIRA id or a Kafka source file", m)
		}
		for _, m := range citeRE.FindAllStringSubmatch(line, -1) {
			prefix, name, chain := m[1], m[2], m[3]
			if teamNotesRE.MatchString(name+".md") || prefix == "" && chain == "" {
				continue // reported above, or a file name that is no citation
			}
			d, ok := r.docs[name]
			if !ok {
				add("cites %s.md%s, but docs/%s.md does not exist", name, chain, name)
				continue
			}
			for _, id := range chainID.FindAllString(chain, -1) {
				if !d.sections[id] {
					add("cites docs/%s.md §%s, but docs/%s.md has no heading numbered %s", name, id, name, id)
				}
			}
		}
		for _, m := range kipRE.FindAllStringSubmatch(line, -1) {
			if m[1] != "429" {
				add("cites KIP-%s%s by section; only KIP-429's list is numbered here (docs/protocol.md §7): cite docs/protocol.md §N instead", m[1], m[2])
				continue
			}
			p := r.docs["protocol"]
			for _, id := range chainID.FindAllString(m[2], -1) {
				if !p.sections["7."+id] {
					add("cites KIP-429 §%s, but docs/protocol.md has no heading numbered 7.%s", id, id)
				}
			}
		}
		if isMarkdown && !inFence {
			for _, m := range linkRE.FindAllStringSubmatch(line, -1) {
				if msg := checkLink(rel, m[1], r); msg != "" {
					add("%s", msg)
				}
			}
		}
	}
	return ps
}

// checkLink says what is wrong with a relative link target in the markdown file rel, or "".
func checkLink(rel, target string, r repo) string {
	if strings.Contains(target, "://") || strings.HasPrefix(target, "mailto:") {
		return ""
	}
	file, frag, _ := strings.Cut(target, "#")
	dest := rel
	if file != "" {
		if strings.HasPrefix(file, "/") {
			return fmt.Sprintf("links to %s, an absolute path: use a path relative to %s", target, rel)
		}
		dest = path.Clean(path.Join(path.Dir(rel), file))
		if dest == ".." || strings.HasPrefix(dest, "../") || !r.exists(dest) {
			return fmt.Sprintf("links to %s, but %s does not exist in the repository", target, dest)
		}
	}
	if frag == "" || !strings.HasSuffix(dest, ".md") {
		return ""
	}
	d, ok := r.anchorsOf(dest)
	if ok && !d.anchors[strings.ToLower(frag)] {
		return fmt.Sprintf("links to %s, but %s has no anchor %q", target, dest, frag)
	}
	return ""
}

// TestCheckFile shows that the check bites: each case is a synthetic file and what it must
// report. The documents it cites are synthetic too.
func TestCheckFile(t *testing.T) {
	protocol := parseDoc("# P\n## 1. Classic\n### 1.4 JoinGroup\n### 1.12 Safety\n## 4. KIP-423\n## 7. KIP-429\n### 7.1 Triggers\n#### 7.1.c REBALANCE_IN_PROGRESS\n### 7.3 Sync\n##### 7.3.5.2 NEEDS_REJOIN\n```\n### 9.9 inside a fence\n```\n")
	clients := parseDoc("# C\n## 2. kgo\n## 4b. librdkafka\n### 6.4 What to assert\n")
	bugs := parseDoc("# B\n<a id=\"b10\"></a>\n### B10. KAFKA-14639\n### B8a. KAFKA-13419\n")
	files := map[string]bool{"docs/protocol.md": true, "docs/clients.md": true, "docs/bugs.md": true, "README.md": true, "impl": true}
	r := repo{
		docs:   map[string]doc{"protocol": protocol, "clients": clients, "bugs": bugs},
		exists: func(rel string) bool { return files[rel] },
		anchorsOf: func(rel string) (doc, bool) {
			d, ok := map[string]doc{"docs/protocol.md": protocol, "docs/bugs.md": bugs}[rel]
			return d, ok
		},
	}
	for _, tc := range []struct {
		name, file, text string
		want             []string // substrings of the problems, in order; none means clean
	}{
		{"a section that exists", "impl/a.go", "// Reference: docs/protocol.md §1.4.", nil},
		{"a chain of sections that exist", "impl/a.go", "// docs/protocol.md §1.4, §1.12; docs/clients.md §2, §4b", nil},
		{"a range", "impl/a.go", "// docs/protocol.md §1.4–§1.12 and §1.4–1.12", nil},
		{"a lettered step", "impl/a.go", "// docs/protocol.md §7.1.c", nil},
		{"a missing section", "impl/a.go", "// docs/protocol.md §1.13", []string{"no heading numbered 1.13"}},
		{"a missing section late in a chain", "impl/a.go", "// docs/protocol.md §1.4, §3.7", []string{"no heading numbered 3.7"}},
		{"a missing end of a range", "impl/a.go", "// docs/protocol.md §1.4–1.99", []string{"no heading numbered 1.99"}},
		{"a heading inside a code fence does not count", "impl/a.go", "// docs/protocol.md §9.9", []string{"no heading numbered 9.9"}},
		{"a missing document", "impl/a.go", "// docs/findings.md §2", []string{"docs/findings.md does not exist"}},
		{"a missing document named without a section", "impl/a.go", "// see docs/findings.md", []string{"docs/findings.md does not exist"}},
		{"a file name is no citation", "impl/a.go", "// README.md and go.mod", nil},
		{"a bug that exists, and one that does not", "impl/a.go", "// docs/bugs.md B10, B8a; docs/bugs.md B99", []string{"no heading numbered B99"}},
		{"a KIP-429 step mirrored in §7", "impl/a.go", "// KIP-429 §1.c and KIP-429 §3.5.2", nil},
		{"a KIP-429 step that §7 lacks", "impl/a.go", "// KIP-429 §2.6", []string{"no heading numbered 7.2.6"}},
		{"another KIP by section", "oracle/a.go", "// KIP-848 §3.4", []string{"cites KIP-848 §3.4 by section"}},
		{"a KIP by number only", "oracle/a.go", "// KIP-848, KIP-345 (static membership)", nil},
		{"each team note", "README.md", "{K} §1.4, {P} §2, {B} B3, {D} \"Config\", {S}",
			[]string{"{K}", "{P}", "{B}", "{D}", "{S}"}},
		{"the notes' directory", "impl/faults.go", "// ({N}/{B})", []string{"{N}", "{B}"}},
		{"the seeds", "impl/a.go", "// {s} 000 §1.c; Seed 004; {s}s/001", []string{"{s} 000", "Seed 004", "{s}s/"}},
		{"a random seed is no citation", "cmd/a.go", "// --seed 42; the seed of the first run; seed 1796030374464986907", nil},
		{"a link that exists", "docs/clients.md", "see [protocol](protocol.md) and [the root](../README.md) and [impl](../impl)", nil},
		{"a link to a missing file", "docs/clients.md", "see [findings](findings.md)", []string{"docs/findings.md does not exist"}},
		{"a link out of the repository", "README.md", "see [notes]({N}/{K})", []string{"{N}", "{K}", "does not exist"}},
		{"an anchor that exists", "docs/clients.md", "[B10](bugs.md#b10), [§7.1](protocol.md#71-triggers)", nil},
		{"an anchor that does not", "docs/clients.md", "[B11](bugs.md#b11)", []string{`no anchor "b11"`}},
		{"web links are not checked", "README.md", "[KIP](https://cwiki.apache.org/x.md)", nil},
		{"links are checked in markdown only", "impl/a.go", "// [x](missing.md)", nil},
		{"links in a code fence are not checked", "README.md", "```\n[x](missing.md)\n```", nil},
	} {
		tc.text = teamNoteNames.Replace(tc.text)
		for i := range tc.want {
			tc.want[i] = teamNoteNames.Replace(tc.want[i])
		}
		t.Run(tc.name, func(t *testing.T) {
			got := checkFile(tc.file, tc.text, r)
			if len(got) != len(tc.want) {
				t.Fatalf("checkFile(%q) = %v; want %d problems matching %q", tc.text, got, len(tc.want), tc.want)
			}
			for i, w := range tc.want {
				if !strings.Contains(got[i].Msg, w) {
					t.Errorf("problem %d = %q; want it to mention %q", i, got[i].Msg, w)
				}
				if got[i].File != tc.file || got[i].Line != 1 {
					t.Errorf("problem %d at %s:%d; want %s:1", i, got[i].File, got[i].Line, tc.file)
				}
			}
		})
	}
}

// TestRepositoryCitations walks every tracked file of the repository and fails on every
// citation a reader who has only the repository could not follow.
func TestRepositoryCitations(t *testing.T) {
	root := repoRoot(t)
	files := trackedFiles(t, root)
	if len(files) == 0 {
		t.Fatalf("no files found under %s", root)
	}
	self := "docs/citations_test.go"
	r := repo{docs: map[string]doc{}}
	tracked := map[string]bool{}
	for _, f := range files {
		tracked[f] = true
		for dir := path.Dir(f); dir != "."; dir = path.Dir(dir) {
			tracked[dir] = true
		}
		if path.Dir(f) == "docs" && strings.HasSuffix(f, ".md") {
			b, err := os.ReadFile(filepath.Join(root, f))
			if err != nil {
				t.Fatal(err)
			}
			r.docs[strings.TrimSuffix(path.Base(f), ".md")] = parseDoc(string(b))
		}
	}
	if _, ok := r.docs["protocol"]; !ok {
		t.Fatalf("docs/protocol.md is not tracked under %s", root)
	}
	r.exists = func(rel string) bool { return tracked[rel] }
	r.anchorsOf = func(rel string) (doc, bool) {
		b, err := os.ReadFile(filepath.Join(root, rel))
		if err != nil {
			return doc{}, false
		}
		return parseDoc(string(b)), true
	}
	var all []problem
	for _, f := range files {
		if f == self {
			continue // its table cites the team notes on purpose
		}
		b, err := os.ReadFile(filepath.Join(root, f))
		if err != nil {
			if os.IsNotExist(err) {
				continue // deleted in the work tree, not yet in the index
			}
			t.Fatal(err)
		}
		if bytes.IndexByte(b[:min(len(b), 8000)], 0) >= 0 {
			continue // binary
		}
		all = append(all, checkFile(f, string(b), r)...)
	}
	const show = 60
	for i, p := range all {
		if i == show {
			t.Errorf("... and %d more", len(all)-show)
			break
		}
		t.Error(p)
	}
	if len(all) > 0 {
		t.Logf("%d unfollowable citations in %d files; the fix is docs/protocol.md, docs/clients.md, docs/bugs.md or a public KIP, JIRA id or Kafka source file", len(all), countFiles(all))
	}
}

func countFiles(ps []problem) int {
	var fs []string
	for _, p := range ps {
		fs = append(fs, p.File)
	}
	slices.Sort(fs)
	return len(slices.Compact(fs))
}

// repoRoot is the directory above docs/ that holds the module's go.mod.
func repoRoot(t *testing.T) string {
	t.Helper()
	wd, err := os.Getwd()
	if err != nil {
		t.Fatal(err)
	}
	root := filepath.Dir(wd)
	b, err := os.ReadFile(filepath.Join(root, "go.mod"))
	if err != nil || !bytes.Contains(b, []byte("module github.com/groupcheck/groupcheck\n")) {
		t.Fatalf("%s is not groupcheck's root (go.mod: %v)", root, err)
	}
	return root
}

// trackedFiles lists the repository's tracked files (slash-separated, relative to root): git's
// index when git is there, else every file under root outside .git.
func trackedFiles(t *testing.T, root string) []string {
	t.Helper()
	if out, err := exec.Command("git", "-C", root, "ls-files", "-z").Output(); err == nil {
		var fs []string
		for _, f := range strings.Split(string(out), "\x00") {
			if f != "" {
				fs = append(fs, f)
			}
		}
		return fs
	}
	var fs []string
	err := filepath.WalkDir(root, func(p string, d os.DirEntry, err error) error {
		if err != nil {
			return err
		}
		if d.Name() == ".git" {
			if d.IsDir() {
				return filepath.SkipDir
			}
			return nil
		}
		if !d.IsDir() {
			rel, err := filepath.Rel(root, p)
			if err != nil {
				return err
			}
			fs = append(fs, filepath.ToSlash(rel))
		}
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
	return fs
}

// teamNoteNames spells the team's private notes for the table above, which must name them to show
// that they are caught; written as placeholders so that this file does not cite them itself.
var teamNoteNames = strings.NewReplacer(
	"{K}", "KAFKA"+".md", "{P}", "PEERS"+".md", "{B}", "BUGS"+".md",
	"{D}", "DESIGN"+".md", "{S}", "STYLE"+".md", "{N}", "../"+"shared", "{s}", "se"+"ed",
)
