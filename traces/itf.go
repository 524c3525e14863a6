package traces

import (
	"encoding/json"
	"io"

	"github.com/groupcheck/groupcheck/impl"
	"github.com/groupcheck/groupcheck/spec"
)

// The ITF mapping (Informal Trace Format, Apalache ADR-015, read by Quint and the ITF trace
// viewer). One ITF state per world of the replay: the initial world (index 0), then the world
// after each action (a check adds no state; an action that is not enabled repeats the world).
// Every value is a plain JSON value — numbers are JSON numbers (ITF allows them below 2^53;
// nothing here comes near), partition sets are sorted lists of "topic-N" strings, records are
// objects:
//
//	mbt::actionTaken  string   the action's text; "init" for state 0 (Quint's MBT variable)
//	coord_state       string   Empty, PreparingRebalance, CompletingRebalance, Stable, Dead
//	generation        number   the coordinator's generation
//	leader            string   the leader's member id, "" for none
//	members           [record] the coordinator's members: {id, instance, assignment}
//	slots             record   per configured member name: {process, incarnation, state,
//	                           member_id, generation, owned, in_flight_requests,
//	                           in_flight_responses}
//	violations        [string] always-properties failing in this world (`violation N: why`)
var itfVars = []string{"mbt::actionTaken", "coord_state", "generation", "leader", "members", "slots", "violations"}

type itfTrace struct {
	Meta   map[string]any   `json:"#meta"`
	Vars   []string         `json:"vars"`
	States []map[string]any `json:"states"`
	// Loop is ITF's lasso marker: the index of the state the last state loops back to (the
	// world before a lasso's cycle; the last state equals it).
	Loop *int `json:"loop,omitempty"`
}

// ITF writes the replayed trace in the Informal Trace Format (see the mapping above).
func ITF(w io.Writer, t *Trace, res *Result) error {
	out := itfTrace{
		Meta: map[string]any{
			"format":             "ITF",
			"format-description": "https://apalache-mc.org/docs/adr/015adr-trace.html",
			"source":             t.Name,
			"description":        "groupcheck trace of " + t.Config.Name + " (" + ModelVersion + ")",
		},
		Vars: itfVars,
	}
	r := newRunner(t.Config)
	out.States = append(out.States, itfState(0, "init", res.Init, r.violations()))
	for i, s := range res.Steps {
		if s.Step.Check {
			continue
		}
		if i+1 == t.Header.Cycle {
			loop := len(out.States) - 1
			out.Loop = &loop
		}
		r.step(s.Step.Action)
		out.States = append(out.States, itfState(len(out.States), s.Step.Text, s.Post, r.violations()))
	}
	enc := json.NewEncoder(w)
	enc.SetIndent("", "  ")
	return enc.Encode(out)
}

func itfState(i int, action string, w spec.World, vs []Violation) map[string]any {
	st := stateJSON(w)
	viol := []string{}
	for _, v := range vs {
		viol = append(viol, v.String())
	}
	return map[string]any{
		"#meta":            map[string]any{"index": i},
		"mbt::actionTaken": action,
		"coord_state":      st.Coord.State,
		"generation":       st.Coord.Generation,
		"leader":           st.Coord.Leader,
		"members":          st.Coord.Members,
		"slots":            st.slotRecord(),
		"violations":       viol,
	}
}

// worldJSON is the structured form of a world shared by the ITF and JSON renderings.
type worldJSON struct {
	Coord coordJSON  `json:"coord"`
	Slots []slotJSON `json:"slots"`
}

type coordJSON struct {
	State      string       `json:"state"`
	Generation int          `json:"generation"`
	Leader     string       `json:"leader"`
	Protocol   string       `json:"protocol"`
	Members    []memberJSON `json:"members"`
}

type memberJSON struct {
	ID         string   `json:"id"`
	Instance   string   `json:"instance"`
	Assignment []string `json:"assignment"`
}

type slotJSON struct {
	Name        string   `json:"name"`
	Process     string   `json:"process"`
	Incarnation int      `json:"incarnation"`
	State       string   `json:"state"`
	MemberID    string   `json:"member_id"`
	Generation  int      `json:"generation"`
	Owned       []string `json:"owned"`
	Requests    []string `json:"in_flight_requests"`
	Responses   []string `json:"in_flight_responses"`
}

func stateJSON(w spec.World) worldJSON {
	c := w.Coord
	out := worldJSON{Coord: coordJSON{State: c.State().String(), Generation: int(c.Generation()),
		Leader: string(c.Leader()), Protocol: c.ProtocolName(), Members: []memberJSON{}}}
	for _, m := range c.AllMembers() {
		out.Coord.Members = append(out.Coord.Members, memberJSON{ID: string(m.ID), Instance: string(m.InstanceID),
			Assignment: partitions(m.Assignment.Partitions)})
	}
	for i, s := range w.Slots {
		sj := slotJSON{Name: w.Config().Members[i].Name, Process: s.Process.String(), Incarnation: int(s.Incarnation),
			State: s.Client.State().String(), MemberID: string(s.Client.MemberID()), Generation: int(s.Client.Generation()),
			Owned: partitions(s.Client.Owned()), Requests: []string{}, Responses: []string{}}
		// The messages in flight, as World.String renders them.
		for _, l := range splitLines(w.String()) {
			if m, ok := inFlight(l, sj.Name); ok && m.request {
				sj.Requests = append(sj.Requests, m.text)
			} else if ok {
				sj.Responses = append(sj.Responses, m.text)
			}
		}
		out.Slots = append(out.Slots, sj)
	}
	return out
}

func (w worldJSON) slotRecord() map[string]slotJSON {
	out := map[string]slotJSON{}
	for _, s := range w.Slots {
		out[s.Name] = s
	}
	return out
}

type message struct {
	request bool
	text    string
}

// inFlight recognises World.String's indented message lines of one member.
func inFlight(l, name string) (message, bool) {
	if t, ok := cutPrefix(l, "  "+name+" -> coord: "); ok {
		return message{request: true, text: t}, true
	}
	if t, ok := cutPrefix(l, "  coord -> "+name+": "); ok {
		return message{text: t}, true
	}
	return message{}, false
}

func cutPrefix(s, p string) (string, bool) {
	if len(s) >= len(p) && s[:len(p)] == p {
		return s[len(p):], true
	}
	return "", false
}

func partitions(s impl.PartitionSet) []string {
	out := []string{}
	for _, tp := range s.Slice() {
		out = append(out, tp.String())
	}
	return out
}
