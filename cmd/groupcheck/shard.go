package main

import (
	"fmt"
	"strconv"
	"strings"
)

// shard is one part of a simulation split across processes or machines: walk w belongs to
// shard w mod Count. Walks are independent by construction (simulate.Seeded gives walk w its
// own stream whatever ran before), so the shards of one seed together take exactly the walks
// of the unsharded run, and merge can rebuild its report.
type shard struct {
	Index, Count int
}

// whole is the unsharded run.
var whole = shard{Index: 0, Count: 1}

// jobIndexVar is the environment variable in which a Kubernetes Indexed Job gives each pod
// its completion index.
const jobIndexVar = "JOB_COMPLETION_INDEX"

// parseShard reads --shard: "I/N" names the shard; "N" alone takes I from
// JOB_COMPLETION_INDEX (getenv is os.Getenv but for tests). "" is the whole run.
func parseShard(s string, getenv func(string) string) (shard, error) {
	if s == "" {
		return whole, nil
	}
	idx, count, explicit := strings.Cut(s, "/")
	if !explicit {
		idx, count = getenv(jobIndexVar), s
		if idx == "" {
			return shard{}, fmt.Errorf("--shard %s: no index given (want I/%s) and %s is not set", s, s, jobIndexVar)
		}
	}
	n, err := strconv.Atoi(count)
	if err != nil || n < 1 {
		return shard{}, fmt.Errorf("--shard %s: the shard count %q is not a positive integer", s, count)
	}
	i, err := strconv.Atoi(idx)
	if err != nil || i < 0 || i >= n {
		from := "--shard"
		if !explicit {
			from = jobIndexVar
		}
		return shard{}, fmt.Errorf("%s: the shard index %q is not an integer in 0..%d", from, idx, n-1)
	}
	return shard{Index: i, Count: n}, nil
}

func (s shard) String() string { return fmt.Sprintf("%d/%d", s.Index, s.Count) }

// walks counts the walks of total that belong to s.
func (s shard) walks(total int) int {
	if s.Index >= total {
		return 0
	}
	return (total-1-s.Index)/s.Count + 1
}
