package invariants

import (
	"bytes"
	"sync"

	"github.com/groupcheck/groupcheck/spec"
)

// EncodingChecked is m with its encoders compared on every world it fingerprints
// (spec.EncodingCheck; explore --check-encoding). It fingerprints as m does. Of the worlds
// whose encodings disagree it keeps the one with the least encoding, so that the report is the
// same on any number of workers.
type EncodingChecked struct {
	*Model
	ec    spec.EncodingCheck
	first *encodingMismatch
}

type encodingMismatch struct {
	mu    sync.Mutex
	enc   []byte
	why   string
	world string
}

// NewEncodingChecked is m with its encodings checked.
func NewEncodingChecked(m *Model) EncodingChecked {
	return EncodingChecked{Model: m, ec: spec.NewEncodingCheck(m.Config()), first: &encodingMismatch{}}
}

// Encode appends m's encoding of w, after comparing w's encoders.
func (e EncodingChecked) Encode(w spec.World, buf []byte) []byte {
	if why := e.ec.Mismatch(w); why != "" {
		enc := w.Encode(nil)
		f := e.first
		f.mu.Lock()
		if f.enc == nil || bytes.Compare(enc, f.enc) < 0 {
			f.enc, f.why, f.world = enc, why, w.String()
		}
		f.mu.Unlock()
	}
	return e.Model.Encode(w, buf)
}

// Mismatch is the disagreement found, with the world it was found in, or "" if there was none.
func (e EncodingChecked) Mismatch() (why, world string) {
	e.first.mu.Lock()
	defer e.first.mu.Unlock()
	return e.first.why, e.first.world
}
