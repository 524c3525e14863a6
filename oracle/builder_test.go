package oracle

import (
	"sort"
	"strings"
	"time"

	"github.com/groupcheck/groupcheck/oracle/history"
)

// hb builds a history by hand: every event gets the next seq and the current time, and the
// time advances by step after each event (set step to 0 to record events at equal times).
type hb struct {
	h    history.History
	t    int64
	step int64
	id   int64
}

func newHB() *hb { return &hb{step: int64(time.Millisecond)} }

func (b *hb) add(e history.Event) history.Event {
	e.Seq, e.T = int64(len(b.h))+1, b.t
	b.h = append(b.h, e)
	b.t += b.step
	return e
}

// begin records the begin of an interval and returns its ID.
func (b *hb) begin(e history.Event) int64 {
	b.id++
	e.ID, e.Phase = b.id, history.Begin
	b.add(e)
	return b.id
}

// end records the end of interval id, copying kind, node and op from its begin.
func (b *hb) end(id int64, x history.Event) history.Event {
	for _, e := range b.h {
		if e.ID == id && e.Phase == history.Begin {
			x.Kind, x.Node, x.Op, x.ID, x.Phase = e.Kind, e.Node, e.Op, id, history.End
		}
	}
	return b.add(x)
}

func (b *hb) start(node, proto string) {
	b.add(history.Event{Kind: history.Start, Node: node, Proto: proto})
}
func (b *hb) instant(k history.Kind, node string) {
	b.add(history.Event{Kind: k, Node: node})
}
func (b *hb) gen(node, member string, g int32) {
	b.add(history.Event{Kind: history.Generation, Node: node, Member: member, Gen: g})
}

// cb records a whole callback (begin then end) of kind k over ps.
func (b *hb) cb(node string, k history.Kind, ps history.Parts) {
	b.end(b.begin(history.Event{Kind: k, Node: node, Parts: ps}), history.Event{})
}

// req records a whole coordinator request with its answer.
func (b *hb) req(node, op, member string, gen int32, errName string) {
	id := b.begin(history.Event{Kind: history.Request, Node: node, Op: op, Member: member, Gen: gen})
	b.end(id, history.Event{Err: errName, Member: member})
}

// commit records a whole commit of ps with its outcome.
func (b *hb) commit(node string, ps history.Parts, errName string) {
	id := b.begin(history.Event{Kind: history.Commit, Node: node, Parts: ps})
	b.end(id, history.Event{Err: errName})
}

func parts(topic string, ps ...int32) history.Parts { return history.Parts{topic: ps} }

// classes lists a report's findings as "property class" strings, sorted.
func classes(r Report) []string {
	var out []string
	for _, v := range append(append([]Violation(nil), r.Violations...), r.Zombies...) {
		out = append(out, v.Property+" "+v.Class)
	}
	sort.Strings(out)
	return out
}

func seqs(es []history.Event) []int64 {
	out := make([]int64, len(es))
	for i, e := range es {
		out[i] = e.Seq
	}
	return out
}

func messages(r Report) string {
	var b strings.Builder
	for _, v := range append(append([]Violation(nil), r.Violations...), r.Zombies...) {
		b.WriteString(v.Message + "\n")
	}
	return b.String()
}
