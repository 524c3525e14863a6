package invariants

import (
	"fmt"
	"slices"
	"strings"

	"github.com/groupcheck/groupcheck/explorer"
	"github.com/groupcheck/groupcheck/impl"
	"github.com/groupcheck/groupcheck/impl/leader"
	"github.com/groupcheck/groupcheck/spec"
)

// anyComplete guards the point of `assignor any` (docs/protocol.md §6.4: safety for every
// assignor at once): a classic leader of such a world may send every valid assignment of its
// round — each existing partition of a subscribed topic to one of its subscribers or to
// nobody, as an assignor may leave a partition idle (cooperative-sticky does while ownership
// transfers) — and nothing else. An enumerator that stops early, skips "nobody" or drops a
// subscriber only removes behaviours, so every safety property still holds on what is left:
// the run would call a world safe for all assignors having tried a few. The valid
// assignments are counted here independently (per partition, its subscribers and nobody) and
// compared with the assign actions the world offers the leader.
// Reference: docs/protocol.md §6.4 (the any assignor); docs/protocol.md §1.5, §2.4 (a valid assignment:
// each partition to at most one member, a subscriber of its topic).
var anyComplete = Property{
	Name:      "any-complete",
	Kind:      explorer.Always,
	Statement: "a classic `assignor any` leader is offered every valid assignment of its round (each subscribed partition to one of its subscribers or to nobody) and nothing else",
	Source:    "docs/protocol.md §6.4 (assignor any); docs/protocol.md §1.5, §2.4",
	Applies:   func(c spec.Config) bool { return classic(c) && c.Assignor == leader.AnyName },
	State: func(w *spec.World) string {
		var acts []spec.Action
		for i, s := range w.Slots {
			if s.Assigning == nil {
				continue
			}
			if acts == nil {
				acts = spec.Actions(*w, nil)
			}
			var offered [][]impl.MemberAssignment
			for _, a := range acts {
				if a.Kind == spec.Assign && int(a.Slot) == i && a.Followup == "" {
					offered = append(offered, a.Choice)
				}
			}
			if why := offersAll(offered, s.Assigning.Cluster, s.Assigning.Members); why != "" {
				return fmt.Sprintf("%s's gen %d round %s", name(w, i), s.Assigning.Generation, why)
			}
		}
		return ""
	},
}

// offersAll says how the offered assignments differ from the valid assignments of members
// over cluster, or "".
func offersAll(offered [][]impl.MemberAssignment, cluster impl.Cluster, members []impl.JoinGroupMember) string {
	keys := map[string]bool{}
	for _, c := range offered {
		keys[choiceKey(members, c)] = true
	}
	valid := validChoices(cluster, members)
	for _, v := range valid {
		if !keys[v] {
			return fmt.Sprintf("offers %d assignments, not the valid %s", len(keys), v)
		}
	}
	if len(keys) != len(valid) {
		return fmt.Sprintf("offers %d assignments where %d are valid", len(keys), len(valid))
	}
	return ""
}

// validChoices is every valid assignment of the members (each subscribed partition to one of
// its subscribers or to nobody), each spelled by choiceKey.
func validChoices(cluster impl.Cluster, ms []impl.JoinGroupMember) []string {
	var parts []impl.TopicPartition
	for _, topic := range topicsOf(ms) {
		for p := range cluster.PartitionCount(topic) {
			parts = append(parts, impl.TP(topic, p))
		}
	}
	var out []string
	held := make(map[impl.MemberID][]impl.TopicPartition)
	var place func(k int)
	place = func(k int) {
		if k == len(parts) {
			var as []impl.MemberAssignment
			for _, m := range ms {
				as = append(as, impl.MemberAssignment{MemberID: m.MemberID, Assignment: impl.Assignment{Partitions: impl.NewPartitionSet(held[m.MemberID]...)}})
			}
			out = append(out, choiceKey(ms, as))
			return
		}
		place(k + 1) // nobody
		for _, m := range ms {
			if slices.Contains(m.Metadata.Topics, parts[k].Topic) {
				held[m.MemberID] = append(held[m.MemberID], parts[k])
				place(k + 1)
				held[m.MemberID] = held[m.MemberID][:len(held[m.MemberID])-1]
			}
		}
	}
	place(0)
	return out
}

// choiceKey spells an assignment as each member's partitions in member-id order (members
// without an entry hold nothing), so that equal assignments spell alike.
func choiceKey(ms []impl.JoinGroupMember, as []impl.MemberAssignment) string {
	ids := make([]string, len(ms))
	for i, m := range ms {
		ids[i] = string(m.MemberID)
	}
	slices.Sort(ids)
	var b strings.Builder
	for _, id := range ids {
		set := impl.PartitionSet{}
		for _, a := range as {
			if string(a.MemberID) == id {
				set = a.Assignment.Partitions
			}
		}
		fmt.Fprintf(&b, "%s=%s ", id, set)
	}
	return strings.TrimSpace(b.String())
}
