package main

import (
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"testing"
)

func TestParseShard(t *testing.T) {
	env := func(v string) func(string) string {
		return func(k string) string {
			if k == jobIndexVar {
				return v
			}
			return ""
		}
	}
	for _, tc := range []struct {
		flag, env string
		want      shard
		err       string
	}{
		{flag: "", want: whole},
		{flag: "2/4", want: shard{2, 4}},
		{flag: "0/1", want: shard{0, 1}},
		{flag: "4", env: "3", want: shard{3, 4}},
		{flag: "2/4", env: "3", want: shard{2, 4}}, // an explicit index wins
		{flag: "4", err: "JOB_COMPLETION_INDEX is not set"},
		{flag: "4", env: "4", err: "JOB_COMPLETION_INDEX: the shard index \"4\" is not an integer in 0..3"},
		{flag: "4/4", err: "not an integer in 0..3"},
		{flag: "-1/4", err: "not an integer in 0..3"},
		{flag: "a/2", err: "not an integer in 0..1"},
		{flag: "0/0", err: "count \"0\" is not a positive integer"},
		{flag: "1/x", err: "count \"x\" is not a positive integer"},
	} {
		got, err := parseShard(tc.flag, env(tc.env))
		if tc.err != "" {
			if err == nil || !strings.Contains(err.Error(), tc.err) {
				t.Errorf("parseShard(%q, env %q) = %v, %v; want error %q", tc.flag, tc.env, got, err, tc.err)
			}
			continue
		}
		if err != nil || got != tc.want {
			t.Errorf("parseShard(%q, env %q) = %v, %v; want %v", tc.flag, tc.env, got, err, tc.want)
		}
	}
}

// TestShardWalksPartition: the shards of a run take every walk exactly once.
func TestShardWalksPartition(t *testing.T) {
	for total := 0; total < 30; total++ {
		for n := 1; n < 8; n++ {
			sum := 0
			for i := 0; i < n; i++ {
				sum += shard{i, n}.walks(total)
			}
			if sum != total {
				t.Fatalf("%d walks in %d shards: the shards take %d", total, n, sum)
			}
		}
	}
}

// TestShardsMergeToTheWholeRun: N shards of one seed, merged, report exactly what the
// unsharded run reports — walks, steps, deadlocks, coverage, and for every property the same
// first walk, count and trace — whatever N.
func TestShardsMergeToTheWholeRun(t *testing.T) {
	cfg := writeConfig(t, buggy)
	args := []string{"simulate", "--config", cfg, "--seed", "42", "--walks", "60", "--depth", "60", "--json"}
	code, want, errs := runCLI(t, args...)
	if code != 1 {
		t.Fatalf("unsharded: exit %d on a buggy world, want 1\n%s", code, errs)
	}
	if !strings.Contains(want, `"trace_text"`) {
		t.Fatalf("the report carries no trace text:\n%s", want)
	}
	for _, n := range []int{1, 3, 7} {
		dir := t.TempDir()
		var files []string
		for i := n - 1; i >= 0; i-- { // any order
			_, out, errs := runCLI(t, append(args, "--shard", shard{i, n}.String())...)
			f := filepath.Join(dir, shard{i, n}.String()[:1]+".json")
			f = filepath.Join(dir, strings.ReplaceAll(shard{i, n}.String(), "/", "-")+".json")
			if err := os.WriteFile(f, []byte(out), 0o644); err != nil {
				t.Fatal(err, errs)
			}
			files = append(files, f)
		}
		code, got, errs := runCLI(t, append([]string{"merge", "--json"}, files...)...)
		if code != 1 {
			t.Fatalf("%d shards: merge exit %d, want 1 (the violation)\n%s", n, code, errs)
		}
		if stripSeconds(got) != stripSeconds(want) {
			t.Errorf("%d shards merged differ from the unsharded run:\n%s\nwant\n%s", n, got, want)
		}
	}
}

var secondsField = regexp.MustCompile(`"seconds": [0-9.e+-]+`)

func stripSeconds(s string) string { return secondsField.ReplaceAllString(s, `"seconds": 0`) }

func TestMergeRefusesAnIncompleteOrMixedSet(t *testing.T) {
	cfg := writeConfig(t, tiny)
	dir := t.TempDir()
	shardFile := func(name string, extra ...string) string {
		args := append([]string{"simulate", "--config", cfg, "--walks", "10", "--depth", "30", "--json"}, extra...)
		code, out, errs := runCLI(t, args...)
		if code != 0 {
			t.Fatalf("%v: exit %d\n%s", args, code, errs)
		}
		f := filepath.Join(dir, name)
		if err := os.WriteFile(f, []byte(out), 0o644); err != nil {
			t.Fatal(err)
		}
		return f
	}
	s0 := shardFile("s0.json", "--seed", "5", "--shard", "0/3")
	s1 := shardFile("s1.json", "--seed", "5", "--shard", "1/3")
	s2 := shardFile("s2.json", "--seed", "5", "--shard", "2/3")
	other := shardFile("other.json", "--seed", "6", "--shard", "2/3")
	half := shardFile("half.json", "--seed", "5", "--shard", "1/2")
	bad := filepath.Join(dir, "bad.json")
	os.WriteFile(bad, []byte(`{"config": "x", "surprise": 1}`), 0o644)
	for _, tc := range []struct {
		files []string
		err   string
	}{
		{[]string{s0, s1}, "shards 2 of 3 are missing"},
		{[]string{s0, s1, s1, s2}, "are both shard 1/3"},
		{[]string{s0, s1, other}, "seed 6"},
		{[]string{s0, s1, half}, "shard 1/2"},
		{[]string{s0, bad}, `unknown field "surprise"`},
		{[]string{s0, filepath.Join(dir, "absent.json")}, "no such file"},
	} {
		code, _, errs := runCLI(t, append([]string{"merge"}, tc.files...)...)
		if code != 2 || !strings.Contains(errs, tc.err) {
			t.Errorf("merge %v: exit %d, %q; want exit 2 naming %q", tc.files, code, errs, tc.err)
		}
	}
	if code, out, errs := runCLI(t, "merge", s2, s0, s1); code != 0 || !strings.Contains(out, "10 random walks") {
		t.Errorf("a complete set: exit %d\n%s%s", code, out, errs)
	}
	if code, _, errs := runCLI(t, "simulate", "--config", cfg, "--shard", "0/2"); code != 2 || !strings.Contains(errs, "--shard needs --seed") {
		t.Errorf("a shard without a seed: exit %d, %q", code, errs)
	}
}

// TestKubernetesManifest checks the example Indexed Job: every pod takes one shard of one
// seed (the index from JOB_COMPLETION_INDEX), the shard count is the job's completions, and
// its command line is one this build accepts (run here on a few walks).
func TestKubernetesManifest(t *testing.T) {
	b, err := os.ReadFile("../../deploy/kubernetes/simulate-job.json")
	if err != nil {
		t.Fatal(err)
	}
	var job struct {
		APIVersion, Kind string
		Spec             struct {
			CompletionMode           string
			Completions, Parallelism int
			Template                 struct {
				Spec struct {
					RestartPolicy string
					Containers    []struct {
						Command, Args []string
						WorkingDir    string
					}
				}
			}
		}
	}
	dec := json.NewDecoder(strings.NewReader(string(b)))
	if err := dec.Decode(&job); err != nil {
		t.Fatal(err)
	}
	s := job.Spec
	if job.APIVersion != "batch/v1" || job.Kind != "Job" || s.CompletionMode != "Indexed" || s.Completions < 2 ||
		s.Template.Spec.RestartPolicy != "Never" || len(s.Template.Spec.Containers) != 1 {
		t.Fatalf("not an Indexed Job of one container: %+v", job)
	}
	c := s.Template.Spec.Containers[0]
	if strings.Join(c.Command, " ") != "go run ./cmd/groupcheck" || len(c.Args) == 0 || c.Args[0] != "simulate" {
		t.Fatalf("the container does not run groupcheck simulate: %v %v", c.Command, c.Args)
	}
	flags := map[string]string{}
	for i := 1; i+1 < len(c.Args); i++ {
		if strings.HasPrefix(c.Args[i], "--") && !strings.HasPrefix(c.Args[i+1], "--") {
			flags[c.Args[i]] = c.Args[i+1]
		}
	}
	if flags["--shard"] != fmt.Sprint(s.Completions) || flags["--seed"] == "" || flags["--seed"] == "0" {
		t.Fatalf("want --shard %d (the index from %s) and a fixed --seed; args %v", s.Completions, jobIndexVar, c.Args)
	}
	if _, err := os.Stat(filepath.Join("../..", flags["--config"])); err != nil {
		t.Fatalf("the job's world: %v", err)
	}
	t.Setenv(jobIndexVar, fmt.Sprint(s.Completions-1))
	args := append(append([]string{}, c.Args...), "--walks", "20", "--depth", "20") // the last flag wins
	for i, a := range args {
		if a == "--config" {
			args[i+1] = filepath.Join("../..", args[i+1])
		}
	}
	code, out, errs := runCLI(t, args...)
	var rep simReport
	if code == 2 || json.Unmarshal([]byte(out), &rep) != nil {
		t.Fatalf("the job's command line: exit %d\n%s%s", code, out, errs)
	}
	want := shard{Index: s.Completions - 1, Count: s.Completions}
	if rep.Shard != want.String() {
		t.Errorf("the pod took shard %q, want %s", rep.Shard, want)
	}
}
