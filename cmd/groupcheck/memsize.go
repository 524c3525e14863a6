package main

import (
	"errors"
	"fmt"
	"math"
	"strconv"
	"strings"
)

// byteSize is a flag value for an amount of memory: a number and a unit, e.g. 2GB or 512MiB,
// or a plain number of bytes. The units are exact: KB, MB, GB and TB are powers of 1000, KiB,
// MiB, GiB and TiB powers of 1024; anything else ("2G", "2gb", "-1", "1e9") is refused.
type byteSize uint64

var sizeUnits = []struct {
	name string
	mult float64
}{
	// Longest first, so that "MiB" is not read as "B" after "Mi".
	{"KiB", 1 << 10}, {"MiB", 1 << 20}, {"GiB", 1 << 30}, {"TiB", 1 << 40},
	{"KB", 1e3}, {"MB", 1e6}, {"GB", 1e9}, {"TB", 1e12},
	{"B", 1},
}

var errSize = errors.New("want a size such as 2GB, 512MiB or 1073741824 (bytes); units B, KB, MB, GB, TB, KiB, MiB, GiB, TiB")

func (s *byteSize) String() string { return strconv.FormatUint(uint64(*s), 10) }

func (s *byteSize) Set(v string) error {
	n, err := parseSize(v)
	if err != nil {
		return err
	}
	*s = byteSize(n)
	return nil
}

// parseSize reads a size in bytes: a whole number of bytes, or digits with at most one decimal
// point and a unit; a fraction of a byte is dropped.
func parseSize(v string) (uint64, error) {
	num, mult := v, 1.0
	for _, u := range sizeUnits {
		if rest, ok := strings.CutSuffix(v, u.name); ok {
			num, mult = rest, u.mult
			break
		}
	}
	digits, dots := 0, 0
	for _, r := range num {
		switch {
		case r >= '0' && r <= '9':
			digits++
		case r == '.':
			dots++
		default:
			return 0, errSize
		}
	}
	if digits == 0 || dots > 1 {
		return 0, errSize
	}
	if mult == 1 { // bytes: a whole number
		if dots > 0 {
			return 0, errSize
		}
		n, err := strconv.ParseUint(num, 10, 64)
		if err != nil {
			return 0, fmt.Errorf("%q is too large", v)
		}
		return n, nil
	}
	f, err := strconv.ParseFloat(num, 64)
	if err != nil {
		return 0, errSize
	}
	bytes := math.Floor(f * mult)
	if bytes >= math.MaxUint64 {
		return 0, fmt.Errorf("%q is too large", v)
	}
	return uint64(bytes), nil
}
