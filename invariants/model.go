package invariants

import (
	"sync"

	"github.com/groupcheck/groupcheck/explorer"
	"github.com/groupcheck/groupcheck/spec"
)

// Model adapts a spec config and its properties to explorer.Model.
type Model struct {
	cfg       spec.Config
	props     []Property
	bits      []uint64   // per property: its Observed bit (step properties), else 0
	steps     []stepProp // the step properties, in report order
	transient uint64     // bits of sometimes-step properties, cleared by every step
}

// stepProp is a step property with its Observed bit, apart so that Next walks only these.
type stepProp struct {
	bit   uint64
	fails func(pre *spec.World, ev []spec.Event, post *spec.World) string
}

// NewModel is the model of a config with the properties that apply to it.
func NewModel(c spec.Config) *Model { return NewModelWith(c, For(c)) }

// NewModelWith is the model of a config checking the given properties.
func NewModelWith(c spec.Config, props []Property) *Model {
	m := &Model{cfg: c, props: props, bits: make([]uint64, len(props))}
	next := uint64(1)
	for i, p := range props {
		if p.Step != nil {
			if next == 0 {
				panic("invariants: more than 64 step properties")
			}
			m.bits[i] = next
			m.steps = append(m.steps, stepProp{next, p.Step})
			if p.Kind == explorer.Sometimes {
				m.transient |= next
			}
			next <<= 1
		}
	}
	return m
}

// pair is a step's two worlds where properties read them by pointer. Next and the state
// checks take worlds by value (explorer.Model's signatures), so a pointer to those copies
// would move every world to the heap; pairs are reused instead, one per check in flight.
type pair struct{ pre, post spec.World }

var pairs = sync.Pool{New: func() any { return new(pair) }}

// Config is the model's config.
func (m *Model) Config() spec.Config { return m.cfg }

// Props are the model's properties, in report order.
func (m *Model) Props() []Property { return m.props }

func (m *Model) Init() []spec.World { return []spec.World{spec.Init(m.cfg)} }

func (m *Model) Actions(w spec.World, buf []spec.Action) []spec.Action { return spec.Actions(w, buf) }

// Next steps the world and records failed step properties in the successor's Observed bits.
func (m *Model) Next(w spec.World, a spec.Action) (spec.World, bool) {
	n, ev, ok := spec.Step(w, a)
	if !ok {
		return w, false
	}
	n.Observed &^= m.transient
	pr := pairs.Get().(*pair)
	pr.pre, pr.post = w, n
	for _, sp := range m.steps {
		if n.Observed&sp.bit == 0 && sp.fails(&pr.pre, ev, &pr.post) != "" {
			n.Observed |= sp.bit
		}
	}
	*pr = pair{} // hold no world's slots past the step
	pairs.Put(pr)
	return n, true
}

func (m *Model) Encode(w spec.World, buf []byte) []byte { return w.Encode(buf) }

func (m *Model) ActionKinds() []string { return spec.KindNames() }

func (m *Model) ActionKind(a spec.Action) int { return int(a.Kind) }

// Properties are the explorer's view of the model's properties.
func (m *Model) Properties() []explorer.Property[spec.World] {
	out := make([]explorer.Property[spec.World], len(m.props))
	for i, p := range m.props {
		out[i] = explorer.Property[spec.World]{Name: p.Name, Kind: p.Kind, Check: m.check(i)}
	}
	return out
}

func (m *Model) check(i int) func(spec.World) bool {
	p, bit := m.props[i], m.bits[i]
	switch {
	case p.Step == nil:
		return func(w spec.World) bool {
			pr := pairs.Get().(*pair)
			pr.post = w
			ok := p.State(&pr.post) == ""
			pr.post = spec.World{}
			pairs.Put(pr)
			return ok
		}
	case p.Kind == explorer.Sometimes:
		return func(w spec.World) bool { return w.Observed&bit != 0 }
	default:
		return func(w spec.World) bool { return w.Observed&bit == 0 }
	}
}

// Explain says why property name fails (always) or holds (sometimes) at the end of a path:
// the state property's reason, or the step property's reason on the path's last step.
func (m *Model) Explain(name string, p *explorer.Path[spec.World, spec.Action]) string {
	for _, prop := range m.props {
		if prop.Name != name {
			continue
		}
		if prop.State != nil {
			last := p.Last()
			return prop.State(&last)
		}
		pre := p.Init
		if len(p.Steps) > 1 {
			pre = p.Steps[len(p.Steps)-2].State
		}
		if len(p.Steps) == 0 {
			return ""
		}
		last := p.Steps[len(p.Steps)-1]
		_, ev, _ := spec.Step(pre, last.Action)
		return prop.Step(&pre, ev, &last.State)
	}
	return ""
}
