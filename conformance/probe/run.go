package main

import (
	"errors"
	"flag"
	"fmt"
	"io"
	"math/rand/v2"
	"os"
	"path/filepath"
	"strings"
	"time"

	"github.com/groupcheck/groupcheck/spec"
)

// options are the command's flags.
type options struct {
	bootstrap string
	worlds    []string
	maxStates int
	walks     int
	seed      uint64
	walkLen   int
	replan    int
	rule      string // the reference's commit rule (ruleExact, ruleKIP1251)
	out       string
	replay    string
	trace     bool
}

func parseFlags(args []string) (options, error) {
	fs := flag.NewFlagSet("probe", flag.ContinueOnError)
	var o options
	var names string
	fs.StringVar(&o.bootstrap, "bootstrap", "", "host:port of the broker to probe (default: an in-process kfake)")
	fs.StringVar(&names, "worlds", "", "comma-separated worlds (default all; \"list\" lists them)")
	fs.IntVar(&o.maxStates, "max-states", 100000, "states explored per world at most")
	fs.IntVar(&o.walks, "walks", 0, "random walks of each world, besides the covering schedules")
	fs.Uint64Var(&o.seed, "seed", 1, "seed of the random walks")
	fs.IntVar(&o.walkLen, "walk-length", 40, "steps of a random walk at most")
	fs.IntVar(&o.replan, "replan", defaultReplan, "rounds of re-planning around the differences found (0: none)")
	var version string
	fs.StringVar(&version, "kafka-version", os.Getenv("KAFKA_VERSION"), "the broker's Kafka version (default $KAFKA_VERSION), needed with -bootstrap: from 4.3 on the reference coordinator takes KIP-1251's commit rule, before it the exact one; kfake's is KIP-1251's")
	fs.StringVar(&o.out, "out", "", "directory to write each difference's schedule to (replayable with -replay)")
	fs.StringVar(&o.replay, "replay", "", "run one schedule file instead of the worlds' schedules")
	fs.BoolVar(&o.trace, "v", false, "trace every step: the reference's events and the broker's answers")
	var err error
	if err = fs.Parse(args); err != nil {
		return o, err
	}
	if fs.NArg() > 0 {
		return o, fmt.Errorf("unexpected argument %q", fs.Arg(0))
	}
	if o.maxStates < 1 || o.walks < 0 || o.walkLen < 1 || o.replan < 0 {
		return o, fmt.Errorf("-max-states and -walk-length must be positive, -walks and -replan not negative")
	}
	if o.bootstrap != "" && version == "" && o.replay == "" {
		return o, fmt.Errorf("-bootstrap %s without -kafka-version (or $KAFKA_VERSION): the broker's version decides the reference's commit rule", o.bootstrap)
	}
	if o.rule, err = commitRuleFor(version); err != nil {
		return o, err
	}
	if names != "" {
		o.worlds = strings.Split(names, ",")
	} else {
		for _, w := range worlds {
			o.worlds = append(o.worlds, w.name)
		}
	}
	return o, nil
}

func run(args []string, out io.Writer) error {
	o, err := parseFlags(args)
	if err != nil {
		return err
	}
	if len(o.worlds) == 1 && o.worlds[0] == "list" {
		for _, w := range worlds {
			fmt.Fprintf(out, "%-16s %s\n", w.name, w.summary)
		}
		return nil
	}
	p, stop, err := newProber(o.bootstrap)
	if err != nil {
		return err
	}
	defer stop()
	if o.trace {
		p.trace = out
	}
	if o.replay != "" {
		f, err := os.Open(o.replay)
		if err != nil {
			return err
		}
		s, cfg, err := readSchedule(o.replay, f)
		f.Close()
		if err != nil {
			return err
		}
		res, err := p.runSchedule(s, cfg)
		if err != nil {
			return err
		}
		fmt.Fprintf(out, "steps %d, requests %d, responses %d, equal %d\n", res.Steps, res.Requests, res.Responses, res.Equal)
		if res.Diff != nil {
			fmt.Fprintf(out, "difference: %s\n  %s\n", res.Diff.Lines[0], classify(*res.Diff, p.name))
			return errors.New("the broker differs from the reference")
		}
		return nil
	}
	rep, err := p.probe(o)
	if err != nil {
		return err
	}
	rep.write(out)
	if o.out != "" {
		if err := rep.writeDiffs(o.out); err != nil {
			return err
		}
	}
	return nil
}

// newProber connects to the broker at bootstrap, or starts kfake when it is empty, and
// creates every world's topics.
func newProber(bootstrap string) (*prober, func(), error) {
	var b *broker
	var err error
	if bootstrap == "" {
		b, err = startKfake()
	} else {
		b, err = connectBroker(bootstrap)
	}
	if err != nil {
		return nil, nil, err
	}
	topics := map[string]int32{}
	for _, w := range worlds {
		_, cfg, err := lookupWorld(w.name)
		if err != nil {
			b.stop()
			return nil, nil, err
		}
		for _, t := range cfg.Topics {
			topics[topicPrefix(w.name)+t.Name] = t.Partitions
		}
	}
	for t, c := range seamTopics {
		topics[seamPrefix+t] = c
	}
	ids, err := b.createTopics(topics)
	if err != nil {
		b.stop()
		return nil, nil, err
	}
	name := "kfake"
	if bootstrap != "" {
		name = bootstrap
	}
	return &prober{b: b, name: name, topicIDs: ids, runID: fmt.Sprint(time.Now().UnixNano() % 1e9), answer: 3 * time.Second}, b.stop, nil
}

// worldReport is one world's figures.
type worldReport struct {
	World                             string
	States                            int
	Complete                          bool
	Transitions                       map[transition]bool // reached by the search → exercised in agreement
	Schedules, Walks, Replans         int
	Conflicts                         int // schedules not run: two timers the broker orders (timerConflict)
	Steps, Requests, Responses, Equal int
	Diffs                             []difference
	Missed                            map[transition]string // why a transition is not exercised
	onUnrun                           map[transition]bool   // transitions on schedules not run
}

// add counts one schedule's run.
func (r *worldReport) add(res outcome) {
	r.Steps += res.Steps
	r.Requests += res.Requests
	r.Responses += res.Responses
	r.Equal += res.Equal
	for t := range res.Exercised {
		if _, ok := r.Transitions[t]; ok {
			r.Transitions[t] = true
		}
	}
}

func (r worldReport) exercised() int {
	n := 0
	for _, ok := range r.Transitions {
		if ok {
			n++
		}
	}
	return n
}

type report struct {
	Broker string
	Rule   string // the reference's commit rule
	Worlds []worldReport
}

// probe runs every world's covering schedules (and walks) against the broker.
func (p *prober) probe(o options) (report, error) {
	rep := report{Broker: p.name, Rule: o.rule}
	rng := rand.New(rand.NewPCG(o.seed, 0x5eed))
	for _, name := range o.worlds {
		wr, err := probeWorld(name, o, rng, p.name, p.runSchedule)
		if err != nil {
			return rep, err
		}
		rep.Worlds = append(rep.Worlds, wr)
	}
	return rep, nil
}

// probeWorld runs one world's covering schedules, walks and re-planned schedules with
// run, against the broker named broker.
func probeWorld(name string, o options, rng *rand.Rand, broker string, run runner) (worldReport, error) {
	_, cfg, err := lookupWorldRule(name, o.rule)
	if err != nil {
		return worldReport{}, err
	}
	e := explore(name, cfg, o.maxStates)
	wr := worldReport{World: name, States: e.States, Complete: e.Complete, Transitions: map[transition]bool{}}
	for t := range e.Transitions {
		wr.Transitions[t] = false
	}
	var scheds []schedule
	for _, s := range e.covering() {
		if timerConflict(s, cfg) {
			wr.unrunSchedule(s, cfg)
			continue
		}
		scheds = append(scheds, s)
	}
	wr.Schedules = len(scheds)
	for i := range o.walks {
		scheds = append(scheds, walk(name, cfg, rng, o.walkLen, i))
		wr.Walks++
	}
	for _, s := range scheds {
		res, err := run(s, cfg)
		if err != nil {
			return wr, fmt.Errorf("world %s, schedule for %s: %w", name, s.Target, err)
		}
		wr.add(res)
		if res.Diff != nil {
			wr.Diffs = append(wr.Diffs, *res.Diff)
		}
	}
	return wr, replan(&wr, cfg, o.maxStates, o.replan, broker, run)
}

// walk is a random walk of the world's realisable actions. Every other walk holds one
// member back: its requests are delivered only when nothing else can happen, so that they
// arrive late, after the group has moved on.
func walk(name string, cfg spec.Config, rng *rand.Rand, length, n int) schedule {
	w := spec.Init(cfg)
	late := -1
	target := fmt.Sprintf("walk %d", n+1)
	if n%2 == 1 {
		late = rng.IntN(len(cfg.Members))
		target += ", " + cfg.Members[late].Name + "'s requests late"
	}
	s := schedule{World: name, Target: target}
	var buf []spec.Action
	for len(s.Actions) < length {
		buf = spec.Actions(w, buf[:0])
		var now, held []spec.Action
		for _, a := range buf {
			if !realisable(w, a) {
				continue
			}
			if _, ok := spec.Next(w, a); !ok {
				continue
			}
			if a.Kind == spec.DeliverRequest && int(a.Slot) == late {
				held = append(held, a)
			} else {
				now = append(now, a)
			}
		}
		if len(now) == 0 {
			now = held
		}
		if len(now) == 0 {
			break
		}
		a := now[rng.IntN(len(now))]
		s.Actions = append(s.Actions, a)
		w, _ = spec.Next(w, a)
	}
	return s
}

func (r report) write(out io.Writer) {
	fmt.Fprintf(out, "broker %s\n", r.Broker)
	if r.Rule == ruleKIP1251 {
		fmt.Fprintf(out, "reference commit rule: %s (Kafka 4.3 on)\n", r.Rule)
	}
	fmt.Fprintf(out, "%-16s %7s %5s %5s %5s %6s %6s %6s %6s %6s %5s %5s\n", "world", "states", "trans", "sched", "walks", "replan", "reqs", "resps", "equal", "covered", "diffs", "unrun")
	var tt, te, ts, tw, trp, tq, tr, teq, td, tc int
	for _, w := range r.Worlds {
		states := fmt.Sprint(w.States)
		if !w.Complete {
			states += "+"
		}
		fmt.Fprintf(out, "%-16s %7s %5d %5d %5d %6d %6d %6d %6d %6d %5d %5d\n", w.World, states, len(w.Transitions), w.Schedules, w.Walks, w.Replans, w.Requests, w.Responses, w.Equal, w.exercised(), len(w.Diffs), w.Conflicts)
		tt, te, ts, tw, trp, tq, tr, teq, td, tc = tt+len(w.Transitions), te+w.exercised(), ts+w.Schedules, tw+w.Walks, trp+w.Replans, tq+w.Requests, tr+w.Responses, teq+w.Equal, td+len(w.Diffs), tc+w.Conflicts
	}
	fmt.Fprintf(out, "%-16s %7s %5d %5d %5d %6d %6d %6d %6d %6d %5d %5d\n", "total", "", tt, ts, tw, trp, tq, tr, teq, te, td, tc)
	if tt > 0 {
		fmt.Fprintf(out, "coverage: %d of %d reference transitions exercised in agreement with the broker (%.1f %%)\n", te, tt, 100*float64(te)/float64(tt))
	}
	for _, d := range r.distinct() {
		fmt.Fprintf(out, "difference (%d schedules): %s\n  %s\n", d.count, d.diff, classify(d.diff, r.Broker))
	}
	for _, w := range r.Worlds {
		for _, m := range w.missedLines() {
			fmt.Fprintf(out, "not exercised: %s: %s\n", w.World, m)
		}
	}
}

type distinctDiff struct {
	diff  difference
	count int
}

// distinct groups the differences by what differs (the world and the differing lines),
// keeping the shortest schedule of each, one of the first schedules run (covering and
// walks) where they show it: a re-planned schedule is kept only for a difference they do
// not show.
func (r report) distinct() []distinctDiff {
	var out []distinctDiff
	index := map[string]int{}
	for _, w := range r.Worlds {
		for _, d := range w.Diffs {
			key := d.Schedule.World + "|" + strings.Join(d.Lines[1:], "|")
			if len(d.Lines) == 1 {
				key = d.Schedule.World + "|" + d.Lines[0]
			}
			if i, ok := index[key]; ok {
				out[i].count++
				if o := out[i].diff; !d.Replanned && o.Replanned || d.Replanned == o.Replanned && len(d.Schedule.Actions) < len(o.Schedule.Actions) {
					out[i].diff = d
				}
				continue
			}
			index[key] = len(out)
			out = append(out, distinctDiff{diff: d, count: 1})
		}
	}
	return out
}

// writeDiffs writes each distinct difference's shortest schedule to dir.
func (r report) writeDiffs(dir string) error {
	if err := os.MkdirAll(dir, 0o755); err != nil {
		return err
	}
	for i, d := range r.distinct() {
		_, cfg, err := lookupWorldRule(d.diff.Schedule.World, r.Rule)
		if err != nil {
			return err
		}
		path := filepath.Join(dir, fmt.Sprintf("%s-%d.schedule", d.diff.Schedule.World, i+1))
		f, err := os.Create(path)
		if err != nil {
			return err
		}
		note := append([]string{"broker " + r.Broker, classify(d.diff, r.Broker)}, d.diff.Lines...)
		err = d.diff.Schedule.write(f, &cfg, note)
		if cerr := f.Close(); err == nil {
			err = cerr
		}
		if err != nil {
			return err
		}
	}
	return nil
}
