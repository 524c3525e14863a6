package lin

import (
	"maps"
	"slices"
	"strings"

	"github.com/groupcheck/groupcheck/impl"
)

// set is a small set of member ids. Knowledges copy their sets before writing.
type set map[string]bool

func (s set) clone() set { return maps.Clone(s) }

func (s set) String() string { return strings.Join(slices.Sorted(maps.Keys(s)), ",") }

// partsMap maps member ids to partition sets; canonical is its key encoding.
type partsMap map[string]impl.PartitionSet

func (m partsMap) canonical() string {
	var b strings.Builder
	for _, k := range slices.Sorted(maps.Keys(m)) {
		b.WriteString(k + "=" + m[k].String() + ";")
	}
	return b.String()
}

// provenance remembers which operation taught each fact, for messages only: it is not part
// of a knowledge's key, so knowledges that differ only in provenance merge.
type provenance map[string]string

func (p provenance) of(fact string) string {
	if w, ok := p[fact]; ok {
		return w
	}
	return "the start of the history"
}
