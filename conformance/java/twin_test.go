package java

import (
	"context"
	"strings"
	"sync"
	"testing"
	"time"

	h "github.com/groupcheck/groupcheck/conformance/harness"
	"github.com/groupcheck/groupcheck/oracle/history"
)

// TestTwinReaction runs two static members sharing one group.instance.id, the misconfiguration
// whose fatal error shows how an application reacts (issue 30 §3): Kafka's poll() throws it
// and the consumer stays usable, where the reference clients stop. Classic: the second
// member's join takes over the instance and the first is told FENCED_INSTANCE_ID
// (GroupMetadataManager's static-member replacement); KIP-848: the second is refused with
// UNRELEASED_INSTANCE_ID while the first is still in the group. The driver must report the
// exception with the reaction it took; under "stop" the member closes its consumer and its JVM
// exits.
func TestTwinReaction(t *testing.T) {
	for _, tc := range []struct {
		name, want string
		proto      func(opt options) h.Protocol
	}{
		{"classic", "FENCED_INSTANCE_ID", func(o options) h.Protocol { return classic("twin", cooperativeAssignor, o) }},
		{"consumer", "UNRELEASED_INSTANCE_ID", func(o options) h.Protocol { return kip848("twin", "uniform", o) }},
	} {
		for _, reaction := range []string{"continue", "stop"} {
			t.Run(tc.name+"/"+reaction, func(t *testing.T) {
				if testing.Short() && reaction == "continue" {
					t.Skip("long form only: under continue the twins fence each other until the run ends")
				}
				var mu sync.Mutex
				var clients []*client
				p := tc.proto(options{static: true, instance: "twin", onFatal: reaction, started: func(c *client) {
					mu.Lock()
					defer mu.Unlock()
					clients = append(clients, c)
				}})
				ctx, cancel := context.WithTimeout(context.Background(), 2*time.Minute)
				defer cancel()
				hs, err := h.New(ctx, h.Config{Protocol: p, Seed: 1, Logf: t.Logf})
				if err != nil {
					t.Fatal(err)
				}
				defer hs.Close()
				if err := hs.Do(ctx, h.Step{Op: h.OpStart, Node: "a"}); err != nil {
					t.Fatal(err)
				}
				if err := hs.Settle(ctx); err != nil {
					t.Fatal(err)
				}
				if err := hs.Do(ctx, h.Step{Op: h.OpStart, Node: "b"}); err != nil {
					t.Fatal(err)
				}
				mu.Lock()
				a, b := clients[0], clients[1]
				mu.Unlock()
				var who *client
				var f failure
				select {
				case f = <-a.fatal:
					who = a
				case f = <-b.fatal:
					who = b
				case <-ctx.Done():
					t.Fatalf("no member's poll threw within the deadline: %v", ctx.Err())
				}
				t.Logf("%s's poll threw %s", who.name, &f)
				if f.Code != tc.want {
					t.Errorf("%s's poll threw %s, want %s", who.name, f.name(), tc.want)
				}
				if !marked(hs.History(), who.name, "reaction: "+reaction) {
					t.Errorf("the history has no mark of %s's reaction %q", who.name, reaction)
				}
				if reaction == "stop" {
					select {
					case <-who.p.exited:
					case <-ctx.Done():
						t.Fatalf("%s stopped on its fatal error but its JVM did not exit", who.name)
					}
				}
			})
		}
	}
}

// marked reports whether the history has a mark of node's that contains s.
func marked(hist history.History, node, s string) bool {
	for _, e := range hist {
		if e.Kind == history.Mark && e.Node == node && strings.Contains(e.Note, s) {
			return true
		}
	}
	return false
}
