// Package htmlreport writes a run's report as one self-contained HTML page that opens with its
// answer: the header (exhaustive or the bound that stopped it, a summary line counting the
// verdicts by outcome, counts and time beside the world's config text), then each
// counterexample — those that fail the run first, an expected violation marked so in its
// heading with its reason — then the verdict table with each property's statement and source,
// and small charts (coverage, states per depth, rebalance rounds). A counterexample is a
// swimlane timeline drawn in inline SVG — a lane for the coordinator and one per member, the
// messages as arrows between lanes, the callbacks, timers and environment events marked, the
// group's state and generation (or epoch) along the coordinator's lane, a band per partition
// showing who believes it owns it at each step with two owners at once in red, a lasso's cycle
// shaded. Clicking a step shows what it did, what changed and the whole world after it, one
// above the other and wrapped at the page's width; the page holds those hidden.
//
// Nothing is fetched: styles and the one small script are inline (embedded with embed), the
// drawings are generated here, so the page opens from disk in any browser. It is also
// well-formed XML, which the tests check with encoding/xml; a browser test
// (GROUPCHECK_BROWSER=1, Debian's chromium) loads it headless and reads what the script found,
// and at 1400x900 that the first counterexample's heading is on the first screen and that no
// step's detail is wider than the page.
//
// # Usage
//
//	res, _ := traces.Replay(t)
//	htmlreport.WriteTrace(w, t, res) // groupcheck show FILE --format html
//
//	p := &htmlreport.Page{Title: ..., World: cfg.Format(), Props: ..., Charts: ...}
//	p.Timelines = append(p.Timelines, htmlreport.NewTimeline("tl1", t, res))
//	htmlreport.Write(w, p)           // explore/simulate --html FILE build their own Page
//
//	htmlreport.HistoryTimeline("h1", events, findings) // check-history --html FILE
//
// # Implementation notes
//
// The timeline is data (timeline.go) drawn by svg.go. Messages are paired with the steps that
// handle them by mirroring each connection's FIFO queues (the world's Out and In): whatever
// leaves the front of a queue left it at that step, delivered if the step delivers it, lost
// otherwise. Ownership in the bands is what each running (or hung) member's application
// believes it owns (spec.World.Owned), the same belief exclusive-ownership-strict judges.
package htmlreport
