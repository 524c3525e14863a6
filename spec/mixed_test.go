package spec

import (
	"strings"
	"testing"

	"github.com/groupcheck/groupcheck/impl"
	"github.com/groupcheck/groupcheck/impl/kip848"
)

const mixedBase = "protocol cooperative\nconsumer kafka\ncoordinator kafka\nassignor cooperative-sticky\ntopic t 2\nmember a topics=t\n"

func TestMixedConfig(t *testing.T) {
	c, err := ParseConfigString("m", mixedBase+"member b topics=t group-protocol=consumer\nbudget bounces=1\nmigration-policy upgrade\n")
	if err != nil {
		t.Fatal(err)
	}
	if !c.Mixed() || c.Members[0].StartsConsumer || !c.Members[1].StartsConsumer || c.Budget.Bounces != 1 || c.MigrationPolicy != kip848.MigrationUpgrade {
		t.Fatalf("parsed %+v", c)
	}
	back, err := ParseConfigString("m", c.Format())
	if err != nil || back.Format() != c.Format() {
		t.Fatalf("Format does not round-trip: %v\n%s", err, c.Format())
	}
	if plain, _ := ParseConfigString("p", mixedBase); plain.Mixed() {
		t.Fatalf("a classic world without bounces or consumer members is not mixed")
	}
}

func TestMixedConfigErrors(t *testing.T) {
	consumerBase := strings.Replace(strings.Replace(mixedBase, "protocol cooperative", "protocol consumer", 1), "cooperative-sticky", "uniform", 1)
	for _, tc := range []struct{ name, text, want string }{
		{"bad group-protocol", mixedBase + "member b topics=t group-protocol=kip848\n", `:7: member b: group-protocol: "kip848" is not one of classic, consumer`},
		{"policy outside a mixed world", mixedBase + "migration-policy upgrade\n", ":7: migration-policy upgrade: a policy of mixed worlds only"},
		{"default policy outside a mixed world", mixedBase + "migration-policy bidirectional\n", ":7: migration-policy bidirectional: a policy of mixed worlds only"},
		{"bad policy", mixedBase + "budget bounces=1\nmigration-policy sideways\n", `:8: migration-policy: unknown migration policy "sideways"`},
		{"bounces under protocol consumer", consumerBase + "budget bounces=1\n", "budget bounces: a mixed world is written under protocol eager or cooperative"},
		{"consumer member under protocol consumer", consumerBase + "member b topics=t group-protocol=consumer\n", ":7: member b: group-protocol=consumer: every member of a protocol consumer world runs it"},
		{"failovers", mixedBase + "budget bounces=1 failovers=1\n", ":7: budget failovers: a coordinator failover is not modelled in a mixed world"},
		{"any", strings.Replace(mixedBase, "assignor cooperative-sticky", "assignor any", 1) + "budget bounces=1\n", "assignor: any is not modelled in a mixed world"},
		{"bounces range", mixedBase + "budget bounces=9\n", "budget bounces: 9 outside 0..8"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			_, err := ParseConfigString("x.conf", tc.text)
			if err == nil || !strings.Contains(err.Error(), tc.want) {
				t.Fatalf("error = %v, want it to contain %q", err, tc.want)
			}
		})
	}
}

// settle takes the first enabled protocol step (no environment event) until there is none,
// and fails the test if that takes more than limit steps.
func settle(t *testing.T, w World, limit int) World {
	t.Helper()
	for n := 0; ; n++ {
		if n > limit {
			t.Fatalf("no quiescence after %d steps:\n%s", limit, w)
		}
		next, ok := World{}, false
		for _, a := range Actions(w, nil) {
			switch a.Kind {
			case DeliverRequest, DeliverResponse, Assign, Poll, Heartbeat, Commit, JoinTimeout, SyncTimeout:
				next, ok = Next(w, a)
			}
			if ok {
				break
			}
		}
		if !ok {
			return w
		}
		w = next
	}
}

func mustStep(t *testing.T, w World, text string) World {
	t.Helper()
	a, err := ParseAction(w.Config(), text)
	if err != nil {
		t.Fatal(err)
	}
	n, ok := Next(w, a)
	if !ok {
		t.Fatalf("%s not enabled in\n%s", text, w)
	}
	return n
}

// TestRollingBounceConvertsTheGroup: a classic cooperative group whose members bounce to the
// consumer protocol one by one is converted online (docs/protocol.md §9), and downgraded back
// when they bounce back; each time it settles with every partition owned once.
func TestRollingBounceConvertsTheGroup(t *testing.T) {
	c, err := ParseConfigString("m", mixedBase+"member b topics=t\nbudget bounces=4\n")
	if err != nil {
		t.Fatal(err)
	}
	w := settle(t, Init(c), 200)
	check := func(stage string, consumerGroup bool, consumers ...bool) {
		t.Helper()
		if w.ConsumerGroup != consumerGroup || w.IsConsumerGroup() != consumerGroup {
			t.Fatalf("%s: consumer group = %v, want %v\n%s", stage, w.ConsumerGroup, consumerGroup, w)
		}
		all := impl.PartitionSet{}
		for i, want := range consumers {
			if w.ConsumerSlot(i) != want || !w.Live(i) {
				t.Fatalf("%s: slot %d consumer = %v live = %v, want consumer %v\n%s", stage, i, w.ConsumerSlot(i), w.Live(i), want, w)
			}
			if !all.Intersect(w.Owned(i)).IsEmpty() {
				t.Fatalf("%s: %s owned twice\n%s", stage, all.Intersect(w.Owned(i)), w)
			}
			all = all.Union(w.Owned(i))
		}
		if all.Len() != 2 {
			t.Fatalf("%s: owned %s, want both partitions\n%s", stage, all, w)
		}
	}
	check("classic", false, false, false)
	w = settle(t, mustStep(t, w, "bounce a"), 200)
	check("a upgraded", true, true, false)
	w = settle(t, mustStep(t, w, "bounce b"), 200)
	check("both upgraded", true, true, true)
	if _, ok := Next(w, Action{Kind: Refresh, Slot: 0}); ok {
		t.Fatalf("refresh is a classic member's step")
	}
	w = settle(t, mustStep(t, w, "bounce a"), 200)
	check("a downgraded", true, false, true)
	w = settle(t, mustStep(t, w, "bounce b"), 200)
	check("both downgraded", false, false, false)
	if w.Left.Bounces != 0 {
		t.Fatalf("bounces left %d", w.Left.Bounces)
	}
	if _, ok := Next(w, Action{Kind: Bounce, Slot: 0}); ok {
		t.Fatalf("a bounce beyond the budget")
	}
}

// TestMixedEncodingSeparatesTheHalves: the encoding of a mixed world tells the slots'
// protocols and the group's half apart, and the packer gives the world back.
func TestMixedEncodingSeparatesTheHalves(t *testing.T) {
	c, err := ParseConfigString("m", mixedBase+"member b topics=t group-protocol=consumer absent\nbudget joins=1\n")
	if err != nil {
		t.Fatal(err)
	}
	w := settle(t, Init(c), 200)
	if w.IsConsumerGroup() {
		t.Fatalf("a classic member's join makes a classic group:\n%s", w)
	}
	w = mustStep(t, w, "start b")
	if w.ConsumerSlot(0) || !w.ConsumerSlot(1) {
		t.Fatalf("b starts on the consumer protocol:\n%s", w)
	}
	w = settle(t, w, 200)
	if !w.IsConsumerGroup() {
		t.Fatalf("a consumer-protocol member's join converts the group:\n%s", w)
	}
	if string(w.Encode(nil)) != string(w.encodeReflect(nil)) {
		t.Fatalf("fast and reflect encodings differ")
	}
	flipped := w
	flipped.ConsumerGroup = false
	if string(flipped.Encode(nil)) == string(w.Encode(nil)) {
		t.Fatalf("the encoding does not say which half holds the group")
	}
	p := NewPacker(c)
	if back := p.Unpack(p.Pack(w)); string(back.Encode(nil)) != string(w.Encode(nil)) {
		t.Fatalf("unpacked world differs:\n%s\nwant\n%s", back, w)
	}
}

func TestMixedTimerActionsParse(t *testing.T) {
	c, err := ParseConfigString("m", mixedBase+"member b topics=t\nbudget bounces=1\n")
	if err != nil {
		t.Fatal(err)
	}
	a, err := ParseAction(&c, "join-timeout a#1")
	if err != nil || a.Member != "a#1" || a.Text(&c) != "join-timeout a#1" {
		t.Fatalf("ParseAction = %+v, %v", a, err)
	}
	if a, err := ParseAction(&c, "bounce b"); err != nil || a.Kind != Bounce || a.Text(&c) != "bounce b" {
		t.Fatalf("ParseAction(bounce b) = %+v, %v", a, err)
	}
}
