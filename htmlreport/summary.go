package htmlreport

import "slices"

// Count is one part of the page's summary line: how many properties have one outcome.
type Count struct {
	N     int
	Label string // "violated", "violated as expected here", "holds", "unknown", "not seen"
	Class string // the verdict class (Verdict.StatusClass) that colours it
}

// classRank orders the summary as a reader asks: what fails the run, what is expected to
// fail here, what was not decided, what holds.
var classRank = map[string]int{"violated": 0, "expected": 1, "unknown": 2, "holds": 3}

// Summary counts the verdicts by outcome, failures first: the page's opening line, so that
// the answer is read before any table.
func (p *Page) Summary() []Count {
	var out []Count
	at := map[string]int{}
	for _, v := range p.Props {
		c := v.StatusClass()
		label := v.Status
		if c == "expected" {
			label = "violated as expected here"
		}
		i, ok := at[label]
		if !ok {
			i = len(out)
			at[label] = i
			out = append(out, Count{Label: label, Class: c})
		}
		out[i].N++
	}
	slices.SortStableFunc(out, func(a, b Count) int { return classRank[a.Class] - classRank[b.Class] })
	return out
}

// Heading is a timeline's heading: what it shows and, for each violation it is the
// counterexample of, a tag saying so; an expected violation's tag says so and its reason
// follows in the heading itself, so that a reader does not take it for a failure.
type Heading struct {
	Text string
	Tags []Tag
}

// Tag is one finding in a timeline's heading.
type Tag struct {
	Name   string // the property, "" when the heading's text already names it
	Status string // "violated", "violated, expected here", "unreached"
	Class  string
	Why    string // an expected violation's reason
}

// headings are the page's timelines' headings, by timeline id: a timeline is the
// counterexample of the violated rows that link it (a history's one timeline holds every
// finding).
func (p *Page) headings() map[string]Heading {
	found := map[string][]Verdict{}
	for _, v := range p.Props {
		if c := v.StatusClass(); v.Timeline != "" && (c == "violated" || c == "expected") {
			found[v.Timeline] = append(found[v.Timeline], v)
		}
	}
	out := map[string]Heading{}
	for _, tl := range p.Timelines {
		h := Heading{Text: tl.Title}
		if tl.Property != "" {
			h.Text = tl.Property
		}
		vs := found[tl.ID]
		if len(vs) == 1 {
			h.Text = vs[0].Name
		}
		for _, v := range vs {
			t := Tag{Name: v.Name, Status: v.Status, Class: v.StatusClass(), Why: v.Expected}
			if t.Class == "expected" {
				t.Status = "violated, expected here"
			}
			if t.Name == h.Text {
				t.Name = ""
			}
			h.Tags = append(h.Tags, t)
		}
		out[tl.ID] = h
	}
	return out
}

// rank orders timelines: 0 for one that shows a violation failing the run, 1 for the rest.
func (h Heading) rank() int {
	for _, t := range h.Tags {
		if t.Class == "violated" {
			return 0
		}
	}
	return 1
}
