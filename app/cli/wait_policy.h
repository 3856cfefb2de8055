// Idle OpenMP threads sleep during `passlab-cli precision`.
//
// The mixed-precision search alternates 2-thread executor runs with serial
// work (calibration statistics, model copies, passes, memory plans). With
// libgomp's default policy a team's idle thread spins up to 300,000 rounds
// (GOMP_SPINCOUNT) before it sleeps, and a thread waiting at a barrier for a
// preempted one spins too: on a busy 2-core machine picodet_s_320's search
// took 39.2 / 37.9 s wall (25-33 s CPU) spinning and 21.9 / 23.1 s (19 s
// CPU) with OMP_WAIT_POLICY=PASSIVE, the same files byte for byte
// (docs/precision.md, session 38). libgomp reads the variable once, as it
// loads, so the program sets it by starting itself again.
#pragma once

namespace passlab::cli {

// Whether the command line names the `precision` subcommand (its first
// argument that is not an option) and `ompWaitPolicy` (the environment's
// OMP_WAIT_POLICY, null when unset) leaves the choice to PassLab.
bool wantsPassiveWait(int argc, const char* const* argv, const char* ompWaitPolicy);

// When wantsPassiveWait, starts this program again (same arguments) with
// OMP_WAIT_POLICY=PASSIVE and does not return; otherwise, or where that
// fails (not Linux, exec refused), returns and the process goes on as it is.
// OMP_WAIT_POLICY=ACTIVE (or any value) keeps the user's choice.
void sleepIdleThreadsInSearches(int argc, char** argv);

}  // namespace passlab::cli
