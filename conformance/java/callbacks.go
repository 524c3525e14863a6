package java

import (
	"fmt"
	"sort"

	"github.com/groupcheck/groupcheck/impl"
	"github.com/groupcheck/groupcheck/impl/consumer"
	"github.com/groupcheck/groupcheck/oracle/differential"
	"github.com/groupcheck/groupcheck/oracle/history"
)

// CompareCallbacks sets the callbacks Kafka's classic consumer ran after each SyncGroup it
// completed beside those the reference consumer runs in the same state
// (consumer.OnJoinComplete, Kafka's ConsumerCoordinator.onJoinComplete; docs/protocol.md
// §2.6): owned is what the member's JoinGroup said it owned, the assignment what its
// SyncGroup response carried. It returns how many rounds it compared and every difference.
// A member whose history ends before its callbacks ran (a crash) is not compared.
func CompareCallbacks(hist history.History) (rounds int, diffs []string) {
	owned := map[string]history.Event{} // node → its last JoinGroup request
	type pending struct {
		sync history.Event
		want []consumer.Callback
	}
	waiting := map[string]*pending{} // node → the callbacks it owes
	got := map[string][]history.Event{}
	finish := func(node string) {
		p := waiting[node]
		delete(waiting, node)
		if p == nil || len(got[node]) < len(p.want) {
			return
		}
		rounds++
		for i, w := range p.want {
			g := got[node][i]
			kind := map[consumer.CallbackKind]history.Kind{consumer.Assigned: history.Assign,
				consumer.Revoked: history.Revoke, consumer.Lost: history.Lost}[w.Kind]
			if g.Kind != kind || differential.DiffParts(differential.FromSet(w.Partitions), g.Parts) != "" {
				diffs = append(diffs, fmt.Sprintf("%s after its SyncGroup of generation %d (seq %d): the reference runs %s %v, Kafka's consumer ran %s %v (seq %d)",
					node, p.sync.Gen, p.sync.Seq, kind, differential.FromSet(w.Partitions), g.Kind, g.Parts, g.Seq))
				return
			}
		}
	}
	for _, e := range hist {
		switch {
		case e.Kind == history.Request && e.Phase == history.Begin && e.Op == history.JoinGroup:
			owned[e.Node] = e
		case e.Kind == history.Request && e.Op == history.SyncGroup && e.Phase == history.End && e.OK():
			finish(e.Node)
			want, err := reference(owned[e.Node], e.Parts)
			if err != nil {
				diffs = append(diffs, fmt.Sprintf("%s's SyncGroup at seq %d: %v", e.Node, e.Seq, err))
				continue
			}
			waiting[e.Node], got[e.Node] = &pending{sync: e, want: want}, nil
		case (e.Kind == history.Assign || e.Kind == history.Revoke || e.Kind == history.Lost) && e.Phase == history.Begin:
			if p := waiting[e.Node]; p != nil {
				got[e.Node] = append(got[e.Node], e)
				if len(got[e.Node]) == len(p.want) {
					finish(e.Node)
				}
			}
		}
	}
	nodes := make([]string, 0, len(waiting))
	for n := range waiting {
		nodes = append(nodes, n)
	}
	sort.Strings(nodes)
	for _, n := range nodes {
		finish(n)
	}
	return rounds, diffs
}

// reference is what the reference consumer calls back when its SyncGroup completes with
// assignment, having joined with join.
func reference(join history.Event, assignment history.Parts) ([]consumer.Callback, error) {
	if len(join.Protocols) == 0 {
		return nil, fmt.Errorf("no JoinGroup before it")
	}
	o, err := differential.ToSet(join.Owned)
	if err != nil {
		return nil, fmt.Errorf("owned partitions of its JoinGroup: %v", err)
	}
	a, err := differential.ToSet(assignment)
	if err != nil {
		return nil, fmt.Errorf("its assignment: %v", err)
	}
	c := consumer.New(consumer.Config{Variant: impl.Kafka, Assignors: join.Protocols}, impl.Cluster{})
	c.OwnedPartitions, c.Topics = o, a.Topics()
	_, effs := consumer.OnJoinComplete(c, impl.Assignment{Partitions: a})
	var cbs []consumer.Callback
	for _, e := range effs {
		if cb, ok := e.(consumer.Callback); ok {
			cbs = append(cbs, cb)
		}
	}
	return cbs, nil
}
