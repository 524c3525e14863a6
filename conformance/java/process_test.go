package java

import (
	"context"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"
)

// TestDriverRefusesBadInput: a command the driver cannot take ends its JVM with the reason on
// stderr (the member's log), and the Go side says the JVM exited. Each start is timed: the
// JVM's own start cost (exec to "ready", before any Kafka class loads).
func TestDriverRefusesBadInput(t *testing.T) {
	b, err := Built()
	if err != nil {
		t.Fatal(err)
	}
	t.Logf("driver build: %v", b.Took)
	for _, tc := range []struct{ line, why string }{
		{"start topics=t on.fatal=maybe", "on.fatal=maybe, want stop or continue"},
		{"start group.id=g", "no topics="},
		{"start topics", "topics is not key=value"},
		{"poll 10", "poll before start"},
		{"dance", "unknown command: dance"},
	} {
		t.Run(tc.line, func(t *testing.T) {
			log, err := os.Create(filepath.Join(t.TempDir(), "jvm.log"))
			if err != nil {
				t.Fatal(err)
			}
			defer log.Close()
			began := time.Now()
			p, err := startProc(b, log)
			if err != nil {
				t.Fatal(err)
			}
			t.Logf("JVM ready in %v", time.Since(began).Round(time.Millisecond))
			if err := p.send("%s", tc.line); err != nil {
				t.Fatal(err)
			}
			ctx, cancel := context.WithTimeout(context.Background(), 30*time.Second)
			defer cancel()
			e, err := p.next(ctx)
			if err == nil {
				t.Fatalf("the driver took %q and answered %q", tc.line, e.Ev)
			}
			if !strings.Contains(err.Error(), "JVM exited: exit status 1") {
				t.Errorf("error %q does not say the JVM exited with status 1", err)
			}
			if text, _ := os.ReadFile(log.Name()); !strings.Contains(string(text), tc.why) {
				t.Errorf("the log does not say %q:\n%s", tc.why, text)
			}
		})
	}
}
