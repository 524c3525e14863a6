package explorer

import "fmt"

// Rebuilt levels: spilling states that hold pointers.
//
// A pointer-free state is spilled by writing its bytes to a file
// (spill.go). A state with pointers cannot be written out without a
// codec, and Model has none: Encode is a canonical form, not an
// invertible one (the Kafka world leaves out the fields of the protocol
// it does not run and encodes generations relative to the coordinator's).
// What the explorer has instead is a path to every state: the parent key
// in the trace, which Model.Next re-executes. Two ways to use it:
//
//   - Keep no states at all and re-execute every state of the level to
//     expand from an initial state: as many Next calls per state as its
//     depth, at every level. On static-kafka (depth 128, most states
//     around depth 30–90) that is some fifty times the Next calls of the
//     search itself.
//   - Re-execute one step: while a level is expanded, the records of the
//     next one hold its fingerprint and parent key in place of the state
//     (12 bytes beside an empty state), and commit re-executes the action
//     of each kept record on its parent, which the current level still
//     holds. That is one Next and one Encode per new state, and one
//     Actions per parent, well under the cost of expanding it (which
//     tries every action and encodes every successor).
//
// The explorer does the second (rebuildLevel). The successors found
// while a level is expanded (displaced ones included) then cost no
// memory beyond their record, and as the new states are rebuilt their
// parents are let go unit by unit, so about one level of states is
// alive at a time instead of two. The states of the level being
// expanded stay in memory; a model with a codec could spill them too.
//
// The result cannot change: a record's key names the same parent and
// action that produced it, and the model is deterministic. A rebuilt
// state whose fingerprint is not the one recorded is a broken contract,
// reported in Report.Err.

// rebuildLevel gives the kept records of next, a level expanded with
// c.rebuild, their states back from their parents in cur, checks the
// properties on them, and lets the parents go. Each worker takes the
// segments of one expansion unit at a time (they are contiguous, as
// next is in unit order), so that it can clear the unit's parents once
// their children are rebuilt.
func (c *checker[S, A]) rebuildLevel(next, cur *level[S]) {
	type run struct{ lo, hi int }
	var runs []run
	for k := 0; k < len(next.segs); {
		j := k + 1
		for j < len(next.segs) && next.segs[j].unit == next.segs[k].unit {
			j++
		}
		runs = append(runs, run{k, j})
		k = j
	}
	parallelFor(c.workers, len(runs), func(w, r int) bool {
		wk := c.ws[w]
		for k := runs[r].lo; k < runs[r].hi; k++ {
			c.rebuildSegment(wk, cur, &next.segs[k])
			c.checkSegment(wk, k, &next.segs[k])
		}
		u := c.units[next.segs[runs[r].lo].unit]
		clear(cur.segs[u.seg].states[u.lo:u.hi])
		return true
	})
}

// rebuildSegment re-executes the records of one segment of a rebuilt
// level. Keys increase within a segment, so the children of a parent are
// adjacent and its actions are listed once.
func (c *checker[S, A]) rebuildSegment(w *worker[S, A], cur *level[S], seg *segment[S]) {
	parents := &cur.segs[c.units[seg.unit].seg]
	last := int64(-1)
	var p S
	for j := range seg.keys {
		key := seg.keyBase + uint64(seg.keys[j])
		if pos := int64(key >> actionBits); pos != last {
			p = parents.states[pos-parents.base]
			w.acts = c.m.Actions(p, w.acts[:0])
			last = pos
		}
		var t S
		i := int(key & actionMask)
		ok := i < len(w.acts)
		if ok {
			t, ok = c.m.Next(p, w.acts[i])
		}
		if ok {
			w.enc = c.m.Encode(t, w.enc[:0])
			ok = fingerprint(w.enc) == seg.fps[j]
		}
		if !ok {
			c.fail(fmt.Errorf("explorer: rebuilding depth %d: action %d of a parent no longer gives the state it gave (nondeterministic model?)",
				len(c.levels), i))
		}
		seg.states[j] = t
	}
	clear(w.acts) // drop references held by A, if any
}
