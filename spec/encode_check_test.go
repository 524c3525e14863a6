package spec

import (
	"strings"
	"testing"
)

// TestEncodingCheck: the three encoders agree along a walk of a world of each protocol, and
// the check names a disagreement when one encoder writes a field the others do not.
func TestEncodingCheck(t *testing.T) {
	for name, cfg := range fastEncodeConfigs(t) {
		ec := NewEncodingCheck(cfg)
		w := Init(cfg)
		for step := 0; step < 40; step++ {
			if why := ec.Mismatch(w); why != "" {
				t.Fatalf("%s, step %d: %s\n%s", name, step, why, w)
			}
			as := Actions(w, nil)
			if len(as) == 0 {
				break
			}
			n, ok := Next(w, as[step%len(as)])
			if !ok {
				break
			}
			w = n
		}
	}
	cfg := fastEncodeConfigs(t)["classic-any"]
	w := Init(cfg)
	w.Observed = 1 << 3 // a field every encoder writes: still equal
	if why := NewEncodingCheck(cfg).Mismatch(w); why != "" {
		t.Errorf("equal encodings reported: %s", why)
	}
	// A slot whose client is renamed in the image only: the identity is broken on purpose
	// by a renamer that maps the first slot to the second.
	bad := EncodingCheck{id: newSymmetry(cfg, nil)}
	bad.id.perms = [][]int{{1, 0, 2}}
	if why := bad.Mismatch(w); !strings.Contains(why, "identity image differ from byte") {
		t.Errorf("a wrong image was not reported: %q", why)
	}
}
