package java

import (
	"bufio"
	"context"
	"encoding/json"
	"fmt"
	"io"
	"os/exec"
	"strings"
	"sync"
	"time"
)

// event is one line the driver writes (Driver.java documents them).
type event struct {
	Ev       string             `json:"ev"`
	Member   *string            `json:"member"` // absent before the consumer exists
	Gen      int32              `json:"gen"`
	Parts    map[string][]int32 `json:"parts"`
	Records  int                `json:"records"`
	Why      string             `json:"why"`
	Error    *failure           `json:"error"`
	Reaction string             `json:"reaction"`
}

// failure is an exception the consumer threw.
type failure struct {
	Class   string `json:"class"`
	Message string `json:"message"`
	Code    string `json:"code"` // the Kafka error name, where the exception is an error code's
}

// name is the Kafka error name where there is one, else the exception's class.
func (f *failure) name() string {
	if f.Code != "" {
		return f.Code
	}
	return f.Class
}

func (f *failure) String() string { return fmt.Sprintf("%s (%s: %s)", f.name(), f.Class, f.Message) }

// proc is one member's JVM: commands go to its stdin, events come from its stdout, and its
// stderr (the consumer's log) goes to the node's log.
type proc struct {
	cmd    *exec.Cmd
	stdin  io.WriteCloser
	events chan event    // closed when stdout ends
	exited chan struct{} // closed when the JVM has exited
	werr   error         // the JVM's exit status, once exited

	mu  sync.Mutex
	bad error // a line that was not an event
}

// startProc starts a driver JVM, its stderr and stray stdout lines going to log, and waits
// until it is ready for commands.
func startProc(b Build, log io.Writer) (*proc, error) {
	cmd := exec.Command(b.Java, b.Args...)
	cmd.Stderr = log
	stdin, err := cmd.StdinPipe()
	if err != nil {
		return nil, err
	}
	stdout, err := cmd.StdoutPipe()
	if err != nil {
		return nil, err
	}
	if err := cmd.Start(); err != nil {
		return nil, fmt.Errorf("start %s: %v", b.Java, err)
	}
	p := &proc{cmd: cmd, stdin: stdin, events: make(chan event, 16), exited: make(chan struct{})}
	go p.read(stdout, log)
	go func() {
		p.werr = cmd.Wait()
		close(p.exited)
	}()
	ctx, cancel := context.WithTimeout(context.Background(), time.Minute)
	defer cancel()
	if _, err := p.await(ctx, "ready"); err != nil {
		p.kill()
		return nil, err
	}
	return p, nil
}

// read decodes stdout's event lines until it ends.
func (p *proc) read(r io.Reader, log io.Writer) {
	defer close(p.events)
	sc := bufio.NewScanner(r)
	sc.Buffer(make([]byte, 64<<10), 1<<20)
	for sc.Scan() {
		var e event
		if err := json.Unmarshal(sc.Bytes(), &e); err != nil || e.Ev == "" {
			p.mu.Lock()
			p.bad = fmt.Errorf("driver wrote %q, not an event", sc.Text())
			p.mu.Unlock()
			fmt.Fprintf(log, "driver stdout: %s\n", sc.Text())
			continue
		}
		p.events <- e
	}
}

// send writes one command line.
func (p *proc) send(format string, args ...any) error {
	if _, err := fmt.Fprintf(p.stdin, format+"\n", args...); err != nil {
		return fmt.Errorf("driver stdin: %v", p.gone(err))
	}
	return nil
}

// next returns the driver's next event, or why there is none.
func (p *proc) next(ctx context.Context) (event, error) {
	select {
	case e, ok := <-p.events:
		if !ok {
			return event{}, p.gone(nil)
		}
		return e, nil
	case <-ctx.Done():
		return event{}, fmt.Errorf("driver: no event: %v", ctx.Err())
	}
}

// await returns the next event, which must be want.
func (p *proc) await(ctx context.Context, want string) (event, error) {
	e, err := p.next(ctx)
	if err == nil && e.Ev != want {
		err = fmt.Errorf("driver: want event %q, have %q", want, e.Ev)
	}
	return e, err
}

// gone says why the driver stopped talking: its exit status, or a line it should not have
// written.
func (p *proc) gone(cause error) error {
	p.mu.Lock()
	bad := p.bad
	p.mu.Unlock()
	var why []string
	if cause != nil {
		why = append(why, cause.Error())
	}
	if bad != nil {
		why = append(why, bad.Error())
	}
	select {
	case <-p.exited:
		why = append(why, fmt.Sprintf("JVM exited: %v", p.werr))
	case <-time.After(2 * time.Second):
		why = append(why, "JVM closed its stdout and is still running")
	}
	return fmt.Errorf("driver: %s (the member's log has the JVM's stderr)", strings.Join(why, "; "))
}

// kill ends the JVM at once (SIGKILL): no callback, no leave, no flush.
func (p *proc) kill() {
	p.cmd.Process.Kill()
	<-p.exited
}
