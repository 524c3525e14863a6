package invariants

import "slices"

// Entry is one property as the catalogue documents it.
type Entry struct {
	Name      string
	Kind      string // always, sometimes or eventually
	Statement string
	Source    string
	Origin    Origin
}

// Catalogue is every property groupcheck checks: the registry (All), then the two liveness
// properties --liveness decides on the state graph. It is grouped by origin (Origin.Compare),
// promises first, and in report order within a group, so that what Kafka promises reads before what one
// implementation happens to do.
func Catalogue() []Entry {
	var out []Entry
	for _, p := range All() {
		o, _ := OriginOf(p.Name)
		out = append(out, Entry{p.Name, p.Kind.String(), p.Statement, p.Source, o})
	}
	for _, l := range []Entry{
		{ConvergesName, "eventually", ConvergesStatement, ConvergesSource, Origin{}},
		{OrphansExpireName, "eventually", OrphansExpireStatement, OrphansExpireSource, Origin{}},
	} {
		l.Origin, _ = OriginOf(l.Name)
		out = append(out, l)
	}
	slices.SortStableFunc(out, func(a, b Entry) int { return a.Origin.Compare(b.Origin) })
	return out
}
