package leader

import (
	"strconv"
	"strings"

	"github.com/google/go-cmp/cmp"
	"github.com/groupcheck/groupcheck/impl"
)

// cmpOpts compares partition sets by content.
var cmpOpts = cmp.Options{cmp.Comparer(func(a, b impl.PartitionSet) bool { return a.Equal(b) })}

// ps parses "t-0 t-1 u-2" into a partition set.
func ps(s string) impl.PartitionSet {
	var tps []impl.TopicPartition
	for _, f := range strings.Fields(s) {
		i := strings.LastIndexByte(f, '-')
		n, err := strconv.Atoi(f[i+1:])
		if err != nil {
			panic(f)
		}
		tps = append(tps, impl.TP(f[:i], int32(n)))
	}
	return impl.NewPartitionSet(tps...)
}

// coop is a v2 (cooperative) member subscribed to topics, owning owned at generation gen.
func coop(id string, topics string, owned string, gen impl.Generation) impl.JoinGroupMember {
	return impl.JoinGroupMember{MemberID: impl.MemberID(id),
		Metadata: impl.NewSubscription(2, strings.Fields(topics), ps(owned), gen)}
}

// eager is a v1 member with no owned partitions and sticky user data prev at gen.
func eager(id string, topics string, prev string, gen impl.Generation) impl.JoinGroupMember {
	s := impl.NewSubscription(1, strings.Fields(topics), impl.PartitionSet{}, impl.NoGeneration)
	s.UserData = impl.UserData{Previous: ps(prev), Generation: gen}
	return impl.JoinGroupMember{MemberID: impl.MemberID(id), Metadata: s}
}

// plain is a v0 member subscribed to topics.
func plain(id string, topics string) impl.JoinGroupMember {
	return eager(id, topics, "", impl.NoGeneration)
}

// as builds an expected assignment entry.
func as(id string, parts string) impl.MemberAssignment {
	return impl.MemberAssignment{MemberID: impl.MemberID(id), Assignment: impl.Assignment{Partitions: ps(parts)}}
}

// asErr builds an expected assignment entry with an error code.
func asErr(id string, parts string, e impl.ErrorCode) impl.MemberAssignment {
	a := as(id, parts)
	a.Assignment.Error = e
	return a
}

func cluster(spec string) impl.Cluster {
	var ts []impl.TopicMetadata
	for _, f := range strings.Fields(spec) {
		name, n, _ := strings.Cut(f, ":")
		c, _ := strconv.Atoi(n)
		ts = append(ts, impl.TopicMetadata{Name: name, Partitions: int32(c)})
	}
	return impl.NewCluster(ts...)
}

func ms(m ...impl.JoinGroupMember) []impl.JoinGroupMember { return m }

func want(a ...impl.MemberAssignment) []impl.MemberAssignment { return a }
