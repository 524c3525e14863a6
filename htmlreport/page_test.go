package htmlreport

import (
	"bytes"
	"encoding/xml"
	"errors"
	"flag"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/groupcheck/groupcheck/oracle"
	"github.com/groupcheck/groupcheck/traces"
)

var rewrite = flag.Bool("rewrite", false, "regenerate the golden pages in testdata/")

// loadTrace reads and replays a trace of the corpus.
func loadTrace(t *testing.T, path string) (*traces.Trace, *traces.Result) {
	t.Helper()
	f, err := os.Open(path)
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	tr, err := traces.Parse(filepath.Base(path), f)
	if err != nil {
		t.Fatal(err)
	}
	res, err := traces.Replay(tr)
	if err != nil {
		t.Fatal(err)
	}
	return tr, res
}

func page(t *testing.T, path string) []byte {
	t.Helper()
	tr, res := loadTrace(t, path)
	var b bytes.Buffer
	if err := WriteTrace(&b, tr, res); err != nil {
		t.Fatal(err)
	}
	return b.Bytes()
}

// element is a parsed element: its name, attributes and the text directly inside it.
type element struct {
	Name  string
	Attrs map[string]string
	Text  string
}

// parseXML reads the page as XML, strictly: it fails on anything not well-formed (an unclosed
// element, a stray & or <, an HTML-only entity), and returns every element in document order.
func parseXML(page []byte) ([]element, error) {
	d := xml.NewDecoder(bytes.NewReader(page))
	d.Strict = true
	var out []element
	var open []int
	for {
		tok, err := d.Token()
		if errors.Is(err, io.EOF) {
			if len(open) > 0 {
				return nil, errors.New("unclosed elements at the end")
			}
			return out, nil
		}
		if err != nil {
			return nil, err
		}
		switch tok := tok.(type) {
		case xml.StartElement:
			e := element{Name: tok.Name.Local, Attrs: map[string]string{}}
			for _, a := range tok.Attr {
				e.Attrs[a.Name.Local] = a.Value
			}
			open = append(open, len(out))
			out = append(out, e)
		case xml.EndElement:
			open = open[:len(open)-1]
		case xml.CharData:
			if len(open) > 0 {
				out[open[len(open)-1]].Text += string(tok)
			}
		}
	}
}

// lanesAndBands are the names of the lanes and the partitions of the bands drawn.
func lanesAndBands(els []element) (lanes, bands map[string]bool) {
	lanes, bands = map[string]bool{}, map[string]bool{}
	for _, e := range els {
		switch {
		case e.Name == "g" && hasClass(e, "lane"):
			lanes[e.Attrs["data-lane"]] = true
		case e.Name == "g" && hasClass(e, "band"):
			bands[e.Attrs["data-partition"]] = true
		}
	}
	return lanes, bands
}

func hasClass(e element, c string) bool {
	return e.Attrs["class"] == c || strings.HasPrefix(e.Attrs["class"], c+" ")
}

// TestTracePageGolden: the page of a small counterexample (B23's revoke-before-reassign, two
// members, 17 steps) is byte-for-byte the golden file; regenerate with -rewrite and read the
// diff before committing.
func TestTracePageGolden(t *testing.T) {
	// The style and the script are the embedded files themselves: the golden page holds
	// their names, so that it shows the page's structure and content.
	got := page(t, "../traces/golden/eager-keeps-owned-list-revoke-before-reassign.trace")
	got = bytes.Replace(got, []byte(css), []byte("/* report.css */"), 1)
	got = bytes.Replace(got, []byte(script), []byte("// report.js"), 1)
	golden := filepath.Join("testdata", "eager-keeps-owned-list-revoke-before-reassign.html")
	if *rewrite {
		if err := os.WriteFile(golden, got, 0o644); err != nil {
			t.Fatal(err)
		}
	}
	want, err := os.ReadFile(golden)
	if err != nil {
		t.Fatal(err)
	}
	if !bytes.Equal(got, want) {
		t.Errorf("the page differs from %s (go test ./htmlreport -run TestTracePageGolden -rewrite, then read the diff)", golden)
	}
}

// TestTracePageStructure: for every trace of the corpus, the page is well-formed XML, and its
// timeline has a lane for the coordinator and each member, a band for each partition, a
// clickable column and a hidden detail for each step, and — for a lasso — its cycle or dead end.
func TestTracePageStructure(t *testing.T) {
	files, _ := filepath.Glob("../traces/golden/*.trace")
	scen, _ := filepath.Glob("../traces/scenarios/*.trace")
	files = append(files, scen...)
	if len(files) < 20 {
		t.Fatalf("only %d traces found", len(files))
	}
	for _, f := range files {
		tr, res := loadTrace(t, f)
		var b bytes.Buffer
		if err := WriteTrace(&b, tr, res); err != nil {
			t.Fatal(err)
		}
		els, err := parseXML(b.Bytes())
		if err != nil {
			t.Errorf("%s: not well-formed: %v", f, err)
			continue
		}
		lanes, bands := lanesAndBands(els)
		var cols, details, cycle, dead, scripts int
		for _, e := range els {
			switch {
			case e.Name == "rect" && hasClass(e, "col"):
				cols++
			case e.Name == "section" && hasClass(e, "stepdetail"):
				details++
				if e.Attrs["hidden"] == "" {
					t.Errorf("%s: step detail %s is not hidden", f, e.Attrs["data-step"])
				}
			case e.Name == "g" && hasClass(e, "cycle"):
				cycle++
			case e.Name == "g" && hasClass(e, "deadend"):
				dead++
			case e.Name == "script":
				scripts++
				if e.Attrs["src"] != "" {
					t.Errorf("%s: a script is fetched from %s", f, e.Attrs["src"])
				}
			case e.Name == "link" || e.Name == "img":
				t.Errorf("%s: a <%s> element fetches something", f, e.Name)
			}
		}
		want := []string{"coord"}
		for _, m := range tr.Config.Members {
			want = append(want, m.Name)
		}
		for _, l := range want {
			if !lanes[l] {
				t.Errorf("%s: no lane for %s", f, l)
			}
		}
		if len(lanes) != len(want) {
			t.Errorf("%s: %d lanes, want %d", f, len(lanes), len(want))
		}
		for _, tp := range res.Init.Cluster.PartitionsOf(topics(tr)).Slice() {
			if !bands[tp.String()] {
				t.Errorf("%s: no band for %s", f, tp)
			}
		}
		if cols != len(tr.Steps) || details != len(tr.Steps)+1 {
			t.Errorf("%s: %d columns and %d details for %d steps", f, cols, details, len(tr.Steps))
		}
		if (tr.Header.Cycle > 0) != (cycle == 1) || tr.Header.DeadEnd != (dead == 1) {
			t.Errorf("%s: cycle %d dead end %v, drawn %d cycles and %d dead ends", f, tr.Header.Cycle, tr.Header.DeadEnd, cycle, dead)
		}
		if scripts != 1 {
			t.Errorf("%s: %d scripts, want the one inline", f, scripts)
		}
	}
}

func topics(tr *traces.Trace) []string {
	var out []string
	for _, t := range tr.Config.Topics {
		out = append(out, t.Name)
	}
	return out
}

// TestMessagesPairWithDeliveries: every enabled deliver step ends exactly one message, a
// request at the coordinator's lane or a response at its member's, sent at an earlier
// column; nothing arrives before it was sent.
func TestMessagesPairWithDeliveries(t *testing.T) {
	files, _ := filepath.Glob("../traces/golden/*.trace")
	for _, f := range files {
		tr, res := loadTrace(t, f)
		tl := NewTimeline("x", tr, res)
		ends := map[int]int{}
		for _, m := range tl.Messages {
			if m.To >= 0 && m.To < m.From {
				t.Errorf("%s: a message handled at %d before it was sent at %d", f, m.To, m.From)
			}
			if m.To >= 0 && !m.Lost {
				ends[m.To]++
			}
		}
		for i, s := range res.Steps {
			k := s.Step.Action.Kind.String()
			delivers := !s.Step.Check && s.Enabled && (k == "deliver-request" || k == "deliver-response")
			if delivers != (ends[i+1] == 1) || ends[i+1] > 1 {
				t.Errorf("%s: %s: %d messages delivered", f, tr.Label(i), ends[i+1])
			}
		}
	}
}

// TestOverlapIsRed: in B23's exclusive-ownership counterexample the band of a partition two
// members own is drawn as an overlap at the last column, naming both, and the check's
// violation is marked.
func TestOverlapIsRed(t *testing.T) {
	tr, res := loadTrace(t, "../traces/golden/eager-keeps-owned-list-exclusive-ownership.trace")
	tl := NewTimeline("x", tr, res)
	last := len(tl.Steps)
	overlaps := 0
	for _, b := range tl.Bands {
		for _, s := range b.Segs {
			if s.Overlap() && s.To == last {
				overlaps++
				if strings.Join(s.Owners, "+") != "a+b" {
					t.Errorf("%s overlap owners %v", b.Partition, s.Owners)
				}
			}
		}
	}
	if overlaps == 0 {
		t.Errorf("no overlap at the last column")
	}
	if !tl.Steps[last-1].Broken {
		t.Errorf("the final check is not marked as a violation")
	}
	var b bytes.Buffer
	if err := WriteTrace(&b, tr, res); err != nil {
		t.Fatal(err)
	}
	if !strings.Contains(b.String(), `<g class="own overlap">`) || !strings.Contains(b.String(), `class="violation"`) {
		t.Errorf("the page draws no overlap or no violation")
	}
}

// TestHistoryPage: a recorded history's page (the late-commit client, caught by
// commit-from-owner) is well-formed, has a lane per node beside the coordinator's, a band per
// partition the callbacks hand out, the finding's events marked, and ownership that follows
// the callbacks: broken gives t1-2 up when its revoke ends, before its late commit begins.
func TestHistoryPage(t *testing.T) {
	h := lateCommit(t)
	r := oracle.Check(h, oracle.Options{})
	if len(r.Violations) == 0 {
		t.Fatal("the late-commit history holds: the fixture changed")
	}
	p := HistoryPage("late-commit-cooperative.jsonl", h, r, "")
	var b bytes.Buffer
	if err := Write(&b, p); err != nil {
		t.Fatal(err)
	}
	els, err := parseXML(b.Bytes())
	if err != nil {
		t.Fatalf("not well-formed: %v", err)
	}
	lanes, bands := lanesAndBands(els)
	findings := 0
	for _, e := range els {
		if e.Name == "g" && hasClass(e, "mark") && strings.Contains(e.Attrs["class"], "finding") {
			findings++
		}
	}
	for _, l := range []string{"coord", "broken", "peer"} {
		if !lanes[l] {
			t.Errorf("no lane %s (lanes %v)", l, lanes)
		}
	}
	if len(lanes) != 3 {
		t.Errorf("lanes %v, want coord, broken and peer", lanes)
	}
	for _, tp := range []string{"t1-0", "t1-1", "t1-2", "t1-3", "t2-0", "t2-1"} {
		if !bands[tp] {
			t.Errorf("no band %s", tp)
		}
	}
	if findings < len(r.Violations[0].Events) {
		t.Errorf("%d finding marks for %d events of the violation", findings, len(r.Violations[0].Events))
	}
	tl := p.Timelines[0]
	commit := r.Violations[0].Events[0]
	for i, e := range h {
		if e.Seq != commit.Seq {
			continue
		}
		for _, b := range tl.Bands {
			for _, s := range b.Segs {
				if b.Partition == "t1-2" && s.From <= i+1 && i+1 <= s.To && slices.Contains(s.Owners, "broken") {
					t.Errorf("t1-2 still owned by broken at its late commit (seq %d)", e.Seq)
				}
			}
		}
	}
}

// TestHistoryTimelineSaysWhatIsLeftOut: given the first events of a longer history, the
// timeline draws them and says how many there were.
func TestHistoryTimelineSaysWhatIsLeftOut(t *testing.T) {
	h := lateCommit(t)
	r := oracle.Check(h, oracle.Options{})
	tl := HistoryTimeline("h", "x", h[:50], r)
	if len(tl.Steps) != 50 || !slices.Contains(tl.About, fmt.Sprintf("the first 50 of %d events are drawn", len(h))) {
		t.Errorf("%d steps, about %q", len(tl.Steps), tl.About)
	}
	if tl := HistoryTimeline("h", "x", h, r); len(tl.About) != 0 {
		t.Errorf("the whole history says %q", tl.About)
	}
}
