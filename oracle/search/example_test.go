package search_test

import (
	"fmt"
	"strings"

	"github.com/groupcheck/groupcheck/oracle/history"
	"github.com/groupcheck/groupcheck/oracle/search"
)

// A test records its clients' coordinator requests with a history.Recorder (here on a fake
// clock) and checks them with porcupine over the reference coordinator. The coordinator
// under test answered a heartbeat of generation 1 with NONE after it had answered
// REBALANCE_IN_PROGRESS at generation 1, with nothing in between to complete a rebalance:
// no order of the requests, and no timer, gives that answer (docs/protocol.md §1.3).
func ExampleLinearize() {
	var now int64
	rec := history.NewRecorderClock(func() int64 { now += 10; return now })
	request := func(node, op string, req, resp history.Event) {
		req.Kind, req.Node, req.Op = history.Request, node, op
		rec.Begin(req)(resp)
	}
	request("a", history.JoinGroup, history.Event{Gen: -1}, history.Event{Member: "a-1", Gen: 1, Leader: "a-1", Members: []string{"a-1"}})
	request("a", history.SyncGroup, history.Event{Member: "a-1", Gen: 1, Assignments: map[string]history.Parts{"a-1": {"t": {0}}}},
		history.Event{Parts: history.Parts{"t": {0}}})
	request("b", history.JoinGroup, history.Event{Gen: -1}, history.Event{Err: "MEMBER_ID_REQUIRED", Member: "b-1"})
	request("b", history.JoinGroup, history.Event{Member: "b-1", Gen: -1}, history.Event{Note: history.Unfinished})
	request("a", history.Heartbeat, history.Event{Member: "a-1", Gen: 1}, history.Event{Err: "REBALANCE_IN_PROGRESS"})
	request("a", history.Heartbeat, history.Event{Member: "a-1", Gen: 1}, history.Event{})

	l, err := search.Linearize(rec.History(), search.Options{}, 0)
	if err != nil {
		fmt.Println(err)
		return
	}
	fmt.Println(l.Verdict, "requests:", l.Operations)
	fmt.Println(strings.Split(l.Detail, "\n")[1])
	// Output:
	// violated requests: 6
	//   - id=6 a Heartbeat member=a-1 gen=1 → NONE [seq 11–12]
}
