package impl

import "strconv"

// ErrorCode is a Kafka protocol error code as carried in responses (Errors.java numbering,
// docs/protocol.md §1.1). Protocol refusals are values of this type, never Go errors.
type ErrorCode int16

// The error codes the group protocols use (docs/protocol.md §1.1).
const (
	UnknownServerError        ErrorCode = -1
	None                      ErrorCode = 0
	CoordinatorLoadInProgress ErrorCode = 14
	CoordinatorNotAvailable   ErrorCode = 15
	NotCoordinator            ErrorCode = 16
	IllegalGeneration         ErrorCode = 22
	InconsistentGroupProtocol ErrorCode = 23
	InvalidGroupID            ErrorCode = 24
	UnknownMemberID           ErrorCode = 25
	InvalidSessionTimeout     ErrorCode = 26
	RebalanceInProgress       ErrorCode = 27
	InvalidRequest            ErrorCode = 42
	GroupIDNotFound           ErrorCode = 69
	MemberIDRequired          ErrorCode = 79
	GroupMaxSizeReached       ErrorCode = 81
	FencedInstanceID          ErrorCode = 82
	FencedMemberEpoch         ErrorCode = 110
	UnreleasedInstanceID      ErrorCode = 111
	UnsupportedAssignor       ErrorCode = 112
	StaleMemberEpoch          ErrorCode = 113

	// NeedsRejoin is KIP-429's NEEDS_REJOIN (KIP-429 §2.6, §3.5): set by the cooperative leader
	// in a member's assignment to make it rejoin at once. It never shipped (docs/protocol.md §2.1), so
	// it has no Kafka number; this value is outside Kafka's range.
	NeedsRejoin ErrorCode = 10429
)

var errorNames = map[ErrorCode]string{
	UnknownServerError:        "UNKNOWN_SERVER_ERROR",
	None:                      "NONE",
	CoordinatorLoadInProgress: "COORDINATOR_LOAD_IN_PROGRESS",
	CoordinatorNotAvailable:   "COORDINATOR_NOT_AVAILABLE",
	NotCoordinator:            "NOT_COORDINATOR",
	IllegalGeneration:         "ILLEGAL_GENERATION",
	InconsistentGroupProtocol: "INCONSISTENT_GROUP_PROTOCOL",
	InvalidGroupID:            "INVALID_GROUP_ID",
	UnknownMemberID:           "UNKNOWN_MEMBER_ID",
	InvalidSessionTimeout:     "INVALID_SESSION_TIMEOUT",
	RebalanceInProgress:       "REBALANCE_IN_PROGRESS",
	InvalidRequest:            "INVALID_REQUEST",
	GroupIDNotFound:           "GROUP_ID_NOT_FOUND",
	MemberIDRequired:          "MEMBER_ID_REQUIRED",
	GroupMaxSizeReached:       "GROUP_MAX_SIZE_REACHED",
	FencedInstanceID:          "FENCED_INSTANCE_ID",
	FencedMemberEpoch:         "FENCED_MEMBER_EPOCH",
	UnreleasedInstanceID:      "UNRELEASED_INSTANCE_ID",
	UnsupportedAssignor:       "UNSUPPORTED_ASSIGNOR",
	StaleMemberEpoch:          "STALE_MEMBER_EPOCH",
	NeedsRejoin:               "NEEDS_REJOIN",
}

// String is Kafka's upper-case name for the code, or the number for an unknown code.
func (e ErrorCode) String() string {
	if n, ok := errorNames[e]; ok {
		return n
	}
	return "ERROR_" + strconv.Itoa(int(e))
}

// ParseErrorCode maps Kafka's name for an error code back to the code.
func ParseErrorCode(name string) (ErrorCode, bool) {
	for c, n := range errorNames {
		if n == name {
			return c, true
		}
	}
	return 0, false
}
