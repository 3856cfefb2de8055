// The threads of each profiled step and how they were chosen, as the text of
// `run --profile` and `profile` prints them (issue #26; core/exec/step_thread_use.h).
#pragma once

#include <string>

#include "core/exec/step_thread_use.h"

namespace passlab::cli {

// "1", "2", or "-" when not known (a kept step, calls on different counts).
std::string threadsText(const exec::StepThreadUse& use);
// "cost model", "trial (1 thread 0.250 ms, split 0.125 ms)", "trying (...)",
// "env (PASSLAB_SMALL_STEP_MICROS)", "1-thread run", or "-".
std::string threadChoiceText(const exec::StepThreadUse& use);
// "steps split: K of M (trials decided: T)".
std::string stepThreadsSummaryText(const exec::StepThreadCounts& counts);

}  // namespace passlab::cli
