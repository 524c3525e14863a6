module github.com/groupcheck/groupcheck

go 1.26

require (
	github.com/google/go-cmp v0.7.0
	pgregory.net/rapid v1.3.0
)

// porcupine checks histories for linearizability in the oracle (traces/, issue 7); it is
// required here now so that the project's three named dependencies are pinned from the start.
require github.com/anishathalye/porcupine v1.3.1
