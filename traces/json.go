package traces

import (
	"encoding/json"
	"fmt"
	"io"

	"github.com/groupcheck/groupcheck/spec"
)

type jsonTrace struct {
	Name       string      `json:"name"`
	Format     string      `json:"format"`
	Model      string      `json:"model"`
	About      []string    `json:"about,omitempty"`
	Property   string      `json:"property,omitempty"`
	Cycle      int         `json:"cycle,omitempty"`    // a lasso: the step its cycle starts at
	DeadEnd    bool        `json:"dead_end,omitempty"` // a lasso ending in a dead end
	Found      string      `json:"found"`
	Config     string      `json:"config"`
	Init       worldJSON   `json:"init"`
	Steps      []jsonStep  `json:"steps"`
	Divergence *Divergence `json:"divergence,omitempty"`
	Note       string      `json:"note,omitempty"`
}

type jsonStep struct {
	Index      int         `json:"index"`
	Line       int         `json:"line,omitempty"`
	Directive  string      `json:"directive"`
	Kind       string      `json:"kind"`
	Comments   []string    `json:"comments,omitempty"`
	Enabled    bool        `json:"enabled"`
	Events     []jsonEvent `json:"events"`
	Changed    []string    `json:"changed"`
	State      *worldJSON  `json:"state,omitempty"`
	Violations []Violation `json:"violations,omitempty"`
	Expected   []string    `json:"expected"`
	Got        []string    `json:"got"`
}

type jsonEvent struct {
	Type   string `json:"type"` // send, reply, callback, commit, assign, fatal
	Member string `json:"member"`
	Text   string `json:"text"`
}

// JSON writes the parsed trace with its replay as one JSON object: header, config text, the
// initial world, and per directive its events, the changed lines of the world, the world
// after it, a check's violations, and the expected and produced output.
func JSON(w io.Writer, t *Trace, res *Result) error {
	out := jsonTrace{Name: t.Name, Format: FormatVersion[2:], Model: t.Header.Model, About: t.Header.About,
		Property: t.Header.Property, Cycle: t.Header.Cycle, DeadEnd: t.Header.DeadEnd, Found: t.Header.Found, Config: t.Config.Format(), Init: stateJSON(res.Init),
		Divergence: res.Divergence, Note: res.Note, Steps: []jsonStep{}}
	for i, s := range res.Steps {
		js := jsonStep{Index: i + 1, Line: s.Step.Line, Directive: s.Step.Text, Comments: s.Step.Comments,
			Enabled: s.Enabled, Events: []jsonEvent{}, Changed: []string{}, Violations: s.Violations,
			Expected: s.Step.Expected, Got: s.Got}
		if s.Step.Check {
			js.Kind = "check"
		} else {
			js.Kind = s.Step.Action.Kind.String()
			st := stateJSON(s.Post)
			js.State = &st
		}
		for _, e := range s.Events {
			js.Events = append(js.Events, eventJSON(e))
		}
		if s.Enabled && !s.Step.Check {
			js.Changed = worldDiff(s.Pre.String(), s.Post.String())
		}
		out.Steps = append(out.Steps, js)
	}
	enc := json.NewEncoder(w)
	enc.SetIndent("", "  ")
	return enc.Encode(out)
}

func eventJSON(e spec.Event) jsonEvent {
	switch e := e.(type) {
	case spec.SendEvent:
		return jsonEvent{"send", e.Name, e.String()}
	case spec.ReplyEvent:
		return jsonEvent{"reply", e.Name, e.String()}
	case spec.CallbackEvent:
		return jsonEvent{"callback", e.Name, e.String()}
	case spec.CommitEvent:
		return jsonEvent{"commit", e.Name, e.String()}
	case spec.AssignEvent:
		return jsonEvent{"assign", e.Name, e.String()}
	case spec.FatalEvent:
		return jsonEvent{"fatal", e.Name, e.String()}
	}
	return jsonEvent{fmt.Sprintf("%T", e), "", e.String()}
}
