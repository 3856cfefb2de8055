// A recipe: the exact pass list with options and node filters, the PassLab
// version and settings that produced a result, as JSON that can be saved and
// replayed.
#pragma once

#include <string>
#include <vector>

#include "core/pipeline/pass_manager.h"
#include "core/support/error.h"

namespace passlab::pipeline {

// Where a calibrating pass (quantize_static) took its input sets from: a
// folder of sets (`data`, an absolute path) or `sets` synthesized ones.
// Empty (no data, sets 0) in a recipe that does not record it: the run that
// replays it takes its own (the defaults).
struct RecipeCalibration {
  std::string data;
  int sets = 0;
  bool recorded() const { return !data.empty() || sets > 0; }
  bool operator==(const RecipeCalibration&) const = default;
};

struct Recipe {
  std::string passlabVersion = PASSLAB_VERSION;
  bool standardOnly = true;
  int checkInputSets = 0;
  AccuracyBudget budget;          // for lossy passes ("accuracy_budget")
  RecipeCalibration calibration;  // "calibration", where recorded
  std::vector<PassSpec> passes;
};

std::string recipeToJson(const Recipe& recipe);
Expected<Recipe> recipeFromJson(const std::string& json);
// Validates pass ids and options against the registry.
Status validateRecipe(const Recipe& recipe);

}  // namespace passlab::pipeline
