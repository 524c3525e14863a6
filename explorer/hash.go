package explorer

import (
	"encoding/binary"
	"math/bits"
)

// The fingerprint is a 64-bit multiply-fold hash written for this
// package, in the style of wyhash: each 16-byte block is folded by one
// 64×64→128-bit multiplication (high ^ low), the running value is
// scrambled by an odd multiplication (a bijection, so no block can erase
// the history), and a splitmix64-style finaliser avalanches the result.
// The constants are 2^64/φ and the two splitmix64 multipliers.
const (
	hashK0 = 0x9e3779b97f4a7c15
	hashK1 = 0xbf58476d1ce4e5b9
	hashK2 = 0x94d049bb133111eb
)

func fold(a, b uint64) uint64 {
	hi, lo := bits.Mul64(a, b)
	return hi ^ lo
}

// fingerprint hashes a canonical encoding. It never returns 0, which
// marks an empty slot in the tables.
func fingerprint(b []byte) uint64 {
	h := uint64(len(b))*hashK0 ^ hashK2
	for len(b) >= 16 {
		x := binary.LittleEndian.Uint64(b)
		y := binary.LittleEndian.Uint64(b[8:])
		h = (h ^ fold(x^hashK1, y^hashK2)) * hashK0
		b = b[16:]
	}
	if len(b) > 0 {
		var x, y uint64
		if len(b) >= 8 {
			x = binary.LittleEndian.Uint64(b)
			y = tail(b[8:])
		} else {
			x = tail(b)
		}
		h = (h ^ fold(x^hashK1, y^hashK2)) * hashK0
	}
	h ^= h >> 31
	h *= hashK1
	h ^= h >> 29
	h *= hashK2
	h ^= h >> 32
	if h == 0 {
		h = hashK0
	}
	return h
}

// tail reads up to 7 bytes little-endian.
func tail(b []byte) uint64 {
	var x uint64
	for i := len(b) - 1; i >= 0; i-- {
		x = x<<8 | uint64(b[i])
	}
	return x
}

// slotOf maps the bits of fp below the shard bits onto [0, n) by a
// multiply-shift (Lemire's fast range), so tables need not be powers of
// two.
func slotOf(fp uint64, shardBits uint, n int) int {
	hi, _ := bits.Mul64(fp<<shardBits, uint64(n))
	return int(hi)
}
