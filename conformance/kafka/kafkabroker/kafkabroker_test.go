package kafkabroker

import (
	"context"
	"net"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"testing"
	"time"
)

func TestPropertiesSortedAndChecked(t *testing.T) {
	for _, tc := range []struct {
		name string
		in   map[string]string
		want string // the body after the comment line; "" for an error
	}{
		{"sorted", map[string]string{"b": "2", "a": "1"}, "a=1\nb=2\n"},
		{"backslash escaped", map[string]string{"log.dirs": `C:\x`}, "log.dirs=C:\\\\x\n"},
		{"key with =", map[string]string{"a=b": "1"}, ""},
		{"key with space", map[string]string{"a b": "1"}, ""},
		{"value with newline", map[string]string{"a": "1\nb=2"}, ""},
	} {
		got, err := properties(tc.in)
		if tc.want == "" {
			if err == nil {
				t.Errorf("%s: properties(%v) = %q, want an error", tc.name, tc.in, got)
			}
			continue
		}
		if err != nil {
			t.Fatalf("%s: %v", tc.name, err)
		}
		if _, body, _ := strings.Cut(got, "\n"); body != tc.want {
			t.Errorf("%s: body %q, want %q", tc.name, body, tc.want)
		}
	}
}

// The settings a test relies on: one node on loopback, both listeners where asked, group
// timings at Kafka's lowest (GroupCoordinatorConfig), no initial rebalance delay.
func TestSettingsForTests(t *testing.T) {
	s := Settings(9092, 9093, "/d")
	for k, v := range map[string]string{
		"listeners":                                "PLAINTEXT://127.0.0.1:9092,CONTROLLER://127.0.0.1:9093",
		"advertised.listeners":                     "PLAINTEXT://127.0.0.1:9092",
		"controller.quorum.voters":                 "1@127.0.0.1:9093",
		"log.dirs":                                 "/d",
		"group.initial.rebalance.delay.ms":         "0",
		"group.min.session.timeout.ms":             "100",
		"group.consumer.min.session.timeout.ms":    "1",
		"group.consumer.min.heartbeat.interval.ms": "1",
		"offsets.topic.replication.factor":         "1",
	} {
		if s[k] != v {
			t.Errorf("%s = %q, want %q", k, s[k], v)
		}
	}
}

func TestVersionFromBrokerJar(t *testing.T) {
	for cp, want := range map[string]string{
		"/r/kafka-clients-4.4.0.jar:/r/kafka_2.13-4.4.0.jar": "4.4.0",
		"/r/kafka_2.13-4.0.2.jar":                            "4.0.2",
		"/r/kafka_2.12-3.9.0.jar":                            "",
		"":                                                   "",
	} {
		got, err := Version(cp)
		if got != want || (want == "") != (err != nil) {
			t.Errorf("Version(%q) = %q, %v; want %q", cp, got, err, want)
		}
	}
}

func TestReadClasspathNamesTheMissingJar(t *testing.T) {
	dir := t.TempDir()
	jar := filepath.Join(dir, "kafka_2.13-4.4.0.jar")
	if err := os.WriteFile(jar, nil, 0o644); err != nil {
		t.Fatal(err)
	}
	missing := filepath.Join(dir, "gone.jar")
	file := filepath.Join(dir, "cp.txt")
	os.WriteFile(file, []byte(jar+":"+missing+"\n"), 0o644)
	if _, err := ReadClasspath(file); err == nil || !strings.Contains(err.Error(), "gone.jar") {
		t.Errorf("ReadClasspath with a missing jar: %v, want an error naming gone.jar", err)
	}
	os.WriteFile(file, []byte(jar+"\n"), 0o644)
	if cp, err := ReadClasspath(file); err != nil || cp != jar {
		t.Errorf("ReadClasspath = %q, %v; want %q", cp, err, jar)
	}
}

func TestStartRefusesBeforeLaunching(t *testing.T) {
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	defer ln.Close()
	busy := ln.Addr().(*net.TCPAddr).Port
	cp := "/nonexistent/kafka_2.13-4.4.0.jar"
	for _, tc := range []struct {
		name string
		cfg  Config
		want string
	}{
		{"no dir", Config{Classpath: cp}, "no directory"},
		{"no java", Config{Dir: t.TempDir(), Classpath: cp, Java: "/nonexistent/java"}, "java not found"},
		{"no classpath", Config{Dir: t.TempDir()}, "no classpath"},
		{"no broker jar", Config{Dir: t.TempDir(), Classpath: "/x/kafka-clients-4.4.0.jar"}, "no kafka_2.13 jar"},
		{"port in use", Config{Dir: t.TempDir(), Classpath: cp, Port: busy}, "client port " + strconv.Itoa(busy)},
	} {
		_, err := Start(context.Background(), tc.cfg)
		if err == nil || !strings.Contains(err.Error(), tc.want) {
			t.Errorf("%s: Start: %v, want an error containing %q", tc.name, err, tc.want)
		}
	}
}

// brokerClasspath resolves the real broker's classpath, or skips: these tests start a JVM.
func brokerClasspath(t *testing.T) string {
	t.Helper()
	if testing.Short() {
		t.Skip("starts Apache Kafka's broker (about 12 s)")
	}
	cp, err := Classpath(context.Background(), "..", os.Getenv("KAFKA_VERSION"))
	if err != nil {
		t.Fatal(err)
	}
	return cp
}

func TestStartServesAndStops(t *testing.T) {
	cp := brokerClasspath(t)
	dir := t.TempDir()
	ctx := context.Background()
	b, err := Start(ctx, Config{Dir: dir, Classpath: cp})
	if err != nil {
		t.Fatal(err)
	}
	t.Logf("Kafka %s serving on %s after %v", b.Version, b.Addr, b.Started.Round(100*time.Millisecond))
	if _, err := Start(ctx, Config{Dir: dir, Classpath: cp}); err == nil || !strings.Contains(err.Error(), "already holds a running broker") {
		t.Errorf("second Start in the same directory: %v, want already running", err)
	}
	if c, err := net.Dial("tcp", b.Addr); err != nil {
		t.Errorf("dial %s: %v", b.Addr, err)
	} else {
		c.Close()
	}
	t0 := time.Now()
	if err := b.Stop(ctx); err != nil {
		t.Fatal(err)
	}
	t.Logf("stopped in %v", time.Since(t0).Round(100*time.Millisecond))
	select {
	case <-b.Exited():
	default:
		t.Error("Stop returned before the broker exited")
	}
	if _, err := os.Stat(filepath.Join(dir, pidFile)); !os.IsNotExist(err) {
		t.Errorf("pid file after Stop: %v", err)
	}
}

func TestStartReportsTheBrokersLastLines(t *testing.T) {
	cp := brokerClasspath(t)
	_, err := Start(context.Background(), Config{Dir: t.TempDir(), Classpath: cp,
		Overrides: map[string]string{"group.consumer.min.session.timeout.ms": "soon"}})
	if err == nil {
		t.Fatal("Start with a bad property served")
	}
	for _, want := range []string{"formatting storage", "group.consumer.min.session.timeout.ms", "last lines of"} {
		if !strings.Contains(err.Error(), want) {
			t.Errorf("Start's error lacks %q:\n%v", want, err)
		}
	}
}

// A cluster id never starts with "-", which kafka-storage format would take for an option; of
// 1,000 base64url draws one in 64 would (Kafka's Uuid.randomUuid draws again likewise).
func TestClusterIDIsNoOption(t *testing.T) {
	for i := 0; i < 1000; i++ {
		id, err := clusterID()
		if err != nil {
			t.Fatal(err)
		}
		if strings.HasPrefix(id, "-") || len(id) != 22 {
			t.Fatalf("cluster id %q: starts with - or is not 22 characters", id)
		}
	}
}
