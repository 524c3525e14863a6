package lin_test

import (
	"fmt"
	"strings"

	"github.com/groupcheck/groupcheck/oracle/history"
	"github.com/groupcheck/groupcheck/oracle/lin"
)

// A test records its clients' coordinator requests with a history.Recorder (here on a fake
// clock) and checks them. The coordinator under test answered a heartbeat of generation 1
// with NONE after it had already answered REBALANCE_IN_PROGRESS at generation 1: once a
// generation is rebalancing it never becomes stable again (docs/protocol.md §1.3).
func ExampleCheck() {
	var now int64
	rec := history.NewRecorderClock(func() int64 { now += 10; return now })
	request := func(node, op string, req, resp history.Event) {
		req.Kind, req.Node, req.Op = history.Request, node, op
		rec.Begin(req)(resp)
	}
	request("a", history.JoinGroup, history.Event{}, history.Event{Member: "a-1", Gen: 1, Leader: "a-1", Members: []string{"a-1"}})
	request("a", history.SyncGroup, history.Event{Member: "a-1", Gen: 1, Assignments: map[string]history.Parts{"a-1": {"t": {0}}}},
		history.Event{Parts: history.Parts{"t": {0}}})
	request("a", history.Heartbeat, history.Event{Member: "a-1", Gen: 1}, history.Event{Err: "REBALANCE_IN_PROGRESS"})
	request("a", history.Heartbeat, history.Event{Member: "a-1", Gen: 1}, history.Event{})

	r, err := lin.Check(rec.History(), 0)
	if err != nil {
		fmt.Println(err)
		return
	}
	fmt.Println("linearizable:", r.OK, "operations:", r.Operations)
	fmt.Println(strings.Split(r.Detail, "\n")[1])
	// Output:
	// linearizable: false operations: 4
	//   - Heartbeat by a (member a-1, gen 1) → NONE [seq 7–8]: the coordinator cannot answer Heartbeat NONE at generation 1: it is PreparingRebalance there (Heartbeat by a (member a-1, gen 1) → REBALANCE_IN_PROGRESS [seq 5–6])
}
