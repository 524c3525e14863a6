package traces

import (
	"flag"
	"fmt"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/groupcheck/groupcheck/impl"
	"github.com/groupcheck/groupcheck/impl/consumer"
	"github.com/groupcheck/groupcheck/invariants"
	"github.com/groupcheck/groupcheck/spec"
)

// walkthroughs regenerates the KIP-429 walk-through scenarios below from their worlds and goals:
// go test ./traces -run TestWalkthroughs -walkthroughs. Without it the test checks that each
// file still is what its generator finds (same actions), so a model change that moves a
// story shows here; TestScenarios replays them and TestScenarioStories pins what they show.
var walkthroughs = flag.Bool("walkthroughs", false, "regenerate the KIP-429 walk-through scenarios of traces/scenarios")

// step is one step of a search: the world before, the action, its events, the world after.
type step struct {
	pre, post spec.World
	a         spec.Action
	ev        []spec.Event
}

// walkthrough is a scenario found, not written: the shortest path to a step that shows
// KIP-429's rule (goal), then the shortest path on to a converged group.
type walkthrough struct {
	file  string
	about []string
	world string
	goal  func(s step) bool
}

// kipWorld is the KIP variant's consumer (docs/protocol.md §7) on a shipped coordinator.
const kipWorld = `protocol cooperative
consumer kip
coordinator kafka
assignor cooperative-sticky
`

func owns(w spec.World, slot int) impl.PartitionSet { return w.Slots[slot].Client.Owned() }

// hasCallback reports a callback of the kind with a non-empty partition set.
func hasCallback(ev []spec.Event, kind consumer.CallbackKind) bool {
	return slices.ContainsFunc(ev, func(e spec.Event) bool {
		c, ok := e.(spec.CallbackEvent)
		return ok && c.Kind == kind && !c.Partitions.IsEmpty()
	})
}

// sendsJoin reports a JoinGroup sent with exactly the owned partitions given.
func sendsJoin(ev []spec.Event, owned impl.PartitionSet) bool {
	return slices.ContainsFunc(ev, func(e spec.Event) bool {
		s, ok := e.(spec.SendEvent)
		if !ok {
			return false
		}
		j, ok := s.Request.(impl.JoinGroupRequest)
		return ok && len(j.Protocols) > 0 && j.Protocols[0].Metadata.OwnedPartitions.Equal(owned)
	})
}

func replies(ev []spec.Event, code impl.ErrorCode) bool {
	return slices.ContainsFunc(ev, func(e spec.Event) bool {
		r, ok := e.(spec.ReplyEvent)
		return ok && r.Response.Code() == code
	})
}

var walkthroughList = []walkthrough{
	{
		file: "scenarios/join-trigger-a-subscription-kip.trace",
		about: []string{"docs/protocol.md §7.1.a under consumer kip: a member whose subscription changed revokes every partition",
			"(onPartitionsRevoked) and rejoins with an empty owned list. Differs from Kafka, which revokes only the",
			"partitions of topics it no longer subscribes to (docs/protocol.md §2.3 step 3): here a goes from t to t,u and",
			"still gives up t's partitions. Look for: resubscribe a, then a's poll with trigger=subscription-change,",
			"on-partitions-revoked of all it owns and JoinGroup owned=(); the next generation hands them back."},
		world: kipWorld + "topic t 2\ntopic u 1\nmember a topics=t alt-topics=t,u\nmember b topics=t\nbudget subscription-changes=1\n",
		goal: func(s step) bool {
			return s.pre.Slots[0].Client.Trigger == consumer.TriggerSubscriptionChange && !owns(s.pre, 0).IsEmpty() &&
				hasCallback(s.ev, consumer.Revoked) && sendsJoin(s.ev, impl.PartitionSet{})
		},
	},
	{
		file: "scenarios/join-trigger-b-metadata-kip.trace",
		about: []string{"docs/protocol.md §7.1.b under consumer kip: topic metadata changed (here topic t is deleted). A member",
			"does not revoke: it calls onPartitionsLost at once for the owned partitions that no longer exist and",
			"keeps the rest; the leader rejoins with them in its subscription (JoinReason TOPIC_METADATA_CHANGE).",
			"Differs from Kafka, which keeps the vanished partitions until the leader's next assignment revokes",
			"them (docs/protocol.md §2.1). Look for: delete-topic t, a's refresh, on-partitions-lost (t-0 t-1) and the",
			"JoinGroup with owned=(u-0) reason=topic_metadata_change; the next plan keeps u-0 with a."},
		world: kipWorld + "topic t 2\ntopic u 1\nmember a topics=t,u\nmember b topics=t,u\nbudget topic-deletions=1\n",
		goal: func(s step) bool {
			for i := range s.pre.Slots {
				if hasCallback(s.ev, consumer.Lost) && !owns(s.post, i).IsEmpty() && sendsJoin(s.ev, owns(s.post, i)) {
					return true
				}
			}
			return false
		},
	},
	{
		file: "scenarios/join-trigger-c-rebalance-in-progress-kip.trace",
		about: []string{"docs/protocol.md §7.1.c under consumer kip: a heartbeat answered REBALANCE_IN_PROGRESS is handled like a",
			"subscription change: the member revokes everything and rejoins with an empty owned list (Kafka keeps",
			"its partitions and claims them, docs/protocol.md §2.3). The commit half of §1.c never happens: a member commits",
			"only while STABLE, with a generation the coordinator answers NONE or ILLEGAL_GENERATION, never",
			"REBALANCE_IN_PROGRESS (TestCommitNeverAnsweredRebalanceInProgress). Look for: b's JoinGroup arriving after",
			"a's gen 1, a's heartbeat answered REBALANCE_IN_PROGRESS, then at a's poll the commit before revoking,",
			"on-partitions-revoked of all it owns and JoinGroup owned=()."},
		world: kipWorld + "topic t 2\nmember a topics=t\nmember b topics=t\n",
		goal: func(s step) bool {
			i := int(s.a.Slot)
			return s.pre.Slots[i].Client.Trigger == consumer.TriggerRebalanceInProgress && !owns(s.pre, i).IsEmpty() &&
				hasCallback(s.ev, consumer.Revoked) && sendsJoin(s.ev, impl.PartitionSet{})
		},
	},
	{
		file: "scenarios/join-trigger-d-member-id-required-kip.trace",
		about: []string{"docs/protocol.md §7.1.d under consumer kip: a JoinGroup answered MEMBER_ID_REQUIRED (KIP-394) is",
			"handled like a subscription change: revoke everything, rejoin with the id and an empty owned list.",
			"Only a member without a member id is asked for one, and a member loses its id only with its",
			"partitions (§1.e, onPartitionsLost), so §1.d never finds anything to revoke: no world of the §1.e",
			"scenario's config has a member owning partitions when it is told MEMBER_ID_REQUIRED",
			"(TestMemberIDRequiredFindsNothingToRevoke). Look for: start c, coord -> c: JoinGroup",
			"MEMBER_ID_REQUIRED, c's JoinGroup with its id and owned=(); and §1.c on the way: a's heartbeat",
			"answered REBALANCE_IN_PROGRESS, then a revokes everything before it rejoins."},
		world: kipWorld + "topic t 2\nmember a topics=t\nmember b topics=t\nmember c topics=t absent\nbudget joins=1\n",
		goal: func(s step) bool {
			return s.a.Kind == spec.DeliverResponse && s.a.Slot == 2 && s.pre.Slots[0].Client.Status == consumer.Stable &&
				s.pre.Slots[2].Client.Gen.MemberID == "" && sendsJoin(s.ev, impl.PartitionSet{}) &&
				slices.ContainsFunc(s.pre.Slots[2].In, func(r impl.Response) bool { return r.Code() == impl.MemberIDRequired })
		},
	},
	{
		file: "scenarios/join-trigger-e-unknown-member-kip.trace",
		about: []string{"docs/protocol.md §7.1.e under consumer kip: a member whose session expired while it was alive is told",
			"UNKNOWN_MEMBER_ID; it resets its generation and member id, calls onPartitionsLost for everything",
			"and rejoins with an empty owned list. Kafka does the same (docs/protocol.md §2.3 step 2). Look for:",
			"session-expiry a#1, the UNKNOWN_MEMBER_ID answer, on-partitions-lost, and a's JoinGroup member=-."},
		world: kipWorld + "topic t 2\nmember a topics=t\nmember b topics=t\nbudget session-timeouts=1\n",
		goal: func(s step) bool {
			i := int(s.a.Slot)
			return s.a.Kind < spec.Start && !owns(s.pre, i).IsEmpty() && hasCallback(s.ev, consumer.Lost) &&
				owns(s.post, i).IsEmpty() && s.post.Slots[i].Client.Gen.MemberID == ""
		},
	},
	{
		file: "scenarios/join-trigger-f-needs-rejoin-kip.trace",
		about: []string{"docs/protocol.md §7.1.f and §7.3.5.2 under consumer kip: a SyncGroup assignment carrying NEEDS_REJOIN.",
			"The member applies it first (revoking what the leader withheld from it, §3.4), then rejoins at once",
			"with the partitions it now owns. Look for: the plan's withheld=(...) error=NEEDS_REJOIN, the",
			"!NEEDS_REJOIN assignment, on-partitions-revoked and the JoinGroup in the same step, with owned=",
			"the new assignment; the next generation hands the withheld partition over."},
		world: kipWorld + "topic t 3\nmember a topics=t\nmember b topics=t\nbudget partition-additions=1\n",
		goal: func(s step) bool {
			i := int(s.a.Slot)
			return s.a.Kind == spec.DeliverResponse && hasCallback(s.ev, consumer.Revoked) && sendsJoin(s.ev, owns(s.post, i)) &&
				slices.ContainsFunc(s.pre.Slots[i].In[:1], func(r impl.Response) bool {
					sg, ok := r.(impl.SyncGroupResponse)
					return ok && sg.Assignment.Error == impl.NeedsRejoin
				})
		},
	},
	{
		file: "scenarios/leader-three-sets-kip.trace",
		about: []string{"docs/protocol.md §7.2.3 under consumer kip: one leader plan with all three sets non-empty.",
			"maybe-revoking = owned ∩ assigned, ready-to-migrate = assigned − owned (here t-2, just added),",
			"unknown-but-owned = owned − assigned (here u-0: a's JoinGroup still claims it, but u was deleted",
			"before a, the leader, ran the assignor on fresh metadata). Look for the gen 2 plan: line: the",
			"ready-to-migrate partition is assigned at once (§2.4) and the unknown-but-owned one handed back to its",
			"claimant (§2.5); nothing changes owner, so nothing is withheld (§2.6, see needs-rejoin-kip.trace)."},
		world: kipWorld + "topic t 2\ntopic u 1\nmember a topics=t,u\nmember b topics=t,u\nbudget partition-additions=1 topic-deletions=1\n",
		goal: func(s step) bool {
			return slices.ContainsFunc(s.ev, func(e spec.Event) bool {
				a, ok := e.(spec.AssignEvent)
				return ok && a.Plan != nil && !a.Plan.MaybeRevoking.IsEmpty() && !a.Plan.ReadyToMigrate.IsEmpty() && !a.Plan.UnknownButOwned.IsEmpty()
			})
		},
	},
}

// TestWalkthroughs checks (or with -walkthroughs writes) each walk-through: the file's actions
// are the ones the search finds now.
func TestWalkthroughs(t *testing.T) {
	for _, wt := range walkthroughList {
		t.Run(filepath.Base(wt.file), func(t *testing.T) {
			if testing.Short() && !*walkthroughs {
				t.Skip("searches each world")
			}
			cfg, err := spec.ParseConfigString(strings.TrimSuffix(filepath.Base(wt.file), ".trace"), wt.world)
			if err != nil {
				t.Fatal(err)
			}
			acts, err := findWalkthrough(cfg, wt.goal)
			if err != nil {
				t.Fatal(err)
			}
			if *walkthroughs {
				h := Header{About: wt.about, Found: fmt.Sprintf("bfs shortest to the step shown, then to a converged group, %d steps", len(acts))}
				tr, err := Rewrite(New(cfg.Name, h, cfg, acts))
				if err != nil {
					t.Fatal(err)
				}
				var b strings.Builder
				if err := Format(&b, tr); err != nil {
					t.Fatal(err)
				}
				if err := os.WriteFile(wt.file, []byte(b.String()), 0o644); err != nil {
					t.Fatal(err)
				}
				return
			}
			got := parseFile(t, wt.file).Actions()
			if !slices.EqualFunc(got, acts, func(x, y spec.Action) bool { return x.Text(&cfg) == y.Text(&cfg) }) {
				t.Errorf("%s no longer is the shortest walk-through (%d steps, search finds %d): regenerate with -walkthroughs", wt.file, len(got), len(acts))
			}
		})
	}
}

// findWalkthrough is the shortest path to a step satisfying goal, then the shortest path from
// there to a converged group (none when the goal's world cannot converge).
func findWalkthrough(cfg spec.Config, goal func(step) bool) ([]spec.Action, error) {
	start := spec.Init(cfg)
	prefix, end, ok := bfsPath(start, func(s step) bool { return goal(s) })
	if !ok {
		return nil, fmt.Errorf("%s: no reachable step shows the walk-through", cfg.Name)
	}
	done := invariants.Goal(cfg)
	if done(end) {
		return prefix, nil
	}
	suffix, _, ok := bfsPath(end, func(s step) bool { return done(s.post) })
	if !ok {
		return nil, fmt.Errorf("%s: no converged group after the walk-through", cfg.Name)
	}
	return append(prefix, suffix...), nil
}

// bfsPath is the shortest path from start whose last step satisfies goal, and the world after it.
func bfsPath(start spec.World, goal func(step) bool) ([]spec.Action, spec.World, bool) {
	type node struct {
		w      spec.World
		parent int
		a      spec.Action
	}
	nodes := []node{{w: start, parent: -1}}
	seen := map[string]bool{string(start.Encode(nil)): true}
	for i := 0; i < len(nodes); i++ {
		for _, a := range spec.Actions(nodes[i].w, nil) {
			n, ev, ok := spec.Step(nodes[i].w, a)
			if !ok {
				continue
			}
			if goal(step{pre: nodes[i].w, post: n, a: a, ev: ev}) {
				acts := []spec.Action{a}
				for j := i; j > 0; j = nodes[j].parent {
					acts = append(acts, nodes[j].a)
				}
				slices.Reverse(acts)
				return acts, n, true
			}
			if k := string(n.Encode(nil)); !seen[k] {
				seen[k] = true
				nodes = append(nodes, node{w: n, parent: i, a: a})
			}
		}
	}
	return nil, spec.World{}, false
}

// TestMemberIDRequiredFindsNothingToRevoke backs the §1.d walk-through's claim: in the §1.e
// world (a session timeout to lose a member id by; 24,029 worlds), no member owns partitions
// when a MEMBER_ID_REQUIRED answer reaches it. Reference: docs/protocol.md §7.1.d, §7.1.e.
func TestMemberIDRequiredFindsNothingToRevoke(t *testing.T) {
	if testing.Short() {
		t.Skip("explores the world")
	}
	cfg := mustConfig(t, kipWorld+"topic t 2\nmember a topics=t\nmember b topics=t\nbudget session-timeouts=1\n")
	_, _, found := bfsPath(spec.Init(cfg), func(s step) bool {
		i := int(s.a.Slot)
		return s.a.Kind == spec.DeliverResponse && !owns(s.pre, i).IsEmpty() && len(s.pre.Slots[i].In) > 0 &&
			s.pre.Slots[i].In[0].Code() == impl.MemberIDRequired
	})
	if found {
		t.Errorf("a member owning partitions was told MEMBER_ID_REQUIRED")
	}
	// The same search finds the answer itself (the goal is reachable without the ownership).
	if _, _, ok := bfsPath(spec.Init(cfg), func(s step) bool {
		return s.a.Kind == spec.DeliverResponse && len(s.pre.Slots[s.a.Slot].In) > 0 && s.pre.Slots[s.a.Slot].In[0].Code() == impl.MemberIDRequired
	}); !ok {
		t.Errorf("no MEMBER_ID_REQUIRED answer is delivered at all")
	}
}

// TestCommitNeverAnsweredRebalanceInProgress backs the §1.c walk-through's claim: with commits
// on and a leader that keeps its partitions into a round (a metadata change, §1.b), no
// OffsetCommit is ever answered REBALANCE_IN_PROGRESS. The coordinator gives that answer only
// during CompletingRebalance to the new generation (docs/protocol.md §1.8), and a member commits only
// while STABLE, so with the new generation only after the group is Stable again; while it
// rebalances it fails the commit locally (Java's generationIfStable). Reference: docs/protocol.md §7.1.c.
func TestCommitNeverAnsweredRebalanceInProgress(t *testing.T) {
	if !long() {
		t.Skip("explores the world (GROUPCHECK_LONG)")
	}
	cfg := mustConfig(t, kipWorld+"topic t 2\nmember a topics=t\nmember b topics=t\nbudget partition-additions=1 lost-responses=1\ncommits on\n")
	_, _, found := bfsPath(spec.Init(cfg), func(s step) bool {
		return slices.ContainsFunc(s.ev, func(e spec.Event) bool {
			c, ok := e.(spec.CommitEvent)
			return ok && c.Error == impl.RebalanceInProgress
		})
	})
	if found {
		t.Error("an OffsetCommit was answered REBALANCE_IN_PROGRESS; the §1.c walk-through's claim is wrong")
	}
}
