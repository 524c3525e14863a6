package oracle

import (
	"fmt"
	"sort"
	"strings"
	"time"

	"github.com/groupcheck/groupcheck/oracle/history"
)

// part is one partition, spelled topic-N as everywhere in groupcheck.
type part struct {
	topic string
	p     int32
}

func (q part) String() string { return fmt.Sprintf("%s-%d", q.topic, q.p) }

func (q part) less(o part) bool {
	if q.topic != o.topic {
		return q.topic < o.topic
	}
	return q.p < o.p
}

// partsOf is the union of ps, sorted.
func partsOf(ps ...history.Parts) []part {
	seen := map[part]bool{}
	var out []part
	for _, p := range ps {
		p.Each(func(topic string, n int32) {
			q := part{topic, n}
			if !seen[q] {
				seen[q] = true
				out = append(out, q)
			}
		})
	}
	sort.Slice(out, func(i, j int) bool { return out[i].less(out[j]) })
	return out
}

func joinParts(qs []part) string {
	s := make([]string, len(qs))
	for i, q := range qs {
		s[i] = q.String()
	}
	return strings.Join(s, ",")
}

// at names when an event happened: its seq and its time.
func at(e history.Event) string { return fmt.Sprintf("seq %d (t %v)", e.Seq, time.Duration(e.T)) }

// formatEvent renders one event on one line, with only the fields its kind uses.
func formatEvent(e history.Event) string {
	var b strings.Builder
	fmt.Fprintf(&b, "seq %d  t %v  %s  %s", e.Seq, time.Duration(e.T), e.Node, e.Kind)
	if e.Phase != "" {
		fmt.Fprintf(&b, " %s", e.Phase)
	}
	if e.Op != "" {
		fmt.Fprintf(&b, " %s", e.Op)
	}
	if e.ID != 0 {
		fmt.Fprintf(&b, " id=%d", e.ID)
	}
	if e.Member != "" || e.Gen != 0 {
		fmt.Fprintf(&b, " member=%s gen=%d", e.Member, e.Gen)
	}
	if len(e.Parts) > 0 {
		fmt.Fprintf(&b, " parts=%s", joinParts(partsOf(e.Parts)))
	}
	if e.Err != "" {
		fmt.Fprintf(&b, " err=%s", e.Err)
	}
	if e.Note != "" {
		fmt.Fprintf(&b, " note=%q", e.Note)
	}
	return b.String()
}
