package spec

import (
	"bytes"
	"fmt"
)

// EncodingCheck compares the encoders of a world that must write the same bytes: World.Encode
// (hand-written, what the explorer fingerprints with), the reflection encoder (every field of
// every role, found by reflection: encode.go) and the identity image of the symmetry reduction
// (image.go, which re-encodes each coordinator from its exported view). A field added to a
// role and forgotten by one of them makes two different worlds one state, or one world two:
// the check names the first world where they disagree (explore --check-encoding).
type EncodingCheck struct{ id Symmetry }

// NewEncodingCheck is the check for a config's worlds.
func NewEncodingCheck(c Config) EncodingCheck { return EncodingCheck{id: newSymmetry(c, nil)} }

// Mismatch says which encoders disagree on w and where, or "" when all three agree.
func (ec EncodingCheck) Mismatch(w World) string {
	fast := w.Encode(nil)
	for _, other := range []struct {
		name string
		enc  []byte
	}{
		{"the reflection encoder", w.encodeReflect(nil)},
		{"the symmetry reduction's identity image", ec.id.encodeImage(w, ec.id.perms[0], nil)},
	} {
		if !bytes.Equal(fast, other.enc) {
			at := 0
			for at < min(len(fast), len(other.enc)) && fast[at] == other.enc[at] {
				at++
			}
			return fmt.Sprintf("World.Encode and %s differ from byte %d (%d and %d bytes)", other.name, at, len(fast), len(other.enc))
		}
	}
	return ""
}
