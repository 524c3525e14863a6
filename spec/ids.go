package spec

import (
	"reflect"
	"strconv"
	"strings"

	"github.com/groupcheck/groupcheck/impl"
)

// freshID is the member id the coordinator hands to slot name's next unknown joiner:
// "name#n" for the smallest n ≥ 1 that nothing in the world refers to — not the coordinator,
// no consumer, no message in flight. An id nobody remembers is as good as a new one, so reuse
// keeps identities finite (docs/protocol.md §6.3) and canonical without a
// counter in the state.
func freshID(w World, name string) impl.MemberID {
	used := map[impl.MemberID]bool{}
	collectIDs(reflect.ValueOf(w), used)
	for n := 1; ; n++ {
		id := impl.MemberID(name + "#" + strconv.Itoa(n))
		if !used[id] {
			return id
		}
	}
}

var memberIDType = reflect.TypeFor[impl.MemberID]()

// collectIDs records every MemberID reachable from v.
func collectIDs(v reflect.Value, used map[impl.MemberID]bool) {
	if v.Type() == memberIDType {
		used[impl.MemberID(v.String())] = true
		return
	}
	switch v.Kind() {
	case reflect.Struct:
		for i := 0; i < v.NumField(); i++ {
			collectIDs(v.Field(i), used)
		}
	case reflect.Slice, reflect.Array:
		for i := 0; i < v.Len(); i++ {
			collectIDs(v.Index(i), used)
		}
	case reflect.Pointer, reflect.Interface:
		if !v.IsNil() {
			collectIDs(v.Elem(), used)
		}
	}
}

// SlotOfID is the slot a coordinator-issued member id belongs to (its name before '#').
func (w World) SlotOfID(id impl.MemberID) (int, bool) {
	name, _, ok := strings.Cut(string(id), "#")
	if !ok {
		return 0, false
	}
	for i, m := range w.cfg.Members {
		if m.Name == name {
			return i, true
		}
	}
	return 0, false
}

// clientMemberID is the id a KIP-1082 client generates for itself: unique per slot and
// incarnation, as a UUID is, and finite as the incarnations are.
func clientMemberID(name string, incarnation uint8) impl.MemberID {
	return impl.MemberID(name + "#" + strconv.Itoa(int(incarnation)))
}
