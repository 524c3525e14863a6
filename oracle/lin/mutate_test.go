package lin

import (
	"sort"
	"testing"

	"github.com/groupcheck/groupcheck/oracle/history"
)

// A mutation makes a real history impossible with one change: it returns the added events
// (without Seq and ID; T decides where they go) or false if the history has no target.
type mutation struct {
	name string
	add  func(h history.History) ([]history.Event, bool)
}

// ops pairs the begins and ends of a history's requests, in begin order.
func pairs(h history.History) [][2]*history.Event {
	var out [][2]*history.Event
	idx := map[int64]int{}
	for i := range h {
		e := &h[i]
		if e.Kind != history.Request {
			continue
		}
		if e.Phase == history.Begin {
			idx[e.ID] = len(out)
			out = append(out, [2]*history.Event{e, nil})
		} else {
			out[idx[e.ID]][1] = e
		}
	}
	return out
}

func interval(node, op string, t int64, begin, end history.Event) []history.Event {
	begin.Kind, begin.Phase, begin.Node, begin.Op, begin.T = history.Request, history.Begin, node, op, t
	end.Kind, end.Phase, end.Node, end.Op, end.T = history.Request, history.End, node, op, t
	return []history.Event{begin, end}
}

// nextOf is the first request of member m that begins after time t (nil if none).
func nextOf(ps [][2]*history.Event, m string, t int64) *[2]*history.Event {
	for i := range ps {
		if ps[i][0].Member == m && ps[i][0].T > t {
			return &ps[i]
		}
	}
	return nil
}

// unanswered reports whether member m has a request without an answer begun before t.
func unanswered(ps [][2]*history.Event, m string, t int64) bool {
	for _, p := range ps {
		if p[0].Member == m && p[0].T < t && p[1] == nil {
			return true
		}
	}
	return false
}

var mutations = []mutation{
	// Two SyncGroup answers to one member at one generation that differ (docs/protocol.md §1.5).
	{"sync answered twice, differently", func(h history.History) ([]history.Event, bool) {
		for _, p := range pairs(h) {
			if p[0].Op == history.SyncGroup && p[1] != nil && p[1].OK() {
				parts := history.Parts{"zz": {0}}
				for t, ps := range p[1].Parts {
					parts[t] = ps
				}
				return interval(p[0].Node, history.SyncGroup, h[len(h)-1].T+1,
					history.Event{Member: p[0].Member, Gen: p[0].Gen}, history.Event{Parts: parts}), true
			}
		}
		return nil, false
	}},
	// A member told UNKNOWN_MEMBER_ID after it had joined is answered again (docs/protocol.md §1.7, §1.9).
	{"removed classic member answered", func(h history.History) ([]history.Event, bool) {
		joinedAt := map[string]int32{}
		for _, p := range pairs(h) {
			if p[1] == nil {
				continue
			}
			if p[0].Op == history.JoinGroup && p[1].OK() {
				joinedAt[p[1].Member] = p[1].Gen
			}
			if g, ok := joinedAt[p[0].Member]; ok && p[1].Err == "UNKNOWN_MEMBER_ID" && p[0].Instance == "" {
				return interval(p[0].Node, history.Heartbeat, h[len(h)-1].T+1,
					history.Event{Member: p[0].Member, Gen: g}, history.Event{}), true
			}
		}
		return nil, false
	}},
	// A JoinGroup answered with a generation below the highest already answered (docs/protocol.md §1.3).
	{"generation goes back", func(h history.History) ([]history.Event, bool) {
		var top *history.Event
		for _, p := range pairs(h) {
			if p[0].Op == history.JoinGroup && p[1] != nil && p[1].OK() && (top == nil || p[1].Gen > top.Gen) {
				top = p[1]
			}
		}
		if top == nil || top.Gen < 2 {
			return nil, false
		}
		return interval("zz", history.JoinGroup, h[len(h)-1].T+1, history.Event{},
			history.Event{Member: "zz-1", Gen: top.Gen - 1, Leader: top.Leader}), true
	}},
	// A new member given a partition another member holds, which then heartbeats on at its
	// epoch as if it still held it (docs/protocol.md §3.2).
	{"KIP-848 partition given twice", func(h history.History) ([]history.Event, bool) {
		ps := pairs(h)
		for _, p := range ps {
			if p[0].Op != history.ConsumerGroupHeartbeat || p[1] == nil || !p[1].OK() || p[1].Parts.Count() == 0 {
				continue
			}
			next := nextOf(ps, p[1].Member, p[1].T)
			if next == nil || next[0].Op != history.ConsumerGroupHeartbeat || next[0].Gen <= 0 || next[1] == nil || !next[1].OK() ||
				unanswered(ps, p[1].Member, p[1].T+1) {
				continue // a heartbeat without answer may have released the partition
			}
			var stolen history.Parts
			p[1].Parts.Each(func(t string, q int32) {
				if stolen == nil {
					stolen = history.Parts{t: {q}}
				}
			})
			return interval("zz", history.ConsumerGroupHeartbeat, p[1].T+1, history.Event{},
				history.Event{Member: "zz-1", Gen: p[1].Gen, Parts: stolen}), next[0].T > p[1].T+1
		}
		return nil, false
	}},
	// A commit accepted at an epoch that is not the member's (docs/protocol.md §3.1).
	{"KIP-848 commit at another epoch accepted", func(h history.History) ([]history.Event, bool) {
		ps := pairs(h)
		for _, p := range ps {
			if p[0].Op != history.ConsumerGroupHeartbeat || p[0].Gen < 0 || p[1] == nil || !p[1].OK() {
				continue
			}
			if next := nextOf(ps, p[1].Member, p[1].T); next != nil && next[0].T <= p[1].T+1 || unanswered(ps, p[1].Member, p[1].T+1) {
				continue
			}
			return interval(p[0].Node, history.OffsetCommit, p[1].T+1,
				history.Event{Member: p[1].Member, Gen: p[1].Gen + 1}, history.Event{}), true
		}
		return nil, false
	}},
	// A KIP-848 member told UNKNOWN_MEMBER_ID commits successfully before rejoining (§3.5).
	{"removed KIP-848 member commits", func(h history.History) ([]history.Event, bool) {
		ps := pairs(h)
		for _, p := range ps {
			if p[0].Member == "" || p[1] == nil || p[1].Err != "UNKNOWN_MEMBER_ID" || p[0].Proto != history.Consumer {
				continue
			}
			if next := nextOf(ps, p[0].Member, p[1].T); next != nil && next[0].T <= p[1].T+1 || unanswered(ps, p[0].Member, p[1].T+1) {
				continue
			}
			return interval(p[0].Node, history.OffsetCommit, p[1].T+1,
				history.Event{Member: p[0].Member, Gen: max(p[0].Gen, 1), Proto: history.Consumer}, history.Event{}), true
		}
		return nil, false
	}},
}

// mutate inserts events into h by time (after events at the same time) and renumbers.
func mutate(h history.History, add []history.Event) history.History {
	var maxID int64
	for _, e := range h {
		maxID = max(maxID, e.ID)
	}
	for i := range add {
		add[i].ID = maxID + 1 + int64(i/2)
	}
	out := append(append(history.History(nil), h...), add...)
	sort.SliceStable(out, func(i, j int) bool { return out[i].T < out[j].T })
	for i := range out {
		out[i].Seq = int64(i + 1)
	}
	return out
}

// TestMutatedHistoriesAreCaught: the check bites on real histories of the reference made
// impossible by one change. Every mutation here is impossible for any coordinator that
// follows docs/protocol.md, so each must be caught wherever it applies.
func TestMutatedHistoriesAreCaught(t *testing.T) {
	seeds := 12
	if testing.Short() {
		seeds = 4
	}
	applied := map[string]int{}
	for _, cfg := range genConfigs(t) {
		for seed := range uint64(seeds) {
			h := walk(t, cfg, seed, 300)
			for _, m := range mutations {
				add, ok := m.add(h)
				if !ok {
					continue
				}
				mh := mutate(h, add)
				r, err := Check(mh, 0)
				if err != nil {
					t.Fatalf("%s seed %d, %s: %v", cfg.Name, seed, m.name, err)
				}
				if r.OK {
					t.Fatalf("%s seed %d: mutation %q not caught:\n%s", cfg.Name, seed, m.name, r.Detail)
				}
				applied[m.name]++
			}
		}
	}
	for _, m := range mutations {
		if applied[m.name] == 0 {
			t.Errorf("mutation %q applied to no generated history", m.name)
		}
	}
	t.Logf("mutated histories caught: %v", applied)
}
