package main

import (
	"bytes"
	"encoding/json"
	"strings"
	"testing"
)

// TestCheckEncoding: --check-encoding compares the encoders on every state of a run and says
// so; it refuses the reductions whose fingerprints are not the plain encoder's.
func TestCheckEncoding(t *testing.T) {
	var out, errb bytes.Buffer
	for _, world := range [][]string{{"--preset", "static-slow-rejoin"}, {"--config", "../../worlds/tests/two-kip848-crash-commits.conf"}} {
		out.Reset()
		if code := run(append([]string{"explore", "--check-encoding", "--json"}, world...), &out, &errb); code != 0 {
			t.Fatalf("%s: exit %d: %s", world[1], code, errb.String())
		}
		var rep report
		if err := json.Unmarshal(out.Bytes(), &rep); err != nil {
			t.Fatal(err)
		}
		if rep.EncodingMismatch != "" || !strings.Contains(rep.EncodingCheck, "agreed on all "+thousands(rep.Distinct)+" states") || rep.Distinct == 0 {
			t.Errorf("%s: encoding check %q / %q over %d states", world[1], rep.EncodingCheck, rep.EncodingMismatch, rep.Distinct)
		}
	}
	for _, flag := range []string{"--symmetry", "--por"} {
		out.Reset()
		errb.Reset()
		if code := run([]string{"explore", "--preset", "static-slow-rejoin", "--check-encoding", flag}, &out, &errb); code != 2 || !strings.Contains(errb.String(), "without --symmetry and --por") {
			t.Errorf("--check-encoding %s: exit %d, %q", flag, code, errb.String())
		}
	}
}
