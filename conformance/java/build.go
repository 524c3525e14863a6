package java

import (
	"bytes"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"sync"
	"time"
)

// KafkaVersionEnv names the environment variable that selects the kafka-clients version the
// driver is built against (the pom's kafka.version; 4.4.0 when unset).
const KafkaVersionEnv = "GROUPCHECK_KAFKA_CLIENTS"

// Build is the driver as built once for this process: the java command line before the
// driver's own arguments, and what building it cost.
type Build struct {
	Java    string
	Args    []string // JVM flags, -cp and the main class
	Version string   // kafka-clients version
	Took    time.Duration
}

var built = sync.OnceValues(func() (Build, error) { return build(".") })

// Built builds the driver (once per process) from the Maven project in this module's folder.
func Built() (Build, error) { return built() }

// build compiles the driver and resolves its classpath with Maven, offline first (the local
// repository usually has everything), online only if that fails. Maven's own up-to-date check
// makes a rebuild of unchanged sources cost only Maven's start.
func build(dir string) (Build, error) {
	start := time.Now()
	java, err := exec.LookPath("java")
	if err != nil {
		return Build{}, fmt.Errorf("java driver: no java on PATH (Java 17 or later is needed): %v", err)
	}
	mvn, err := exec.LookPath("mvn")
	if err != nil {
		return Build{}, fmt.Errorf("java driver: no mvn on PATH (Maven builds the driver): %v", err)
	}
	version := os.Getenv(KafkaVersionEnv)
	if version == "" {
		version = "4.4.0"
	}
	cpFile := filepath.Join("target", "classpath-"+version)
	goals := []string{"-q", "-Dkafka.version=" + version, "compile", "dependency:build-classpath",
		"-Dmdep.outputFile=" + cpFile}
	var out bytes.Buffer
	run := func(extra ...string) error {
		out.Reset()
		cmd := exec.Command(mvn, append(extra, goals...)...)
		cmd.Dir, cmd.Stdout, cmd.Stderr = dir, &out, &out
		return cmd.Run()
	}
	if !upToDate(dir, cpFile) {
		if err := run("-o"); err != nil {
			if err := run(); err != nil {
				return Build{}, fmt.Errorf("java driver: mvn %s in %s: %v\n%s", strings.Join(goals, " "), dir, err, lastLines(out.String(), 20))
			}
		}
	}
	cp, err := os.ReadFile(filepath.Join(dir, cpFile))
	if err != nil {
		return Build{}, fmt.Errorf("java driver: classpath: %v", err)
	}
	classes, err := filepath.Abs(filepath.Join(dir, "target", "classes"))
	if err != nil {
		return Build{}, err
	}
	return Build{Java: java, Version: version, Took: time.Since(start), Args: []string{
		// A member's JVM lives seconds: start fast rather than peak fast.
		"-XX:+UseSerialGC", "-XX:TieredStopAtLevel=1", "-Xss512k", "-Xmx256m",
		// The simple slf4j binding writes to stderr, kept as the member's log: the consumer's
		// group and fetch internals at info, everything else at warn.
		"-Dorg.slf4j.simpleLogger.defaultLogLevel=warn",
		"-Dorg.slf4j.simpleLogger.log.org.apache.kafka.clients.consumer.internals=info",
		"-Dorg.slf4j.simpleLogger.showDateTime=true",
		"-Dorg.slf4j.simpleLogger.dateTimeFormat=HH:mm:ss.SSS",
		"-cp", classes + string(os.PathListSeparator) + strings.TrimSpace(string(cp)),
		"groupcheck.Driver",
	}}, nil
}

// upToDate reports whether the last build still stands: the classpath file is newer than
// pom.xml and the compiled driver newer than every Java source. It spares a test run Maven's
// own start (10–40 s on a loaded 2-core machine) when nothing changed. (Maven rewrites neither
// file when nothing changed, so each is compared with what it is made from.)
func upToDate(dir, cpFile string) bool {
	newer := func(made string, from ...string) bool {
		m, err := os.Stat(filepath.Join(dir, made))
		if err != nil || len(from) == 0 {
			return false
		}
		for _, f := range from {
			fi, err := os.Stat(f)
			if err != nil || !fi.ModTime().Before(m.ModTime()) {
				return false
			}
		}
		return true
	}
	sources, _ := filepath.Glob(filepath.Join(dir, "src", "main", "java", "groupcheck", "*.java"))
	return newer(cpFile, filepath.Join(dir, "pom.xml")) &&
		newer(filepath.Join("target", "classes", "groupcheck", "Driver.class"), sources...)
}

func lastLines(s string, n int) string {
	ls := strings.Split(strings.TrimRight(s, "\n"), "\n")
	if len(ls) > n {
		ls = ls[len(ls)-n:]
	}
	return strings.Join(ls, "\n")
}
