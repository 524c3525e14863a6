package sarama

import (
	"errors"

	ibm "github.com/IBM/sarama"
)

// watch wraps a Sarama BalanceStrategy to see every assignment the member receives: Sarama
// calls OnAssignment right after it processes its SyncGroup response, on every member, before
// it starts the claims (consumer_group.go joinSync). Everything else goes to the wrapped
// strategy, including the protocols it supports (eager or cooperative) and its own
// OnAssignment and SubscriptionUserData hooks.
type watch struct {
	ibm.BalanceStrategy
	c *client
}

// errNoUserData makes Sarama fall back to the configured UserData when the wrapped strategy
// has no SubscriptionUserData hook (balance_strategy.go).
var errNoUserData = errors.New("wrapped strategy has no SubscriptionUserData")

// SupportedProtocols is the wrapped strategy's, eager if it does not say.
func (w *watch) SupportedProtocols() []ibm.RebalanceProtocol {
	if s, ok := w.BalanceStrategy.(ibm.RebalanceProtocolBalanceStrategy); ok {
		return s.SupportedProtocols()
	}
	return []ibm.RebalanceProtocol{ibm.RebalanceProtocolEager}
}

// SubscriptionUserData is the wrapped strategy's.
func (w *watch) SubscriptionUserData(topics []string) ([]byte, error) {
	if s, ok := w.BalanceStrategy.(ibm.SubscriptionUserDataBalanceStrategy); ok {
		return s.SubscriptionUserData(topics)
	}
	return nil, errNoUserData
}

// OnAssignment passes the assignment to the wrapped strategy, then records it.
func (w *watch) OnAssignment(a *ibm.ConsumerGroupMemberAssignment, gen int32) {
	if s, ok := w.BalanceStrategy.(ibm.OnAssignmentBalanceStrategy); ok {
		s.OnAssignment(a, gen)
	}
	w.c.assigned(a, gen)
}
