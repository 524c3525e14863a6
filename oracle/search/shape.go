package search

import (
	"math"
	"slices"

	"github.com/groupcheck/groupcheck/impl"
	"github.com/groupcheck/groupcheck/oracle/history"
)

// Shape is what the search must know of a whole history before its first event, read in a
// pass of its own (Add every event, or ShapeOf): whether the group speaks KIP-848, and the
// partitions the history names. A KIP-848 coordinator assigns from its cluster metadata and
// the members' subscriptions, and a history records neither: the search takes the cluster to
// be every partition the history names (each topic with partitions 0 up to the highest named),
// there from the start and never changed, and every member to subscribe to all of its topics.
// The assignor is then searched (kip848.Group.HeartbeatTargeting), so a subscription wider
// than the member's own allows more answers, never fewer.
type Shape struct {
	consumer bool
	// nullNotes: the recorder marks an omitted owned list or assignment (Note "topics=null",
	// "assignment=null", as conformance/harness's tap does), so an absent one is empty.
	nullNotes bool
	counts    map[string]int32 // topic → highest partition named + 1
	// sent is, for each member and epoch a ConsumerGroupHeartbeat was sent at, the seq of
	// the last such heartbeat's end (sentAt); begun the heartbeats not ended yet, by id.
	sent  map[memberEpoch]int64
	begun map[int64]memberEpoch
}

type memberEpoch struct {
	member impl.MemberID
	epoch  impl.Epoch
}

// The notes a recorder puts on a ConsumerGroupHeartbeat whose owned partitions (begin) or
// assignment (end) were null, "unchanged", rather than empty (JSON omits both alike).
const (
	noteTopicsNull     = "topics=null"
	noteAssignmentNull = "assignment=null"
)

// ShapeOf is the shape of h.
func ShapeOf(h history.History) *Shape {
	var s Shape
	for _, e := range h {
		s.Add(e)
	}
	return &s
}

// Add reads one event into the shape.
func (s *Shape) Add(e history.Event) {
	if e.Op == history.ConsumerGroupHeartbeat {
		s.consumer = true
		if e.Note == noteTopicsNull || e.Note == noteAssignmentNull {
			s.nullNotes = true
		}
		s.heartbeat(e)
	}
	if e.Kind != history.Request && e.Kind != history.Commit {
		return
	}
	for _, p := range []history.Parts{e.Parts, e.Owned} {
		p.Each(func(t string, q int32) {
			if s.counts == nil {
				s.counts = map[string]int32{}
			}
			s.counts[t] = max(s.counts[t], q+1)
		})
	}
	for _, a := range e.Assignments {
		s.Add(history.Event{Kind: e.Kind, Parts: a})
	}
}

// heartbeat notes when a ConsumerGroupHeartbeat sent at an epoch ends (sentAt).
func (s *Shape) heartbeat(e history.Event) {
	if e.Kind != history.Request {
		return
	}
	if s.sent == nil {
		s.sent, s.begun = map[memberEpoch]int64{}, map[int64]memberEpoch{}
	}
	switch e.Phase {
	case history.Begin:
		s.begun[e.ID] = memberEpoch{impl.MemberID(e.Member), impl.Epoch(e.Gen)}
	case history.End:
		if k, ok := s.begun[e.ID]; ok {
			delete(s.begun, e.ID)
			s.sent[k] = max(s.sent[k], e.Seq)
		}
	}
}

// sentAt is the seq of the end of the last heartbeat member sent at epoch, 0 if it sent none;
// a heartbeat not ended when the shape was read counts as ending after everything.
func (s *Shape) sentAt(member impl.MemberID, epoch impl.Epoch) int64 {
	k := memberEpoch{member, epoch}
	for _, b := range s.begun {
		if b == k {
			return math.MaxInt64
		}
	}
	return s.sent[k]
}

// Consumer reports whether the history speaks KIP-848 (it has a ConsumerGroupHeartbeat).
func (s *Shape) Consumer() bool { return s != nil && s.consumer }

// cluster is the metadata the search assigns from, and topics every member's subscription
// (never empty: a join must subscribe to something).
func (s *Shape) cluster() (impl.Cluster, []string) {
	var ts []impl.TopicMetadata
	var names []string
	for t, n := range s.counts {
		ts = append(ts, impl.TopicMetadata{Name: t, Partitions: n})
		names = append(names, t)
	}
	if len(names) == 0 {
		names = []string{"?topic"}
	}
	slices.Sort(names)
	return impl.NewCluster(ts...), names
}
