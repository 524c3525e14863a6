// Command kafkabroker runs Apache Kafka's own broker for groupcheck's conformance suites: one
// KRaft node on loopback with test group timings (package kafkabroker).
//
//	kafkabroker start --dir D [--port P] [--version V | --classpath FILE] [--set k=v ...]
//	    formats D's storage if needed, starts the broker detached, returns once it serves and
//	    prints "ADDR VERSION STARTED"; the broker runs until `kafkabroker stop --dir D`
//	kafkabroker stop --dir D
//	kafkabroker run --dir D [...]     like start, but in the foreground until SIGINT/SIGTERM
//	kafkabroker classpath [--version V]   resolves and prints the classpath file
//
// Run it from conformance/kafka (the Maven project is --pom, default "."), e.g.
// `go run ./cmd/kafkabroker start --dir /tmp/kafka --port 39092`.
package main

import (
	"context"
	"flag"
	"fmt"
	"os"
	"os/signal"
	"path/filepath"
	"strings"
	"syscall"
	"time"

	"github.com/groupcheck/groupcheck/conformance/kafka/kafkabroker"
)

func main() {
	if err := run(os.Args[1:]); err != nil {
		fmt.Fprintln(os.Stderr, "kafkabroker:", err)
		os.Exit(1)
	}
}

type sets map[string]string

func (s sets) String() string { return fmt.Sprint(map[string]string(s)) }

func (s sets) Set(kv string) error {
	k, v, ok := strings.Cut(kv, "=")
	if !ok || k == "" {
		return fmt.Errorf("--set %q: want key=value", kv)
	}
	s[k] = v
	return nil
}

func run(args []string) error {
	if len(args) == 0 {
		return fmt.Errorf("want a command: start, stop, run or classpath")
	}
	verb := args[0]
	fs := flag.NewFlagSet(verb, flag.ContinueOnError)
	dir := fs.String("dir", "", "the broker's directory (created)")
	port := fs.Int("port", 0, "client port on 127.0.0.1 (0: a free one)")
	cport := fs.Int("controller-port", 0, "KRaft controller port (0: a free one)")
	version := fs.String("version", kafkabroker.DefaultVersion, "Kafka release to resolve with Maven")
	cpFile := fs.String("classpath", "", "classpath file (mvn dependency:build-classpath); overrides --version")
	pom := fs.String("pom", ".", "directory of the Maven project (conformance/kafka)")
	heap := fs.String("heap", "", "broker -Xmx (default 512m)")
	timeout := fs.Duration("timeout", 90*time.Second, "how long the broker may take to serve")
	overrides := sets{}
	fs.Var(overrides, "set", "broker property key=value over the test settings (repeatable)")
	if err := fs.Parse(args[1:]); err != nil {
		return err
	}
	if fs.NArg() > 0 {
		return fmt.Errorf("%s: unexpected arguments %q", verb, fs.Args())
	}
	ctx := context.Background()
	classpath := func() (string, error) {
		if *cpFile != "" {
			return kafkabroker.ReadClasspath(*cpFile)
		}
		return kafkabroker.Classpath(ctx, *pom, *version)
	}
	switch verb {
	case "classpath":
		cp, err := classpath()
		if err != nil {
			return err
		}
		fmt.Println(cp)
		return nil
	case "stop":
		if *dir == "" {
			return fmt.Errorf("stop: --dir is required")
		}
		return kafkabroker.StopDir(*dir)
	case "start", "run":
	default:
		return fmt.Errorf("unknown command %q: want start, stop, run or classpath", verb)
	}
	if *dir == "" {
		return fmt.Errorf("%s: --dir is required", verb)
	}
	cp, err := classpath()
	if err != nil {
		return err
	}
	b, err := kafkabroker.Start(ctx, kafkabroker.Config{Dir: *dir, Port: *port, ControllerPort: *cport,
		Classpath: cp, Heap: *heap, Overrides: overrides, StartTimeout: *timeout, Detach: verb == "start"})
	if err != nil {
		return err
	}
	fmt.Printf("%s %s %.1fs\n", b.Addr, b.Version, b.Started.Seconds())
	if verb == "start" {
		return nil
	}
	sig := make(chan os.Signal, 1)
	signal.Notify(sig, syscall.SIGINT, syscall.SIGTERM)
	select {
	case s := <-sig:
		fmt.Fprintf(os.Stderr, "kafkabroker: %v: stopping the broker\n", s)
		return b.Stop(ctx)
	case <-b.Exited():
		return fmt.Errorf("the broker exited; see %s", filepath.Join(b.Dir, kafkabroker.LogFile))
	}
}
