package invariants

import (
	"cmp"
	"fmt"
)

// OriginKind says why a property is checked, which says what its violation means.
type OriginKind int

const (
	// Promise: what Kafka guarantees its users (exclusive ownership, fenced commits, the
	// rebalance listener's contract, progress), from the KIPs and the consumer's documented
	// contract. A violation harms an application.
	Promise OriginKind = iota
	// Conformance: what a named implementation does (the broker's coordinator, the Java
	// consumer, librdkafka, franz-go, Kafka Streams). A violation is a departure from that
	// implementation, which need not harm anyone.
	Conformance
	// Vacuity: a guard that the model reaches the situations the other properties judge, so
	// that they do not hold because nothing happens.
	Vacuity
)

// String is the kind as the catalogue and the reports name it.
func (k OriginKind) String() string {
	switch k {
	case Promise:
		return "promise"
	case Conformance:
		return "conformance"
	case Vacuity:
		return "vacuity guard"
	}
	return fmt.Sprintf("OriginKind(%d)", int(k))
}

// Origin is why a property is checked: its kind and, for conformance, the implementation
// it follows.
type Origin struct {
	Kind OriginKind
	// Impl names the implementation a conformance property follows; "" otherwise.
	Impl string
}

// String is "promise", "vacuity guard" or "conformance: IMPL".
func (o Origin) String() string {
	if o.Impl != "" {
		return o.Kind.String() + ": " + o.Impl
	}
	return o.Kind.String()
}

// Compare orders origins as reports group them: promises, then conformance by
// implementation, then vacuity guards.
func (o Origin) Compare(p Origin) int {
	return cmp.Or(cmp.Compare(o.Kind, p.Kind), cmp.Compare(o.Impl, p.Impl))
}

// The implementations conformance properties follow, as the catalogue names them.
const (
	implBroker      = "the Apache Kafka broker's group coordinator"
	implJava        = "the Java consumer"
	implJavaRdkafka = "the Java consumer and librdkafka"
	implJavaClients = "the Java consumer, librdkafka and franz-go"
	implStreams     = "Kafka Streams"
)

var (
	promise = Origin{Kind: Promise}
	vacuity = Origin{Kind: Vacuity}
)

func conforms(impl string) Origin { return Origin{Kind: Conformance, Impl: impl} }

// origins is each property's origin, beside the registry (All) so that the property files
// stay as they are; TestEveryPropertyHasAnOrigin keeps the two in step.
var origins = map[string]Origin{
	// What the protocols promise their users: ownership, commits, the listener, progress.
	"exclusive-ownership":               promise,
	"mixed-exclusive-ownership":         promise,
	"mixed-exclusive-ownership-strict":  promise,
	"mixed-commit-fencing":              promise,
	"mixed-counter-monotonic":           conforms(implBroker),
	"exclusive-ownership-strict":        promise,
	"sync-assignment-valid":             promise,
	"commit-fencing":                    promise,
	"commit-fencing-strict":             promise,
	"no-handover-while-owned":           promise,
	"generation-monotonic":              promise,
	"revoke-before-reassign":            promise,
	"lost-only-after-membership-lost":   promise,
	"claims-truthful":                   promise,
	"no-orphan-member":                  promise,
	"group-max-size":                    promise,
	"converged-balanced":                promise,
	"sticky-least-movement":             promise,
	"static-member-kept":                promise,
	"kip848-partition-epochs":           promise,
	"kip848-target-exclusive":           promise,
	"kip848-exclusive-ownership":        promise,
	"kip848-exclusive-ownership-strict": promise,
	"kip848-epoch-monotonic":            promise,
	"kip848-commit-fencing":             promise,
	"kip848-revocation-timer":           promise,
	ConvergesName:                       promise,
	OrphansExpireName:                   promise,
	PromptName:                          promise,

	// What the broker's coordinators do.
	"coordinator-transitions": conforms(implBroker),
	"coordinator-consistent":  conforms(implBroker),
	"joined-leader":           conforms(implBroker),
	"join-answer":             conforms(implBroker),
	"join-reaction":           conforms(implBroker),
	"join-deadline":           conforms(implBroker),
	"max-size-refusal":        conforms(implBroker),
	"member-id-required":      conforms(implBroker),
	"protocol-vote":           conforms(implBroker),
	"rebalance-cause":         conforms(implBroker),
	"leave-applied":           conforms(implBroker),
	"coordinator-away-answer": conforms(implBroker),
	"kip848-epoch-cause":      conforms(implBroker),
	"kip848-epoch-checked":    conforms(implBroker),
	"kip848-static-unique":    conforms(implBroker),
	"kip848-target-stable":    conforms(implBroker),
	"kip848-leave-accepted":   conforms(implBroker),
	"kip848-target-balanced":  conforms(implBroker),

	// What the clients do.
	"answers-expected":            conforms(implJava),
	"commit-before-revoke":        conforms(implJava),
	"no-fatal":                    conforms(implJava),
	"callback-contract":           conforms(implJava),
	"stopped-stays-stopped":       conforms(implJava),
	"rejoin-cause":                conforms(implJava),
	"member-id-adopted":           conforms(implJava),
	"reset-loses-partitions":      conforms(implJava),
	"join-reason":                 conforms(implJava),
	"join-plan":                   conforms(implJava),
	"client-states":               conforms(implJava),
	"eager-joins-empty":           conforms(implJava),
	"leader-reads-own-version":    conforms(implJava),
	"assignor-exact":              conforms(implJava),
	"kip848-requests-valid":       conforms(implJava),
	"kip848-no-fatal":             conforms(implJava),
	"kip848-listener":             conforms(implJava),
	"kip848-leave-sent":           conforms(implJava),
	"kip848-commit-before-revoke": conforms(implJava),
	"fatal-reported":              conforms(implJava),
	"rediscover-when-told":        conforms(implJava),
	"fenced-means-stop":           conforms(implJavaRdkafka),
	"commit-reported":             conforms(implJavaClients),
	"followup-asked":              conforms(implStreams),

	// Guards that the model reaches what the others judge.
	"converged-reachable":        vacuity,
	"fenced-reachable":           vacuity,
	"commit-accepted":            vacuity,
	"kip848-converged-reachable": vacuity,
	"kip848-fenced-reachable":    vacuity,
	"any-complete":               vacuity,
}

// OriginOf is the origin of the property named name (a registered one, converges or
// orphans-expire); ok is false for a name without one.
func OriginOf(name string) (o Origin, ok bool) {
	o, ok = origins[name]
	return o, ok
}
