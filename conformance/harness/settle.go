package harness

import (
	"context"
	"errors"
	"fmt"
	"strings"
	"time"

	"github.com/groupcheck/groupcheck/oracle/history"
)

// settlePoll is how often Settle samples the signature.
const settlePoll = 100 * time.Millisecond

// ErrNotSettled is the error of a Settle that timed out (wrapped with its reason).
var ErrNotSettled = errors.New("not settled")

// Settle waits until the group has settled, or fails after Timing.SettleMax. Settled means a
// signature held still for Timing.Quiet (docs/clients.md §5, "Settle on a signature, not a moment"):
//
//   - every partition is owned by exactly one running node, as its kgo callbacks say, and no
//     running node owns a partition that does not exist;
//   - the broker's member list is exactly the running nodes' member IDs (coverage alone does
//     not prove that a member sitting in kgo's backoff has rejoined), and the group is Stable.
//
// Cut and crashed nodes are not running: what they believe is not part of the signature.
func (h *Harness) Settle(ctx context.Context) error {
	deadline := time.Now().Add(h.cfg.Timing.SettleMax)
	var last, why string
	var since time.Time
	for {
		sig, ok, reason := h.signature(ctx)
		switch {
		case !ok:
			last, why = "", reason
		case sig != last:
			last, since = sig, time.Now()
		case time.Since(since) >= h.cfg.Timing.Quiet:
			h.mark(Coordinator, "settled: %s", sig)
			return nil
		}
		if time.Now().After(deadline) {
			if why == "" {
				why = "still changing: " + sig
			}
			h.mark(Coordinator, "not settled: %s", why)
			return fmt.Errorf("%w after %v: %s", ErrNotSettled, h.cfg.Timing.SettleMax, why)
		}
		select {
		case <-ctx.Done():
			return ctx.Err()
		case <-time.After(settlePoll):
		}
	}
}

// signature describes the group now; ok says whether it is a settled shape, and reason says
// why not.
func (h *Harness) signature(ctx context.Context) (sig string, ok bool, reason string) {
	owners := map[string][]string{}
	var members, desc []string
	for _, n := range h.live() {
		_, member, gen, owned := n.view()
		members = append(members, member)
		desc = append(desc, fmt.Sprintf("%s=%s@%d[%s]", n.Name, short(member), gen, strings.Join(owned, " ")))
		for _, p := range owned {
			owners[p] = append(owners[p], n.Name)
		}
	}
	sig = strings.Join(desc, " ")
	all := h.partitions()
	for _, p := range all {
		if len(owners[p]) != 1 {
			return sig, false, fmt.Sprintf("%s owned by %v; %s", p, owners[p], sig)
		}
	}
	if len(owners) != len(all) {
		return sig, false, fmt.Sprintf("a partition that does not exist is owned; %s", sig)
	}
	state, brokerMembers, err := h.describe(ctx)
	if err != nil {
		return sig, false, err.Error()
	}
	if state != "Stable" || joinSorted(brokerMembers) != joinSorted(members) {
		return sig, false, fmt.Sprintf("broker says %s with members %v; running: %v", state, brokerMembers, members)
	}
	return sig, true, ""
}

// describe asks the coordinator for the group's state and member IDs. It reads only member
// IDs: kfake's ConsumerGroupDescribe leaves topic names out, so kadm would file every KIP-848
// assignment under topic "" (docs/clients.md §1).
func (h *Harness) describe(ctx context.Context) (string, []string, error) {
	dctx, cancel := context.WithTimeout(ctx, time.Second)
	defer cancel()
	var ids []string
	if h.cfg.Protocol.Proto == history.Consumer {
		ds, err := h.adm.DescribeConsumerGroups(dctx, h.group)
		if err != nil {
			return "", nil, fmt.Errorf("describe: %v", err)
		}
		d := ds[h.group]
		if d.Err != nil {
			return "", nil, fmt.Errorf("describe: %v", d.Err)
		}
		for _, m := range d.Members {
			ids = append(ids, m.MemberID)
		}
		return d.State, ids, nil
	}
	ds, err := h.adm.DescribeGroups(dctx, h.group)
	if err != nil {
		return "", nil, fmt.Errorf("describe: %v", err)
	}
	d := ds[h.group]
	if d.Err != nil {
		return "", nil, fmt.Errorf("describe: %v", d.Err)
	}
	for _, m := range d.Members {
		ids = append(ids, m.MemberID)
	}
	return d.State, ids, nil
}

// short abbreviates a member ID for signatures and logs.
func short(m string) string {
	if len(m) > 8 {
		return m[len(m)-8:]
	}
	return m
}
