package spec

import (
	"fmt"
	"reflect"
	"slices"
	"strings"
)

// Symmetry reduction over interchangeable member slots (issue 4, item 3).
//
// Two slots are interchangeable when their configured roles are equal in everything but the
// name (MemberConfig without Name: static or not, absent, topics, versions, assignors...). A
// permutation π of interchangeable slots acts on a world by moving each slot's contents to its
// image and renaming everything that names a slot: member ids (name#n becomes π(name)#n, with
// the same n), static instance ids (the slot's name), connections (slot<<6 | incarnation).
// The lists the roles keep sorted by member id (the coordinators' members, pending ids and
// target, the leader's member list, SyncGroup assignments) are sorted again, as the roles
// would hold them; orders that are history (the connections' FIFO queues) are kept.
//
// Symmetry.Encode gives each orbit one encoding: the least World.Encode of an image, taken
// over every image for a single swap and, for larger groups, over the images that sort each
// class by a signature that no permutation changes (canon.go). Two worlds get one encoding
// exactly when a permutation maps one onto the other: exact orbits, not a sort of the slots
// that leaves ties to chance and under-reduces. Images are never built as worlds (the
// coordinators' fields are private to impl): image.go writes their encodings directly.
//
// Exploring one world per orbit is exact only if every permutation is an automorphism of the
// transition relation (w → w' by a iff π(w) → π(w') by π(a)) and the properties do not tell
// a world from its image. Most of the world is: each role handles members one at a time, the
// network is per connection, and freshID picks name#n by n alone, so freshID(π(w), π(name)) =
// π(freshID(w, name)). What is not are the choices the model makes by member-id order — and
// ids order the slots by name:
//   - every deterministic assignor breaks ties by member id (range, roundrobin, sticky and
//     cooperative-sticky in impl/leader; uniform and range in impl/kip848): of two
//     interchangeable members a and b, a gets t-0 and b t-1, never the other way round;
//   - the classic coordinator elects a new leader as the first member in id order
//     (impl/coordinator electJoinedLeader and remove; Kafka picks an arbitrary one).
//
// Merging a world with its image across such a choice merges worlds with different futures
// and loses reachable orbits: in cooperative-kafka it explores fewer orbits than the plain
// search reaches (TestIDOrderBreaksSymmetry). So NewSymmetry keeps the classes only where no
// such choice exists: protocol consumer with the `any` assignor, whose targets are every
// valid one (a set closed under renaming). Elsewhere the group is trivial and Blocked says
// why. The tests check the automorphism on random walks (every enabled action of a world and
// of its image correspond, and the successors' images encode alike), and the explored counts
// against the orbits of the plain search.
type Symmetry struct {
	names   []string // configured slot names, by slot
	classes [][]int  // interchangeable slots, each class of two or more, in slot order
	perms   [][]int  // every permutation of the group, the identity first: p[i] is slot i's image
	blocked string
}

// NewSymmetry is the symmetry group of a config's worlds: the permutations of interchangeable
// slots when the config makes no choice by member-id order, else the trivial group.
func NewSymmetry(c Config) Symmetry {
	s := newSymmetry(c, roleClasses(c))
	if len(s.classes) > 0 {
		if why := idOrderChoice(c); why != "" {
			s = newSymmetry(c, nil)
			s.blocked = why
		}
	}
	return s
}

// newSymmetry is the group of the given classes, whether or not they are automorphisms (the
// tests force them to measure what an unsound reduction loses).
func newSymmetry(c Config, classes [][]int) Symmetry {
	s := Symmetry{classes: classes}
	for _, m := range c.Members {
		s.names = append(s.names, m.Name)
	}
	id := make([]int, len(c.Members))
	for i := range id {
		id[i] = i
	}
	s.perms = products(id, classes)
	return s
}

// roleClasses groups the slots whose member configs are equal but for the name.
func roleClasses(c Config) [][]int {
	var classes [][]int
	taken := make([]bool, len(c.Members))
	for i := range c.Members {
		if taken[i] {
			continue
		}
		class := []int{i}
		for j := i + 1; j < len(c.Members); j++ {
			if !taken[j] && sameRole(c.Members[i], c.Members[j]) {
				class = append(class, j)
				taken[j] = true
			}
		}
		if len(class) > 1 {
			classes = append(classes, class)
		}
	}
	return classes
}

// sameRole compares every field but the name, so that a field added to MemberConfig later
// separates slots until someone decides otherwise.
func sameRole(a, b MemberConfig) bool {
	a.Name, b.Name = "", ""
	return reflect.DeepEqual(a, b)
}

// idOrderChoice says which choice of the config's roles depends on member-id order, or "".
func idOrderChoice(c Config) string {
	if slices.ContainsFunc(c.Members, func(m MemberConfig) bool { return m.Instance != "" }) {
		return "a member's instance= names another slot's group.instance.id, which renaming slots would not rename"
	}
	switch {
	case !c.ConsumerProtocol && c.Assignor != "any":
		return fmt.Sprintf("the %s assignor breaks ties by member id, and the classic coordinator elects a new leader by member id", c.Assignor)
	case !c.ConsumerProtocol:
		return "the classic coordinator elects a new leader as the first member in id order (impl/coordinator electJoinedLeader, remove)"
	case c.Assignor != "any":
		return fmt.Sprintf("the KIP-848 %s assignor breaks ties by member id", c.Assignor)
	}
	return ""
}

// products lists base composed with every permutation of each class, identity first.
func products(base []int, classes [][]int) [][]int {
	if len(classes) == 0 {
		return [][]int{base}
	}
	var out [][]int
	class := classes[0]
	for _, order := range permutations(len(class)) {
		p := append([]int(nil), base...)
		for k, slot := range class {
			p[slot] = class[order[k]]
		}
		out = append(out, products(p, classes[1:])...)
	}
	return out
}

// permutations lists every permutation of 0..n-1 in lexicographic order (identity first).
func permutations(n int) [][]int {
	var out [][]int
	used := make([]bool, n)
	var p []int
	var extend func()
	extend = func() {
		if len(p) == n {
			out = append(out, append([]int(nil), p...))
			return
		}
		for k := 0; k < n; k++ {
			if !used[k] {
				used[k] = true
				p = append(p, k)
				extend()
				p = p[:len(p)-1]
				used[k] = false
			}
		}
	}
	extend()
	return out
}

// Order is the number of permutations in the group, the identity included.
func (s Symmetry) Order() int { return len(s.perms) }

// Classes lists the interchangeable slots by name, one list per class; none when the group is
// trivial.
func (s Symmetry) Classes() [][]string {
	out := [][]string{}
	for _, c := range s.classes {
		var names []string
		for _, i := range c {
			names = append(names, s.names[i])
		}
		out = append(out, names)
	}
	return out
}

// Blocked says why slots with equal roles are not interchangeable (a choice by member-id
// order), or "" when the classes stand or no two roles are equal.
func (s Symmetry) Blocked() string { return s.blocked }

// String describes the group in one line, for reports.
func (s Symmetry) String() string {
	if len(s.classes) == 0 {
		if s.blocked != "" {
			return "no reduction: " + s.blocked
		}
		return "no reduction: no two members have the same role"
	}
	var cs []string
	for _, c := range s.Classes() {
		cs = append(cs, "{"+strings.Join(c, " ")+"}")
	}
	return fmt.Sprintf("interchangeable %s, %d permutations", strings.Join(cs, " "), s.Order())
}

// Action is the image of a under the group's k-th permutation (0 is the identity, up to
// Order()-1): its slot moved, member ids renamed, an `any` choice renamed and kept in id
// order. If w → w' by a, the image of w steps to the image of w' by Action(k, a).
func (s Symmetry) Action(k int, a Action) Action {
	r := renamer{names: s.names, to: s.perms[k]}
	switch a.Kind {
	case AddPartition, DeleteTopic, JoinTimeout, SyncTimeout:
	case SessionExpiry, PendingExpiry, RebalanceTimeout:
		a.Member = r.id(a.Member)
	default:
		a.Slot = int8(r.to[a.Slot])
		a.Choice = r.assignments(a.Choice)
		if a.Followup != "" {
			a.Followup = r.id(a.Followup)
		}
	}
	return a
}
