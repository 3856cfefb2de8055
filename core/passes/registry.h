// The pass catalogue: one list (pass_list.h), from which the CLI help, the
// GUI's pipeline panel and the docs are generated.
#pragma once

#include <string>
#include <string_view>
#include <vector>

#include "core/passes/pass.h"

namespace passlab::passes {

const std::vector<const Pass*>& allPasses();
const Pass* findPass(std::string_view id);
// Pass ids of a named level, in pipeline order: "basic" (structural, standard
// ONNX, exact), "extended" (adds fusions), "all".
Expected<std::vector<std::string>> passesForLevel(std::string_view level);
std::vector<std::string> levelNames();

}  // namespace passlab::passes
