package search

import (
	"fmt"
	"slices"
	"strings"

	"github.com/groupcheck/groupcheck/impl"
	"github.com/groupcheck/groupcheck/impl/coordinator"
	"github.com/groupcheck/groupcheck/oracle/history"
)

// request is one recorded classic request, as the reference coordinator receives it.
type request struct {
	begin history.Event
	node  string
	conn  impl.Conn
	req   impl.Request
	// JoinGroup only: the member id the coordinator hands out (from the recorded answer, or
	// a name of its own when the answer is not recorded) and the request versions the answer
	// allows (the history does not record the version; it decides KIP-394's two-step join).
	fresh    impl.MemberID
	versions []int16
	// variants: ConsumerGroupHeartbeat only, the requests the recorded begin may have been
	// (heartbeatVariants); req is the first.
	variants []impl.ConsumerGroupHeartbeatRequest
	// end is the recorded end; code its error code when judged says it carries an answer.
	end    history.Event
	code   impl.ErrorCode
	judged bool
	// free: the answer is not held against the request (a report's "what would the reference
	// answer"), though it still guides the choices the search tries (entries).
	free bool
}

func (r request) op() string { return r.begin.Op }

// unjudged are the answers the reference coordinator does not model, or that depend on what
// the history does not record (the broker's limits, the protocols' metadata): such an end
// says nothing of what the request did, like an end without an answer.
var unjudged = map[impl.ErrorCode]bool{
	impl.NotCoordinator:            true,
	impl.CoordinatorLoadInProgress: true,
	impl.CoordinatorNotAvailable:   true,
	impl.GroupMaxSizeReached:       true,
	impl.InvalidSessionTimeout:     true,
	impl.InvalidGroupID:            true,
	impl.InvalidRequest:            true,
	impl.InconsistentGroupProtocol: true,
	impl.GroupIDNotFound:           true,
	impl.UnsupportedAssignor:       true,
}

// judged is the error code of an end that carries an answer the reference can be held to,
// or false: an end history.Recorder made up (Note Unfinished), a transport error or a
// client-side timeout (names that are no Kafka error), or an unjudged code.
func judged(end history.Event) (impl.ErrorCode, bool) {
	if end.Note == history.Unfinished {
		return 0, false
	}
	name := end.Err
	if name == "" {
		name = "NONE"
	}
	code, ok := impl.ParseErrorCode(name)
	if !ok || unjudged[code] {
		return 0, false
	}
	return code, true
}

// parts is a history's partition map as a reference partition set.
func parts(p history.Parts) impl.PartitionSet {
	var tps []impl.TopicPartition
	p.Each(func(t string, q int32) { tps = append(tps, impl.TP(t, q)) })
	return impl.NewPartitionSet(tps...)
}

// classicRequest builds the reference request for a recorded begin and its recorded end.
func classicRequest(b history.Event, conn impl.Conn, end history.Event) (request, error) {
	r := request{begin: b, node: b.Node, conn: conn, end: end}
	r.code, r.judged = judged(end)
	id, inst, gen := impl.MemberID(b.Member), impl.InstanceID(b.Instance), impl.Generation(b.Gen)
	switch b.Op {
	case history.JoinGroup:
		r.req = impl.JoinGroupRequest{Conn: conn, MemberID: id, InstanceID: inst}
		r.fresh, r.versions = joinAhead(b, end)
	case history.SyncGroup:
		var as []impl.MemberAssignment
		for _, m := range sortedKeys(b.Assignments) {
			as = append(as, impl.MemberAssignment{MemberID: impl.MemberID(m), Assignment: impl.Assignment{Partitions: parts(b.Assignments[m])}})
		}
		r.req = impl.SyncGroupRequest{Conn: conn, MemberID: id, InstanceID: inst, Generation: gen, Assignments: as}
	case history.Heartbeat:
		r.req = impl.HeartbeatRequest{Conn: conn, MemberID: id, InstanceID: inst, Generation: gen}
	case history.LeaveGroup:
		r.req = impl.LeaveGroupRequest{Conn: conn, Members: []impl.LeaveMember{{MemberID: id, InstanceID: inst}}}
	case history.OffsetCommit:
		r.req = impl.OffsetCommitRequest{Conn: conn, MemberID: id, InstanceID: inst, Generation: gen, Partitions: parts(b.Parts)}
	default:
		return r, fmt.Errorf("seq %d: request op %q is not a classic group request", b.Seq, b.Op)
	}
	return r, nil
}

// joinAhead is what a JoinGroup's recorded answer tells ahead of its handling: the member id
// handed out to a join without one, and the versions that can give that answer (v4+ gives a
// dynamic newcomer MEMBER_ID_REQUIRED first, KIP-394; below v4 it joins at once).
func joinAhead(b, end history.Event) (impl.MemberID, []int16) {
	all := []int16{9, 3}
	if b.Member != "" {
		return "", all[:1] // the version matters only to a join without member id
	}
	code, ok := judged(end)
	switch {
	case ok && code == impl.MemberIDRequired && end.Member != "":
		return impl.MemberID(end.Member), all[:1]
	case ok && code == impl.None && end.Member != "":
		if b.Instance != "" {
			return impl.MemberID(end.Member), all[:1]
		}
		return impl.MemberID(end.Member), all[1:]
	}
	// No answer to go by: a name no recorded member uses, either version.
	return impl.MemberID(fmt.Sprintf("?join-%d", b.ID)), all
}

func sortedKeys[V any](m map[string]V) []string {
	ks := make([]string, 0, len(m))
	for k := range m {
		ks = append(ks, k)
	}
	slices.Sort(ks)
	return ks
}

// Subscriptions are not in a history, and the coordinator reads them only to compare a
// member's rejoin with what it stored (an unchanged follower in Stable gets the current
// generation, a changed one rebalances: MemberMetadata.matches). So a subscription here is
// one of two markers, and a known member's rejoin is tried both unchanged and changed.
var markers = [2]impl.Subscription{{Topics: []string{"?subscription-a"}}, {Topics: []string{"?subscription-b"}}}

// joinProtocols are the protocol lists a JoinGroup may have carried: the recorded assignor
// names with the member's stored subscription, and with the other one.
func joinProtocols(g coordinator.Group, b history.Event) [][]impl.GroupProtocol {
	names := b.Protocols
	if len(names) == 0 {
		names = unrecordedProtocols(g, impl.MemberID(b.Member))
	}
	with := func(s impl.Subscription) []impl.GroupProtocol {
		ps := make([]impl.GroupProtocol, len(names))
		for i, n := range names {
			ps[i] = impl.GroupProtocol{Name: n, Metadata: s}
		}
		return ps
	}
	m, ok := g.Member(impl.MemberID(b.Member))
	if !ok || len(m.Protocols) == 0 {
		return [][]impl.GroupProtocol{with(markers[0])}
	}
	stored := m.Protocols[0].Metadata
	if st := g.State(); st != coordinator.CompletingRebalance && st != coordinator.Stable {
		// Only these states compare the metadata; elsewhere a changed one would only be
		// stored, splitting one behaviour in two.
		return [][]impl.GroupProtocol{with(stored)}
	}
	other := markers[0]
	if stored.Topics[0] == markers[0].Topics[0] {
		other = markers[1]
	}
	return [][]impl.GroupProtocol{with(stored), with(other)}
}

// unrecordedProtocols are the assignor names a JoinGroup that recorded none is taken to
// offer: the member's stored ones, else the group's selected one (a client joins with the
// group's assignor, or the broker refuses it with INCONSISTENT_GROUP_PROTOCOL, which is not
// judged), else a name of its own.
func unrecordedProtocols(g coordinator.Group, id impl.MemberID) []string {
	if m, ok := g.Member(id); ok && len(m.Protocols) > 0 {
		names := make([]string, len(m.Protocols))
		for i, p := range m.Protocols {
			names[i] = p.Name
		}
		return names
	}
	if p := g.ProtocolName(); p != "" {
		return []string{p}
	}
	return []string{"?assignor"}
}

// handle is every way the coordinator can handle c.open[i]: the configs after it, each with
// the step that led there.
func handle(c config, i int) []config {
	o := c.open[i]
	var out []config
	add := func(g coordinator.Group, replies []impl.Reply, how move) {
		n := c
		n.coord = g
		o2 := o
		o2.status = parked
		n = n.with(i, o2).deliver(replies)
		if o.status == orphan {
			n = n.without(i) // an orphan's answer is read by nobody
		}
		n.via = append(slices.Clip(c.via), how)
		out = append(out, alive(withLeaders(c, n))...)
	}
	what := move{kind: moveHandle, id: o.id, what: o.req.node + " " + o.req.op()}
	jr, ok := o.req.req.(impl.JoinGroupRequest)
	if !ok {
		g, replies := c.coord.Handle(o.req.req, "")
		add(g, replies, what)
		return out
	}
	if _, member := c.coord.Member(o.req.fresh); jr.MemberID == "" && (member || c.coord.IsPending(o.req.fresh)) {
		return nil // the answer hands out an id in use: a coordinator hands out a new one
	}
	for _, v := range o.req.versions {
		for k, ps := range joinProtocols(c.coord, o.req.begin) {
			r := jr
			r.Version, r.Protocols = v, ps
			g, replies := c.coord.JoinGroup(r, o.req.fresh)
			how := what
			if len(o.req.versions) > 1 {
				how.version = v
			}
			how.changed = k == 1
			add(g, replies, how)
		}
	}
	return out
}

// timers is every timer of the coordinator that can fire in c, each with the configs after
// it: the join and sync phase timeouts, each member's session expiry, each pending member
// id's expiry (docs/protocol.md §1.9). Time is not in a history, so any of them may fire
// between any two events.
func timers(c config) []config {
	var out []config
	add := func(g coordinator.Group, replies []impl.Reply, how move) {
		n := c
		n.coord = g
		n = n.deliver(replies)
		n.via = append(slices.Clip(c.via), how)
		out = append(out, alive(withLeaders(c, n))...)
	}
	g := c.coord
	if g.EnabledJoinPhaseTimeout() {
		n, r := g.JoinPhaseTimeout()
		add(n, r, move{kind: moveJoinTimeout})
	}
	if g.EnabledSyncPhaseTimeout() {
		n, r := g.SyncPhaseTimeout()
		add(n, r, move{kind: moveSyncTimeout})
	}
	for _, id := range g.ExpirableMembers() {
		n, r := g.SessionExpired(id)
		add(n, r, move{kind: moveSession, what: string(id)})
	}
	for _, id := range g.Pending() {
		if g.EnabledPendingMemberExpiry(id) {
			n, r := g.PendingMemberExpired(id)
			add(n, r, move{kind: movePending, what: string(id)})
		}
	}
	return out
}

// matches reports whether the reference's answer resp is what the recorded end says: the
// error code, and for a success what the end records of it (JoinGroup's generation, member
// id, leader and member list; SyncGroup's assignment). What the end leaves out is not held
// against it.
func matches(resp impl.Response, same bool, end history.Event, code impl.ErrorCode) bool {
	switch r := resp.(type) {
	case impl.ConsumerGroupHeartbeatResponse:
		return matches848(r, same, end, code)
	case impl.JoinGroupResponse:
		if r.Error != code {
			return false
		}
		if code != impl.None {
			return true
		}
		return int32(r.Generation) == end.Gen && (end.Member == "" || string(r.MemberID) == end.Member) &&
			(end.Leader == "" || string(r.Leader) == end.Leader) && (len(end.Members) == 0 || sameMembers(r.Members, end.Members))
	case impl.SyncGroupResponse:
		return r.Error == code && (code != impl.None || r.Assignment.Partitions.Equal(parts(end.Parts)))
	case impl.LeaveGroupResponse:
		got := r.Error
		if got == impl.None && len(r.Members) == 1 {
			got = r.Members[0].Error
		}
		return got == code
	}
	return resp.Code() == code
}

func sameMembers(got []impl.JoinGroupMember, want []string) bool {
	ids := make([]string, len(got))
	for i, m := range got {
		ids[i] = string(m.MemberID)
	}
	w := slices.Clone(want)
	slices.Sort(ids)
	slices.Sort(w)
	return slices.Equal(ids, w)
}

// replyText renders an answer in the history's words, for reports and keys.
func replyText(resp impl.Response) string {
	switch r := resp.(type) {
	case impl.JoinGroupResponse:
		if r.Error != impl.None {
			return fmt.Sprintf("JoinGroup %s member=%s", r.Error, orDash(string(r.MemberID)))
		}
		ids := make([]string, len(r.Members))
		for i, m := range r.Members {
			ids[i] = string(m.MemberID)
		}
		return fmt.Sprintf("JoinGroup NONE gen=%d member=%s leader=%s members=(%s)", r.Generation, r.MemberID, orDash(string(r.Leader)), strings.Join(ids, " "))
	case impl.SyncGroupResponse:
		if r.Error != impl.None {
			return "SyncGroup " + r.Error.String()
		}
		return "SyncGroup NONE assignment=" + r.Assignment.Partitions.String()
	case impl.HeartbeatResponse:
		return "Heartbeat " + r.Error.String()
	case impl.LeaveGroupResponse:
		got := r.Error
		if got == impl.None && len(r.Members) == 1 {
			got = r.Members[0].Error
		}
		return "LeaveGroup " + got.String()
	case impl.OffsetCommitResponse:
		return "OffsetCommit " + r.Error.String()
	case impl.ConsumerGroupHeartbeatResponse:
		if r.Error != impl.None {
			return "ConsumerGroupHeartbeat " + r.Error.String()
		}
		s := fmt.Sprintf("ConsumerGroupHeartbeat NONE member=%s epoch=%d", orDash(string(r.MemberID)), r.MemberEpoch)
		if r.Assignment != nil {
			s += " assignment=" + r.Assignment.String()
		}
		return s
	}
	return fmt.Sprintf("%T %s", resp, resp.Code())
}

func orDash(s string) string {
	if s == "" {
		return "-"
	}
	return s
}
