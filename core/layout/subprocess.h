// Runs a helper program with bytes on its stdin, collecting its stdout, with a
// deadline and a cancel flag; the child is killed (SIGKILL) when either fires,
// so a hung or crashed helper can never take the caller with it. POSIX only.
#pragma once

#include <chrono>
#include <cstddef>
#include <stop_token>
#include <string>
#include <vector>

namespace passlab::layout {

struct ProcessOutcome {
  enum class End { kExited, kSignalled, kTimedOut, kCancelled, kFailedToStart };
  End end = End::kFailedToStart;
  int exitCode = -1;  // kExited
  int signal = 0;     // kSignalled
  std::string out, err;
  // One line for messages: "exited with code 1: <first stderr line>".
  std::string describe() const;
  bool ok() const { return end == End::kExited && exitCode == 0; }
};

struct ProcessLimits {
  std::chrono::milliseconds timeout{20000};
  size_t maxOutputBytes = size_t{512} << 20;   // more is treated as a failure
  size_t addressSpaceBytes = size_t{4} << 30;  // RLIMIT_AS of the child; 0 = none
};

ProcessOutcome runProcess(const std::string& program, const std::vector<std::string>& args,
                          const std::string& input, const ProcessLimits& limits,
                          std::stop_token stop = {});

}  // namespace passlab::layout
