#include "app/cli/thread_use_text.h"

#include <cstdio>

namespace passlab::cli {

namespace {

std::string msText(double micros) {
  if (micros < 0) return "-";
  char buf[32];
  std::snprintf(buf, sizeof buf, "%.3f ms", micros / 1000.0);
  return buf;
}

// The trials' fastest run each way.
std::string trialTimes(const exec::StepThreadUse& use) {
  return " (1 thread " + msText(use.trialOneMicros) + ", split " + msText(use.trialSplitMicros) +
         ")";
}

}  // namespace

std::string threadsText(const exec::StepThreadUse& use) {
  return use.threads > 0 ? std::to_string(use.threads) : "-";
}

std::string threadChoiceText(const exec::StepThreadUse& use) {
  switch (use.choice) {
    case exec::ThreadChoice::kOneThreadRun:
      return "1-thread run";
    case exec::ThreadChoice::kCostModel:
      return "cost model";
    case exec::ThreadChoice::kTrial:
      return "trial" + trialTimes(use);
    case exec::ThreadChoice::kTrying:
      return "trying" + trialTimes(use);
    case exec::ThreadChoice::kFixed:
      return "env (PASSLAB_SMALL_STEP_MICROS)";
    case exec::ThreadChoice::kUnknown:
      break;
  }
  return "-";
}

std::string stepThreadsSummaryText(const exec::StepThreadCounts& counts) {
  return "steps split: " + std::to_string(counts.split) + " of " + std::to_string(counts.steps) +
         " (trials decided: " + std::to_string(counts.trialsDecided) + ")";
}

}  // namespace passlab::cli
