package spec

import (
	"encoding/binary"
	"fmt"
	"math"
	"reflect"
	"sync"

	"github.com/groupcheck/groupcheck/impl"
)

// Canonical encoding of worlds, for fingerprints.
//
// The encoder walks values by reflection with a plan cached per type, so that every field of
// every role is encoded without each role writing an encoder, and a field added to a role can
// never be forgotten. Two rules make the encoding canonical:
//
//   - Generations are encoded relative to the coordinator's current generation (DESIGN.md
//     "Keeping the world finite"). Every role only compares generations (equality, and order in
//     the cooperative-sticky arbitration), never reads their absolute value, and NoGeneration
//     (-1) keeps its own code; so worlds that differ only by a shift of every generation behave
//     alike, and a rebalance storm becomes a cycle instead of an endless chain of new states.
//   - Interface values (requests and responses in flight) are prefixed by a type code from a
//     fixed registry, so the encoding does not depend on type names or map order.
//
// Member ids need no rule: the world reuses the smallest id not referenced anywhere (freshID),
// which makes them canonical by construction.

var (
	generationType = reflect.TypeFor[impl.Generation]()
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
	)
}

type encoder struct {
	buf  []byte
	base impl.Generation // the coordinator's generation; others are encoded relative to it
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
	if t == generationType {
		return func(e *encoder, v reflect.Value) {
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
	for i := 0; i < t.NumField(); i++ {
		f := t.Field(i)
		if f.Name == "_" || f.Tag.Get("spec") == "-" {
			continue
		}
		fields = append(fields, i)
		funcs = append(funcs, planFor(f.Type)) // no recursive types in worlds
	}
	return func(e *encoder, v reflect.Value) {
		for k, i := range fields {
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
