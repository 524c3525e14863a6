package main

import (
	"flag"
	"fmt"
	"slices"
	"strings"

	"github.com/groupcheck/groupcheck/invariants"
	"github.com/groupcheck/groupcheck/spec"
)

// exitUndecided is explore's exit status when the run decided no property: every one is
// unknown, so the run says nothing about the world (docs/cli.md).
const exitUndecided = 3

// propertyNames is --property: repeated, or a comma list; empty means every property that
// applies to the world.
type propertyNames []string

func (n *propertyNames) String() string { return strings.Join(*n, ",") }

func (n *propertyNames) Set(v string) error {
	for _, name := range strings.Split(v, ",") {
		if name = strings.TrimSpace(name); name != "" {
			*n = append(*n, name)
		}
	}
	return nil
}

var _ flag.Value = (*propertyNames)(nil)

// has says whether a run narrowed to n checks the property name.
func (n propertyNames) has(name string) bool { return len(n) == 0 || slices.Contains(n, name) }

// knownProperty refuses a --property name that is no property, with the nearest one.
func knownProperty(name string) error {
	var known []string
	for _, e := range invariants.Catalogue() {
		known = append(known, e.Name)
	}
	if slices.Contains(known, name) {
		return nil
	}
	msg := fmt.Sprintf("--property %s: no such property", name)
	if near := nearest(name, known); near != "" {
		msg += fmt.Sprintf(" (did you mean %s?)", near)
	}
	return fmt.Errorf("%s; groupcheck properties lists them", msg)
}

// liveNames are the properties --liveness decides on the state graph, not in the registry.
var liveNames = []string{invariants.ConvergesName, invariants.OrphansExpireName}

// chosen is the registry's properties a run of c checks: those that apply, narrowed to n. A
// name that is no property is an error naming the nearest one; so is a property that does not
// apply to c, and a liveness property without --liveness (measure).
func (n propertyNames) chosen(c spec.Config, measure bool) ([]invariants.Property, error) {
	applies := invariants.For(c)
	if len(n) == 0 {
		return applies, nil
	}
	for _, name := range n {
		switch {
		case slices.Contains(liveNames, name):
			if !measure {
				return nil, fmt.Errorf("--property %s: it is decided by the liveness check: add --liveness", name)
			}
		case !slices.ContainsFunc(applies, func(p invariants.Property) bool { return p.Name == name }):
			if err := knownProperty(name); err != nil {
				return nil, err
			}
			return nil, fmt.Errorf("--property %s: does not apply to world %s (its config gives it nothing to judge)", name, c.Name)
		}
	}
	var out []invariants.Property // in report order, whatever the order of the flags
	for _, p := range applies {
		if slices.Contains(n, p.Name) {
			out = append(out, p)
		}
	}
	return out, nil
}
