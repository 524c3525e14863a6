package spec

import (
	"fmt"
	"slices"
	"strings"

	"github.com/groupcheck/groupcheck/impl"
)

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
	switch a.Kind.Arg() {
	case OnTopic:
		return a.Kind.String() + " " + a.Topic
	case OnMember:
		return a.Kind.String() + " " + string(a.Member)
	case OnGroup:
		if a.Member != "" { // a classic member's join or sync timer in a consumer group (mixed worlds)
			return a.Kind.String() + " " + string(a.Member)
		}
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
	ki := slices.Index(KindNames(), word)
	if ki < 0 {
		return Action{}, fmt.Errorf("action %q: unknown kind %q", s, word)
	}
	k := Kind(ki)
	a := Action{Kind: k}
	switch k.Arg() {
	case OnGroup:
		if (k == JoinTimeout || k == SyncTimeout) && c.Mixed() {
			if strings.Contains(rest, " ") {
				return Action{}, fmt.Errorf("action %q: %s takes at most one member id (a classic member's timer in a consumer group)", s, k)
			}
			a.Member = impl.MemberID(rest)
			return a, nil
		}
		if rest != "" {
			return Action{}, fmt.Errorf("action %q: %s takes no argument", s, k)
		}
		return a, nil
	case OnTopic:
		if !slices.ContainsFunc(c.Topics, func(t impl.TopicMetadata) bool { return t.Name == rest }) {
			return Action{}, fmt.Errorf("action %q: unknown topic %q", s, rest)
		}
		a.Topic = rest
		return a, nil
	case OnMember:
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
