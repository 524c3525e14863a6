package harness

import (
	"context"
	"fmt"
	"sort"
	"strings"
	"time"

	"github.com/groupcheck/groupcheck/oracle/history"
	"github.com/twmb/franz-go/pkg/kmsg"
)

// watchPoll is how often the watcher asks the broker for the group's members.
const watchPoll = 100 * time.Millisecond

// watcher reads the broker's side of a KIP-848 group from a broker at an address, where there
// is no kfake log to say that the coordinator removed a member (a session or rebalance
// timeout: GroupMetadataManager's session and rebalance timers, which answer nobody). It asks
// ConsumerGroupDescribe every watchPoll; a member the taps have seen that drops out of the
// list without having left (an accepted heartbeat with epoch -1 or -2) was removed by the
// coordinator, and is recorded Fenced at the poll that first misses it: late by up to
// watchPoll plus a round trip. Classic removals are read from the tapped JoinGroup member
// lists instead (Observer.generation), as on kfake.
type watcher struct {
	h       *Harness
	members map[string]int32 // member ID → epoch, at the last poll
	last    string           // the last member list logged
	done    chan struct{}
	stopped chan struct{}
}

func newWatcher(h *Harness) *watcher {
	return &watcher{h: h, members: map[string]int32{}, done: make(chan struct{}), stopped: make(chan struct{})}
}

func (w *watcher) run() {
	defer close(w.stopped)
	tick := time.NewTicker(watchPoll)
	defer tick.Stop()
	for {
		select {
		case <-w.done:
			return
		case <-tick.C:
			w.poll()
		}
	}
}

func (w *watcher) stop() {
	close(w.done)
	<-w.stopped
}

func (w *watcher) poll() {
	ctx, cancel := context.WithTimeout(context.Background(), time.Second)
	defer cancel()
	req := kmsg.NewPtrConsumerGroupDescribeRequest()
	req.Groups = []string{w.h.group}
	resp, err := req.RequestWith(ctx, w.h.admin)
	if err != nil || len(resp.Groups) != 1 || resp.Groups[0].ErrorCode != 0 {
		return // not known yet, or a poll lost: the next one tells
	}
	now := map[string]int32{}
	var desc []string
	for _, m := range resp.Groups[0].Members {
		now[m.MemberID] = m.MemberEpoch
		desc = append(desc, fmt.Sprintf("%s@%d", short(m.MemberID), m.MemberEpoch))
	}
	sort.Strings(desc)
	obs := w.h.obs
	if d := strings.Join(desc, " "); d != w.last {
		w.last = d
		obs.logf("ConsumerGroupDescribe %s: epoch %d, members [%s]", w.h.group, resp.Groups[0].Epoch, d)
	}
	for m, epoch := range w.members {
		if _, ok := now[m]; ok || obs.hasLeft(m) {
			continue
		}
		obs.rec.Record(history.Event{Kind: history.Fenced, Node: obs.NodeOf(m), Proto: history.Consumer,
			Member: m, Gen: epoch, Note: "absent from the broker's ConsumerGroupDescribe"})
	}
	w.members = now
}
