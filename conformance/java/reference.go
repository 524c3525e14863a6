package java

import (
	"fmt"
	"slices"
	"sort"
	"strings"

	"github.com/groupcheck/groupcheck/oracle/differential"
	"github.com/groupcheck/groupcheck/oracle/history"
)

// LeaderRounds sets every classic leader's SyncGroup in a history beside what groupcheck's
// reference leader (impl/leader, through oracle/differential.Lead) assigns from the same
// JoinGroup data: each member of the generation with its group.instance.id, the partitions
// it said it owned and the generation they were from (its JoinGroup's subscription), and the
// topics as the leader saw them (docs/protocol.md §2.4–§2.5; ConsumerCoordinator.onLeaderElected
// and the assignors' assign methods).
//
// range and roundrobin must match exactly: the reference's are Kafka's algorithms. The sticky
// assignors are judged by what the reference and Kafka's must agree on, since the reference's
// balancing (impl/leader stickyBalance) chooses among equally good answers otherwise than
// Kafka's ConstrainedAssignmentBuilder: the shares (how many partitions the members get,
// whoever gets which share), how many owned partitions stay with their owners, no partition
// twice, and no partition handed to a member while another member validly owns it
// (differential.ValidateCooperative). Where only the choice differs, it is a note.
//
// The leader's topic metadata is not on the wire, so each topic's partition count is taken
// as one more than the highest partition assigned or owned in the round: every partition of
// a subscribed topic is either assigned or, under cooperative-sticky, withheld while its
// owner revokes it (and so owned).
type LeaderRounds struct {
	Rounds  int      // leader SyncGroups compared
	Skipped []string // leader SyncGroups whose generation's JoinGroup data is incomplete, and why
	Diffs   []string // rounds where Kafka's leader and the reference disagree on what must agree
	Choices []string // sticky rounds where only the choice among balanced answers differs
}

// CheckReference is CompareLeaders and CompareCallbacks as a harness.Protocol.Check:
// disagreements fail the run, skipped rounds and differences of choice are noted.
func CheckReference(hist history.History) (fail, note []string) {
	lr := CompareLeaders(hist)
	rounds, diffs := CompareCallbacks(hist)
	note = append(note, fmt.Sprintf("reference: %d leader rounds compared, %d skipped, %d with another sticky choice; callbacks after %d SyncGroups compared",
		lr.Rounds, len(lr.Skipped), len(lr.Choices), rounds))
	note = append(append(note, lr.Skipped...), lr.Choices...)
	return append(lr.Diffs, diffs...), note
}

// CompareLeaders compares every classic leader round of hist with the reference leader.
func CompareLeaders(hist history.History) LeaderRounds {
	var out LeaderRounds
	begins := map[int64]history.Event{}
	joined := map[int32]map[string]differential.Member{} // generation → member ID → subscription
	leaders := map[int32]history.Event{}                 // generation → the leader's JoinGroup response
	for _, e := range hist {
		if e.Kind != history.Request {
			continue
		}
		if e.Phase == history.Begin {
			begins[e.ID] = e
		}
		if e.Op == history.JoinGroup && e.Phase == history.End && e.OK() && e.Member != "" {
			b := begins[e.ID]
			if joined[e.Gen] == nil {
				joined[e.Gen] = map[string]differential.Member{}
			}
			joined[e.Gen][e.Member] = differential.Member{ID: e.Member, InstanceID: b.Instance, Version: 2,
				Owned: b.Owned, Generation: b.Gen}
			if len(e.Members) > 0 {
				leaders[e.Gen] = e
			}
		}
		if e.Op != history.SyncGroup || e.Phase != history.Begin || len(e.Assignments) == 0 {
			continue
		}
		what := fmt.Sprintf("generation %d, leader %s (%s, seq %d)", e.Gen, e.Member, e.Node, e.Seq)
		lr, ok := leaders[e.Gen]
		if !ok || len(lr.Protocols) != 1 {
			out.Skipped = append(out.Skipped, what+": no JoinGroup response to the leader in the history")
			continue
		}
		members, cluster, missing := round(joined[e.Gen], lr.Members, e.Assignments)
		if len(missing) > 0 {
			out.Skipped = append(out.Skipped, fmt.Sprintf("%s: no JoinGroup response of %s", what, strings.Join(missing, ", ")))
			continue
		}
		out.Rounds++
		assignor := lr.Protocols[0]
		what = fmt.Sprintf("%s, %s over %v", what, assignor, cluster)
		got := map[string]map[string][]int32{}
		for m, p := range e.Assignments {
			got[m] = p
		}
		diff, choice := compareRound(assignor, members, cluster, got)
		if diff != "" {
			out.Diffs = append(out.Diffs, what+": "+diff)
		}
		if choice != "" {
			out.Choices = append(out.Choices, what+": (-reference +Kafka's leader)\n"+choice)
		}
	}
	return out
}

// compareRound compares one round: diff is a disagreement, choice a difference of choice only.
func compareRound(assignor string, members []differential.Member, cluster map[string]int32, got map[string]map[string][]int32) (diff, choice string) {
	res, err := differential.Lead(differential.Round{Assignor: assignor, Cluster: cluster, Members: members})
	switch {
	case err != nil:
		return fmt.Sprintf("the reference cannot take the round: %v", err), ""
	case res.Failed != "":
		return fmt.Sprintf("the reference leader fails (%s) where Kafka's assigned", res.Failed), ""
	}
	d := differential.DiffAssignments(res.Assignments, got)
	if d == "" {
		return "", ""
	}
	if !strings.Contains(assignor, "sticky") {
		return "(-reference +Kafka's leader)\n" + d, ""
	}
	var why []string
	if r, k := balance(members, res.Assignments), balance(members, got); !slices.Equal(r, k) {
		why = append(why, fmt.Sprintf("Kafka's leader gives the members %v partitions, the reference %v", k, r))
	}
	if r, k := kept(members, res.Assignments), kept(members, got); r != k {
		why = append(why, fmt.Sprintf("Kafka's leader leaves %d owned partitions with their owners, the reference %d", k, r))
	}
	seen := map[string]map[int32]string{}
	for _, m := range members {
		for t, ps := range got[m.ID] {
			for _, p := range ps {
				if other, dup := seen[t][p]; dup {
					why = append(why, fmt.Sprintf("%s/%d is assigned to both %s and %s", t, p, other, m.ID))
				}
				if seen[t] == nil {
					seen[t] = map[int32]string{}
				}
				seen[t][p] = m.ID
			}
		}
	}
	if strings.HasPrefix(assignor, "cooperative") {
		bad, err := differential.ValidateCooperative(members, got)
		switch {
		case err != nil:
			why = append(why, fmt.Sprintf("cannot validate Kafka's assignment: %v", err))
		case len(bad) > 0:
			why = append(why, fmt.Sprintf("Kafka's leader hands %v to a new owner in the round that revokes them", bad))
		}
	}
	if len(why) > 0 {
		return strings.Join(why, "; ") + "\n(-reference +Kafka's leader)\n" + d, ""
	}
	return "", d
}

// balance is how many partitions each member gets, sorted: which member gets the larger
// share is a choice (Kafka's follows HashMap order over member IDs), the shares are not.
func balance(members []differential.Member, a map[string]map[string][]int32) []int {
	var n []int
	for _, m := range members {
		k := 0
		for _, ps := range a[m.ID] {
			k += len(ps)
		}
		n = append(n, k)
	}
	slices.Sort(n)
	return n
}

// kept is how many partitions stay with the member that owned them: stickiness.
func kept(members []differential.Member, a map[string]map[string][]int32) int {
	n := 0
	for _, m := range members {
		for t, ps := range a[m.ID] {
			for _, p := range ps {
				if slices.Contains(m.Owned[t], p) {
					n++
				}
			}
		}
	}
	return n
}

// round is the leader's input for a generation: its members in the JoinGroup response's
// order, and the topics' partition counts; missing lists members with no JoinGroup response.
func round(joined map[string]differential.Member, ids []string, assigned map[string]history.Parts) ([]differential.Member, map[string]int32, []string) {
	cluster := map[string]int32{}
	see := func(p history.Parts) {
		for t, ps := range p {
			for _, q := range ps {
				cluster[t] = max(cluster[t], q+1)
			}
		}
	}
	var members []differential.Member
	var missing []string
	for _, id := range ids {
		m, ok := joined[id]
		if !ok {
			missing = append(missing, id)
			continue
		}
		see(m.Owned)
		members = append(members, m)
	}
	for _, p := range assigned {
		see(p)
	}
	topics := make([]string, 0, len(cluster))
	for t := range cluster {
		topics = append(topics, t)
	}
	sort.Strings(topics)
	for i := range members {
		members[i].Topics = topics
	}
	return members, cluster, missing
}
