package consumer

import (
	"fmt"

	"github.com/groupcheck/groupcheck/impl"
)

// FatalReaction is what the application does when poll throws a fatal error (FENCED_INSTANCE_ID,
// GROUP_MAX_SIZE_REACHED, INCONSISTENT_GROUP_PROTOCOL, ...; docs/protocol.md §1.11). Java's
// KafkaConsumer does not close itself: the exception leaves poll and the consumer stays usable,
// so which reaction a deployment has is the application's choice.
type FatalReaction uint8

const (
	// FatalStops: the consumer stops for good (the application closes it, or exits). The
	// reference's reaction, and the zero value.
	FatalStops FatalReaction = iota
	// FatalPollsAgain: the application catches the exception and polls again, and the
	// consumer goes on from the state the response handler left (AbstractCoordinator):
	// after a JoinGroup or SyncGroup answered with a fatal error joinGroupIfNeeded has
	// requested a rejoin before it throws, so the next poll joins again under the member id
	// it still has; a Heartbeat answered FENCED_INSTANCE_ID has reset the generation and the
	// member id (HeartbeatResponseHandler → resetStateOnResponseError), and pollHeartbeat
	// drops the failed heartbeat thread before it throws, so the next poll starts a new one
	// and joins without a member id — a static member then replaces, and so fences, the
	// process that fenced it (KIP-345); an OffsetCommit answered FENCED_INSTANCE_ID only
	// fails the commit (OffsetCommitResponseHandler raises it, nothing is reset).
	FatalPollsAgain
	numFatalReactions
)

var fatalReactionNames = [numFatalReactions]string{"stop", "poll-again"}

func (r FatalReaction) String() string {
	if r < numFatalReactions {
		return fatalReactionNames[r]
	}
	return fmt.Sprintf("FatalReaction(%d)", uint8(r))
}

// ParseFatalReaction reads a reaction's name.
func ParseFatalReaction(s string) (FatalReaction, bool) {
	for i, n := range fatalReactionNames {
		if n == s {
			return FatalReaction(i), true
		}
	}
	return 0, false
}

// fatal reports fatal error err to the application (poll throws it: the Fatal effect) and
// reacts as Config.OnFatal says: FatalStops stops the consumer, FatalPollsAgain keeps the state
// the caller's handler left.
func (c *Consumer) fatal(effs []Effect, err impl.ErrorCode) []Effect {
	if c.Config.OnFatal == FatalStops {
		c.FatalError = err
		c.AwaitingAssignment = false
	}
	return append(effs, Fatal{Error: err})
}

// roundFatal is a JoinGroup or SyncGroup answered with a fatal error. Java's joinGroupIfNeeded
// requests a rejoin and then throws; the generation and member id are untouched, so an
// application that polls again re-sends JoinGroup under them (roundFailed).
// Reference: AbstractCoordinator.joinGroupIfNeeded (requestRejoin before `throw exception`),
// JoinGroupResponseHandler and SyncGroupResponseHandler (FENCED_INSTANCE_ID: future.raise).
func (c *Consumer) roundFatal(err impl.ErrorCode) []Effect {
	if c.Config.OnFatal == FatalPollsAgain {
		c.roundFailed()
	}
	return c.fatal(nil, err)
}
