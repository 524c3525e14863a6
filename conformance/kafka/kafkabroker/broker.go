package kafkabroker

import (
	"context"
	"crypto/rand"
	"encoding/base64"
	"errors"
	"fmt"
	"net"
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"strings"
	"syscall"
	"time"
)

// Config configures a broker.
type Config struct {
	Dir            string            // the broker's directory: properties, log, pid file, data/ (created)
	Port           int               // the client listener on 127.0.0.1; 0 picks a free port
	ControllerPort int               // the KRaft controller listener; 0 picks a free port
	Classpath      string            // the broker's runtime classpath (Classpath)
	Java           string            // the java binary; empty: $JAVA_HOME/bin/java, else java on PATH
	Heap           string            // -Xmx; empty: 512m
	Overrides      map[string]string // broker properties over Settings
	StartTimeout   time.Duration     // how long the broker may take to serve; 0: 90 s
	// Detach starts the broker in its own session, so that it outlives this process; it is
	// then stopped with StopDir. Otherwise it is this process's child, stopped with Stop.
	Detach bool
}

// Broker is a running test broker.
type Broker struct {
	Dir     string
	Addr    string        // host:port clients dial
	Version string        // the Kafka release, from the broker jar
	Pid     int           // the java process
	Started time.Duration // from exec to serving: formatting storage and starting the JVM
	cmd     *exec.Cmd
	exited  chan struct{} // closed when the child exits (not detached)
	waitErr error
}

// LogFile is the broker's output (its log4j console) within Config.Dir.
const LogFile = "server.log"

// pidFile holds "PID ADDR" while a broker started in the directory runs.
const pidFile = "broker.pid"

// Start formats Config.Dir's storage if it is not formatted yet, starts the broker, and
// returns when it serves, or an error naming what failed (and the broker's last log lines if
// it exited or never served; it is killed then).
func Start(ctx context.Context, cfg Config) (*Broker, error) {
	t0 := time.Now()
	if cfg.Dir == "" {
		return nil, errors.New("kafka broker: no directory")
	}
	dir, err := filepath.Abs(cfg.Dir)
	if err != nil {
		return nil, fmt.Errorf("kafka broker: %v", err)
	}
	java, err := findJava(cfg.Java)
	if err != nil {
		return nil, err
	}
	if cfg.Classpath == "" {
		return nil, errors.New("kafka broker: no classpath (kafkabroker.Classpath resolves one with Maven)")
	}
	version, err := Version(cfg.Classpath)
	if err != nil {
		return nil, fmt.Errorf("kafka broker: %v", err)
	}
	if pid, addr, err := readPid(dir); err == nil && alive(pid) {
		return nil, fmt.Errorf("kafka broker: %s already holds a running broker (pid %d on %s); stop it first", dir, pid, addr)
	}
	port, err := freePort(cfg.Port, "client")
	if err != nil {
		return nil, err
	}
	cport, err := freePort(cfg.ControllerPort, "controller")
	if err != nil {
		return nil, err
	}
	if cport == port {
		return nil, fmt.Errorf("kafka broker: client and controller ports are both %d", port)
	}
	data := filepath.Join(dir, "data")
	if err := os.MkdirAll(data, 0o755); err != nil {
		return nil, fmt.Errorf("kafka broker: %v", err)
	}
	settings := Settings(port, cport, data)
	for k, v := range cfg.Overrides {
		settings[k] = v
	}
	props, err := properties(settings)
	if err != nil {
		return nil, fmt.Errorf("kafka broker: %v", err)
	}
	propsFile := filepath.Join(dir, "server.properties")
	logCfg := filepath.Join(dir, "log4j2.properties")
	if err := os.WriteFile(propsFile, []byte(props), 0o644); err != nil {
		return nil, fmt.Errorf("kafka broker: %v", err)
	}
	if err := os.WriteFile(logCfg, []byte(log4j2), 0o644); err != nil {
		return nil, fmt.Errorf("kafka broker: %v", err)
	}
	logPath := filepath.Join(dir, LogFile)
	logf, err := os.OpenFile(logPath, os.O_CREATE|os.O_WRONLY|os.O_APPEND, 0o644)
	if err != nil {
		return nil, fmt.Errorf("kafka broker: %v", err)
	}
	defer logf.Close()
	heap := cfg.Heap
	if heap == "" {
		heap = "512m"
	}
	// One GC thread and the client compiler only: a test broker's load is small, and on a
	// shared 2-core machine the JIT's and GC's threads are what slow its start.
	jvm := []string{"-Xmx" + heap, "-XX:+UseSerialGC", "-XX:TieredStopAtLevel=1", "-Djava.awt.headless=true",
		"-Dlog4j2.configurationFile=" + logCfg, "-cp", cfg.Classpath}

	if _, err := os.Stat(filepath.Join(data, "meta.properties")); err != nil {
		id, err := clusterID()
		if err != nil {
			return nil, err
		}
		format := exec.CommandContext(ctx, java, append(jvm, "kafka.tools.StorageTool", "format",
			"--cluster-id", id, "--config", propsFile)...)
		format.Stdout, format.Stderr = logf, logf
		if err := format.Run(); err != nil {
			return nil, fmt.Errorf("kafka broker: formatting storage in %s: %v\nlast lines of %s:\n%s", data, err, logPath, logTail(logPath))
		}
	}

	cmd := exec.Command(java, append(jvm, "kafka.Kafka", propsFile)...)
	cmd.Dir = dir
	cmd.Stdout, cmd.Stderr = logf, logf
	cmd.SysProcAttr = &syscall.SysProcAttr{Setpgid: !cfg.Detach, Setsid: cfg.Detach}
	if err := cmd.Start(); err != nil {
		return nil, fmt.Errorf("kafka broker: starting %s: %v", java, err)
	}
	b := &Broker{Dir: dir, Addr: "127.0.0.1:" + strconv.Itoa(port), Version: version,
		Pid: cmd.Process.Pid, cmd: cmd, exited: make(chan struct{})}
	go func() { b.waitErr = cmd.Wait(); close(b.exited) }()
	if err := os.WriteFile(filepath.Join(dir, pidFile), fmt.Appendf(nil, "%d %s\n", b.Pid, b.Addr), 0o644); err != nil {
		b.kill()
		return nil, fmt.Errorf("kafka broker: %v", err)
	}
	timeout := cfg.StartTimeout
	if timeout <= 0 {
		timeout = 90 * time.Second
	}
	wctx, cancel := context.WithTimeout(ctx, timeout)
	defer cancel()
	if err := waitServing(wctx, b.Addr, b.exited); err != nil {
		select {
		case <-b.exited:
			err = fmt.Errorf("kafka broker %s exited before it served (%v): %v", version, b.waitErr, err)
		default:
			b.kill()
			err = fmt.Errorf("kafka broker %s on %s did not serve within %v: %v", version, b.Addr, timeout, err)
		}
		os.Remove(filepath.Join(dir, pidFile))
		return nil, fmt.Errorf("%v\nlast lines of %s:\n%s", err, logPath, logTail(logPath))
	}
	b.Started = time.Since(t0)
	return b, nil
}

// Exited is closed when the broker process exits.
func (b *Broker) Exited() <-chan struct{} { return b.exited }

// Stop sends the broker SIGTERM (Kafka's controlled shutdown) and waits for it to exit, up
// to ctx's deadline or 30 s, then kills it.
func (b *Broker) Stop(ctx context.Context) error {
	defer os.Remove(filepath.Join(b.Dir, pidFile))
	select {
	case <-b.exited:
		return nil
	default:
	}
	if err := b.cmd.Process.Signal(syscall.SIGTERM); err != nil {
		return fmt.Errorf("kafka broker pid %d: SIGTERM: %v", b.Pid, err)
	}
	ctx, cancel := context.WithTimeout(ctx, 30*time.Second)
	defer cancel()
	select {
	case <-b.exited:
		return nil
	case <-ctx.Done():
		b.kill()
		return fmt.Errorf("kafka broker pid %d did not stop after SIGTERM within %v; killed", b.Pid, 30*time.Second)
	}
}

func (b *Broker) kill() {
	b.cmd.Process.Kill()
	select {
	case <-b.exited:
	case <-time.After(5 * time.Second):
	}
}

// StopDir stops the broker a detached Start left running in dir (its pid file names it):
// SIGTERM, then SIGKILL if it has not exited within 30 s.
func StopDir(dir string) error {
	pid, addr, err := readPid(dir)
	if err != nil {
		return fmt.Errorf("kafka broker in %s: %v", dir, err)
	}
	defer os.Remove(filepath.Join(dir, pidFile))
	if !alive(pid) {
		return nil
	}
	if err := syscall.Kill(pid, syscall.SIGTERM); err != nil {
		return fmt.Errorf("kafka broker pid %d (%s): SIGTERM: %v", pid, addr, err)
	}
	if waitGone(pid, 30*time.Second) {
		return nil
	}
	syscall.Kill(pid, syscall.SIGKILL)
	waitGone(pid, 5*time.Second)
	return fmt.Errorf("kafka broker pid %d (%s) did not stop after SIGTERM within 30s; killed", pid, addr)
}

// waitGone waits for a process that is not this one's child to exit, polling, up to d.
func waitGone(pid int, d time.Duration) bool {
	deadline := time.After(d)
	tick := time.NewTicker(50 * time.Millisecond)
	defer tick.Stop()
	for alive(pid) {
		select {
		case <-deadline:
			return false
		case <-tick.C:
		}
	}
	return true
}

func alive(pid int) bool { return syscall.Kill(pid, 0) == nil }

func readPid(dir string) (int, string, error) {
	b, err := os.ReadFile(filepath.Join(dir, pidFile))
	if err != nil {
		return 0, "", err
	}
	f := strings.Fields(string(b))
	if len(f) != 2 {
		return 0, "", fmt.Errorf("%s: want \"PID ADDR\", have %q", pidFile, b)
	}
	pid, err := strconv.Atoi(f[0])
	if err != nil || pid <= 0 {
		return 0, "", fmt.Errorf("%s: bad pid %q", pidFile, f[0])
	}
	return pid, f[1], nil
}

func findJava(java string) (string, error) {
	if java == "" {
		if home := os.Getenv("JAVA_HOME"); home != "" {
			java = filepath.Join(home, "bin", "java")
		} else {
			java = "java"
		}
	}
	p, err := exec.LookPath(java)
	if err != nil {
		return "", fmt.Errorf("kafka broker: java not found (%s): %v", java, err)
	}
	return p, nil
}

// freePort returns port if it can be listened on, or a free port if port is 0.
func freePort(port int, what string) (int, error) {
	ln, err := net.Listen("tcp", "127.0.0.1:"+strconv.Itoa(port))
	if err != nil {
		return 0, fmt.Errorf("kafka broker: %s port %d: %v", what, port, err)
	}
	defer ln.Close()
	return ln.Addr().(*net.TCPAddr).Port, nil
}

// clusterID is a random Kafka Uuid in its string form (base64url, no padding). Like Kafka's
// Uuid.randomUuid it draws again while the string starts with "-": kafka-storage's argument
// parser reads such an id as an option ("argument --cluster-id/-t: expected one argument"),
// which failed one start in 64 (the CI dry run of 4 December).
func clusterID() (string, error) {
	for {
		var b [16]byte
		if _, err := rand.Read(b[:]); err != nil {
			return "", fmt.Errorf("kafka broker: cluster id: %v", err)
		}
		if id := base64.RawURLEncoding.EncodeToString(b[:]); !strings.HasPrefix(id, "-") {
			return id, nil
		}
	}
}

// logTail returns the last lines of the broker's log.
func logTail(path string) string {
	b, err := os.ReadFile(path)
	if err != nil {
		return "(" + err.Error() + ")"
	}
	return tail(string(b), 20)
}

func tail(s string, n int) string {
	lines := strings.Split(strings.TrimRight(s, "\n"), "\n")
	if len(lines) > n {
		lines = lines[len(lines)-n:]
	}
	return strings.Join(lines, "\n")
}
