package oracle

import (
	"fmt"
	"strings"

	"github.com/groupcheck/groupcheck/oracle/history"
)

// commitCheck is an offset commit as it stood when it began.
type commitCheck struct {
	begin    history.Event
	parts    []part
	notOwned []part
	released []history.Event // where the committer had given up the partitions it did not own
	fence    *history.Event  // the coordinator had fenced the committer
	seg      segment         // the committer's status
}

// wireCommit judges an OffsetCommit request tapped on the wire as a commit, unless it carries
// no member ID (a commit from outside the group, which Kafka accepts for an empty group) or
// one of the node's client commits is under way (it is that commit, judged by its own event).
func (s *scan) wireCommit(n *node, retro *history.Event, e history.Event) {
	if e.Phase == history.Begin && (e.Member == "" || n.commits > 0) {
		return
	}
	s.commit(n, retro, e)
}

// commit notes what a commit began with, and judges it by its outcome at its end.
func (s *scan) commit(n *node, retro *history.Event, e history.Event) {
	if e.Kind == history.Commit {
		if e.Phase == history.Begin {
			n.commits++
		} else {
			n.commits--
		}
	}
	if e.Phase == history.Begin && e.Kind == history.Commit && outsideGroup(e) {
		return // counted above, judged by no one here: its end finds no commitCheck
	}
	if e.Phase == history.Begin {
		c := &commitCheck{begin: e, parts: s.partsOfInterval(e), fence: n.fence, seg: n.status(retro)}
		for _, q := range c.parts {
			if n.owned[q] == nil {
				c.notOwned = append(c.notOwned, q)
				if r, ok := n.released[q]; ok {
					c.released = append(c.released, r)
				}
			}
		}
		s.commits[e.ID] = c
		return
	}
	c := s.commits[e.ID]
	delete(s.commits, e.ID)
	if c == nil || !answered(e) {
		return
	}
	if !e.OK() && !flowControl[e.Err] {
		n.evidence = e.Seq
	}
	switch {
	case e.OK() && (c.fence != nil || len(c.notOwned) > 0):
		s.acceptedCommit(n, c, e)
	case commitFencing[e.Err] && !generationMovedOn(n, c.begin, e):
		s.found(finding{prop: CommitFromOwner, class: ClassZombie, at: e.Seq, parts: c.parts,
			events: append([]history.Event{c.begin, e}, c.seg.why...), msg: func(ps string) string {
				why := c.seg.note
				if why == "" {
					why = n.name + " was a member as far as the history shows"
				}
				return fmt.Sprintf("%s's %s of %s begun at %s was rejected with %s at %s: %s",
					n.name, commitName(c.begin), ps, at(c.begin), e.Err, at(e), why)
			}})
	}
}

// acceptedCommit reports a commit the coordinator accepted from a non-owner or a fenced member.
func (s *scan) acceptedCommit(n *node, c *commitCheck, e history.Event) {
	events := append([]history.Event{c.begin, e}, c.released...)
	var why []string
	if len(c.notOwned) > 0 {
		why = append(why, fmt.Sprintf("%s did not own %s when it began", n.name, joinParts(c.notOwned)))
	}
	if c.fence != nil {
		events = append(events, *c.fence)
		why = append(why, fmt.Sprintf("the coordinator had fenced %s at %s", n.name, at(*c.fence)))
	}
	s.found(finding{prop: CommitFromOwner, class: ClassViolation, at: e.Seq, parts: c.parts,
		events: events, msg: func(ps string) string {
			return fmt.Sprintf("%s's %s of %s begun at %s was accepted at %s, but %s",
				n.name, commitName(c.begin), ps, at(c.begin), at(e), strings.Join(why, ", and "))
		}})
}

// outsideGroup reports whether a commit comes from a consumer outside the group: no member
// id and no generation, as assign() consumers commit (Flink, Spark, Kafka Connect). Kafka
// judges such a commit by the group's state alone (accepted while the group is Empty,
// UNKNOWN_MEMBER_ID otherwise; docs/protocol.md §1.8), never by who owns the partitions, so
// commit-from-owner does not judge it, whether it was recorded as the client's commit or
// only as its OffsetCommit request; the reference search (Options.Reference) judges both.
func outsideGroup(e history.Event) bool { return e.Member == "" && e.Gen < 0 }

// commitName names a commit in messages: the client's, or one seen only on the wire.
func commitName(begin history.Event) string {
	if begin.Kind == history.Request {
		return "OffsetCommit (seen only on the wire)"
	}
	return "commit"
}

// generationMovedOn reports whether a commit refused with ILLEGAL_GENERATION is explained by
// the member itself having moved to a newer generation before the answer: a classic client
// commits from its poll loop while its rejoin is parked on the same connection, and the
// coordinator, answering in order, judges the commit after the JoinGroup (docs/protocol.md §1.8). No
// one was fenced and nothing was accepted, so it is no zombie.
func generationMovedOn(n *node, begin, end history.Event) bool {
	return end.Err == "ILLEGAL_GENERATION" && begin.Gen > 0 && n.id.gen > begin.Gen
}
