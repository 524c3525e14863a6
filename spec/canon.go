package spec

import (
	"bytes"
	"slices"
	"sync"

	"github.com/groupcheck/groupcheck/impl"
)

// The canonical encoding of an orbit (Symmetry.Encode), by one of two exact rules.
//
// Small groups (a single swap) take the least encoding over every image. Larger ones first
// sort each class by a signature of its slots, then take the least encoding over the images
// that put the signatures in order, which are all the permutations of slots with equal
// signatures (ties). The signature of a slot is what names no slot: its encoding with member
// ids, instance ids and connections left out, and its queues by message kind. A permutation
// only moves slots and renames those, so a slot and its image have the same signature. Hence
// if w' = σ(w), the images of w' that sort the signatures are exactly the images of w that do,
// the least of them is the same world, and the rule is exact; it tries one image when the
// signatures differ instead of the group's order.

// refineAbove is the group order from which Encode sorts by signatures first.
const refineAbove = 2

// Encode appends the canonical encoding of w's orbit.
func (s Symmetry) Encode(w World, buf []byte) []byte {
	switch {
	case len(s.perms) == 1:
		return w.Encode(buf)
	case len(s.perms) > refineAbove:
		return s.leastSorted(w, buf)
	}
	return s.leastImage(w, s.perms, buf)
}

// scratch is a reusable buffer; Encode runs on every worker at once.
type scratch struct{ img, sig []byte }

var scratchPool = sync.Pool{New: func() any { return &scratch{img: make([]byte, 0, 1024), sig: make([]byte, 0, 1024)} }}

// leastImage appends the least encoding of w's images under perms. An image whose
// coordinator part already sorts after the least so far is dropped before its slots are
// renamed.
func (s Symmetry) leastImage(w World, perms [][]int, buf []byte) []byte {
	start := len(buf)
	if isIdentity(perms[0]) {
		buf = w.Encode(buf)
	} else {
		buf = s.encodeImage(w, perms[0], buf)
	}
	if len(perms) == 1 {
		return buf
	}
	sc := scratchPool.Get().(*scratch)
	img := sc.img
	for _, p := range perms[1:] {
		img = s.encodeCoordinator(w, p, img[:0])
		best := buf[start:]
		if bytes.Compare(img, best[:min(len(img), len(best))]) > 0 {
			continue
		}
		img = s.encodeSlots(w, p, img)
		if bytes.Compare(img, best) < 0 {
			buf = append(buf[:start], img...)
		}
	}
	sc.img = img
	scratchPool.Put(sc)
	return buf
}

func isIdentity(p []int) bool {
	for i, j := range p {
		if i != j {
			return false
		}
	}
	return true
}

// leastSorted appends the least encoding of the images of w that sort every class by
// signature.
func (s Symmetry) leastSorted(w World, buf []byte) []byte {
	sc := scratchPool.Get().(*scratch)
	sig := sc.sig[:0]
	e := w.encoder(nil)
	var from, to [8]int // slot i's signature is sig[from[i]:to[i]]
	for _, class := range s.classes {
		for _, i := range class {
			from[i] = len(sig)
			e.buf = sig
			e.signature(w.Slots[i])
			sig = e.buf
			to[i] = len(sig)
		}
	}
	sigOf := func(i int) []byte { return sig[from[i]:to[i]] }
	// base maps the slots of each class, in signature order, onto the class's slots in slot
	// order; ties lists the runs of slots with equal signatures.
	base := slices.Clone(s.perms[0])
	var ties [][]int
	for _, class := range s.classes {
		sorted := slices.Clone(class)
		slices.SortStableFunc(sorted, func(a, b int) int { return bytes.Compare(sigOf(a), sigOf(b)) })
		for k, i := range sorted {
			base[i] = class[k]
		}
		for k := 0; k < len(sorted); {
			end := k + 1
			for end < len(sorted) && bytes.Equal(sigOf(sorted[k]), sigOf(sorted[end])) {
				end++
			}
			if end-k > 1 {
				ties = append(ties, sorted[k:end])
			}
			k = end
		}
	}
	sc.sig = sig
	scratchPool.Put(sc)
	return s.leastImage(w, tiePermutations(base, ties), buf)
}

// tiePermutations is base composed with every permutation of the images of each tie.
func tiePermutations(base []int, ties [][]int) [][]int {
	out := [][]int{base}
	for _, tie := range ties {
		var next [][]int
		for _, p := range out {
			images := make([]int, len(tie))
			for k, i := range tie {
				images[k] = p[i]
			}
			for _, order := range permutations(len(tie)) {
				q := slices.Clone(p)
				for k, i := range tie {
					q[i] = images[order[k]]
				}
				next = append(next, q)
			}
		}
		out = next
	}
	return out
}

// signature appends what of slot s names no slot (see above).
func (e *encoder) signature(s *Slot) {
	e.uint(uint64(s.Process))
	e.uint(uint64(s.Incarnation))
	e.bool(s.Alt)
	e.bool(s.Stale)
	if e.genAsEpoch {
		m := *s.Member
		m.ID, m.Config.MemberID, m.Config.InstanceID, m.Config.Conn = "", "", "", 0
		e.member(&m)
	} else {
		c := *s.Client
		c.Config.InstanceID, c.Config.Conn, c.Gen.MemberID = "", 0, ""
		for k := range c.Requests {
			c.Requests[k].Sent.MemberID = ""
		}
		e.consumer(&c)
		e.bool(s.Assigning != nil)
	}
	e.uint(uint64(len(s.Out)))
	for _, q := range s.Out {
		e.buf = append(e.buf, messageCode(q))
	}
	e.uint(uint64(len(s.In)))
	for _, q := range s.In {
		e.buf = append(e.buf, messageCode(q))
	}
}

// messageCode is the type code of a request or response in flight (encode_fast.go).
func messageCode(m any) byte {
	switch m.(type) {
	case impl.JoinGroupRequest:
		return codeJoinGroupRequest
	case impl.SyncGroupRequest:
		return codeSyncGroupRequest
	case impl.HeartbeatRequest:
		return codeHeartbeatRequest
	case impl.LeaveGroupRequest:
		return codeLeaveGroupRequest
	case impl.OffsetCommitRequest:
		return codeOffsetCommitRequest
	case impl.JoinGroupResponse:
		return codeJoinGroupResponse
	case impl.SyncGroupResponse:
		return codeSyncGroupResponse
	case impl.HeartbeatResponse:
		return codeHeartbeatResponse
	case impl.LeaveGroupResponse:
		return codeLeaveGroupResponse
	case impl.OffsetCommitResponse:
		return codeOffsetCommitResp
	case impl.ConsumerGroupHeartbeatRequest:
		return codeCGHRequest
	case impl.ConsumerGroupHeartbeatResponse:
		return codeCGHResponse
	}
	return 0 // any other kind: the signature is coarser, never wrong
}
