// The report of a pipeline run as JSON (for --report and the GUI's export).
#pragma once

#include <string>

#include "core/pipeline/pass_manager.h"

namespace passlab::pipeline {

// `modelPath` names the input; explanations are included when `withExplain`.
std::string reportToJson(const PassManager& pm, const std::string& modelPath, bool withExplain);

}  // namespace passlab::pipeline
