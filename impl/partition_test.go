package impl

import (
	"slices"
	"testing"

	"pgregory.net/rapid"
)

// genSet draws a partition set over two topics and four partitions each, small enough that
// overlaps are common.
func genSet(t *rapid.T, label string) PartitionSet {
	tps := rapid.SliceOf(rapid.Custom(func(t *rapid.T) TopicPartition {
		return TP(rapid.SampledFrom([]string{"a", "b"}).Draw(t, "topic"), rapid.Int32Range(0, 3).Draw(t, "p"))
	})).Draw(t, label)
	return NewPartitionSet(tps...)
}

// naive is the membership predicate the set operations must agree with.
func naive(s PartitionSet) map[TopicPartition]bool {
	m := map[TopicPartition]bool{}
	for _, tp := range s.Slice() {
		m[tp] = true
	}
	return m
}

func TestPartitionSetAlgebraAgreesWithNaive(t *testing.T) {
	rapid.Check(t, func(t *rapid.T) {
		a, b := genSet(t, "a"), genSet(t, "b")
		na, nb := naive(a), naive(b)
		for _, s := range []PartitionSet{a, b, a.Union(b), a.Intersect(b), a.Minus(b)} {
			if !slices.IsSortedFunc(s.Slice(), TopicPartition.Compare) {
				t.Fatalf("not sorted: %v", s)
			}
			if len(naive(s)) != s.Len() {
				t.Fatalf("duplicates in %v", s)
			}
		}
		for _, topic := range []string{"a", "b"} {
			for p := int32(0); p < 4; p++ {
				tp := TP(topic, p)
				if got, want := a.Union(b).Contains(tp), na[tp] || nb[tp]; got != want {
					t.Fatalf("union %v∪%v contains %v = %v", a, b, tp, got)
				}
				if got, want := a.Intersect(b).Contains(tp), na[tp] && nb[tp]; got != want {
					t.Fatalf("intersect %v∩%v contains %v = %v", a, b, tp, got)
				}
				if got, want := a.Minus(b).Contains(tp), na[tp] && !nb[tp]; got != want {
					t.Fatalf("minus %v−%v contains %v = %v", a, b, tp, got)
				}
			}
		}
		if a.Intersects(b) != !a.Intersect(b).IsEmpty() {
			t.Fatalf("Intersects(%v, %v) disagrees with Intersect", a, b)
		}
		if a.SubsetOf(b) != a.Union(b).Equal(b) {
			t.Fatalf("SubsetOf(%v, %v) disagrees with union", a, b)
		}
	})
}

func TestPartitionSetNeverAliasesInputs(t *testing.T) {
	a := NewPartitionSet(TP("t", 0), TP("t", 2))
	b := NewPartitionSet(TP("t", 1))
	u := a.Union(b)
	u.Slice()[0] = TP("x", 9)
	if !a.Equal(NewPartitionSet(TP("t", 0), TP("t", 2))) {
		t.Fatalf("Union result aliases its receiver: a = %v", a)
	}
}

func TestPartitionSetString(t *testing.T) {
	s := NewPartitionSet(TP("t", 1), TP("s", 0), TP("t", 1))
	if got, want := s.String(), "(s-0 t-1)"; got != want {
		t.Errorf("String = %q, want %q", got, want)
	}
	if got := (PartitionSet{}).String(); got != "()" {
		t.Errorf("empty String = %q", got)
	}
	if got := s.Topics(); !slices.Equal(got, []string{"s", "t"}) {
		t.Errorf("Topics = %v", got)
	}
	if got := s.Add(TP("u", 0)).Remove(TP("s", 0)).String(); got != "(t-1 u-0)" {
		t.Errorf("Add/Remove = %q", got)
	}
	if got := s.OfTopics([]string{"t"}).String(); got != "(t-1)" {
		t.Errorf("OfTopics = %q", got)
	}
}

func TestVocabularyNames(t *testing.T) {
	for _, c := range []ErrorCode{None, UnknownMemberID, IllegalGeneration, RebalanceInProgress, MemberIDRequired, FencedInstanceID, NeedsRejoin} {
		back, ok := ParseErrorCode(c.String())
		if !ok || back != c {
			t.Errorf("error code %d: %q parses back to %d, %v", c, c, back, ok)
		}
	}
	if got := ErrorCode(999).String(); got != "ERROR_999" {
		t.Errorf("unknown code renders %q", got)
	}
	for r := ReasonUnspecified; r <= ReasonUpgrade; r++ {
		if back, ok := ParseJoinReason(r.String()); !ok || back != r {
			t.Errorf("join reason %d: %q parses back to %d", r, r, back)
		}
	}
	var fs Faults
	for _, f := range AllFaults() {
		back, ok := ParseFault(f.String())
		if !ok || back != f {
			t.Errorf("fault %d: %q parses back to %d", f, f, back)
		}
		fs = fs.With(f)
	}
	for _, f := range AllFaults() {
		if !fs.Has(f) {
			t.Errorf("fault set lost %v", f)
		}
	}
	if Faults(0).String() != "none" || Faults(0).With(FaultNoSyncTimer).String() != "no-sync-timer" {
		t.Errorf("Faults.String wrong: %q", Faults(0).With(FaultNoSyncTimer))
	}
}

func TestSubscriptionReadAs(t *testing.T) {
	// Reference: docs/protocol.md §2.2 (fields per version); docs/protocol.md §7.4: a v0 leader
	// cannot see owned partitions.
	s := NewSubscription(2, []string{"t", "s", "t"}, NewPartitionSet(TP("t", 0)), 3)
	if !slices.Equal(s.Topics, []string{"s", "t"}) || !s.Subscribes("t") || s.Subscribes("u") {
		t.Fatalf("topics %v", s.Topics)
	}
	v0 := s.ReadAs(0)
	if !v0.OwnedPartitions.IsEmpty() || v0.Generation != NoGeneration || v0.Version != 0 {
		t.Errorf("v0 reader sees %+v", v0)
	}
	v1 := s.ReadAs(1)
	if v1.OwnedPartitions.Len() != 1 || v1.Generation != NoGeneration {
		t.Errorf("v1 reader sees %+v", v1)
	}
	if !s.ReadAs(2).Equal(s) {
		t.Errorf("v2 reader changed the subscription")
	}
	c := NewCluster(TopicMetadata{"t", 2}, TopicMetadata{"s", 1})
	if got := c.PartitionsOf([]string{"s", "t", "u"}).String(); got != "(s-0 t-0 t-1)" {
		t.Errorf("PartitionsOf = %s", got)
	}
	if c.Exists(TP("t", 2)) || !c.Exists(TP("t", 1)) || c.PartitionCount("u") != 0 {
		t.Errorf("Exists/PartitionCount wrong")
	}
}

func TestAppendPartitionSetIsCanonical(t *testing.T) {
	a := AppendPartitionSet(nil, NewPartitionSet(TP("t", 1), TP("s", 0)))
	b := AppendPartitionSet(nil, NewPartitionSet(TP("s", 0), TP("t", 1), TP("s", 0)))
	c := AppendPartitionSet(nil, NewPartitionSet(TP("s", 0)))
	if string(a) != string(b) || string(a) == string(c) {
		t.Errorf("encodings: %x %x %x", a, b, c)
	}
	if string(AppendStrings(nil, []string{"ab", "c"})) == string(AppendStrings(nil, []string{"a", "bc"})) {
		t.Error("AppendStrings does not separate its strings")
	}
}
