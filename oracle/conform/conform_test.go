package conform

import (
	"errors"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/groupcheck/groupcheck/impl"
	"github.com/groupcheck/groupcheck/impl/consumer"
	"github.com/groupcheck/groupcheck/impl/kip848client"
	"github.com/groupcheck/groupcheck/spec"
	"github.com/groupcheck/groupcheck/traces"
)

var corpus = []string{"../../traces/scenarios/*.trace", "../../traces/golden/*.trace"}

// wrap is an adapter around the reference members whose effects pass through edit
// (classic) and edit848 (KIP-848); a nil edit leaves that protocol unsupported.
func wrap(edit func([]consumer.Effect) []consumer.Effect, edit848 func([]kip848client.Effect) []kip848client.Effect) Adapter {
	ref := Reference()
	a := adapter{}
	if edit != nil {
		a.classic = func(s Start) (Member, error) {
			m, err := ref.Start(s)
			return editing{m, edit}, err
		}
	}
	if edit848 != nil {
		a.kip848 = func(s Start848) (Member848, error) {
			m, err := ref.Start848(s)
			return editing848{m, edit848}, err
		}
	}
	return a
}

type editing struct {
	m    Member
	edit func([]consumer.Effect) []consumer.Effect
}

func (e editing) Step(in consumer.Input) ([]consumer.Effect, error) {
	effs, err := e.m.Step(in)
	return e.edit(effs), err
}

type editing848 struct {
	m    Member848
	edit func([]kip848client.Effect) []kip848client.Effect
}

func (e editing848) Step(in kip848client.Input) ([]kip848client.Effect, error) {
	effs, err := e.m.Step(in)
	return e.edit(effs), err
}

// filter keeps the effects for which keep is true, after edit.
func filter[E any](edit func(E) (E, bool)) func([]E) []E {
	return func(effs []E) []E {
		var out []E
		for _, e := range effs {
			if e, keep := edit(e); keep {
				out = append(out, e)
			}
		}
		return out
	}
}

// The reference member conforms on every trace of the corpus, faulty ones included (it
// runs with the trace's faults).
func TestReferenceConformsOnCorpus(t *testing.T) {
	reports, err := RunGlob(Reference(), Options{}, corpus...)
	if err != nil {
		t.Fatal(err)
	}
	inputs := 0
	for _, r := range reports {
		if strings.HasPrefix(r.Skipped, SkippedMixed) {
			continue // a mixed world's trace: its slots switch protocol, which no driver runs yet
		}
		if r.Mismatch != nil || r.Skipped != "" || r.Inputs == 0 {
			t.Errorf("%s: inputs %d, skipped %q, mismatch %v", r.Trace, r.Inputs, r.Skipped, r.Mismatch)
		}
		inputs += r.Inputs
	}
	if len(reports) < 15 {
		t.Fatalf("only %d traces in the corpus", len(reports))
	}
	t.Logf("%d traces, %d member inputs compared, all conform", len(reports), inputs)
}

// firstMismatch runs the corpus and returns the mismatches.
func mismatches(t *testing.T, a Adapter, opts Options) []Report {
	t.Helper()
	reports, err := RunGlob(a, opts, corpus...)
	if err != nil {
		t.Fatal(err)
	}
	var out []Report
	for _, r := range reports {
		if r.Mismatch != nil {
			out = append(out, r)
		}
	}
	return out
}

// Broken members are reported. Sources: docs/protocol.md §2.6 and §3.4 (a member calls
// onPartitionsRevoked before it gives partitions up), §1.5–1.6 and §3.1 (requests carry the
// member's generation or epoch).
func TestBrokenAdaptersAreReported(t *testing.T) {
	noRevoke := filter(func(e consumer.Effect) (consumer.Effect, bool) {
		c, ok := e.(consumer.Callback)
		return e, !ok || c.Kind != consumer.Revoked
	})
	noRevoke848 := filter(func(e kip848client.Effect) (kip848client.Effect, bool) {
		c, ok := e.(kip848client.Callback)
		return e, !ok || c.Kind != kip848client.Revoked
	})
	wrongGen := filter(func(e consumer.Effect) (consumer.Effect, bool) {
		if s, ok := e.(consumer.Send); ok {
			switch r := s.Request.(type) {
			case impl.SyncGroupRequest:
				r.Generation++
				return consumer.Send{Request: r}, true
			case impl.HeartbeatRequest:
				r.Generation++
				return consumer.Send{Request: r}, true
			}
		}
		return e, true
	})
	wrongEpoch := filter(func(e kip848client.Effect) (kip848client.Effect, bool) {
		if s, ok := e.(kip848client.Send); ok {
			if r, ok := s.Request.(impl.ConsumerGroupHeartbeatRequest); ok && r.MemberEpoch > 0 {
				r.MemberEpoch++
				return kip848client.Send{Request: r}, true
			}
		}
		return e, true
	})
	for _, tc := range []struct {
		name string
		a    Adapter
		want string
	}{
		{"classic member skips onPartitionsRevoked", wrap(noRevoke, nil), "callback on-partitions-revoked"},
		{"classic member sends the wrong generation", wrap(wrongGen, nil), "send SyncGroup"},
		{"KIP-848 member skips onPartitionsRevoked", wrap(nil, noRevoke848), "callback on-partitions-revoked"},
		{"KIP-848 member sends the wrong epoch", wrap(nil, wrongEpoch), "send ConsumerGroupHeartbeat"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			ms := mismatches(t, tc.a, Options{})
			if len(ms) == 0 {
				t.Fatal("the broken adapter conforms on every trace")
			}
			m := ms[0].Mismatch
			if !strings.Contains(m.Diff, tc.want) {
				t.Errorf("diff does not show %q:\n%s", tc.want, m.Diff)
			}
			if !strings.Contains(m.Label, ".trace") || m.Member == "" || m.Input == "" || !strings.Contains(m.Error(), m.Label) {
				t.Errorf("mismatch does not say where: %+v", m)
			}
			t.Logf("reported on %d traces; first: %s", len(ms), m.Label)
		})
	}
}

func TestOptionsIgnore(t *testing.T) {
	strip := func(effs []consumer.Effect) []consumer.Effect {
		var out []consumer.Effect
		for _, e := range effs {
			if s, ok := e.(consumer.Send); ok {
				if j, ok := s.Request.(impl.JoinGroupRequest); ok {
					j.Reason = impl.ReasonUnspecified
					ps := append([]impl.GroupProtocol(nil), j.Protocols...)
					for i := range ps {
						ps[i].Metadata.UserData = impl.UserData{Generation: 42}
					}
					j.Protocols = ps
					e = consumer.Send{Request: j}
				}
			}
			out = append(out, e)
		}
		return out
	}
	if len(mismatches(t, wrap(strip, nil), Options{})) == 0 {
		t.Fatal("different user data must be reported by default")
	}
	if ms := mismatches(t, wrap(strip, nil), Options{IgnoreUserData: true, IgnoreJoinReason: true}); len(ms) != 0 {
		t.Fatalf("ignored fields reported: %v", ms[0].Mismatch)
	}
}

func TestAdapterErrors(t *testing.T) {
	path := "../../traces/scenarios/cooperative-join-kafka.trace"
	failing := wrapErr(errors.New("boom"))
	if _, err := RunFile(failing, path, Options{}); err == nil || !strings.Contains(err.Error(), "the adapter failed: boom") {
		t.Errorf("step error: %v", err)
	}
	noStart := Classic(func(Start) (Member, error) { return nil, errors.New("no client") })
	if _, err := RunFile(noStart, path, Options{}); err == nil || !strings.Contains(err.Error(), "starting member a: no client") {
		t.Errorf("start error: %v", err)
	}
	if _, err := RunFile(Reference(), "no-such.trace", Options{}); err == nil {
		t.Error("missing file accepted")
	}
	bad := filepath.Join(t.TempDir(), "bad.trace")
	os.WriteFile(bad, []byte("not a trace\n"), 0o644)
	if _, err := RunFile(Reference(), bad, Options{}); err == nil {
		t.Error("unparsable trace accepted")
	}
	if _, err := RunGlob(Reference(), Options{}, filepath.Join(t.TempDir(), "*.trace")); err == nil {
		t.Error("an empty corpus must be an error")
	}
	if _, err := RunGlob(Reference(), Options{}, "[", "x"); err == nil {
		t.Error("a bad pattern must be an error")
	}
}

func wrapErr(err error) Adapter {
	return Classic(func(s Start) (Member, error) { return errMember{err}, nil })
}

type errMember struct{ err error }

func (m errMember) Step(consumer.Input) ([]consumer.Effect, error) { return nil, m.err }

func TestTraceThatDoesNotReplay(t *testing.T) {
	f, err := os.Open("../../traces/scenarios/cooperative-join-kafka.trace")
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	tr, err := traces.Parse("x.trace", f)
	if err != nil {
		t.Fatal(err)
	}
	tr.Steps[0].Expected = []string{"something else"}
	if _, err := Run(Reference(), tr, Options{}); err == nil || !strings.Contains(err.Error(), "does not replay on the reference") {
		t.Errorf("err = %v", err)
	}
}

// A classic-only adapter skips the KIP-848 traces, a KIP-848-only one the classic traces.
func TestUnsupportedProtocolSkipped(t *testing.T) {
	classicOnly := Classic(Reference().Start)
	kipOnly := KIP848(Reference().Start848)
	for _, tc := range []struct {
		a           Adapter
		skipKIP848  bool
		description string
	}{{classicOnly, true, "classic only"}, {kipOnly, false, "KIP-848 only"}} {
		reports, err := RunGlob(tc.a, Options{}, corpus...)
		if err != nil {
			t.Fatal(err)
		}
		ran, skipped := 0, 0
		for _, r := range reports {
			if r.Mismatch != nil {
				t.Errorf("%s: %s: %v", tc.description, r.Trace, r.Mismatch)
			}
			if r.Skipped != "" {
				skipped++
			} else {
				ran++
			}
		}
		if ran == 0 || skipped == 0 {
			t.Errorf("%s: ran %d, skipped %d; want some of each", tc.description, ran, skipped)
		}
	}
	if _, err := Classic(nil).Start848(Start848{}); !errors.Is(err, ErrUnsupported) {
		t.Errorf("Start848 of a classic adapter: %v", err)
	}
	if _, err := KIP848(nil).Start(Start{}); !errors.Is(err, ErrUnsupported) {
		t.Errorf("Start of a KIP-848 adapter: %v", err)
	}
}

// A KIP-848 member that fails to start, or whose step fails, is an adapter error.
func TestKIP848AdapterErrors(t *testing.T) {
	p, err := spec.LookupPreset("kip848-kafka")
	if err != nil {
		t.Fatal(err)
	}
	cfg, err := p.Config()
	if err != nil {
		t.Fatal(err)
	}
	tr, err := traces.Rewrite(traces.New("k.trace", traces.Header{Found: "hand-written"}, cfg,
		[]spec.Action{{Kind: spec.DeliverRequest, Slot: 0}, {Kind: spec.DeliverResponse, Slot: 0}}))
	if err != nil {
		t.Fatal(err)
	}
	if r, err := Run(Reference(), tr, Options{}); err != nil || r.Mismatch != nil || r.Inputs != 3 {
		t.Fatalf("reference: %+v %v", r, err)
	}
	noStart := KIP848(func(Start848) (Member848, error) { return nil, errors.New("no client") })
	if _, err := Run(noStart, tr, Options{}); err == nil || !strings.Contains(err.Error(), "no client") {
		t.Errorf("start error: %v", err)
	}
	failing := KIP848(func(Start848) (Member848, error) { return errMember848{}, nil })
	if _, err := Run(failing, tr, Options{}); err == nil || !strings.Contains(err.Error(), "the adapter failed") {
		t.Errorf("step error: %v", err)
	}
}

type errMember848 struct{}

func (errMember848) Step(kip848client.Input) ([]kip848client.Effect, error) {
	return nil, errors.New("boom")
}
