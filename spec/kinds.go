package spec

import (
	"fmt"
	"math/bits"
	"reflect"
	"strings"
	"unsafe"

	"github.com/groupcheck/groupcheck/impl"
)

// The table of action kinds: one row per Kind says everything the rest of the module asks of
// a kind — its name and argument, the protocols it exists under and its candidates under
// each, whether weak fairness applies, whether it is a member's local step, whether it can
// remove a live member, how a trace draws it, and the budget that bounds it. Actions, Step
// (through stepper.do, the table's routing, below), ParseAction, Text, the ample sets
// (IsLocal, Quiet), the liveness check's fairness (invariants.Fair), the ownership
// properties' expectations (Config.RemovesLive, FreesLiveTimers), the renderers
// (Kind.OnCoordinator, Kind.Class) and the config's budget keys (Budget.fields, BudgetKeys,
// docs/config.md) are all read from it, so a new kind of event is a row here and a handler
// file.
//
// Adding a fault (docs/checking.md, "Adding a fault"): in this file, append its Kind to the
// constants (appended, so that the kinds before it keep their indices), its budget to Budget
// (zero by default, so that no existing world changes), its row to the table and its case to
// stepper.do; in a file of its own, its handler and candidates. A condition it leaves on a
// slot is a bit of Slot.Cond (encoded and rendered already: the row's cond and condName);
// the row's hooks (frees, takes, unquiet) are how the rest of the world feels it.

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
	// Cut: a running member's link to the coordinator fails while it goes on (budget cuts);
	// Heal: it comes back (fair; see cut.go).
	Cut
	Heal
	// Bounce: a live member closes and restarts on the other group.protocol (budget
	// bounces; mixed worlds only, see mixed.go).
	Bounce
	numKinds
)

// Budget bounds every environment event. Each field is named, documented and tied to the
// kind it bounds by a row of the kinds table (kinds.go); a field no row names is an error at
// start-up. Timers that concern a member whose process is gone
// (crashed or closed) cost nothing: they are bound to fire eventually; a budget bounds only the
// timeouts of live members (a slow network, a long GC pause).
type Budget struct {
	Joins               int // starts of absent or closed members
	Leaves              int // graceful LeaveGroup on close
	Crashes             int // a process dies without leaving
	Restarts            int // a static member's process restarts with the same instance id
	SubscriptionChanges int // a member switches between Topics and AltTopics
	PartitionAdditions  int // a topic gains a partition
	TopicDeletions      int // a topic is deleted
	LostResponses       int // a response is lost; the client times the request out
	SessionTimeouts     int // a live member's session expires at the coordinator
	JoinTimeouts        int // the join phase times out while a live member has not rejoined
	SyncTimeouts        int // the sync phase times out while a live member has not synced
	PollTimeouts        int // a live member exceeds max.poll.interval.ms and leaves
	// RebalanceTimeouts: a live KIP-848 member's rebalance timer fires while it has not
	// acknowledged a revocation (protocol consumer only; docs/protocol.md §3.5).
	RebalanceTimeouts int
	// Hangs: a live leader's poll thread hangs for good in its assignor while its heartbeat
	// thread goes on, so its session never expires of itself and it never sends SyncGroup
	// (classic protocols only; the KAFKA-12890 setting, docs/bugs.md B3). Its max.poll.interval.ms
	// is taken to be unbounded, as Kafka Streams once configured it: nothing makes it leave.
	Hangs int
	// Failovers: the group's coordinator moves to another broker, which loads the group from
	// the log (see failover.go).
	Failovers int
	// Pauses: a live member's whole process stops (stop-the-world) and resumes later with
	// its state; timers that fire on it meanwhile are free (see pause.go).
	Pauses int
	// Followups: the leader's assignor asks one member of the round, in its assignment, to
	// rejoin once it has applied it — Kafka Streams' follow-up and probing rebalances
	// (KIP-441; classic protocols only: see followup.go).
	Followups int
	// Cuts: a running member is cut off from the coordinator while it goes on fetching and
	// processing; what it sends the coordinator meanwhile is lost (see cut.go).
	Cuts int
	// Bounces: a live member closes and its process restarts with the other group.protocol
	// (the rolling bounce of an online migration; mixed worlds only, see mixed.go).
	Bounces int
}

// Arg is what an action of a kind names besides its kind, in its text form.
type Arg uint8

const (
	OnSlot   Arg = iota // a member slot by its configured name: "crash a"
	OnTopic             // a topic: "add-partition t"
	OnMember            // a coordinator member id: "session-expiry a#1"
	OnGroup             // nothing: "join-timeout"
)

// Fairness is whether weak fairness applies to a kind's steps (invariants.Fair).
type Fairness uint8

const (
	// Unfair: the environment's or the application's choice, which may stop at any time.
	Unfair Fairness = iota
	// Fair: the protocol's own step, or one bound to happen (the end of a pause).
	Fair
	// FairWhenFree: fair when the step spends no budget — a timer whose member's process
	// is gone is bound to fire, one that fires on a live member is the environment's choice.
	FairWhenFree
)

// Removal is whether a kind can remove a live member from the group.
type Removal uint8

const (
	// Keeps: it never removes a member that goes on taking steps.
	Keeps Removal = iota
	// Fences: it can remove (or stand behind the removal of) a live member that goes on
	// taking steps and learns of it from a fencing answer: the zombie window of
	// docs/protocol.md §1.12.
	Fences
	// Unseen: it can remove a live member that never learns it (a hung leader).
	Unseen
)

// Class is how a timeline draws a kind: the protocol's own step, a timer (something that
// happens with time), or an event of the environment.
type Class string

const (
	ClassProtocol Class = "protocol"
	ClassTimer    Class = "timer"
	ClassEnv      Class = "env"
)

// group is where Actions lists a kind's candidates: per slot the members' own steps, then
// per slot the environment's events, then per topic the metadata changes, then the group's.
type group uint8

const (
	slotStep group = iota
	slotEnv
	topicEvent
	groupEvent
)

// Protocol indices of a row's handlers: the classic protocols and protocol consumer.
const (
	classicProto = 0
	kip848Proto  = 1
)

// kindRow is one kind's row of the table.
type kindRow struct {
	name  string
	arg   Arg
	group group
	fair  Fairness
	// local: a member's local step (ample.go): it touches only its slot's consumer, the head
	// of its responses and the tail of its requests.
	local bool
	// disturbs: an event that can hit a live member's slot or the coordinator under it (a
	// crash, a lost response, a metadata change, a failover): while its budget lasts no
	// slot is Quiet.
	disturbs bool
	removes  Removal
	// coordLane: drawn on the coordinator (it handles a request, fires a timer, changes
	// the cluster); else on the action's member.
	coordLane bool
	class     Class
	// in is the protocols the kind exists under: under another it is never enabled (nor
	// listed), and its budget must be 0. Its handler is its case in stepper.do below.
	in protocols
	// cands appends slot i's candidates of the kind (i is unused outside the slot groups);
	// nil: the one action {Kind, Slot: i} (for a topic event: one per topic).
	cands [2]func(w World, i int, buf []Action) []Action

	// budget is the config key of the budget that bounds the kind ("" for none), field the
	// Budget field it names, budgetDoc what one unit of it is (docs/config.md), and
	// budgetWhy, for a kind of one protocol, why the other has none (the config error's words).
	budget    string
	field     func(*Budget) *int
	budgetDoc string
	budgetWhy string
	// only is where the budget applies, as docs/config.md says it ("" derives it from in).
	only string

	// cond is the bit of Slot.Cond the kind sets (0: none), condName how a world's text
	// shows it on the slot.
	cond     Cond
	condName string

	// Hooks by which a condition the kind leaves on a slot reaches the rest of the world,
	// consulted only while some slot has a condition (takes and unquiet: that slot).
	// frees: a coordinator timer on member id costs no budget (it is bound to fire).
	frees func(w World, id impl.MemberID) bool
	// takes: the head request of a's slot (a is its deliver-request or assign) never reaches
	// the coordinator; done reports whether the hook decided the step, n, ev and ok are then
	// the step.
	takes func(w World, a Action) (n World, ev []Event, ok, done bool)
	// unquiet: slot i's local steps are not independent of the rest while the condition holds.
	unquiet func(w World, i int) bool
}

// protocols is a set of protocols: bit classicProto, bit kip848Proto.
type protocols uint8

const (
	classicOnly   protocols = 1 << classicProto
	kip848Only    protocols = 1 << kip848Proto
	bothProtocols           = classicOnly | kip848Only
)

func (ps protocols) has(p int) bool { return ps&(1<<p) != 0 }

var kinds [numKinds]kindRow

func init() {
	// The candidates are set here, not in kinds' initializer, so that they may read the table.
	kinds = [numKinds]kindRow{
		DeliverRequest: {name: "deliver-request", group: slotStep, fair: Fair, coordLane: true, class: ClassProtocol,
			in: bothProtocols},
		DeliverResponse: {name: "deliver-response", group: slotStep, fair: Fair, local: true, class: ClassProtocol,
			in: bothProtocols},
		// Assign marking a follow-up spends the followups budget: not fair then.
		Assign: {name: "assign", group: slotStep, fair: FairWhenFree, class: ClassProtocol,
			in:    bothProtocols,
			cands: [2]func(World, int, []Action) []Action{World.assignActions, World.assignActionsKIP848}},
		Poll:      memberStepRow("poll", true, Fair),
		Heartbeat: memberStepRow("heartbeat", true, Fair),
		// The application's commit: the protocol never needs one to progress (invariants.Fair).
		Commit: memberStepRow("commit", true, Unfair),
		Refresh: {name: "refresh", group: slotStep, fair: Fair, local: true, class: ClassProtocol,
			in: classicOnly},

		Start: memberEnvRow("start", false, Keeps, "joins", func(b *Budget) *int { return &b.Joins },
			"an absent or closed member starts"),
		Leave: memberEnvRow("leave", true, Keeps, "leaves", func(b *Budget) *int { return &b.Leaves },
			"a graceful LeaveGroup on close"),
		Crash: memberEnvRow("crash", true, Keeps, "crashes", func(b *Budget) *int { return &b.Crashes },
			"a process dies without leaving"),
		Restart: memberEnvRow("restart", true, Keeps, "restarts", func(b *Budget) *int { return &b.Restarts },
			"a static member's process restarts with the same instance id"),
		Resubscribe: memberEnvRow("resubscribe", true, Keeps, "subscription-changes",
			func(b *Budget) *int { return &b.SubscriptionChanges }, "a member switches between `topics` and `alt-topics`"),
		LoseResponse: memberEnvRow("lose-response", true, Keeps, "lost-responses",
			func(b *Budget) *int { return &b.LostResponses }, "a response is lost; the client times the request out"),
		PollTimeout: func() kindRow {
			r := memberEnvRow("poll-timeout", true, Fences, "poll-timeouts", func(b *Budget) *int { return &b.PollTimeouts },
				"a live member exceeds max.poll.interval.ms and leaves")
			r.class = ClassTimer
			return r
		}(),

		AddPartition: topicRow("add-partition", "partition-additions", func(b *Budget) *int { return &b.PartitionAdditions },
			"a topic gains a partition"),
		DeleteTopic: topicRow("delete-topic", "topic-deletions", func(b *Budget) *int { return &b.TopicDeletions },
			"a topic is deleted"),

		SessionExpiry: {name: "session-expiry", arg: OnMember, group: groupEvent, fair: FairWhenFree, removes: Fences,
			coordLane: true, class: ClassTimer,
			in: bothProtocols,
			cands: [2]func(World, int, []Action) []Action{
				func(w World, _ int, buf []Action) []Action {
					return memberActions(buf, SessionExpiry, w.Coord.ExpirableMembers())
				},
				func(w World, _ int, buf []Action) []Action {
					return memberActions(buf, SessionExpiry, w.Group.SessionTimers())
				}},
			budget: "session-timeouts", field: func(b *Budget) *int { return &b.SessionTimeouts },
			budgetDoc: "a live member's session expires at the coordinator"},
		// A pending member's expiry spends session-timeouts too (its row names no budget of
		// its own: the key is SessionExpiry's).
		PendingExpiry: {name: "pending-expiry", arg: OnMember, group: groupEvent, fair: FairWhenFree,
			coordLane: true, class: ClassTimer,
			in: classicOnly,
			cands: [2]func(World, int, []Action) []Action{
				func(w World, _ int, buf []Action) []Action {
					return memberActions(buf, PendingExpiry, w.Coord.Pending())
				}}},
		JoinTimeout: phaseRow("join-timeout", "join-timeouts", func(b *Budget) *int { return &b.JoinTimeouts },
			"the join phase times out while a live member has not rejoined",
			"protocol consumer has no join phase (use rebalance-timeouts)"),
		SyncTimeout: phaseRow("sync-timeout", "sync-timeouts", func(b *Budget) *int { return &b.SyncTimeouts },
			"the sync phase times out while a live member has not synced",
			"protocol consumer has no sync phase (use rebalance-timeouts)"),
		RebalanceTimeout: {name: "rebalance-timeout", arg: OnMember, group: groupEvent, fair: FairWhenFree, removes: Fences,
			coordLane: true, class: ClassTimer,
			in:     kip848Only,
			cands:  [2]func(World, int, []Action) []Action{nil, World.rebalanceTimerActions},
			budget: "rebalance-timeouts", field: func(b *Budget) *int { return &b.RebalanceTimeouts },
			budgetDoc: "a live KIP-848 member's rebalance timer fires while it has not acknowledged a revocation",
			budgetWhy: "the KIP-848 rebalance timer exists only under protocol consumer"},

		Hang: {name: "hang", group: slotEnv, disturbs: true, removes: Unseen, class: ClassEnv,
			in: classicOnly,
			cands: [2]func(World, int, []Action) []Action{func(w World, i int, buf []Action) []Action {
				if w.Slots[i].Assigning != nil && w.Left.Hangs > 0 {
					buf = append(buf, Action{Kind: Hang, Slot: int8(i)})
				}
				return buf
			}},
			budget: "hangs", field: func(b *Budget) *int { return &b.Hangs },
			budgetDoc: "a leader's poll thread hangs for good in its assignor while its heartbeats go on: the member looks alive and never syncs; timers that wait for it are free, its session expiry is not",
			budgetWhy: "a member hangs in its client-side assignor, which protocol consumer does not run (the coordinator assigns)"},

		Failover: {name: "failover", arg: OnGroup, group: groupEvent, disturbs: true, coordLane: true, class: ClassEnv,
			in:     bothProtocols,
			cands:  [2]func(World, int, []Action) []Action{World.failoverActions, World.failoverActions},
			budget: "failovers", field: func(b *Budget) *int { return &b.Failovers },
			budgetDoc: "the group's coordinator moves and the new one loads the group from the log"},
		Load: {name: "load", arg: OnGroup, group: groupEvent, fair: Fair, coordLane: true, class: ClassTimer,
			in:    bothProtocols,
			cands: [2]func(World, int, []Action) []Action{World.loadActions, World.loadActions}},

		Pause: {name: "pause", group: slotEnv, disturbs: true, removes: Fences, class: ClassEnv,
			in:     bothProtocols,
			cands:  [2]func(World, int, []Action) []Action{World.pauseActions, World.pauseActions},
			budget: "pauses", field: func(b *Budget) *int { return &b.Pauses },
			budgetDoc: "a member's whole process stops, heartbeats included, and resumes later with its state"},
		Resume: {name: "resume", group: slotEnv, fair: Fair, class: ClassTimer,
			in:    bothProtocols,
			cands: [2]func(World, int, []Action) []Action{World.resumeActions, World.resumeActions}},

		// Followup carries out a follow-up the leader's assign marked; the marking spends
		// the budget (assign), the follow-up itself is bound to happen.
		Followup: {name: "followup", group: slotStep, fair: Fair, class: ClassTimer,
			in: classicOnly,
			cands: [2]func(World, int, []Action) []Action{func(w World, i int, buf []Action) []Action {
				if w.cfg.Budget.Followups > 0 {
					buf = append(buf, Action{Kind: Followup, Slot: int8(i)})
				}
				return buf
			}},
			budget: "followups", field: func(b *Budget) *int { return &b.Followups },
			budgetDoc: "the leader's assignor asks one member of the round, in its assignment, to rejoin once it has applied it, as Kafka Streams does (KIP-441)",
			budgetWhy: "a follow-up is asked for by a client-side assignor in its assignment, which protocol consumer does not run (the coordinator assigns)"},

		Cut: {name: "cut", group: slotEnv, disturbs: true, removes: Fences, class: ClassEnv, in: bothProtocols,
			cands:  [2]func(World, int, []Action) []Action{World.cutActions, World.cutActions},
			budget: "cuts", field: func(b *Budget) *int { return &b.Cuts },
			budgetDoc: "a running member is cut off from the coordinator while it goes on fetching: what it sends there is lost and timed out, the coordinator's timers on it are free, until the link heals",
			cond:      cutOff, condName: "cut-off", frees: cutFrees, takes: cutTakes, unquiet: cutUnquiet},
		Heal: {name: "heal", group: slotEnv, fair: Fair, class: ClassTimer, in: bothProtocols,
			cands: [2]func(World, int, []Action) []Action{World.healActions, World.healActions}},

		// A mixed world lists and steps its actions itself (actionsMixed, doMixed): a world
		// of one protocol has no bounce.
		Bounce: {name: "bounce", group: slotEnv, disturbs: true, class: ClassEnv, in: classicOnly,
			cands: [2]func(World, int, []Action) []Action{
				func(_ World, _ int, buf []Action) []Action { return buf }},
			budget: "bounces", field: func(b *Budget) *int { return &b.Bounces },
			budgetDoc: "a live member closes and its process restarts on the other group.protocol, a static one with its instance id (the rolling bounce of a migration)",
			only:      "mixed worlds only",
			budgetWhy: "a mixed world is written under protocol eager or cooperative (the classic members' rebalance protocol), its consumer-protocol members marked group-protocol=consumer"},
	}
	initTables()
}

func memberStepRow(name string, local bool, fair Fairness) kindRow {
	return kindRow{name: name, group: slotStep, fair: fair, local: local, class: ClassProtocol,
		in: bothProtocols}
}

func memberEnvRow(name string, disturbs bool, removes Removal, key string, field func(*Budget) *int, doc string) kindRow {
	return kindRow{name: name, group: slotEnv, disturbs: disturbs, removes: removes, class: ClassEnv,
		in:     bothProtocols,
		budget: key, field: field, budgetDoc: doc}
}

func topicRow(name, key string, field func(*Budget) *int, doc string) kindRow {
	return kindRow{name: name, arg: OnTopic, group: topicEvent, disturbs: true, coordLane: true, class: ClassEnv,
		in:     bothProtocols,
		budget: key, field: field, budgetDoc: doc}
}

func phaseRow(name, key string, field func(*Budget) *int, doc, why string) kindRow {
	return kindRow{name: name, arg: OnGroup, group: groupEvent, fair: FairWhenFree, removes: Fences, coordLane: true,
		class:  ClassTimer,
		in:     classicOnly,
		budget: key, field: field, budgetDoc: doc, budgetWhy: why}
}

// memberActions appends one action of kind k per member id.
func memberActions(buf []Action, k Kind, ids []impl.MemberID) []Action {
	for _, id := range ids {
		buf = append(buf, Action{Kind: k, Member: id})
	}
	return buf
}

// Derived from the table once: the kinds of each group in table order per protocol, the
// budget fields in Budget's declaration order, and the rows with hooks.
var (
	groupKinds   [2][4][]Kind
	budgetFields []budgetRow
	disturbing   []int // the disturbing kinds' budgets, as indices of Budget.values
	freeing      []func(w World, id impl.MemberID) bool
	taking       []func(w World, a Action) (World, []Event, bool, bool)
	unquieting   []func(w World, i int) bool
	condNames    [8]string // by bit of Slot.Cond
)

// budgetRow is one budget key: its name, field, the row that names it.
type budgetRow struct {
	name string
	get  func(*Budget) *int
	row  *kindRow
}

// values is b's budgets as one slice, in declaration order (budgetFields' order): Budget
// is nothing but ints (initTables checks), read so without the rows' accessors, which would
// make b escape to the heap in the hot paths (World.Encode, Quiet).
func (b *Budget) values() []int { return unsafe.Slice((*int)(unsafe.Pointer(b)), len(budgetFields)) }

func initTables() {
	for k := range numKinds {
		r := &kinds[k]
		if r.name == "" {
			panic(fmt.Sprintf("spec: action kind %d has no row", k))
		}
		for p := range 2 {
			if r.in.has(p) {
				groupKinds[p][r.group] = append(groupKinds[p][r.group], k)
			}
		}
		if r.frees != nil {
			freeing = append(freeing, r.frees)
		}
		if r.takes != nil {
			taking = append(taking, r.takes)
		}
		if r.cond != 0 {
			b := bits.TrailingZeros8(uint8(r.cond))
			if r.cond&(r.cond-1) != 0 || condNames[b] != "" {
				panic("spec: kind " + r.name + " needs a bit of Slot.Cond of its own")
			}
			condNames[b] = r.condName
		}
		if r.unquiet != nil {
			unquieting = append(unquieting, r.unquiet)
		}
	}
	// Budget's fields in declaration order, each named by the row that spends it: the order
	// of the config's budget line, of Budget.String and of the encodings.
	var b Budget
	v := reflect.ValueOf(&b).Elem()
	for j := range v.NumField() {
		f := v.Field(j)
		if f.Kind() != reflect.Int || v.Type().Field(j).Offset != uintptr(j)*unsafe.Sizeof(0) {
			panic("spec: Budget holds only ints, one per budget key (Budget.values)")
		}
		var row *kindRow
		for k := range numKinds {
			if r := &kinds[k]; r.field != nil && r.field(&b) == f.Addr().Interface().(*int) {
				if row != nil {
					panic("spec: budget field " + v.Type().Field(j).Name + " is named by two rows")
				}
				row = r
			}
		}
		if row == nil {
			panic("spec: budget field " + v.Type().Field(j).Name + " is named by no row of the kinds table")
		}
		if row.disturbs {
			disturbing = append(disturbing, len(budgetFields))
		}
		budgetFields = append(budgetFields, budgetRow{name: row.budget, get: row.field, row: row})
	}
}

// String is the kind's name, the first word of an action's text form.
func (k Kind) String() string {
	if k >= numKinds {
		return fmt.Sprintf("kind(%d)", k)
	}
	return kinds[k].name
}

// KindNames lists every action kind's name, indexed by Kind.
func KindNames() []string {
	out := make([]string, numKinds)
	for k := range numKinds {
		out[k] = kinds[k].name
	}
	return out
}

// Arg is what an action of kind k names besides its kind.
func (k Kind) Arg() Arg { return kinds[k].arg }

// Fairness is whether weak fairness applies to steps of kind k.
func (k Kind) Fairness() Fairness { return kinds[k].fair }

// Removes is whether a step of kind k can remove a live member.
func (k Kind) Removes() Removal { return kinds[k].removes }

// Class is how a timeline draws steps of kind k.
func (k Kind) Class() Class { return kinds[k].class }

// OnCoordinator reports whether a step of kind k is drawn on the coordinator's lane.
func (k Kind) OnCoordinator() bool { return kinds[k].coordLane }

// RemovesLive reports whether the config's budgets let some kind remove a live member:
// one that learns it from a fencing answer (Fences), or with unseen also one that never
// learns it (Unseen).
func (c Config) RemovesLive(unseen bool) bool {
	for _, f := range budgetFields {
		if rm := f.row.removes; (rm == Fences || unseen && rm == Unseen) && *f.get(&c.Budget) > 0 {
			return true
		}
	}
	return false
}

// FreesLiveTimers reports whether the config's budgets let a condition make a coordinator's
// timer on a live member free (a row's frees hook: a cut member's session, join, sync and
// rebalance timers are bound to fire), so that it fires without the timer's own budget.
func (c Config) FreesLiveTimers() bool {
	for _, f := range budgetFields {
		if f.row.frees != nil && *f.get(&c.Budget) > 0 {
			return true
		}
	}
	return false
}

// BudgetKeys is docs/config.md's table of budget keys, one markdown row per key in the
// config's order, with the protocol a key is limited to.
func BudgetKeys() string {
	var sb strings.Builder
	for _, f := range budgetFields {
		doc := f.row.budgetDoc
		switch {
		case f.row.only != "":
			doc += " (" + f.row.only + ")"
		case f.row.in == classicOnly:
			doc += " (classic only)"
		case f.row.in == kip848Only:
			doc += " (KIP-848 only)"
		}
		fmt.Fprintf(&sb, "| `%s` | %s |\n", f.name, doc)
	}
	return sb.String()
}

// protocols is the protocols the config's members speak: one, or both in a mixed world.
func (c Config) protocols() protocols {
	switch {
	case c.ConsumerProtocol:
		return kip848Only
	case c.Mixed():
		return bothProtocols
	}
	return classicOnly
}

// validateProtocol checks that no budget is set for a kind none of the config's protocols
// has (validateMixed refuses what a mixed world does not model yet).
func (b Budget) validateProtocol(ps protocols) error {
	for _, f := range budgetFields {
		if f.row.in&ps == 0 && *f.get(&b) != 0 {
			return fmt.Errorf("budget %s: %s", f.name, f.row.budgetWhy)
		}
	}
	return nil
}

// costs reports whether a coordinator timer on member id spends budget: a live process
// stands behind the id (held) and no condition on it makes the timer bound to fire (a row's
// frees hook).
func (w World) costs(id impl.MemberID) bool {
	if !w.held(id) {
		return false
	}
	if !w.conditioned() {
		return true
	}
	for _, f := range freeing {
		if f(w, id) {
			return false
		}
	}
	return true
}

// conditioned reports whether some slot has a condition (Slot.Cond): the hooks, which react
// to conditions, are consulted only then.
func (w World) conditioned() bool {
	for _, s := range w.Slots {
		if s.Cond != 0 {
			return true
		}
	}
	return false
}

// do is the handler column of the table: the action's kind routed to its handler under the
// world's protocol. It is a switch, not a column of func values, so that the stepper stays on
// the stack (a call through a func value makes it escape: one allocation per candidate).
func (st *stepper) do(a Action) bool {
	if a.Kind >= numKinds || (kinds[a.Kind].arg == OnSlot && (a.Slot < 0 || int(a.Slot) >= len(st.w.Slots))) {
		return false
	}
	if st.w.cfg.mixed {
		return st.doMixed(a) // both protocols' handlers, slot by slot
	}
	if !kinds[a.Kind].in.has(st.w.proto()) || a.Kind.Arg() == OnGroup && a.Member != "" {
		return false // a classic member's own join or sync timer is a mixed world's
	}
	i, kip := int(a.Slot), st.w.cfg.ConsumerProtocol
	switch a.Kind {
	case DeliverRequest, Assign:
		// A delivery (under protocol consumer an assign is one, with its target) of a slot
		// with a condition may be a row's to decide (takes); a classic assign sends only.
		if (a.Kind == DeliverRequest || kip) && st.w.Slots[i].Cond != 0 {
			if n, ev, ok, done := st.w.taken(a); done {
				st.w, st.ev = n, ev
				return ok && a.Kind == DeliverRequest // a request that does not arrive recomputes nothing
			}
		}
		switch {
		case a.Kind == Assign && kip:
			return a.Choice != nil && st.deliverRequestKIP848(i, a.Choice)
		case a.Kind == Assign:
			return st.assign(i, a.Choice, a.Followup)
		case kip:
			return st.deliverRequestKIP848(i, nil)
		}
		return st.deliverRequest(i)
	case DeliverResponse:
		if kip {
			return st.deliverResponseKIP848(i)
		}
		return st.deliverResponse(i)
	case Poll, Heartbeat, Commit, Refresh, Followup:
		if kip {
			return st.memberStepKIP848(i, a.Kind)
		}
		return st.memberStep(i, a.Kind)
	case Start, Leave, Crash, Restart, Resubscribe, LoseResponse, PollTimeout, Hang:
		if kip {
			return st.memberEnvKIP848(i, a.Kind)
		}
		return st.memberEnv(i, a.Kind)
	case Pause, Resume:
		return st.pause(i, a.Kind)
	case Cut, Heal:
		return st.cut(i, a.Kind)
	case AddPartition, DeleteTopic:
		if kip {
			return st.metadataKIP848(a.Kind, a.Topic)
		}
		return st.metadata(a.Kind, a.Topic)
	case SessionExpiry, PendingExpiry, JoinTimeout, SyncTimeout, RebalanceTimeout:
		if kip {
			return st.timerKIP848(a.Kind, a.Member)
		}
		return st.timer(a.Kind, a.Member)
	case Failover:
		return st.failover()
	case Load:
		return st.loaded()
	}
	panic("spec: action kind " + a.Kind.String() + " has no handler")
}

// taken is the step of a delivery a row's takes hook decides (done), if any.
func (w World) taken(a Action) (World, []Event, bool, bool) {
	for _, f := range taking {
		if n, ev, ok, done := f(w, a); done {
			return n, ev, ok, true
		}
	}
	return w, nil, false, false
}

// String names the conditions, as a world's text shows them on a slot (" cut-off").
func (c Cond) String() string {
	var sb strings.Builder
	for b := range condNames {
		if c&(1<<b) != 0 {
			sb.WriteString(" " + condNames[b])
		}
	}
	return sb.String()
}

// Undelivered is an event a takes hook emits: the step took a request off its connection and
// it never reached a coordinator (CutEvent).
type Undelivered interface {
	Event
	Undelivered() impl.Request
}

// Delivered is the slot whose head request the step from pre to post (with events ev) handed
// to a coordinator — a serving one, a loading one or an old broker: the one queue that lost
// its head, when no takes hook kept the request from arriving. Properties that judge a
// coordinator's answer read the request so.
func Delivered(pre, post *World, ev []Event) (int, bool) {
	for _, e := range ev {
		if _, ok := e.(Undelivered); ok {
			return 0, false
		}
	}
	for i, s := range pre.Slots {
		if len(s.Out) > 0 && len(post.Slots[i].Out) == len(s.Out)-1 {
			return i, true
		}
	}
	return 0, false
}
