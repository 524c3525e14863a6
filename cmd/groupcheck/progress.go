package main

import (
	"bytes"
	"fmt"
	"io"
	"os"
	"regexp"
	"strconv"
	"sync"
	"time"
)

// progress is the status line a long command (explore, simulate, check-history, mutate)
// keeps on a terminal: each update overwrites the last (carriage return, clear to the end of
// the line), at most a few times a second, and Done clears it, so that what the command
// prints afterwards starts on a clean line. Off a terminal (piped, redirected, a test's
// buffer) it writes nothing: logs and CI output stay free of carriage returns. A nil
// *progress is valid and silent.
type progress struct {
	mu    sync.Mutex
	w     io.Writer
	last  time.Time
	shown bool
}

// progressEvery is the least time between two updates.
const progressEvery = 250 * time.Millisecond

// newProgress is the status line on w when w is a terminal, nil otherwise.
func newProgress(w io.Writer) *progress {
	f, ok := w.(*os.File)
	if !ok || !isTerminal(f) {
		return nil
	}
	return &progress{w: w}
}

// Printf replaces the status line, unless the last update is too recent.
func (p *progress) Printf(format string, args ...any) { p.update(false, format, args...) }

// Status replaces the status line now: a new phase of the command.
func (p *progress) Status(format string, args ...any) { p.update(true, format, args...) }

func (p *progress) update(now bool, format string, args ...any) {
	if p == nil {
		return
	}
	p.mu.Lock()
	defer p.mu.Unlock()
	t := time.Now()
	if !now && p.shown && t.Sub(p.last) < progressEvery {
		return
	}
	p.last = t
	line := []rune(fmt.Sprintf(format, args...))
	if w := lineWidth(); len(line) > w {
		line = append(line[:w-1], '…')
	}
	fmt.Fprintf(p.w, "\r%s\x1b[K", string(line))
	p.shown = true
}

// lineWidth is how much of a status line is shown: a line longer than the terminal would wrap,
// and a carriage return goes back only to the start of its last row. COLUMNS when the shell
// exports it, else 100.
func lineWidth() int {
	if n, err := strconv.Atoi(os.Getenv("COLUMNS")); err == nil && n > 10 {
		return n - 1
	}
	return 100
}

// Done clears the status line.
func (p *progress) Done() {
	if p == nil {
		return
	}
	p.mu.Lock()
	defer p.mu.Unlock()
	if p.shown {
		fmt.Fprint(p.w, "\r\x1b[K")
		p.shown = false
	}
}

// Writer adapts the status line to a writer of whole lines (the explorer's
// Options.Progress): each line becomes an update. Nil when the line is off.
func (p *progress) Writer() io.Writer {
	if p == nil {
		return nil
	}
	return progressWriter{p}
}

type progressWriter struct{ p *progress }

func (pw progressWriter) Write(b []byte) (int, error) {
	line := bytes.TrimRight(b, "\n")
	if i := bytes.LastIndexByte(line, '\n'); i >= 0 {
		line = line[i+1:]
	}
	pw.p.Printf("%s", line)
	return len(b), nil
}

// progressReader counts what is read through it against a total size, for the status line.
type progressReader struct {
	r           io.Reader
	p           *progress
	what        string
	read, total int64
}

func (pr *progressReader) Read(b []byte) (int, error) {
	n, err := pr.r.Read(b)
	pr.read += int64(n)
	if pr.total > 0 {
		pr.p.Printf("%s: read %d%% (%d of %d MiB)", pr.what, 100*pr.read/pr.total, pr.read>>20, pr.total>>20)
	}
	if err == io.EOF {
		pr.p.Status("%s: checking", pr.what)
	}
	return n, err
}

// reader shows how much of a file has been read, then that it is being checked; f itself
// when the line is off.
func (p *progress) reader(f *os.File, what string) io.Reader {
	if p == nil {
		return f
	}
	pr := &progressReader{r: f, p: p, what: what}
	if st, err := f.Stat(); err == nil {
		pr.total = st.Size()
	}
	return pr
}

// statusLog splits a log into what stays and what is progress: lines matching transient
// update the status line on a terminal and are dropped off one; every other line is written
// as is, after the status line is cleared so that it does not run into it. For libraries
// that report progress as log lines (mutate.Options.Log).
type statusLog struct {
	p         *progress
	w         io.Writer
	transient *regexp.Regexp
	partial   []byte
}

func newStatusLog(w io.Writer, transient *regexp.Regexp) *statusLog {
	return &statusLog{p: newProgress(w), w: w, transient: transient}
}

func (l *statusLog) Write(b []byte) (int, error) {
	l.partial = append(l.partial, b...)
	for {
		i := bytes.IndexByte(l.partial, '\n')
		if i < 0 {
			return len(b), nil
		}
		line := l.partial[:i]
		switch {
		case l.transient.Match(line):
			l.p.Printf("%s", line)
		default:
			l.p.Done()
			if _, err := l.w.Write(l.partial[:i+1]); err != nil {
				return len(b), err
			}
		}
		l.partial = l.partial[i+1:]
	}
}

// Done clears the status line.
func (l *statusLog) Done() { l.p.Done() }
