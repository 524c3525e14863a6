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

// outOfCPU reports whether a finished command was ended by its CPU limit of cpu seconds: by
// SIGXCPU at the soft limit, or — the Go runtime catches SIGXCPU and carries on (seen here: a
// spinning Go program under RLIMIT_CPU dies of SIGKILL, not SIGXCPU) — by the SIGKILL the
// kernel sends at the hard limit, seen as a kill after at least cpu seconds of CPU. Before
// this, such a stop was scored a crash (a kill): "exit without a verdict".
func outOfCPU(cmd *exec.Cmd, cpu uint64) bool {
	if cmd.ProcessState == nil {
		return false
	}
	ws, ok := cmd.ProcessState.Sys().(syscall.WaitStatus)
	if !ok || !ws.Signaled() {
		return false
	}
	used := cmd.ProcessState.UserTime() + cmd.ProcessState.SystemTime()
	return ws.Signal() == syscall.SIGXCPU || ws.Signal() == syscall.SIGKILL && used.Seconds() >= float64(cpu)
}
