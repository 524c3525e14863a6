package oracle_test

import (
	"fmt"
	"strings"

	"github.com/groupcheck/groupcheck/oracle"
	"github.com/groupcheck/groupcheck/oracle/history"
)

// A new owner's assign begins before the old owner's revoke has returned: both members are
// current, so this is a violation of both ownership properties.
func ExampleCheck() {
	ms := int64(1_000_000)
	t0 := history.Parts{"t": {0}}
	h := history.History{
		{Seq: 1, T: 0 * ms, Kind: history.Assign, Phase: history.Begin, ID: 1, Node: "a", Parts: t0},
		{Seq: 2, T: 1 * ms, Kind: history.Assign, Phase: history.End, ID: 1, Node: "a"},
		{Seq: 3, T: 5 * ms, Kind: history.Revoke, Phase: history.Begin, ID: 2, Node: "a", Parts: t0},
		{Seq: 4, T: 6 * ms, Kind: history.Assign, Phase: history.Begin, ID: 3, Node: "b", Parts: t0},
		{Seq: 5, T: 7 * ms, Kind: history.Revoke, Phase: history.End, ID: 2, Node: "a"},
		{Seq: 6, T: 8 * ms, Kind: history.Assign, Phase: history.End, ID: 3, Node: "b"},
	}
	r := oracle.Check(h, oracle.Options{})
	fmt.Println("ok:", r.OK())
	for _, v := range r.Violations {
		fmt.Printf("%s %s, events %d..%d\n  %s\n", v.Class, v.Property, v.Events[0].Seq, v.Events[len(v.Events)-1].Seq, v.Message)
	}
	// Output:
	// ok: false
	// violation exclusive-ownership, events 1..5
	//   a and b both owned t-0 from seq 4 (t 6ms) to seq 5 (t 7ms) (a since seq 1 (t 0s), b since seq 4 (t 6ms)); both were current members
	// violation revoke-before-assign, events 1..5
	//   b began assigning t-0 at seq 4 (t 6ms) while a still owned it (assigned at seq 1 (t 0s), its revoke returned only at seq 5 (t 7ms)); both were current members
}

// A history in JSON lines, as a test writes it with history.History.Write: member a is cut
// off, b is given a's partition, and a learns it was fenced and calls onPartitionsLost. The
// overlap is a zombie, which Kafka allows: the report passes and lists it.
func ExampleCheckReader() {
	jsonl := `{"seq":1,"t_ns":0,"kind":"assign","phase":"begin","id":1,"node":"a","gen":1,"parts":{"t":[0]}}
{"seq":2,"t_ns":1000,"kind":"assign","phase":"end","id":1,"node":"a","gen":1}
{"seq":3,"t_ns":2000,"kind":"cut","node":"a","gen":0}
{"seq":4,"t_ns":3000,"kind":"assign","phase":"begin","id":2,"node":"b","gen":2,"parts":{"t":[0]}}
{"seq":5,"t_ns":4000,"kind":"assign","phase":"end","id":2,"node":"b","gen":2}
{"seq":6,"t_ns":5000,"kind":"heal","node":"a","gen":0}
{"seq":7,"t_ns":6000,"kind":"request","phase":"begin","id":3,"node":"a","gen":1,"op":"Heartbeat"}
{"seq":8,"t_ns":7000,"kind":"request","phase":"end","id":3,"node":"a","gen":1,"op":"Heartbeat","err":"UNKNOWN_MEMBER_ID"}
{"seq":9,"t_ns":8000,"kind":"lost","phase":"begin","id":4,"node":"a","gen":1,"parts":{"t":[0]}}
{"seq":10,"t_ns":9000,"kind":"lost","phase":"end","id":4,"node":"a","gen":1}
`
	r, err := oracle.CheckReader(strings.NewReader(jsonl), oracle.Options{})
	if err != nil {
		fmt.Println(err)
		return
	}
	fmt.Println("ok:", r.OK(), "violations:", len(r.Violations), "zombies:", len(r.Zombies))
	fmt.Println(r.Zombies[0].Property+":", r.Zombies[0].Message)

	_, err = oracle.CheckReader(strings.NewReader(jsonl+`{"seq":11,"t_ns":9000,"kind":"crash"}`), oracle.Options{})
	fmt.Println(err)
	// Output:
	// ok: true violations: 0 zombies: 2
	// exclusive-ownership: a and b both owned t-0 from seq 4 (t 3µs) to seq 10 (t 9µs) (a since seq 1 (t 0s), b since seq 4 (t 3µs)); a was cut off from the coordinator at seq 3 (t 2µs), and a was giving its partitions up after learning at seq 8 (t 7µs)
	// history line 11: crash event without a node
}
