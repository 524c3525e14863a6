package history

import "sort"

// Kind says what an Event records.
type Kind string

// The event kinds. Lifecycle and harness kinds are instants (Phase empty); callbacks, commits
// and coordinator requests are intervals (a begin and an end with the same ID).
const (
	Start      Kind = "start"      // a member process started (Node, Proto)
	Close      Kind = "close"      // a graceful close: begin when asked, end when it returned
	Crash      Kind = "crash"      // the process died without leaving; it observes nothing after
	Cut        Kind = "cut"        // the harness cut the process off from the coordinator
	Heal       Kind = "heal"       // the cut is over
	Generation Kind = "generation" // the member observed its member ID and generation (epoch)
	Assign     Kind = "assign"     // onPartitionsAssigned with the partitions added (Parts)
	Revoke     Kind = "revoke"     // onPartitionsRevoked with the partitions removed (Parts)
	Lost       Kind = "lost"       // onPartitionsLost with the partitions given up (Parts)
	Commit     Kind = "commit"     // an offset commit of Parts at Gen; its end carries Err
	Request    Kind = "request"    // a coordinator operation (Op); its end carries the response
	Fenced     Kind = "fenced"     // the coordinator stopped considering Member current (server side)
	Mark       Kind = "mark"       // a free-form note from the harness (Note); never checked
)

// Phase marks the two edges of an interval event.
type Phase string

// The phases of interval events; instants leave Phase empty.
const (
	Begin Phase = "begin"
	End   Phase = "end"
)

// The protocols a member speaks (Event.Proto).
const (
	Classic  = "classic"  // JoinGroup/SyncGroup, eager or cooperative
	Consumer = "consumer" // KIP-848 ConsumerGroupHeartbeat
)

// The coordinator operations (Event.Op), named as Kafka names the requests.
const (
	JoinGroup              = "JoinGroup"
	SyncGroup              = "SyncGroup"
	Heartbeat              = "Heartbeat"
	LeaveGroup             = "LeaveGroup"
	OffsetCommit           = "OffsetCommit"
	ConsumerGroupHeartbeat = "ConsumerGroupHeartbeat"
)

// Parts is a set of partitions by topic, as clients hand them to their callbacks.
type Parts map[string][]int32

// Event is one line of a history. Only the fields its Kind uses are set.
type Event struct {
	Seq   int64  `json:"seq"`             // position in the history, from 1, strictly increasing
	T     int64  `json:"t_ns"`            // monotonic time in nanoseconds
	Kind  Kind   `json:"kind"`            //
	Phase Phase  `json:"phase,omitempty"` // begin or end for intervals
	ID    int64  `json:"id,omitempty"`    // joins an interval's begin and end (unique per history)
	Node  string `json:"node"`            // the harness's stable name for the process
	Proto string `json:"proto,omitempty"` // classic or consumer

	// What the member believes: its member ID and generation (classic) or member epoch
	// (KIP-848) when the event happened, as the client reports them.
	Member   string `json:"member,omitempty"`
	Instance string `json:"instance,omitempty"` // group.instance.id of a static member
	Gen      int32  `json:"gen"`

	Parts Parts `json:"parts,omitempty"` // callback delta, commit's partitions, assignment received

	// Coordinator operations (Kind Request). The begin carries the request, the end the
	// response; Err is the Kafka error name ("" or "NONE" for success).
	Op          string           `json:"op,omitempty"`
	Protocols   []string         `json:"protocols,omitempty"`   // JoinGroup: assignor names offered
	Owned       Parts            `json:"owned,omitempty"`       // JoinGroup/CGH: partitions the member reports owning
	Assignments map[string]Parts `json:"assignments,omitempty"` // SyncGroup from the leader: member → assignment
	Leader      string           `json:"leader,omitempty"`      // JoinGroup response
	Members     []string         `json:"members,omitempty"`     // JoinGroup response to the leader
	Err         string           `json:"err,omitempty"`         // response or commit outcome

	Note string `json:"note,omitempty"` // Mark, or a free-form detail on any event
}

// Unfinished is the Note of an end that Recorder.History made up for an interval that never
// ended (a callback cut short by a crash, a request whose connection died): it carries no
// outcome, and the oracle does not read its Err as a success.
const Unfinished = "unfinished"

// OK reports whether an end event's Err means success.
func (e Event) OK() bool { return e.Err == "" || e.Err == "NONE" }

// Count is the number of partitions in p.
func (p Parts) Count() int {
	n := 0
	for _, ps := range p {
		n += len(ps)
	}
	return n
}

// Each calls fn for every partition of p in topic then partition order.
func (p Parts) Each(fn func(topic string, partition int32)) {
	topics := make([]string, 0, len(p))
	for t := range p {
		topics = append(topics, t)
	}
	sort.Strings(topics)
	for _, t := range topics {
		ps := append([]int32(nil), p[t]...)
		sort.Slice(ps, func(i, j int) bool { return ps[i] < ps[j] })
		for _, q := range ps {
			fn(t, q)
		}
	}
}
