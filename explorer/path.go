package explorer

import "fmt"

// found locates a state that decided a property: its level, position in
// the level and fingerprint.
type found struct {
	level int
	pos   int64
	fp    uint64
}

// rebuild returns the path to the state at (level, pos): it follows the
// stored parent keys back to an initial state, then re-executes the
// model forward, taking at each step the action with the stored index.
// Because every state's key is the smallest (parent position, action
// index) among its discoverers and BFS finds every state at its
// shallowest depth, the path is a shortest one and the same for any
// number of workers.
func rebuild[S, A any](m Model[S, A], inits []S, t *traceStore, f found) (*Path[S, A], error) {
	keys := make([]uint64, f.level+1)
	pos := f.pos
	for d := f.level; d >= 0; d-- {
		k, err := t.key(d, pos)
		if err != nil {
			return nil, err
		}
		keys[d] = k
		pos = int64(k >> actionBits)
	}
	if keys[0] >= uint64(len(inits)) {
		return nil, fmt.Errorf("explorer: trace names initial state %d of %d", keys[0], len(inits))
	}
	p := &Path[S, A]{Init: inits[keys[0]]}
	s := p.Init
	var acts []A
	for d := 1; d <= f.level; d++ {
		acts = m.Actions(s, acts[:0])
		i := int(keys[d] & actionMask)
		if i >= len(acts) {
			return p, fmt.Errorf("explorer: replay at depth %d: action %d of %d (nondeterministic Actions?)", d, i, len(acts))
		}
		next, ok := m.Next(s, acts[i])
		if !ok {
			return p, fmt.Errorf("explorer: replay at depth %d: action %d not enabled (nondeterministic Next?)", d, i)
		}
		p.Steps = append(p.Steps, Step[S, A]{Action: acts[i], State: next})
		s = next
	}
	if fp := fingerprint(m.Encode(s, nil)); fp != f.fp {
		return p, fmt.Errorf("explorer: replayed path ends in another state (nondeterministic model?)")
	}
	return p, nil
}
