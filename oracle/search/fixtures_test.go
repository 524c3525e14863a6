package search

import (
	"bufio"
	"flag"
	"io"
	"os"
	"path/filepath"
	"testing"

	"github.com/groupcheck/groupcheck/oracle/history"
)

// fixtures are every recorded history in the repository: the oracle's own and the
// conformance harness's (real clients against kfake and Kafka).
func fixtures(t *testing.T) []string {
	t.Helper()
	var out []string
	for _, pat := range []string{"../testdata/*.jsonl", "../../conformance/*/testdata/*.jsonl"} {
		m, err := filepath.Glob(pat)
		if err != nil {
			t.Fatal(err)
		}
		out = append(out, m...)
	}
	if len(out) == 0 {
		t.Fatal("no fixtures found")
	}
	return out
}

func searchFile(t *testing.T, path string, o Options) Result {
	t.Helper()
	f, err := os.Open(path)
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	h, err := history.Read(f)
	if err != nil {
		t.Fatalf("%s: %v", path, err)
	}
	c := New(o)
	for _, e := range h {
		if err := c.Add(e); err != nil {
			t.Fatalf("%s: %v", path, err)
		}
	}
	return c.Result()
}

func TestFixturesPrint(t *testing.T) {
	for _, p := range fixtures(t) {
		r := searchFile(t, p, Options{})
		t.Logf("%s: %s", p, r)
	}
}

var simplest = flag.Bool("simplest", false, "TestBigHistory: Options.Simplest")

var bigHistory = flag.String("bighistory", "", "search this history file (TestBigHistory), streaming")

// TestBigHistory searches a generated history (oracle's TestWriteBigHistory) read as a
// stream, for measurement: go test ./oracle/search -run TestBigHistory -bighistory FILE -v.
func TestBigHistory(t *testing.T) {
	if *bigHistory == "" {
		t.Skip("no -bighistory")
	}
	f, err := os.Open(*bigHistory)
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	rd := history.NewReader(bufio.NewReaderSize(f, 1<<20))
	c := New(Options{Simplest: *simplest})
	for {
		e, err := rd.Next()
		if err == io.EOF {
			break
		}
		if err != nil {
			t.Fatal(err)
		}
		if err := c.Add(e); err != nil {
			t.Fatal(err)
		}
	}
	t.Logf("%s", c.Result())
}
