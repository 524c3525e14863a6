//go:build !linux

package mutate

import "os/exec"

// LimitCPU is a no-op where RLIMIT_CPU is not available: the wall clock bounds a looping
// mutant instead.
func LimitCPU(seconds uint64) error { return nil }

func cpuSeconds() float64 { return 0 }

func outOfCPU(cmd *exec.Cmd, cpu uint64) bool { return false }
