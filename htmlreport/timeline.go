package htmlreport

import (
	"fmt"
	"slices"
	"strings"

	"github.com/groupcheck/groupcheck/impl"
	"github.com/groupcheck/groupcheck/spec"
	"github.com/groupcheck/groupcheck/traces"
)

// Timeline is one counterexample (or scenario) as swimlanes: a lane for the coordinator and
// one per member, a column per world (column 0 the initial world, column i the world after
// step i), the messages between lanes, and a band per partition showing who believes it owns
// it at each column. It is data; svg.go draws it.
type Timeline struct {
	ID       string // unique in the page: element ids and the script key on it
	Title    string
	Property string
	About    []string
	Found    string
	Lasso    string // "" or a sentence saying where the cycle is, or that the path ends in a dead end
	Lanes    []string
	Steps    []StepView
	Messages []Message
	Bands    []Band
	// States are the group state and generation (or epoch) along the coordinator lane, and
	// each member's along its own: Lanes[i]'s segments are States[i].
	States [][]Segment
	Cycle  int  // the step (1-based) from which the actions repeat forever; 0 for none
	Dead   bool // the last world is a dead end
	Init   string
	// Divergence is set when the model no longer does what the trace file says.
	Divergence string
	// X, when set, are the columns' centres (a history's real time); ColLabels their axis
	// labels. Both have one entry per column, or none.
	X         []float64
	ColLabels []string
}

// StepView is one directive at its column.
type StepView struct {
	N       int    // 1-based step, the column
	Text    string // the directive
	Lane    int    // the lane the action is drawn on
	Class   string // protocol, env, timer or check
	Enabled bool
	Got     []string // the step's events and the lines of the world that changed
	World   string   // the whole world after the step
	// WorldHead titles World when it is not a world (a history's event): "" for the default.
	WorldHead string
	Marks     []Mark // callbacks, assignments, commits, fatal errors, violations
	Broken    bool   // a check with violations
}

// Mark is a small labelled tag on a lane at a step's column.
type Mark struct {
	Lane  int
	Label string
	Title string
	Class string // assigned, revoked, lost, assign, commit, fatal, violation, target
}

// Message is a request (member → coordinator) or a response (coordinator → member), from the
// column it was sent at to the column it was handled at; To is -1 while it is still in flight
// at the end, and Lost says it vanished unread (a lost response, a crash).
type Message struct {
	FromLane, ToLane int
	From, To         int
	Label            string
	Title            string
	Lost             bool
	Reply            bool
}

// Band is one partition's ownership over the columns.
type Band struct {
	Partition string
	Segs      []Seg
}

// Seg is a run of columns (inclusive) with the same owners; Overlap when two or more running
// members believe they own the partition at once.
type Seg struct {
	From, To int
	Owners   []string
}

// Overlap reports whether more than one member owns the partition in the segment.
func (s Seg) Overlap() bool { return len(s.Owners) > 1 }

// Segment is a run of columns with the same state label on a lane.
type Segment struct {
	From, To int
	Label    string
	Class    string
}

// NewTimeline builds the timeline of a replayed trace.
func NewTimeline(id string, t *traces.Trace, res *traces.Result) *Timeline {
	cfg := &t.Config
	tl := &Timeline{ID: id, Title: t.Name, Property: t.Header.Property, About: t.Header.About,
		Found: t.Header.Found, Cycle: t.Header.Cycle, Dead: t.Header.DeadEnd, Init: res.Init.String()}
	tl.Lanes = append(tl.Lanes, "coord")
	for _, m := range cfg.Members {
		tl.Lanes = append(tl.Lanes, m.Name)
	}
	switch {
	case tl.Dead:
		tl.Lasso = "the last world is a dead end: no protocol action is enabled"
	case tl.Cycle > 0:
		tl.Lasso = fmt.Sprintf("steps %d to %d repeat forever", tl.Cycle, lastAction(res))
	}
	if d := res.Divergence; d != nil {
		tl.Divergence = d.Label + ": " + d.Reason
	}
	worlds := []spec.World{res.Init}
	for i, s := range res.Steps {
		worlds = append(worlds, s.Post)
		tl.Steps = append(tl.Steps, stepView(cfg, i+1, s))
	}
	tl.Messages = messages(res)
	tl.Bands = bands(worlds)
	tl.States = states(worlds)
	return tl
}

func lastAction(res *traces.Result) int {
	n := len(res.Steps)
	for n > 0 && res.Steps[n-1].Step.Check {
		n--
	}
	return n
}

// stepView is a step's column: its action, the lane it is drawn on, and its marks.
func stepView(cfg *spec.Config, n int, s traces.StepResult) StepView {
	v := StepView{N: n, Text: s.Step.Text, Enabled: s.Enabled, Got: s.Got, World: s.Post.String()}
	if s.Step.Check {
		v.Class = "check"
		for _, viol := range s.Violations {
			v.Marks = append(v.Marks, Mark{Lane: 0, Label: viol.Property, Title: viol.String(), Class: "violation"})
		}
		v.Broken = len(s.Violations) > 0
		return v
	}
	a := s.Step.Action
	v.Lane, v.Class = actionLane(a), actionClass(a.Kind)
	if v.Class != "protocol" {
		// Timers and the environment's events are few and decide the story: name them.
		label := s.Step.Text
		if v.Lane > 0 {
			label = strings.TrimSuffix(label, " "+cfg.Members[v.Lane-1].Name)
		}
		v.Marks = append(v.Marks, Mark{Lane: v.Lane, Label: label, Title: s.Step.Text, Class: v.Class})
	}
	for _, e := range s.Events {
		if m, ok := eventMark(e); ok {
			v.Marks = append(v.Marks, m)
		}
	}
	return v
}

// actionLane is the lane an action is drawn on: the coordinator for what it does (handling a
// request, its timers, the cluster's metadata), the member otherwise.
func actionLane(a spec.Action) int {
	if a.Kind.OnCoordinator() {
		return 0
	}
	return int(a.Slot) + 1
}

// actionClass sorts actions as the liveness check does: the protocol's own, the timers, and
// the environment's budgeted events.
func actionClass(k spec.Kind) string { return string(k.Class()) }

// eventMark is the tag an event leaves on a lane; messages are drawn as arrows instead.
func eventMark(e spec.Event) (Mark, bool) {
	switch e := e.(type) {
	case spec.CallbackEvent:
		k := e.Kind.String()
		sign := map[string]string{"assigned": "+", "revoked": "−", "lost": "lost "}[k]
		return Mark{Lane: e.Slot + 1, Label: sign + partitions(e.Partitions), Title: e.String(), Class: k}, true
	case spec.AssignEvent:
		label := fmt.Sprintf("plan g%d", e.Generation)
		class := "assign"
		if e.Failed != "" {
			label, class = "plan failed", "fatal"
		}
		return Mark{Lane: e.Slot + 1, Label: label, Title: e.String(), Class: class}, true
	case spec.CommitEvent:
		label := "commit"
		if e.Error != impl.None {
			label = "commit ✗"
		}
		return Mark{Lane: 0, Label: label, Title: e.String(), Class: "commit"}, true
	case spec.FatalEvent:
		return Mark{Lane: e.Slot + 1, Label: "fatal", Title: e.String(), Class: "fatal"}, true
	case spec.TargetEvent:
		return Mark{Lane: 0, Label: fmt.Sprintf("target@%d", e.Epoch), Title: e.String(), Class: "target"}, true
	}
	return Mark{}, false
}

func partitions(s impl.PartitionSet) string {
	var parts []string
	for _, tp := range s.Slice() {
		parts = append(parts, tp.String())
	}
	return strings.Join(parts, " ")
}

// messages pairs each request and response with the step that handled it. The network is
// per-connection FIFO: a slot's requests leave its Out queue from the front, its responses
// its In queue; so the queues are mirrored by send column, and whatever leaves the front of a
// queue left it at that step — delivered by the step that delivers it, lost otherwise (a lost
// response, a crash that empties In).
func messages(res *traces.Result) []Message {
	n := len(res.Init.Slots)
	out := make([][]int, n) // indices into msgs, per slot, in queue order
	in := make([][]int, n)
	var msgs []Message
	for s, sl := range res.Init.Slots {
		for _, r := range sl.Out {
			out[s] = append(out[s], len(msgs))
			msgs = append(msgs, requestMessage(s, 0, spec.SendEvent{Request: r}))
		}
		for range sl.In {
			in[s] = append(in[s], len(msgs))
			msgs = append(msgs, Message{FromLane: 0, ToLane: s + 1, From: 0, To: -1, Label: "?", Reply: true})
		}
	}
	for i, st := range res.Steps {
		col := i + 1
		for _, e := range st.Events {
			switch e := e.(type) {
			case spec.SendEvent:
				out[e.Slot] = append(out[e.Slot], len(msgs))
				msgs = append(msgs, requestMessage(e.Slot, col, e))
			case spec.ReplyEvent:
				m := Message{FromLane: 0, ToLane: e.Slot + 1, From: col, To: -1, Label: firstWord(after(e.String(), ": ")), Title: e.String(), Reply: true}
				if e.Dropped {
					m.To, m.Lost = col, true
					msgs = append(msgs, m)
					continue
				}
				in[e.Slot] = append(in[e.Slot], len(msgs))
				msgs = append(msgs, m)
			}
		}
		if st.Step.Check || !st.Enabled {
			continue
		}
		a := st.Step.Action
		for s := range out {
			out[s] = drain(msgs, out[s], len(st.Post.Slots[s].Out), col, a.Kind == spec.DeliverRequest && int(a.Slot) == s)
			in[s] = drain(msgs, in[s], len(st.Post.Slots[s].In), col, a.Kind == spec.DeliverResponse && int(a.Slot) == s)
		}
	}
	return msgs
}

// drain takes from the front of a mirrored queue what left the real one at column col: the
// first is delivered when the step delivers this queue's head, the rest are lost.
func drain(msgs []Message, q []int, want, col int, delivers bool) []int {
	for len(q) > want {
		m := &msgs[q[0]]
		m.To, m.Lost = col, !delivers
		delivers = false
		q = q[1:]
	}
	return q
}

func requestMessage(slot, col int, e spec.SendEvent) Message {
	text := e.String()
	if e.Name == "" {
		text = fmt.Sprint(e.Request)
	}
	return Message{FromLane: slot + 1, ToLane: 0, From: col, To: -1, Label: requestName(e.Request), Title: text}
}

// requestName is a request's API name, short enough for an arrow.
func requestName(r impl.Request) string {
	name := fmt.Sprintf("%T", r)
	name = strings.TrimSuffix(name[strings.LastIndex(name, ".")+1:], "Request")
	return name
}

func firstWord(s string) string {
	w, _, _ := strings.Cut(s, " ")
	return w
}

func after(s, sep string) string {
	if _, rest, ok := strings.Cut(s, sep); ok {
		return rest
	}
	return s
}

// owners are the members whose running (or hung) consumer believes it owns tp in w; a
// crashed or closed process owns nothing.
func owners(w spec.World, tp impl.TopicPartition) []string {
	var out []string
	for i, s := range w.Slots {
		if (s.Process == spec.Running || s.Process == spec.Hung) && w.Owned(i).Contains(tp) {
			out = append(out, w.Config().Members[i].Name)
		}
	}
	return out
}

// bands is a band per partition that exists in any of the worlds, in topic-partition order.
func bands(worlds []spec.World) []Band {
	var tps []impl.TopicPartition
	for _, w := range worlds {
		for _, t := range w.Cluster.Topics {
			for p := range t.Partitions {
				tp := impl.TopicPartition{Topic: t.Name, Partition: p}
				if !slices.Contains(tps, tp) {
					tps = append(tps, tp)
				}
			}
		}
	}
	slices.SortFunc(tps, impl.TopicPartition.Compare)
	var out []Band
	for _, tp := range tps {
		b := Band{Partition: tp.String()}
		for col, w := range worlds {
			b.add(col, owners(w, tp))
		}
		out = append(out, b)
	}
	return out
}

// add extends the band to column col: its last segment, when the owners are the same, or a
// new one.
func (b *Band) add(col int, owners []string) {
	if k := len(b.Segs) - 1; k >= 0 && slices.Equal(b.Segs[k].Owners, owners) {
		b.Segs[k].To = col
		return
	}
	b.Segs = append(b.Segs, Seg{From: col, To: col, Owners: owners})
}

// states are the state labels along each lane: the group's state and generation (or epoch)
// on the coordinator's, each member's process, state and generation (or epoch) on its own.
func states(worlds []spec.World) [][]Segment {
	lanes := 1 + len(worlds[0].Slots)
	out := make([][]Segment, lanes)
	for col, w := range worlds {
		for l := range lanes {
			label, class := laneState(w, l)
			if k := len(out[l]) - 1; k >= 0 && out[l][k].Label == label {
				out[l][k].To = col
				continue
			}
			out[l] = append(out[l], Segment{From: col, To: col, Label: label, Class: class})
		}
	}
	return out
}

func laneState(w spec.World, lane int) (label, class string) {
	if lane == 0 {
		if w.IsConsumerGroup() {
			return fmt.Sprintf("%s e%d", w.Group.State(), w.Group.GroupEpoch()), "coord"
		}
		return fmt.Sprintf("%s g%d", w.Coord.State(), w.Coord.Generation()), "coord"
	}
	s := w.Slots[lane-1]
	if s.Process != spec.Running {
		return s.Process.String(), s.Process.String()
	}
	if w.ConsumerSlot(lane - 1) {
		return fmt.Sprintf("%s e%d", s.Member.State(), s.Member.Epoch()), "running"
	}
	return fmt.Sprintf("%s g%d", s.Client.State(), s.Client.Generation()), "running"
}

// GotLine is a line of a step's output, classed for the page: an event, a changed line of
// the world, a removed one, a violation.
type GotLine struct{ Class, Text string }

// GotLines classes the step's output lines as the trace format writes them: "| " a line of
// the world that is new, "| -" one that went away, anything else an event.
func (s StepView) GotLines() []GotLine {
	out := make([]GotLine, len(s.Got))
	for i, l := range s.Got {
		c := "ev"
		switch {
		case strings.HasPrefix(l, "| -"):
			c = "del"
		case strings.HasPrefix(l, "|"):
			c = "chg"
		case strings.HasPrefix(l, "violation "), strings.HasPrefix(l, "zombie "):
			c = "viol"
		}
		out[i] = GotLine{Class: c, Text: l}
	}
	return out
}

// WorldTitle heads the step's world text.
func (s StepView) WorldTitle() string {
	if s.WorldHead != "" {
		return s.WorldHead
	}
	return "the world after it"
}
