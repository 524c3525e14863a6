package explorer

import (
	"encoding/binary"
	"sync"
	"testing"

	"pgregory.net/rapid"
)

// TestFingerprintDistinct: no collisions and no zero among a million
// structured inputs of several lengths (small integers, the typical
// content of a packed state).
func TestFingerprintDistinct(t *testing.T) {
	seen := make(map[uint64]string, 1<<20)
	var buf []byte
	for _, n := range []int{1, 4, 8, 13, 16, 24, 40} {
		for i := range uint64(150_000) {
			buf = buf[:0]
			for j := 0; j < n; j += 8 {
				buf = binary.LittleEndian.AppendUint64(buf, i<<uint(j%64)|uint64(j))
			}
			buf = buf[:n]
			fp := fingerprint(buf)
			if fp == 0 {
				t.Fatalf("fingerprint(%x) = 0", buf)
			}
			key := string(buf)
			if prev, ok := seen[fp]; ok && prev != key {
				t.Fatalf("collision: %x and %x", prev, key)
			}
			seen[fp] = key
		}
	}
}

// TestVisitedAgainstMap: the sorted, sharded table behaves as a set,
// through many resizes.
func TestVisitedAgainstMap(t *testing.T) {
	rapid.Check(t, func(t *rapid.T) {
		v := newVisited()
		defer v.free()
		want := map[uint64]bool{}
		// Few distinct high bits crowd one shard; low values crowd
		// the start of the shards.
		fp := rapid.OneOf(rapid.Uint64Range(1, 5000), rapid.Uint64(),
			rapid.Uint64Range(1<<60, 1<<60+100000))
		for _, x := range rapid.SliceOfN(fp, 0, 20000).Draw(t, "fps") {
			if x == 0 {
				continue
			}
			if added := v.insert(x); added == want[x] {
				t.Fatalf("insert(%d) = %v, present before: %v", x, added, want[x])
			}
			want[x] = true
		}
		for x := range want {
			if !v.contains(x) {
				t.Fatalf("lost %d", x)
			}
		}
		for _, x := range rapid.SliceOf(fp).Draw(t, "probes") {
			if x != 0 && v.contains(x) != want[x] {
				t.Fatalf("contains(%d) = %v", x, !want[x])
			}
		}
	})
}

// TestVisitedResizes crowds one shard through many resizes.
// Fingerprints are hash values, so they are spread; the table is not
// meant for dense runs of raw integers.
func TestVisitedResizes(t *testing.T) {
	v := newVisited()
	defer v.free()
	want := map[uint64]bool{}
	x := uint64(12345)
	for range 300_000 {
		x = x*6364136223846793005 + 1442695040888963407
		fp := x>>4 | 3<<60 // shard 3
		if v.insert(fp) == want[fp] {
			t.Fatalf("insert(%x) disagrees with the map", fp)
		}
		want[fp] = true
	}
	for fp := range want {
		if !v.contains(fp) || v.insert(fp) {
			t.Fatalf("lost %x", fp)
		}
	}
	for i := range uint64(1000) {
		if fp := 3<<60 | i<<20 | 1; !want[fp] && v.contains(fp) {
			t.Fatalf("found absent %x", fp)
		}
	}
}

// TestClaimsKeepMinimum: concurrent claims leave the smallest key for
// each fingerprint, including those that spilled to the overflow map,
// and report a win exactly when the key was the smallest so far.
func TestClaimsKeepMinimum(t *testing.T) {
	c := newClaims()
	defer c.free()
	v := newVisited()
	defer v.free()
	v.insert(7) // a state of an earlier level is never claimed
	const workers, n = 4, 30_000
	// The fresh table holds fewer than the 5000 fingerprints: the rest
	// overflows.
	share := c.share(workers)
	var wg sync.WaitGroup
	budgets := make([]*budget, workers)
	for w := range workers {
		budgets[w] = &budget{left: share}
		wg.Add(1)
		go func() {
			defer wg.Done()
			for i := range uint64(n) {
				fp := i%5000 + 1
				key := (i*7919 + uint64(w)*104729) % 1_000_003
				c.claim(fp, key, v, budgets[w])
			}
		}()
	}
	wg.Wait()
	c.settle(budgets)
	want := map[uint64]uint64{}
	for w := range workers {
		for i := range uint64(n) {
			fp := i%5000 + 1
			key := (i*7919 + uint64(w)*104729) % 1_000_003
			if k, ok := want[fp]; !ok || key < k {
				want[fp] = key
			}
		}
	}
	for fp, k := range want {
		if fp == 7 {
			k = noKey
		}
		if got := c.key(fp); got != k {
			t.Fatalf("key(%d) = %d, want %d", fp, got, k)
		}
	}
	if !c.spilled.Load() {
		t.Fatal("nothing overflowed; the test lost its point")
	}
	c.ensure(0, 1, &budget{}) // folds the overflow back into the table
	if c.spilled.Load() || c.key(1) != want[1] {
		t.Fatalf("after ensure: spilled=%v key(1)=%d", c.spilled.Load(), c.key(1))
	}
}
