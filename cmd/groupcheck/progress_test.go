package main

import (
	"bytes"
	"io"
	"os"
	"strings"
	"testing"
	"time"
)

// TestProgressSilentOffTerminal: a buffer, a pipe and a regular file get no status line, and
// the nil line is safe to use; a long command piped to a file writes no carriage return.
func TestProgressSilentOffTerminal(t *testing.T) {
	r, w, err := os.Pipe()
	if err != nil {
		t.Fatal(err)
	}
	defer r.Close()
	defer w.Close()
	f, err := os.Create(t.TempDir() + "/log")
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	for _, out := range []any{&bytes.Buffer{}, w, f} {
		p := newProgress(out.(interface{ Write([]byte) (int, error) }))
		if p != nil {
			t.Errorf("%T: a status line off a terminal", out)
		}
		p.Printf("x %d", 1)
		p.Status("y")
		p.Done()
		if p.Writer() != nil {
			t.Errorf("%T: a progress writer off a terminal", out)
		}
	}
	code := run([]string{"simulate", "--config", writeConfig(t, tiny), "--walks", "30", "--seed", "2"}, io.Discard, f)
	b, _ := os.ReadFile(f.Name())
	if code != 0 || bytes.ContainsRune(b, '\r') {
		t.Errorf("simulate with stderr in a file: exit %d, stderr %q", code, b)
	}
}

// TestProgressLine: on a terminal each update overwrites the line, updates closer than
// progressEvery are dropped unless they start a phase, a line never wraps, and Done clears
// it; the explorer's whole lines become updates.
func TestProgressLine(t *testing.T) {
	var b bytes.Buffer
	p := &progress{w: &b}
	p.Printf("walk %d", 1)
	p.Printf("walk %d", 2) // too soon: dropped
	p.Status("checking")
	p.last = time.Time{} // as if progressEvery had passed
	p.Writer().Write([]byte("explorer: 1.0s depth 3\n"))
	t.Setenv("COLUMNS", "20")
	p.Status("%s", strings.Repeat("x", 40))
	p.Done()
	want := "\rwalk 1\x1b[K\rchecking\x1b[K\rexplorer: 1.0s depth 3\x1b[K\r" + strings.Repeat("x", 18) + "…\x1b[K\r\x1b[K"
	if b.String() != want {
		t.Errorf("got  %q\nwant %q", b.String(), want)
	}
	b.Reset()
	p.Done()
	if b.Len() != 0 {
		t.Errorf("Done twice writes %q", b.String())
	}
}

// TestStatusLog: mutate's log keeps its lasting lines and turns its "N/M mutants" lines into
// the status line on a terminal, dropping them when piped; lines may arrive in pieces.
func TestStatusLog(t *testing.T) {
	in := "mutate: 120 mutants\nmutate: 50/120 mutants (3s)\nmutate: ref"
	rest := "erence a 10 states\nmutate: 100/120 mutants (7s)\n"
	var piped bytes.Buffer
	l := newStatusLog(&piped, mutateProgress)
	l.Write([]byte(in))
	l.Write([]byte(rest))
	l.Done()
	if want := "mutate: 120 mutants\nmutate: reference a 10 states\n"; piped.String() != want {
		t.Errorf("piped: %q, want %q", piped.String(), want)
	}
	var term bytes.Buffer
	l = &statusLog{p: &progress{w: &term}, w: &term, transient: mutateProgress}
	l.Write([]byte(in + rest))
	l.Done()
	want := "mutate: 120 mutants\n\rmutate: 50/120 mutants (3s)\x1b[K\r\x1b[Kmutate: reference a 10 states\n\rmutate: 100/120 mutants (7s)\x1b[K\r\x1b[K"
	if term.String() != want {
		t.Errorf("terminal: %q\nwant      %q", term.String(), want)
	}
}
