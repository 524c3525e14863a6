package htmlreport

import (
	"fmt"
	"html/template"
	"math"
	"strings"
)

// Chart is a small horizontal bar chart: one bar per row, scaled to the largest value.
// Rows with Zero set are drawn as empty, marked bars (an action never enabled).
type Chart struct {
	Title string
	Note  string
	Rows  []Bar
	Log   bool // scale bars by log10(1+value): counts spanning several orders of magnitude
}

// Bar is one row of a chart.
type Bar struct {
	Label string
	Value float64
	Text  string // the value as printed ("unbounded", "1,234")
	Zero  bool
}

func (c Chart) svg() template.HTML {
	const rowH, labelW, barW = 16, 150, 260
	var max float64
	for _, r := range c.Rows {
		max = maxf(max, c.scale(r.Value))
	}
	h := len(c.Rows)*rowH + 4
	var b strings.Builder
	fmt.Fprintf(&b, `<svg xmlns="http://www.w3.org/2000/svg" class="chart" width="%d" height="%d" viewBox="0 0 %d %d" data-rows="%d">`,
		labelW+barW+90, h, labelW+barW+90, h, len(c.Rows))
	for i, r := range c.Rows {
		y := i*rowH + 2
		w := 0.0
		if max > 0 {
			w = c.scale(r.Value) / max * barW
		}
		class := "bar"
		if r.Zero {
			class += " zero"
		}
		fmt.Fprintf(&b, `<g class="%s"><text class="bar-label" x="%d" y="%d">%s</text><rect x="%d" y="%d" width="%.1f" height="%d"/><text class="bar-value" x="%.1f" y="%d">%s</text></g>`,
			class, labelW-6, y+11, esc(r.Label), labelW, y+2, maxf(w, 1), rowH-4, float64(labelW)+maxf(w, 1)+4, y+11, esc(r.Text))
	}
	b.WriteString(`</svg>`)
	return template.HTML(b.String())
}

func (c Chart) scale(v float64) float64 {
	if c.Log {
		return math.Log10(1 + v)
	}
	return v
}

func maxf(a, b float64) float64 {
	if a > b {
		return a
	}
	return b
}
