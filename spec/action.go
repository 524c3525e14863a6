package spec

import (
	"fmt"
	"slices"
	"strings"

	"github.com/groupcheck/groupcheck/impl"
)

// Kind is the kind of an action. Its name is the action's first word in text form.
type Kind uint8

// Protocol actions: message delivery and the members' own steps.
const (
	DeliverRequest  Kind = iota // the coordinator handles the head of a member's requests
	DeliverResponse             // a member handles the head of its responses
	Assign                      // the leader runs the assignor and sends SyncGroup
	Poll                        // the member polls: rejoins if it must
	Heartbeat                   // the member sends a heartbeat whose answer is not NONE
	Commit                      // the member commits its owned partitions
	Refresh                     // the member's metadata catches up with the cluster

	// Environment actions, each within its budget.
	Start         // an absent or closed member starts
	Leave         // a member closes and leaves gracefully
	Crash         // a member's process dies
	Restart       // a static member's process restarts with the same instance id
	Resubscribe   // a member switches between its topics and its alt-topics
	LoseResponse  // the head response of a member is lost; the client times out
	PollTimeout   // a member exceeds max.poll.interval.ms
	AddPartition  // a topic gains a partition
	DeleteTopic   // a topic is deleted
	SessionExpiry // the coordinator's session timer of a member id fires
	PendingExpiry // the coordinator's timer of a pending member id fires
	JoinTimeout   // the join phase times out
	SyncTimeout   // the sync phase times out
	// RebalanceTimeout: the KIP-848 coordinator's rebalance timer of a member id fires
	// (protocol consumer; appended so that the kinds above keep their indices).
	RebalanceTimeout
	// Hang: a leader's poll thread hangs in its assignor for good while its heartbeats go
	// on (budget hangs; appended likewise).
	Hang
	// Failover: the group's coordinator moves to another broker (budget failovers); Load:
	// the new coordinator finishes loading the group from the log (a protocol action).
	Failover
	Load
	// Pause: a live member's process stops (budget pauses); Resume: it goes on (fair).
	Pause
	Resume
	// Followup: a member carries out the follow-up rebalance its last assignment asked for
	// (budget followups; fair, see followup.go).
	Followup
	// Bounce: a live member closes and restarts on the other group.protocol (budget bounces,
	// mixed worlds only; appended likewise).
	Bounce
	numKinds
)

var kindNames = [numKinds]string{
	"deliver-request", "deliver-response", "assign", "poll", "heartbeat", "commit", "refresh",
	"start", "leave", "crash", "restart", "resubscribe", "lose-response", "poll-timeout",
	"add-partition", "delete-topic", "session-expiry", "pending-expiry", "join-timeout",
	"sync-timeout", "rebalance-timeout", "hang", "failover", "load", "pause", "resume", "followup",
	"bounce",
}

func (k Kind) String() string { return kindNames[k] }

// KindNames lists every action kind's name, indexed by Kind.
func KindNames() []string { return kindNames[:] }

// Action is one step of the world. Its text form (String) names the member by its configured
// name, a topic by name, a coordinator member id as is; ParseAction reads it back.
type Action struct {
	Kind   Kind
	Slot   int8          // member actions
	Topic  string        // add-partition, delete-topic
	Member impl.MemberID // session-expiry, pending-expiry, rebalance-timeout
	// Choice is the assignment an `any` leader sends (Assign only): nil for a deterministic
	// assignor. Under protocol consumer it is the target the KIP-848 coordinator installs
	// when the slot's head request recomputes it (`any` only).
	Choice []impl.MemberAssignment
	// Followup is the member whose assignment the leader marks with a follow-up request
	// (Assign only, budget followups; "" for none).
	Followup impl.MemberID
}

// Text renders the action in its stable text form, naming members from the config.
func (a Action) Text(c *Config) string {
	switch a.Kind {
	case AddPartition, DeleteTopic:
		return a.Kind.String() + " " + a.Topic
	case SessionExpiry, PendingExpiry, RebalanceTimeout:
		return a.Kind.String() + " " + string(a.Member)
	case JoinTimeout, SyncTimeout:
		if a.Member != "" { // a classic member's timer in a consumer group (mixed worlds)
			return a.Kind.String() + " " + string(a.Member)
		}
		return a.Kind.String()
	case Failover, Load:
		return a.Kind.String()
	}
	s := a.Kind.String() + " " + c.Members[a.Slot].Name
	if a.Choice != nil {
		s += " " + formatChoice(a.Choice)
	}
	if a.Followup != "" {
		s += " " + followupKey + string(a.Followup)
	}
	return s
}

// formatChoice spells an assignment as id=(t-0 t-1),id=().
func formatChoice(as []impl.MemberAssignment) string {
	parts := make([]string, len(as))
	for i, m := range as {
		parts[i] = string(m.MemberID) + "=" + m.Assignment.Partitions.String()
	}
	return strings.Join(parts, ",")
}

// ParseAction reads an action's text form back. It checks names against the config, not
// whether the action is enabled in any world.
func ParseAction(c *Config, s string) (Action, error) {
	word, rest, _ := strings.Cut(strings.TrimSpace(s), " ")
	k := Kind(slices.Index(kindNames[:], word))
	if int(k) < 0 || k >= numKinds {
		return Action{}, fmt.Errorf("action %q: unknown kind %q", s, word)
	}
	a := Action{Kind: k}
	switch k {
	case JoinTimeout, SyncTimeout:
		if rest != "" && (!c.Mixed() || strings.Contains(rest, " ")) {
			return Action{}, fmt.Errorf("action %q: %s takes no argument (in a mixed world, or one member id: a classic member's timer in a consumer group)", s, k)
		}
		a.Member = impl.MemberID(rest)
		return a, nil
	case Failover, Load:
		if rest != "" {
			return Action{}, fmt.Errorf("action %q: %s takes no argument", s, k)
		}
		return a, nil
	case AddPartition, DeleteTopic:
		if !slices.ContainsFunc(c.Topics, func(t impl.TopicMetadata) bool { return t.Name == rest }) {
			return Action{}, fmt.Errorf("action %q: unknown topic %q", s, rest)
		}
		a.Topic = rest
		return a, nil
	case SessionExpiry, PendingExpiry, RebalanceTimeout:
		if rest == "" || strings.Contains(rest, " ") {
			return Action{}, fmt.Errorf("action %q: %s takes one member id", s, k)
		}
		a.Member = impl.MemberID(rest)
		return a, nil
	}
	name, choice, hasChoice := strings.Cut(rest, " ")
	i := slices.IndexFunc(c.Members, func(m MemberConfig) bool { return m.Name == name })
	if i < 0 {
		return Action{}, fmt.Errorf("action %q: unknown member %q", s, name)
	}
	a.Slot = int8(i)
	if f := strings.LastIndex(" "+choice, " "+followupKey); hasChoice && f >= 0 {
		if k != Assign {
			return Action{}, fmt.Errorf("action %q: only assign takes %s", s, followupKey)
		}
		id := choice[f+len(followupKey):]
		if id == "" || strings.Contains(id, " ") {
			return Action{}, fmt.Errorf("action %q: %s takes one member id", s, followupKey)
		}
		a.Followup = impl.MemberID(id)
		choice = strings.TrimSpace(choice[:f])
		hasChoice = choice != ""
	}
	if hasChoice {
		if k != Assign {
			return Action{}, fmt.Errorf("action %q: only assign takes an assignment", s)
		}
		as, err := parseChoice(choice)
		if err != nil {
			return Action{}, fmt.Errorf("action %q: %w", s, err)
		}
		a.Choice = as
	}
	return a, nil
}

func parseChoice(s string) ([]impl.MemberAssignment, error) {
	out := []impl.MemberAssignment{}
	for s != "" {
		id, rest, ok := strings.Cut(s, "=(")
		if !ok {
			return nil, fmt.Errorf("assignment %q: want id=(t-0 ...)", s)
		}
		body, after, ok := strings.Cut(rest, ")")
		if !ok {
			return nil, fmt.Errorf("assignment %q: unclosed parenthesis", s)
		}
		var tps []impl.TopicPartition
		for _, f := range strings.Fields(body) {
			tp, err := parseTP(f)
			if err != nil {
				return nil, err
			}
			tps = append(tps, tp)
		}
		out = append(out, impl.MemberAssignment{MemberID: impl.MemberID(id), Assignment: impl.Assignment{Partitions: impl.NewPartitionSet(tps...)}})
		s = strings.TrimPrefix(after, ",")
	}
	return out, nil
}

func parseTP(s string) (impl.TopicPartition, error) {
	i := strings.LastIndexByte(s, '-')
	var p int32
	if i <= 0 {
		return impl.TopicPartition{}, fmt.Errorf("partition %q: want topic-N", s)
	}
	if _, err := fmt.Sscanf(s[i+1:], "%d", &p); err != nil || fmt.Sprint(p) != s[i+1:] {
		return impl.TopicPartition{}, fmt.Errorf("partition %q: want topic-N", s)
	}
	return impl.TP(s[:i], p), nil
}
