package kafkabroker

import (
	"bytes"
	"context"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"strings"
)

// DefaultVersion is the Kafka release the pom resolves when no version is asked for.
const DefaultVersion = "4.4.0"

// Classpath returns the broker's runtime classpath for Kafka version (DefaultVersion if
// empty), as the Maven project in pomDir resolves it. The list is cached in
// pomDir/target/classpath-VERSION.txt and reused while every jar it names exists. Maven is
// asked offline first (a warm local repository needs no network) and online only if that
// fails.
func Classpath(ctx context.Context, pomDir, version string) (string, error) {
	if version == "" {
		version = DefaultVersion
	}
	pom := filepath.Join(pomDir, "pom.xml")
	if _, err := os.Stat(pom); err != nil {
		return "", fmt.Errorf("kafka classpath: no Maven project: %v", err)
	}
	out, err := filepath.Abs(filepath.Join(pomDir, "target", "classpath-"+version+".txt"))
	if err != nil {
		return "", fmt.Errorf("kafka classpath: %v", err)
	}
	if cp, err := ReadClasspath(out); err == nil {
		return cp, nil
	}
	mvn, err := exec.LookPath("mvn")
	if err != nil {
		return "", fmt.Errorf("kafka classpath: Maven (mvn) not on PATH: %v", err)
	}
	var lastErr error
	for _, offline := range []bool{true, false} {
		args := []string{"-B", "-q", "dependency:build-classpath",
			"-Dkafka.version=" + version, "-Dmdep.outputFile=" + out}
		if offline {
			args = append([]string{"-o"}, args...)
		}
		cmd := exec.CommandContext(ctx, mvn, args...)
		cmd.Dir = pomDir
		var log bytes.Buffer
		cmd.Stdout, cmd.Stderr = &log, &log
		if err := cmd.Run(); err != nil {
			lastErr = fmt.Errorf("kafka classpath: mvn %s in %s: %v\n%s", strings.Join(args, " "), pomDir, err, tail(log.String(), 15))
			continue
		}
		return ReadClasspath(out)
	}
	return "", lastErr
}

// ReadClasspath reads a classpath file written by mvn dependency:build-classpath and checks
// that it names kafka_2.13 and that every jar it names exists.
func ReadClasspath(file string) (string, error) {
	b, err := os.ReadFile(file)
	if err != nil {
		return "", fmt.Errorf("kafka classpath: %v", err)
	}
	cp := strings.TrimSpace(string(b))
	if _, err := Version(cp); err != nil {
		return "", fmt.Errorf("kafka classpath %s: %v", file, err)
	}
	for _, jar := range filepath.SplitList(cp) {
		if _, err := os.Stat(jar); err != nil {
			return "", fmt.Errorf("kafka classpath %s: %v", file, err)
		}
	}
	return cp, nil
}

var brokerJar = regexp.MustCompile(`^kafka_2\.13-(\d+\.\d+\.\d+[^/]*)\.jar$`)

// Version returns the Kafka release of the broker jar (kafka_2.13-VERSION.jar) on cp.
func Version(cp string) (string, error) {
	for _, jar := range filepath.SplitList(cp) {
		if m := brokerJar.FindStringSubmatch(filepath.Base(jar)); m != nil {
			return m[1], nil
		}
	}
	return "", fmt.Errorf("no kafka_2.13 jar on the classpath")
}
