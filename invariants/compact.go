package invariants

import (
	"github.com/groupcheck/groupcheck/explorer"
	"github.com/groupcheck/groupcheck/spec"
)

// Check explores m — a Model, or a Symmetric one — with a compact frontier: the explorer keeps
// each world as a spec.PackedWorld (44 bytes, off the Go heap) beside the fingerprint of m's
// encoding, and unpacks it to expand or judge it (explorer.Compact, spec.Packer). The report
// is the one explorer.Check(m, props, o) gives — counts, verdicts and paths — in a fraction of
// the memory; TestCompactSameReports checks it on every preset and mutant world.
func Check(m explorer.Model[spec.World, spec.Action], c spec.Config, props []explorer.Property[spec.World], o explorer.Options) explorer.Report[spec.World, spec.Action] {
	cm, cprops := explorer.Compact(m, props, spec.NewPacker(c))
	return cm.Report(explorer.Check(cm, cprops, o))
}
