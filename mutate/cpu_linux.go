package mutate

import (
	"os/exec"
	"syscall"
)

// LimitCPU bounds this process's CPU time: past it the kernel ends it with SIGXCPU. A mutant
// that loops inside impl/ never returns to the explorer's state caps; CPU time, unlike the
// wall clock, does not stretch on a shared machine.
func LimitCPU(seconds uint64) error {
	return syscall.Setrlimit(syscall.RLIMIT_CPU, &syscall.Rlimit{Cur: seconds, Max: seconds + 5})
}

// cpuSeconds is the CPU time this process has used.
func cpuSeconds() float64 {
	var ru syscall.Rusage
	if syscall.Getrusage(syscall.RUSAGE_SELF, &ru) != nil {
		return 0
	}
	return float64(ru.Utime.Sec+ru.Stime.Sec) + float64(ru.Utime.Usec+ru.Stime.Usec)/1e6
}

// outOfCPU reports whether a finished command was ended by its CPU limit.
func outOfCPU(cmd *exec.Cmd) bool {
	if cmd.ProcessState == nil {
		return false
	}
	ws, ok := cmd.ProcessState.Sys().(syscall.WaitStatus)
	return ok && ws.Signaled() && ws.Signal() == syscall.SIGXCPU
}
