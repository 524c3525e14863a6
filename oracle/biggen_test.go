package oracle

import (
	"bufio"
	"encoding/json"
	"flag"
	"fmt"
	"io"
	"os"
	"testing"

	"github.com/groupcheck/groupcheck/oracle/history"
)

// The big-history generator, for memory and speed measurements on files of any size without
// committing one:
//
//	go test ./oracle -run TestWriteBigHistory -bighistory /tmp/big.jsonl -bigmb 50
//	/usr/bin/time -f %M go run ./cmd/groupcheck check-history /tmp/big.jsonl
var (
	bigOut = flag.String("bighistory", "", "TestWriteBigHistory writes a generated history to this file")
	bigMB  = flag.Int("bigmb", 50, "TestWriteBigHistory: the history's size in MB")
)

func TestWriteBigHistory(t *testing.T) {
	if *bigOut == "" {
		t.Skip("no -bighistory file")
	}
	f, err := os.Create(*bigOut)
	if err != nil {
		t.Fatal(err)
	}
	n, err := writeBigHistory(f, int64(*bigMB)<<20)
	if cerr := f.Close(); err == nil {
		err = cerr
	}
	if err != nil {
		t.Fatal(err)
	}
	t.Logf("%s: %d events", *bigOut, n)
}

// TestBigHistoryIsClean: the generator writes a clean, linearizable history, so that a
// measurement on it measures the check and not the report.
func TestBigHistoryIsClean(t *testing.T) {
	pr, pw := io.Pipe()
	go func() { _, err := writeBigHistory(pw, 200<<10); pw.CloseWithError(err) }()
	r, err := CheckReader(pr, Options{Linearizability: Linearizable(0)})
	if err != nil {
		t.Fatal(err)
	}
	if !r.OK() || len(r.Zombies) > 0 || r.Linearizable != LinYes || r.Events < 1000 {
		t.Fatalf("%s", r)
	}
}

// writeBigHistory writes about size bytes of the history of a classic eager group of eight
// members over sixteen partitions, round after round: every member revokes everything and
// rejoins, the leader assigns round-robin, members take their partitions, heartbeat and commit
// (a client commit with its OffsetCommit request inside); every fifth round one member leaves
// and a new one starts. It returns the number of events.
func writeBigHistory(w io.Writer, size int64) (int64, error) {
	g := &bigGen{w: bufio.NewWriter(w), owned: map[string][]int32{}}
	for i := 0; i < 8; i++ {
		g.startMember()
	}
	for gen := int32(1); g.bytes < size; gen++ {
		g.round(gen)
	}
	g.closeAll()
	if g.err != nil {
		return g.seq, g.err
	}
	return g.seq, g.w.Flush()
}

type bigGen struct {
	w           *bufio.Writer
	seq, t, id  int64
	bytes       int64
	err         error
	next        int
	nodes       []string          // members, in join order
	member      map[string]string // node → member ID
	owned       map[string][]int32
	gen         int32
	newcomers   []string
	roundsSince int
}

// write stamps e with the next seq and time and writes it as one line.
func (g *bigGen) write(e history.Event) {
	g.seq++
	g.t += 1000
	e.Seq, e.T = g.seq, g.t
	b, err := json.Marshal(e)
	if err == nil {
		var n int
		n, err = g.w.Write(append(b, '\n'))
		g.bytes += int64(n)
	}
	if err != nil && g.err == nil {
		g.err = err
	}
}

// emit writes e, with a fresh ID if it is a begin, and returns the ID.
func (g *bigGen) emit(e history.Event) int64 {
	if e.Phase == history.Begin {
		g.id++
		e.ID = g.id
	}
	g.write(e)
	return e.ID
}

// end writes the end of interval id with what x carries.
func (g *bigGen) end(id int64, k history.Kind, node, op string, x history.Event) {
	x.Kind, x.Phase, x.ID, x.Node, x.Op = k, history.End, id, node, op
	if k == history.Request {
		x.Proto = history.Classic
	}
	g.write(x)
}

func (g *bigGen) call(begin, end history.Event) {
	begin.Kind, begin.Phase, begin.Proto = history.Request, history.Begin, history.Classic
	g.end(g.emit(begin), history.Request, begin.Node, begin.Op, end)
}

func (g *bigGen) cb(node string, k history.Kind, ps []int32) {
	if len(ps) == 0 {
		return
	}
	id := g.emit(history.Event{Kind: k, Phase: history.Begin, Node: node, Member: g.member[node], Gen: g.gen, Parts: history.Parts{"t": ps}})
	g.end(id, k, node, "", history.Event{})
}

func (g *bigGen) startMember() {
	if g.member == nil {
		g.member = map[string]string{}
	}
	node := fmt.Sprintf("c%d", g.next)
	g.next++
	g.emit(history.Event{Kind: history.Start, Node: node, Proto: history.Classic})
	id := fmt.Sprintf("m-%s", node)
	g.call(history.Event{Node: node, Op: history.JoinGroup, Gen: -1, Protocols: []string{"range"}},
		history.Event{Member: id, Err: "MEMBER_ID_REQUIRED"})
	g.member[node] = id
	g.newcomers = append(g.newcomers, node)
}

// round is one eager rebalance to generation gen and a stable period after it.
func (g *bigGen) round(gen int32) {
	for _, n := range g.nodes {
		g.cb(n, history.Revoke, g.owned[n])
		g.owned[n] = nil
	}
	if g.roundsSince++; g.roundsSince == 5 && len(g.nodes) > 0 {
		g.roundsSince = 0
		g.leave(g.nodes[0])
		g.startMember()
	}
	g.nodes = append(g.nodes, g.newcomers...)
	g.newcomers = nil
	g.gen = gen
	leader := g.member[g.nodes[0]]
	var ids []string
	for _, n := range g.nodes {
		ids = append(ids, g.member[n])
	}
	// Every JoinGroup is in the round before any is answered.
	var joins []int64
	for _, n := range g.nodes {
		joins = append(joins, g.emit(history.Event{Kind: history.Request, Phase: history.Begin, Proto: history.Classic,
			Node: n, Op: history.JoinGroup, Member: g.member[n], Gen: gen - 1, Protocols: []string{"range"}}))
	}
	for i, n := range g.nodes {
		end := history.Event{Member: g.member[n], Gen: gen, Leader: leader, Protocols: []string{"range"}}
		if i == 0 {
			end.Members = ids
		}
		g.end(joins[i], history.Request, n, history.JoinGroup, end)
	}
	assign := map[string]history.Parts{}
	for p := int32(0); p < 16; p++ {
		n := g.nodes[int(p)%len(g.nodes)]
		g.owned[n] = append(g.owned[n], p)
	}
	for _, n := range g.nodes {
		assign[g.member[n]] = history.Parts{"t": g.owned[n]}
	}
	for i, n := range g.nodes {
		begin := history.Event{Node: n, Op: history.SyncGroup, Member: g.member[n], Gen: gen}
		if i == 0 {
			begin.Assignments = assign
		}
		g.call(begin, history.Event{Parts: history.Parts{"t": g.owned[n]}})
	}
	for _, n := range g.nodes {
		g.emit(history.Event{Kind: history.Generation, Node: n, Member: g.member[n], Gen: gen})
		g.cb(n, history.Assign, g.owned[n])
	}
	for k := 0; k < 3; k++ {
		for _, n := range g.nodes {
			g.call(history.Event{Node: n, Op: history.Heartbeat, Member: g.member[n], Gen: gen}, history.Event{})
			ps := history.Parts{"t": g.owned[n]}
			id := g.emit(history.Event{Kind: history.Commit, Phase: history.Begin, Node: n, Member: g.member[n], Gen: gen, Parts: ps})
			g.call(history.Event{Node: n, Op: history.OffsetCommit, Member: g.member[n], Gen: gen, Parts: ps}, history.Event{})
			g.end(id, history.Commit, n, "", history.Event{})
		}
	}
}

// leave closes a member that owns nothing (its revoke came first): LeaveGroup inside its close.
func (g *bigGen) leave(node string) {
	cl := g.emit(history.Event{Kind: history.Close, Phase: history.Begin, Node: node})
	g.call(history.Event{Node: node, Op: history.LeaveGroup, Member: g.member[node], Gen: g.gen}, history.Event{})
	g.end(cl, history.Close, node, "", history.Event{})
	g.nodes = g.nodes[1:]
}

func (g *bigGen) closeAll() {
	for _, n := range g.nodes {
		g.cb(n, history.Revoke, g.owned[n])
		g.owned[n] = nil
		g.leave(n)
	}
}
