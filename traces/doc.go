// Package traces is groupcheck's trace format: counterexamples from the explorer, findings of
// simulation and hand-written scenarios saved as human-readable, diffable, replayable text
// files; with a writer, a strict parser, replay, rewrite, shrinking, and renderings (text,
// Mermaid, ITF, JSON).
//
// # Usage
//
//	var b strings.Builder
//	traces.Write(&b, traces.Header{Property: "exclusive-ownership", Found: "bfs shortest"}, cfg, path)
//	t, err := traces.Parse("x.trace", strings.NewReader(b.String())) // *ParseError names x.trace:LINE
//	res, _ := traces.Replay(t)   // res.Divergence is the first step where the model differs
//	t2, _ := traces.Rewrite(t)   // every expected block regenerated (datadriven -rewrite)
//	small := traces.Shrink(t, "exclusive-ownership")
//	traces.Mermaid(os.Stdout, t, res)
//
// The command line: groupcheck replay FILE [--rewrite], groupcheck show FILE [--format
// text|mermaid|itf|json], groupcheck shrink FILE [--property NAME] [--out FILE]. Lassos:
// traces.WriteLasso(w, h, cfg, invariants.Liveness(cfg, n).Lasso).
//
// # Format (v1)
//
// The datadriven shape (command, ----, expected output), with a provenance header:
//
//	# groupcheck trace v1
//	# about: what the trace shows and what to look for (optional)
//	#   continuation lines are indented three spaces
//	# property: exclusive-ownership (always)      optional: the property the trace is about
//	# cycle: 14                                   a lasso only (lasso.go): N or dead-end
//	# found: bfs shortest, 26 steps, ...          bfs | simulation | hand-written | shrunk ...
//	# model: groupcheck-model 1                   ModelVersion of the expected blocks
//	# config:
//	#   protocol eager                            the whole config, as spec.Config.Format
//	#   ...                                       writes it and spec.ParseConfig reads it
//
//	# comments above a directive belong to it and survive -rewrite
//	poll a
//	----
//	a -> coord: JoinGroup v5 member=- sticky{topics=t owned=() gen=-1}
//	| a        running#1 PREPARING_REBALANCE gen=-1 ...
//	|   a -> coord: JoinGroup v5 member=- sticky{topics=t owned=() gen=-1}
//
//	check
//	----
//	violation exclusive-ownership: (t-1) owned by a (a#1 gen 2) and b (b#1 gen 2); ...
//
// A directive is an action in its text form (spec.Action.Text, read by spec.ParseAction) or
// `check`. An action's expected block is its events, one a line (spec.Event.String), then the
// lines of spec.World.String that changed, prefixed "| "; a line that disappeared without a
// replacement (a message consumed, a budget used up) is prefixed "| -". An action that is not
// enabled outputs "not enabled", so a trace can assert that something cannot happen. `check`
// outputs `violation NAME: reason` for every always-property of the config that fails there
// (invariants.Model semantics: a step property, once violated on the way, stays violated),
// or `ok`. A block ends at a blank line; a block that contains blank lines is written between
// `----`/`----` and `----`/`----` lines.
//
// # Implementation notes
//
// Replay re-executes from spec.Init(cfg) with invariants.Model.Next, so that step properties
// set their Observed bits as in the explorer; the reason a step property gave is kept from
// the step where it first failed. Output is compared line by line and a divergence carries a
// go-cmp diff of the lines. World.String holds no map order, clock or pointer, so the
// expected output is deterministic. Shrink is a fixed point of five passes (cut after the
// first violation, drop one step, drop two, drop a range, merge a run of two or three steps
// into one enabled action); every candidate is re-executed, so only enabled sequences
// survive.
//
// A counterexample to the liveness property converges is a lasso: `# property: converges
// (eventually)` with `# cycle: N` (the actions from step N on repeat forever) or `# cycle:
// dead-end`; Replay also checks that the cycle closes on the same world, passes no converged
// world, or that the dead end enables no protocol action (lasso.go). ITF writes the cycle as
// its `loop` index, Mermaid as a loop block.
//
// The ITF mapping is documented in itf.go.
package traces
