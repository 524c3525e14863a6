package franzgo

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"sort"
	"sync"
	"time"

	"github.com/groupcheck/groupcheck/oracle/history"
	"github.com/twmb/franz-go/pkg/kerr"
	"github.com/twmb/franz-go/pkg/kgo"
	"github.com/twmb/franz-go/pkg/kmsg"
)

// state is where a node is in its life, as the harness made it.
type state int

const (
	running state = iota
	cut           // cut off from the coordinator, still running
	closed        // left gracefully
	crashed       // died without leaving
)

// Node is one consumer process: a kgo client in the group, with a stable name, its own
// network, and a poll loop.
type Node struct {
	Name  string
	h     *Harness
	fault Fault
	net   *Net
	cl    *kgo.Client
	log   syncBuffer // kgo's log, for the artifacts of a failed run

	stop context.CancelFunc
	done chan struct{} // the poll loop returned
	gone chan struct{} // a crashed node's background Close returned

	mu         sync.Mutex
	st         state
	owned      map[string]map[int32]bool // what kgo's callbacks say the client owns
	member     string                    // last member ID and generation observed
	gen        int32
	lastCommit time.Time
	processed  map[string]map[int32]kgo.EpochOffset // next offset after the last record polled
	polled     int                                  // records polled so far
	polledAt   int                                  // polled when the node was cut
}

// begin records the begin of a callback and returns what records its end. Member and
// generation come from GroupMetadata, which is safe inside callbacks (PEERS.md §2).
func (n *Node) begin(kind history.Kind, cl *kgo.Client, m map[string][]int32) func() {
	member, gen := cl.GroupMetadata()
	n.observe(member, gen)
	end := n.h.rec.Begin(history.Event{Kind: kind, Node: n.Name, Proto: n.h.cfg.Protocol.Proto,
		Member: member, Gen: gen, Parts: toParts(m)})
	return func() {
		member, gen := cl.GroupMetadata()
		end(history.Event{Member: member, Gen: gen})
	}
}

// observe records a Generation event when the member ID or generation changed.
func (n *Node) observe(member string, gen int32) {
	n.mu.Lock()
	changed := member != n.member || gen != n.gen
	n.member, n.gen = member, gen
	n.mu.Unlock()
	if changed && member != "" {
		n.h.rec.Record(history.Event{Kind: history.Generation, Node: n.Name,
			Proto: n.h.cfg.Protocol.Proto, Member: member, Gen: gen})
	}
}

func (n *Node) onAssigned(_ context.Context, cl *kgo.Client, m map[string][]int32) {
	end := n.begin(history.Assign, cl, m)
	n.own(m, true)
	n.h.jitter()
	end()
}

func (n *Node) onRevoked(ctx context.Context, cl *kgo.Client, m map[string][]int32) {
	end := n.begin(history.Revoke, cl, m)
	if n.fault == LateCommit && len(m) > 0 {
		offs := n.processedOf(m) // handed to a worker that flushes them later
		n.own(m, false)
		end()
		go func() {
			time.Sleep(n.h.cfg.Timing.LateAck / 2)
			n.commitOffsets(context.Background(), cl, offs, "late")
		}()
		return
	}
	if n.fault == EarlyRevokeAck && len(m) > 0 {
		n.own(m, false) // kgo is told the partitions are free...
		go func() {     // ...while the application is still working on them
			time.Sleep(n.h.cfg.Timing.LateAck)
			end()
		}()
		return
	}
	n.h.jitter()
	n.commit(ctx, cl, "revoke")
	n.own(m, false)
	end()
}

func (n *Node) onLost(_ context.Context, cl *kgo.Client, m map[string][]int32) {
	n.own(m, false)
	if n.fault == SkipLost {
		return // the application never hears that it lost the partitions
	}
	end := n.begin(history.Lost, cl, m)
	n.h.jitter()
	end()
}

// own applies a callback to the harness's view of what kgo says the client owns.
func (n *Node) own(m map[string][]int32, add bool) {
	n.mu.Lock()
	defer n.mu.Unlock()
	for t, ps := range m {
		if n.owned[t] == nil {
			n.owned[t] = map[int32]bool{}
		}
		for _, p := range ps {
			if add {
				n.owned[t][p] = true
			} else {
				delete(n.owned[t], p)
			}
		}
	}
}

// commit commits what the client has consumed and not committed, recording the commit with
// its outcome. Commits happen only where kgo cannot be mid-rebalance: in the revoke callback,
// and between PollFetches and AllowRebalance (BlockRebalanceOnPoll).
func (n *Node) commit(ctx context.Context, cl *kgo.Client, why string) {
	n.commitOffsets(ctx, cl, cl.UncommittedOffsets(), why)
}

// commitOffsets commits offs, recording the commit and its outcome.
func (n *Node) commitOffsets(ctx context.Context, cl *kgo.Client, offs map[string]map[int32]kgo.EpochOffset, why string) {
	if len(offs) == 0 || ctx.Err() != nil {
		return
	}
	parts := history.Parts{}
	for t, ps := range offs {
		for p := range ps {
			parts[t] = append(parts[t], p)
		}
	}
	member, gen := cl.GroupMetadata()
	end := n.h.rec.Begin(history.Event{Kind: history.Commit, Node: n.Name, Proto: n.h.cfg.Protocol.Proto,
		Member: member, Gen: gen, Parts: parts, Note: why})
	cctx, cancel := context.WithTimeout(ctx, n.h.cfg.Timing.Commit*3)
	defer cancel()
	x := history.Event{Member: member, Gen: gen}
	cl.CommitOffsetsSync(cctx, offs, func(_ *kgo.Client, req *kmsg.OffsetCommitRequest, resp *kmsg.OffsetCommitResponse, err error) {
		if req.MemberID != "" {
			x.Member, x.Gen = req.MemberID, req.Generation
		}
		switch {
		case err != nil: // kgo passes a nil response with an error
			x.Err = errString(err)
		case resp != nil:
			x.Err = commitErr(resp)
		}
	})
	end(x)
	n.mu.Lock()
	n.lastCommit = time.Now()
	n.mu.Unlock()
}

// errString names a commit failure: the Kafka error name where there is one.
func errString(err error) string {
	var ke *kerr.Error
	if errors.As(err, &ke) {
		return ke.Message
	}
	return err.Error()
}

// poll is the node's consume loop: poll, commit now and then, allow the rebalance.
func (n *Node) poll(ctx context.Context) {
	defer close(n.done)
	for ctx.Err() == nil {
		pctx, cancel := context.WithTimeout(ctx, n.h.cfg.Timing.Poll)
		fs := n.cl.PollFetches(pctx)
		cancel()
		if fs.IsClientClosed() {
			return
		}
		n.observe(n.cl.GroupMetadata())
		n.mu.Lock()
		fs.EachRecord(func(r *kgo.Record) {
			n.polled++
			if n.processed[r.Topic] == nil {
				n.processed[r.Topic] = map[int32]kgo.EpochOffset{}
			}
			n.processed[r.Topic][r.Partition] = kgo.EpochOffset{Epoch: r.LeaderEpoch, Offset: r.Offset + 1}
		})
		due := time.Since(n.lastCommit) >= n.h.cfg.Timing.Commit
		n.mu.Unlock()
		if due {
			n.commit(ctx, n.cl, "poll")
		}
		n.cl.AllowRebalance()
	}
}

// processedOf returns the offsets processed in the partitions of m.
func (n *Node) processedOf(m map[string][]int32) map[string]map[int32]kgo.EpochOffset {
	n.mu.Lock()
	defer n.mu.Unlock()
	offs := map[string]map[int32]kgo.EpochOffset{}
	for t, ps := range m {
		for _, p := range ps {
			if o, ok := n.processed[t][p]; ok {
				if offs[t] == nil {
					offs[t] = map[int32]kgo.EpochOffset{}
				}
				offs[t][p] = o
			}
		}
	}
	return offs
}

// view is the node as the settle signature sees it.
func (n *Node) view() (st state, member string, gen int32, owned []string) {
	member, gen = n.cl.GroupMetadata()
	n.mu.Lock()
	defer n.mu.Unlock()
	for t, ps := range n.owned {
		for p := range ps {
			owned = append(owned, fmt.Sprintf("%s/%d", t, p))
		}
	}
	sort.Strings(owned)
	return n.st, member, gen, owned
}

func (n *Node) setState(s state) {
	n.mu.Lock()
	defer n.mu.Unlock()
	n.st = s
}

func (n *Node) status() state {
	n.mu.Lock()
	defer n.mu.Unlock()
	return n.st
}

func toParts(m map[string][]int32) history.Parts {
	p := history.Parts{}
	for t, ps := range m {
		p[t] = append([]int32(nil), ps...)
	}
	return p
}

// syncBuffer is a bytes.Buffer safe for kgo's concurrent logging.
type syncBuffer struct {
	mu sync.Mutex
	b  bytes.Buffer
}

func (s *syncBuffer) Write(p []byte) (int, error) {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.b.Write(p)
}

func (s *syncBuffer) String() string {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.b.String()
}
