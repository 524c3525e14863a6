package invariants

import (
	"strings"
	"testing"

	"github.com/groupcheck/groupcheck/impl"
	"github.com/groupcheck/groupcheck/impl/kip848"
)

// TestKIP848TimerPropertiesBite gives kip848-revocation-timer hand-made member records (the
// coordinator never builds a revoking one without its timer; B17's reset timer does, end to
// end, in TestMutantsAreCaught), kip848-fenced-reachable worlds with and without a fencing
// answer on its way, kip848-requests-valid an INVALID_REQUEST answer and kip848-no-fatal a
// FATAL member. Reference: docs/protocol.md §3.1, §3.5, §3.7.
func TestKIP848TimerPropertiesBite(t *testing.T) {
	w := convergedTwo(t)
	revoking := func(timer kip848.RebalanceTimer, epoch impl.Epoch) []kip848.Member {
		ms := w.Group.Members()
		ms[0].State, ms[0].MemberEpoch, ms[0].RebalanceTimer = kip848.UnrevokedPartitions, epoch, timer
		ms[0].PartitionsPendingRevocation, ms[0].AssignedPartitions = ms[0].AssignedPartitions, impl.PartitionSet{}
		return ms
	}
	e := w.Group.Members()[0].MemberEpoch
	for _, tc := range []struct {
		name  string
		ms    []kip848.Member
		wants string // in the reason; "" = holds
	}{
		{"converged", w.Group.Members(), ""},
		{"never armed", revoking(kip848.RebalanceTimer{}, e), "without a rebalance timer at that epoch (none armed)"},
		{"reset by a new target (B17)", revoking(kip848.RebalanceTimer{Armed: true, Epoch: e + 2}, e), "(armed at epoch"},
		{"armed at its epoch", revoking(kip848.RebalanceTimer{Armed: true, Epoch: e}, e), ""},
		{"left temporarily (-2)", revoking(kip848.RebalanceTimer{}, impl.EpochTemporaryLeave), ""},
	} {
		why := unboundedRevocation(tc.ms)
		if tc.wants == "" && why != "" || tc.wants != "" && !strings.Contains(why, tc.wants) {
			t.Errorf("kip848-revocation-timer, %s: reason %q, want %q", tc.name, why, tc.wants)
		}
	}
	p, _ := Lookup("kip848-fenced-reachable")
	answered := func(code impl.ErrorCode) string {
		x := ownSlots(w)
		x.Slots[0].In = []impl.Response{impl.OffsetCommitResponse{Error: impl.UnknownMemberID}, impl.ConsumerGroupHeartbeatResponse{Error: code}}
		return p.State(&x)
	}
	if p.State(&w) == "" || answered(impl.NotCoordinator) == "" || answered(impl.FencedMemberEpoch) != "" || answered(impl.UnknownMemberID) != "" {
		t.Errorf("kip848-fenced-reachable judges the worlds wrongly")
	}
	if p.Applies(config(t, twoKIP848)) || !p.Applies(config(t, twoKIP848+"budget rebalance-timeouts=1\n")) || !p.Applies(config(t, twoKIP848+"budget session-timeouts=1\n")) {
		t.Errorf("kip848-fenced-reachable applies where no timer of a live member is budgeted, or not where one is")
	}
	valid, _ := Lookup("kip848-requests-valid")
	if why := valid.State(&w); why != "" {
		t.Errorf("kip848-requests-valid flags the converged world: %s", why)
	}
	x := ownSlots(w)
	x.Slots[1].In = []impl.Response{impl.ConsumerGroupHeartbeatResponse{Error: impl.InvalidRequest}}
	if why := valid.State(&x); !strings.Contains(why, "b's ConsumerGroupHeartbeat INVALID_REQUEST") {
		t.Errorf("kip848-requests-valid: reason %q", why)
	}
	noFatal, _ := Lookup("kip848-no-fatal")
	if why := noFatal.State(&w); why != "" {
		t.Errorf("kip848-no-fatal flags the converged world: %s", why)
	}
	f := ownSlots(w)
	f.Slots[0].Member.FatalError = impl.UnknownMemberID
	if why := noFatal.State(&f); !strings.Contains(why, "a stopped with FATAL UNKNOWN_MEMBER_ID") {
		t.Errorf("kip848-no-fatal: reason %q", why)
	}
	if noFatal.Applies(config(t, twoKIP848+"group-max-size 1\n")) || noFatal.Applies(config(t, strings.Replace(twoKIP848, "member a topics=t\n", "member a topics=t static\n", 1))) || !noFatal.Applies(config(t, twoKIP848)) {
		t.Errorf("kip848-no-fatal applies where a FATAL error is possible, or not where none is")
	}
}
