package spec

import (
	"encoding/binary"
	"fmt"
	"math"
	"reflect"
	"strings"
	"sync"

	"github.com/groupcheck/groupcheck/impl"
)

// Canonical encoding of worlds, for fingerprints.
//
// The reference encoder (encodeReflect) walks values by reflection with a plan cached per
// type, so that every field of every role is encoded without each role writing an encoder.
// World.Encode (encode_fast.go) writes the same bytes by hand, several times faster; the
// tests walk every preset and check that the two agree, so a field added to a role and
// forgotten by the fast encoder is caught. Two rules make the encoding canonical:
//
//   - Generations are encoded relative to the coordinator's current generation (docs/protocol.md
//     §6.3). Every role only compares generations (equality, and order in
//     the cooperative-sticky arbitration), never reads their absolute value, and NoGeneration
//     (-1) keeps its own code; so worlds that differ only by a shift of every generation behave
//     alike, and a rebalance storm becomes a cycle instead of an endless chain of new states.
//   - Interface values (requests and responses in flight) are prefixed by a type code from a
//     fixed registry, so the encoding does not depend on type names or map order.
//
//   - KIP-848 epochs (impl.Epoch: group, assignment, member, previous, partition and timer
//     epochs) are encoded relative to the kip848 group epoch, except the values with a
//     meaning of their own, which keep absolute codes: EpochJoin (0, also "no epoch yet" and
//     an unarmed timer), EpochLeave (-1, also kip848.NoPartitionEpoch) and
//     EpochTemporaryLeave (-2). Under protocol consumer impl.Generation fields carry member
//     epochs (OffsetCommit v9) and follow the same rule. Soundness: two worlds with equal
//     encodings differ by a shift d of every other epoch. Those epochs are positive in both
//     (epochs are never below -2, and a value equal to a sentinel in one world would be
//     encoded absolutely there), so the shift keeps them positive. The roles only compare
//     epochs with each other and with the sentinels (=, <, >, the sign), bump them by one
//     (the group epoch, E+1 per revocation step) and copy them (the target epoch into a
//     member): all of these commute with the shift, and a bump of a positive epoch stays
//     positive (E+1 is only applied to a member in UNREVOKED_PARTITIONS, whose epoch is
//     positive: the join that gives a member epoch 0 reports no owned partitions, so it
//     never starts revoking at 0). Nothing reads an absolute positive epoch, so the two worlds have the same
//     successors up to the same shift. A sentinel never becomes a relative value by
//     arithmetic: epoch 0 is only replaced, never bumped, except the group epoch's first
//     bump from 0 — and a world whose group epoch is 0 is encoded with base 0 and absolute
//     codes throughout, so it is never identified with another.
//
//   - In a mixed world (mixed.go) generations and epochs are one counter: a conversion copies
//     the classic generation into the group and member epochs and the group epoch back into
//     the generation, and classic members of a consumer group carry their member epoch as
//     their generation. So every generation and epoch is encoded by the epoch rule above,
//     relative to the group's current counter (its generation while classic, its group epoch
//     while consumer). The argument is the KIP-848 one, with the conversions as further
//     copies of one counter into another; NoGeneration (-1) is EpochLeave's code, and a
//     classic generation 0 only that of an Empty group that never rebalanced (base 0 then).
//
// A field tagged `spec:"classic"` or `spec:"kip848"` holds one protocol's role; in a world of
// the other protocol it never changes, so it is left out of the encoding (it cost a third of the
// encoding time in classic worlds); a field tagged `spec:"mixed"` is encoded in mixed worlds
// only, which encode every field. A `,deref` option marks a pointer that is never nil,
// encoded as the value it points to (Slot's roles, held by pointer to keep slots small).
//
// Member ids need no rule: the world reuses the smallest id not referenced anywhere (freshID),
// which makes them canonical by construction.

var (
	generationType = reflect.TypeFor[impl.Generation]()
	epochType      = reflect.TypeFor[impl.Epoch]()
	slotPtrType    = reflect.TypeFor[*Slot]()
	typeCodes      = map[reflect.Type]byte{}
	plans          sync.Map // reflect.Type → encodeFunc
)

// registerTypes gives each concrete type that can sit in an interface field a stable code.
func registerTypes(values ...any) {
	for _, v := range values {
		t := reflect.TypeOf(v)
		if _, dup := typeCodes[t]; dup {
			panic("spec: type registered twice: " + t.String())
		}
		typeCodes[t] = byte(len(typeCodes) + 1)
	}
}

func init() {
	registerTypes(
		impl.JoinGroupRequest{}, impl.SyncGroupRequest{}, impl.HeartbeatRequest{},
		impl.LeaveGroupRequest{}, impl.OffsetCommitRequest{},
		impl.JoinGroupResponse{}, impl.SyncGroupResponse{}, impl.HeartbeatResponse{},
		impl.LeaveGroupResponse{}, impl.OffsetCommitResponse{},
		// KIP-848; new types go at the end so that existing codes never move.
		impl.ConsumerGroupHeartbeatRequest{}, impl.ConsumerGroupHeartbeatResponse{},
	)
}

type encoder struct {
	buf  []byte
	base impl.Generation // the coordinator's generation; others are encoded relative to it
	// epochBase is the kip848 group epoch; epochs are encoded relative to it (appendEpoch).
	epochBase impl.Epoch
	// genAsEpoch: generations carry KIP-848 epochs (protocol consumer) and are encoded as
	// epochs.
	genAsEpoch bool
	// mixed: a mixed world (mixed.go): every role is encoded, the fields of both protocols
	// and those tagged `spec:"mixed"`, and generations as epochs (genAsEpoch) relative to
	// the group's one counter.
	mixed bool
}

// encoder is the encoder of w's canonical encoding, appending to buf: generations relative
// to the classic coordinator's, epochs to the kip848 group epoch; in a mixed world both
// relative to the group's current counter, its generation while classic and its group epoch
// while consumer, which a conversion copies into the other (mixed.go).
func (w World) encoder(buf []byte) encoder {
	if w.cfg.mixed {
		base := impl.Epoch(w.Coord.Generation())
		if w.ConsumerGroup {
			base = w.Group.GroupEpoch()
		}
		return encoder{buf: buf, epochBase: base, genAsEpoch: true, mixed: true}
	}
	return encoder{buf: buf, base: w.Coord.Generation(), epochBase: w.Group.GroupEpoch(), genAsEpoch: w.cfg.ConsumerProtocol}
}

// appendEpoch encodes a KIP-848 epoch: the sentinels 0, -1 and -2 absolutely (codes below
// any relative value), every other epoch relative to the group epoch.
func (e *encoder) appendEpoch(v impl.Epoch) {
	switch v {
	case impl.EpochJoin, impl.EpochLeave, impl.EpochTemporaryLeave:
		e.buf = binary.AppendVarint(e.buf, math.MinInt32+int64(-v))
		return
	}
	e.buf = binary.AppendVarint(e.buf, int64(e.epochBase-v))
}

type encodeFunc func(e *encoder, v reflect.Value)

func planFor(t reflect.Type) encodeFunc {
	if f, ok := plans.Load(t); ok {
		return f.(encodeFunc)
	}
	f := buildPlan(t)
	plans.Store(t, f)
	return f
}

func buildPlan(t reflect.Type) encodeFunc {
	if t == epochType {
		return func(e *encoder, v reflect.Value) { e.appendEpoch(impl.Epoch(v.Int())) }
	}
	if t == slotPtrType { // a world's slots are never nil: encoded as the slots themselves
		return func(e *encoder, v reflect.Value) { planFor(t.Elem())(e, v.Elem()) }
	}
	if t == generationType {
		return func(e *encoder, v reflect.Value) {
			if e.genAsEpoch {
				e.appendEpoch(impl.Epoch(v.Int()))
				return
			}
			g := impl.Generation(v.Int())
			if g == impl.NoGeneration {
				e.buf = binary.AppendVarint(e.buf, math.MinInt32)
				return
			}
			e.buf = binary.AppendVarint(e.buf, int64(e.base-g))
		}
	}
	switch t.Kind() {
	case reflect.Bool:
		return func(e *encoder, v reflect.Value) {
			b := byte(0)
			if v.Bool() {
				b = 1
			}
			e.buf = append(e.buf, b)
		}
	case reflect.Int, reflect.Int8, reflect.Int16, reflect.Int32, reflect.Int64:
		return func(e *encoder, v reflect.Value) { e.buf = binary.AppendVarint(e.buf, v.Int()) }
	case reflect.Uint, reflect.Uint8, reflect.Uint16, reflect.Uint32, reflect.Uint64, reflect.Uintptr:
		return func(e *encoder, v reflect.Value) { e.buf = binary.AppendUvarint(e.buf, v.Uint()) }
	case reflect.String:
		return func(e *encoder, v reflect.Value) {
			s := v.String()
			e.buf = binary.AppendUvarint(e.buf, uint64(len(s)))
			e.buf = append(e.buf, s...)
		}
	case reflect.Slice, reflect.Array:
		return slicePlan(t)
	case reflect.Struct:
		return structPlan(t)
	case reflect.Pointer:
		elem := t.Elem()
		return func(e *encoder, v reflect.Value) {
			if v.IsNil() {
				e.buf = append(e.buf, 0)
				return
			}
			e.buf = append(e.buf, 1)
			planFor(elem)(e, v.Elem())
		}
	case reflect.Interface:
		return func(e *encoder, v reflect.Value) {
			if v.IsNil() {
				e.buf = append(e.buf, 0)
				return
			}
			c := v.Elem()
			code, ok := typeCodes[c.Type()]
			if !ok {
				panic(fmt.Sprintf("spec: no type code for %v in an interface field", c.Type()))
			}
			e.buf = append(e.buf, code)
			planFor(c.Type())(e, c)
		}
	}
	panic(fmt.Sprintf("spec: cannot encode values of type %v (maps and funcs have no canonical form)", t))
}

func slicePlan(t reflect.Type) encodeFunc {
	elem := planFor(t.Elem())
	isSlice := t.Kind() == reflect.Slice
	return func(e *encoder, v reflect.Value) {
		n := v.Len()
		if isSlice {
			e.buf = binary.AppendUvarint(e.buf, uint64(n))
		}
		for i := 0; i < n; i++ {
			elem(e, v.Index(i))
		}
	}
}

func structPlan(t reflect.Type) encodeFunc {
	var fields []int
	var funcs []encodeFunc
	var only []string // per field: "classic", "kip848", "mixed" or "" (every world)
	for i := 0; i < t.NumField(); i++ {
		f := t.Field(i)
		if f.Name == "_" || f.Tag.Get("spec") == "-" {
			continue
		}
		tag, opt, _ := strings.Cut(f.Tag.Get("spec"), ",")
		fields = append(fields, i)
		if opt == "deref" { // a pointer never nil, encoded as the value it points to
			elem := planFor(f.Type.Elem())
			funcs = append(funcs, func(e *encoder, v reflect.Value) { elem(e, v.Elem()) })
		} else {
			funcs = append(funcs, planFor(f.Type)) // no recursive types in worlds
		}
		only = append(only, tag)
	}
	return func(e *encoder, v reflect.Value) {
		for k, i := range fields {
			if only[k] != "" && !e.mixed && (only[k] == "mixed" || (only[k] == "kip848") != e.genAsEpoch) {
				continue // the other protocol's role: constant (zero or idle) in this world
			}
			funcs[k](e, v.Field(i))
		}
	}
}

// appendValue encodes any value canonically, generations relative to base.
func appendValue(buf []byte, base impl.Generation, v any) []byte {
	e := encoder{buf: buf, base: base}
	rv := reflect.ValueOf(v)
	planFor(rv.Type())(&e, rv)
	return e.buf
}

// encodeReflect is the reference encoding of a world by reflection: World.Encode
// (encode_fast.go) writes the same bytes by hand, and the tests check they agree.
func (w World) encodeReflect(buf []byte) []byte {
	e := w.encoder(buf)
	rv := reflect.ValueOf(w)
	planFor(rv.Type())(&e, rv)
	return e.buf
}
