package conform_test

import (
	"fmt"

	"github.com/groupcheck/groupcheck/impl/consumer"
	"github.com/groupcheck/groupcheck/oracle/conform"
)

// forgetful is a client author's adapter around their member (here groupcheck's own, with a
// bug added): it never calls onPartitionsRevoked.
type forgetful struct{ m conform.Member }

func (f forgetful) Step(in consumer.Input) ([]consumer.Effect, error) {
	effs, err := f.m.Step(in)
	var out []consumer.Effect
	for _, e := range effs {
		if c, ok := e.(consumer.Callback); ok && c.Kind == consumer.Revoked {
			continue
		}
		out = append(out, e)
	}
	return out, err
}

// Driving an implementation through a trace of the corpus: the reference member conforms,
// the forgetful one is reported where the reference revokes: a is given t-0 only.
func Example() {
	path := "../../traces/scenarios/cooperative-join-kafka.trace"
	r, err := conform.RunFile(conform.Reference(), path, conform.Options{})
	fmt.Println("reference:", r.Mismatch == nil, err)

	adapter := conform.Classic(func(s conform.Start) (conform.Member, error) {
		m, err := conform.Reference().Start(s)
		return forgetful{m}, err
	})
	r, err = conform.RunFile(adapter, path, conform.Options{})
	if err != nil {
		fmt.Println(err)
		return
	}
	fmt.Println("forgetful: directive", r.Mismatch.Step, "member", r.Mismatch.Member, "given", r.Mismatch.Input)
	// Output:
	// reference: true <nil>
	// forgetful: directive 38 member a given coord -> a: SyncGroup NONE assignment=(t-0)
}
