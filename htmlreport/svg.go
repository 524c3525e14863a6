package htmlreport

import (
	"fmt"
	"html"
	"html/template"
	"strings"
)

// Geometry of a timeline, in SVG user units (pixels at 100%).
const (
	colW    = 30  // a column (one step) when the timeline has no real times
	gutter  = 128 // lane and band names
	axisH   = 30  // the step numbers above the lanes
	laneH   = 64  // a lane: its state strip, the step markers, the marks under them
	bandH   = 18  // a partition band
	bandGap = 26  // between the last lane and the first band (room for the bands' title)
)

// svg draws the timeline as inline SVG: lanes, state strips, step markers, marks, message
// arrows, partition bands, the lasso's cycle and the violations. Every element a test or the
// script looks for has a class and a data- attribute: g.lane[data-lane], g.band[data-partition],
// rect.col[data-step], line.msg.
func (tl *Timeline) svg() template.HTML {
	cols := len(tl.Steps) + 1
	x := tl.xs(cols)
	width := int(x[cols-1]) + colW + 16
	if tl.Dead {
		width += 64 // "■ dead end" is drawn past the last column
	}
	lanesBottom := axisH + len(tl.Lanes)*laneH
	height := lanesBottom + bandGap + len(tl.Bands)*bandH + 8
	var b strings.Builder
	fmt.Fprintf(&b, `<svg xmlns="http://www.w3.org/2000/svg" class="timeline-svg" width="%d" height="%d" viewBox="0 0 %d %d" data-lanes="%d" data-bands="%d" data-steps="%d">`,
		width, height, width, height, len(tl.Lanes), len(tl.Bands), len(tl.Steps))
	b.WriteString(`<defs><marker id="` + tl.ID + `-arrow" viewBox="0 0 10 10" refX="9" refY="5" markerWidth="7" markerHeight="7" orient="auto-start-reverse"><path d="M0,0 L10,5 L0,10 z" class="arrowhead"/></marker></defs>`)
	half := func(c int) float64 { return colHalf(x, c) }
	// Axis: step numbers, every one when they fit.
	b.WriteString(`<g class="axis">`)
	every := 1
	if cols > 1 && (x[cols-1]-x[0])/float64(cols-1) < 14 {
		every = 5
	}
	for c := 0; c < cols; c++ {
		if c%every == 0 || c == cols-1 {
			fmt.Fprintf(&b, `<text x="%.1f" y="%d">%s</text>`, x[c], axisH-16, tl.colLabel(c))
		}
	}
	b.WriteString(`</g>`)
	for l, name := range tl.Lanes {
		tl.lane(&b, x, l, name)
	}
	// The lasso's cycle: a translucent band over the lanes, under the markers and arrows.
	if tl.Cycle > 0 {
		last := lastActionView(tl.Steps)
		x0, x1 := x[tl.Cycle]-half(tl.Cycle), x[last]+half(last)
		fmt.Fprintf(&b, `<g class="cycle"><rect x="%.1f" y="%d" width="%.1f" height="%d"/><text x="%.1f" y="%d">↺ cycle: steps %d–%d repeat forever</text></g>`,
			x0, axisH-14, x1-x0, height-axisH+14, x0+3, axisH-4, tl.Cycle, last)
	}
	for i := range tl.Steps {
		s := &tl.Steps[i]
		if s.Broken {
			fmt.Fprintf(&b, `<g class="violation" data-step="%d"><line x1="%.1f" y1="%d" x2="%.1f" y2="%d"/><text x="%.1f" y="%d">✗ %s</text></g>`,
				s.N, x[s.N], axisH, x[s.N], height-4, x[s.N]-4, lanesBottom+bandGap-8, esc(violationNames(s)))
		}
	}
	for _, m := range tl.Messages {
		tl.message(&b, x, m)
	}
	for i := range tl.Steps {
		tl.step(&b, x, &tl.Steps[i])
	}
	if tl.Dead {
		c := cols - 1
		fmt.Fprintf(&b, `<g class="deadend"><text x="%.1f" y="%d">■ dead end</text></g>`, x[c]+half(c)+2, axisH+12)
	}
	fmt.Fprintf(&b, `<text class="bands-title" x="4" y="%d">partitions (owner at each step)</text>`, lanesBottom+bandGap-8)
	for i, band := range tl.Bands {
		tl.band(&b, x, lanesBottom+bandGap+i*bandH, band)
	}
	// Click targets last, so that they are on top.
	for c := 1; c < cols; c++ {
		fmt.Fprintf(&b, `<rect class="col" data-step="%d" x="%.1f" y="%d" width="%.1f" height="%d"><title>%s</title></rect>`,
			c, x[c]-half(c), axisH-14, 2*half(c), height-axisH+14, esc(tl.colTitle(c)))
	}
	b.WriteString(`</svg>`)
	return template.HTML(b.String())
}

// xs are the columns' centres: evenly spaced, or the timeline's own (real time).
func (tl *Timeline) xs(cols int) []float64 {
	if len(tl.X) == cols {
		return tl.X
	}
	x := make([]float64, cols)
	for c := range x {
		x[c] = float64(gutter + colW/2 + c*colW)
	}
	return x
}

// colHalf is half the width a column may use: half the gap to its nearer neighbour.
func colHalf(x []float64, c int) float64 {
	h := float64(colW) / 2
	if c > 0 {
		h = min(h, (x[c]-x[c-1])/2)
	}
	if c+1 < len(x) {
		h = min(h, (x[c+1]-x[c])/2)
	}
	return max(h, 1)
}

func (tl *Timeline) colLabel(c int) string {
	if len(tl.ColLabels) == len(tl.Steps)+1 {
		return esc(tl.ColLabels[c])
	}
	if c == 0 {
		return "init"
	}
	return fmt.Sprint(c)
}

func (tl *Timeline) colTitle(c int) string {
	s := tl.Steps[c-1]
	return fmt.Sprintf("%d. %s", s.N, s.Text)
}

func laneY(l int) int { return axisH + l*laneH }

// lane draws one lane: its name, its background, and its state strip.
func (tl *Timeline) lane(b *strings.Builder, x []float64, l int, name string) {
	y := laneY(l)
	cols := len(x)
	right := x[cols-1] + colHalf(x, cols-1)
	fmt.Fprintf(b, `<g class="lane" data-lane="%s"><rect class="lane-bg lane-%d" x="0" y="%d" width="%.1f" height="%d"/>`, esc(name), l%2, y, right+8, laneH)
	fmt.Fprintf(b, `<text class="lane-name" x="6" y="%d">%s</text>`, y+laneH/2+4, esc(name))
	if l < len(tl.States) {
		for _, s := range tl.States[l] {
			x0, x1 := x[s.From]-colHalf(x, s.From), x[s.To]+colHalf(x, s.To)
			fmt.Fprintf(b, `<g class="state state-%s"><rect x="%.1f" y="%d" width="%.1f" height="14"/><text x="%.1f" y="%d">%s</text><title>%s: %s</title></g>`,
				cssWord(s.Class), x0, y+2, x1-x0, x0+2, y+12, esc(fit(s.Label, x1-x0)), esc(name), esc(s.Label))
		}
	}
	b.WriteString(`</g>`)
}

// step draws a step's marker on its lane, and its marks.
func (tl *Timeline) step(b *strings.Builder, x []float64, s *StepView) {
	if s.Class == "check" {
		return
	}
	cx, cy := x[s.N], laneY(s.Lane)+30
	class := "marker " + s.Class
	if !s.Enabled {
		class += " disabled"
	}
	switch s.Class {
	case "timer":
		fmt.Fprintf(b, `<g class="%s" data-step="%d"><circle cx="%.1f" cy="%d" r="6"/><path d="M%.1f,%d v-4 M%.1f,%d h3"/><title>%d. %s</title></g>`,
			class, s.N, cx, cy, cx, cy, cx, cy, s.N, esc(s.Text))
	case "env":
		fmt.Fprintf(b, `<g class="%s" data-step="%d"><path d="M%.1f,%d l6,6 l-6,6 l-6,-6 z"/><title>%d. %s</title></g>`,
			class, s.N, cx, cy-6, s.N, esc(s.Text))
	default:
		fmt.Fprintf(b, `<g class="%s" data-step="%d"><circle cx="%.1f" cy="%d" r="4"/><title>%d. %s</title></g>`,
			class, s.N, cx, cy, s.N, esc(s.Text))
	}
	per := map[int]int{}
	for _, m := range s.Marks {
		k := per[m.Lane]
		per[m.Lane]++
		fmt.Fprintf(b, `<g class="mark %s"><text x="%.1f" y="%d">%s</text><title>%s</title></g>`,
			cssWord(m.Class), cx-4, laneY(m.Lane)+46+k*9, esc(m.Label), esc(m.Title))
	}
}

// message draws a message as an arrow from its sender's lane to its receiver's.
func (tl *Timeline) message(b *strings.Builder, x []float64, m Message) {
	y0, y1 := float64(laneY(m.FromLane)+30), float64(laneY(m.ToLane)+30)
	x0 := x[m.From]
	class := "msg req"
	if m.Reply {
		class = "msg reply"
	}
	var x1 float64
	switch {
	case m.To < 0:
		class += " inflight"
		c := len(x) - 1
		x1 = x[c] + colHalf(x, c)
		y1 = y0 + (y1-y0)*0.5
	default:
		x1 = x[m.To]
	}
	if m.Lost {
		class += " lost"
		y1 = y0 + (y1-y0)*0.6
	}
	fmt.Fprintf(b, `<g class="%s"><line x1="%.1f" y1="%.1f" x2="%.1f" y2="%.1f" marker-end="url(#%s-arrow)"/>`, class, x0, y0, x1, y1, tl.ID)
	if m.Lost {
		fmt.Fprintf(b, `<path class="cross" d="M%.1f,%.1f l6,6 m0,-6 l-6,6"/>`, x1-3, y1-3)
	}
	fmt.Fprintf(b, `<title>%s</title></g>`, esc(m.Title))
}

// band draws one partition's owners over the columns; two owners at once are an overlap.
func (tl *Timeline) band(b *strings.Builder, x []float64, y int, band Band) {
	fmt.Fprintf(b, `<g class="band" data-partition="%s"><text class="band-name" x="6" y="%d">%s</text>`, esc(band.Partition), y+13, esc(band.Partition))
	for _, s := range band.Segs {
		x0, x1 := x[s.From]-colHalf(x, s.From), x[s.To]+colHalf(x, s.To)
		class, label := "own none", "no owner"
		switch {
		case s.Overlap():
			class, label = "own overlap", strings.Join(s.Owners, " + ")
		case len(s.Owners) == 1:
			class, label = "own o"+fmt.Sprint(tl.laneOf(s.Owners[0])%8), s.Owners[0]
		}
		text := ""
		if len(s.Owners) > 0 {
			text = fit(label, x1-x0)
		}
		fmt.Fprintf(b, `<g class="%s"><rect x="%.1f" y="%d" width="%.1f" height="%d"/><text x="%.1f" y="%d">%s</text><title>%s: %s, %s</title></g>`,
			class, x0, y+1, x1-x0, bandH-2, x0+3, y+13, esc(text), esc(band.Partition), esc(label), esc(tl.span(s.From, s.To)))
	}
	b.WriteString(`</g>`)
}

func (tl *Timeline) span(from, to int) string {
	if from == to {
		return "at " + tl.colName(from)
	}
	return "from " + tl.colName(from) + " to " + tl.colName(to)
}

func (tl *Timeline) colName(c int) string {
	if len(tl.ColLabels) == len(tl.Steps)+1 {
		return tl.ColLabels[c]
	}
	if c == 0 {
		return "the start"
	}
	return fmt.Sprintf("step %d", c)
}

func (tl *Timeline) laneOf(name string) int {
	for i, l := range tl.Lanes {
		if l == name {
			return i
		}
	}
	return 0
}

func lastActionView(steps []StepView) int {
	n := len(steps)
	for n > 0 && steps[n-1].Class == "check" {
		n--
	}
	return n
}

func violationNames(s *StepView) string {
	var names []string
	for _, m := range s.Marks {
		if m.Class == "violation" {
			names = append(names, m.Label)
		}
	}
	return strings.Join(names, ", ")
}

// fit shortens a label to what a width holds (about 6 units a character at 10px).
func fit(s string, width float64) string {
	n := int(width / 6)
	r := []rune(s)
	if len(r) <= n {
		return s
	}
	if n < 2 {
		return ""
	}
	return string(r[:n-1]) + "…"
}

// esc escapes text for XML and HTML alike: only the five predefined entities, numerically.
func esc(s string) string { return html.EscapeString(s) }

// cssWord makes a word safe as a class name.
func cssWord(s string) string {
	return strings.Map(func(r rune) rune {
		if r >= 'a' && r <= 'z' || r >= 'A' && r <= 'Z' || r >= '0' && r <= '9' || r == '-' {
			return r
		}
		return '-'
	}, s)
}
