package search

// commitRule is which OffsetCommit validation a behaviour's broker has shown. The history
// does not record the broker's version, and Kafka changed the rule in 4.3 (KIP-1251: a
// commit at an older epoch is accepted for partitions assigned at or before it), so the
// version is part of the unrecorded nondeterminism. Searching both coordinator configs side
// by side would double every KIP-848 frontier for the whole history, though the two differ
// in nothing but that answer (kip848.Group.OffsetCommitUnder); so every behaviour runs the
// reference with the rule on, answers each commit under both rules, and branches only where
// the two answers differ, the first such commit fixing the rule for the rest of that
// behaviour. It is the search over both configs, exactly, at the cost of one wherever no
// commit tells them apart (states). One broker version per history is
// assumed: a rolling upgrade that changes the rule mid-history is judged as if it had not.
type commitRule uint8

const (
	eitherRule  commitRule = iota // no commit yet that the two rules answer differently
	exactRule                     // the member's epoch exactly: Kafka up to 4.2
	kip1251Rule                   // KIP-1251: Kafka 4.3 on
)

// set is the rules r stands for, as bits: either is both. A behaviour under either rule is
// the union of the behaviours under each (it branches at the first commit they answer
// differently), so a config whose rules were all seen with its state is one already
// searched.
func (r commitRule) set() uint8 {
	switch r {
	case exactRule:
		return 1
	case kip1251Rule:
		return 2
	}
	return 3
}

var commitRuleNames = [...]string{"", "exact member epochs (Kafka up to 4.2)", "KIP-1251's assignment epochs (Kafka 4.3 on)"}
