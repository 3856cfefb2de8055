// What a recipe records of where quantize_static calibrated, written the same
// way by the command line (`optimize --save-recipe`, `precision
// --save-recipe`) and the GUI (Export recipe): the folder as an absolute,
// normalized path (a replay from another working folder finds it), else the
// count of synthesized input sets; nothing for a plan without a pass that
// calibrates.
#pragma once

#include <filesystem>
#include <string>
#include <system_error>

#include "core/pipeline/recipe.h"

namespace passlab::pipeline {

// Whether pass `id` calibrates on input sets.
inline bool passCalibrates(const std::string& id) {
  return id == "quantize_static";
}

// Whether the plan runs a pass that calibrates on input sets.
inline bool recipeCalibrates(const Recipe& r) {
  for (const PassSpec& spec : r.passes)
    if (passCalibrates(spec.id)) return true;
  return false;
}

// `folder` (empty: none) as recorded, else `synthesizedSets`.
inline RecipeCalibration recordedCalibration(const std::string& folder, int synthesizedSets) {
  RecipeCalibration r;
  if (!folder.empty()) {
    std::error_code ec;
    std::filesystem::path abs = std::filesystem::absolute(folder, ec);
    r.data = ec ? folder : abs.lexically_normal().string();
  } else {
    r.sets = synthesizedSets;
  }
  return r;
}

}  // namespace passlab::pipeline
