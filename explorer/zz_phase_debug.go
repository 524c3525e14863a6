package explorer

import (
	"fmt"
	"os"
	"time"
)

var phaseT = map[string]time.Duration{}
var phaseOn = os.Getenv("PHASES") != ""

func phase(name string, t0 time.Time) time.Time {
	now := time.Now()
	phaseT[name] += now.Sub(t0)
	return now
}

func phaseDump() {
	if phaseOn {
		for k, v := range phaseT {
			fmt.Fprintf(os.Stderr, "%-12s %v\n", k, v)
		}
	}
}
