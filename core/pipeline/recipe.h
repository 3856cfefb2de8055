// A recipe: the exact pass list with options and node filters, the PassLab
// version and settings that produced a result, as JSON that can be saved and
// replayed.
#pragma once

#include <string>
#include <vector>

#include "core/pipeline/pass_manager.h"
#include "core/support/error.h"

namespace passlab::pipeline {

struct Recipe {
  std::string passlabVersion = PASSLAB_VERSION;
  bool standardOnly = true;
  int checkInputSets = 0;
  AccuracyBudget budget;  // for lossy passes ("accuracy_budget")
  std::vector<PassSpec> passes;
};

std::string recipeToJson(const Recipe& recipe);
Expected<Recipe> recipeFromJson(const std::string& json);
// Validates pass ids and options against the registry.
Status validateRecipe(const Recipe& recipe);

}  // namespace passlab::pipeline
