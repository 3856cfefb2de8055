#include "app/cli/calibration_args.h"

#include <CLI/CLI.hpp>
#include <algorithm>
#include <cstdio>
#include <filesystem>
#include <string>

#include "core/pipeline/precision_checker.h"
#include "core/pipeline/recorded_calibration.h"

namespace passlab::cli {

void CalibrationArgs::addTo(CLI::App& cmd) {
  dataOption = cmd.add_option(
      "--calibration-data", data,
      "Input sets quantize_static calibrates on: DIR/<set>/input_0.pb, input_1.pb, ... "
      "(or .npy; one subfolder per set, inputs in the model's order)");
  setsOption =
      cmd.add_option("--calibration-sets", sets,
                     "Without --calibration-data: how many synthesized input sets to calibrate on")
          ->check(CLI::Range(1, 100000));
}

bool CalibrationArgs::given() const {
  return (dataOption && dataOption->count() > 0) || (setsOption && setsOption->count() > 0);
}

pipeline::RecipeCalibration CalibrationArgs::recorded() const {
  return pipeline::recordedCalibration(data, sets);
}

bool CalibrationArgs::replay(const pipeline::RecipeCalibration& recipe, const std::string& file) {
  if (!recipe.recorded()) return false;
  if (given()) {
    std::printf("note: the recipe calibrates on %s; --calibration-%s given here is used instead\n",
                recipe.data.empty()
                    ? (std::to_string(recipe.sets) + " synthesized input sets").c_str()
                    : recipe.data.c_str(),
                !data.empty() ? "data" : "sets");
    return false;
  }
  data = recipe.data;
  if (recipe.sets > 0) sets = recipe.sets;
  if (!data.empty()) recipeFile = file;
  return true;
}

Expected<pipeline::CalibrationSetSource> CalibrationArgs::readSets(const ir::Model& model) const {
  if (data.empty()) return pipeline::CalibrationSetSource{};
  auto sets = pipeline::calibrationFolder(model, data);
  if (!sets && !recipeFile.empty())
    return Error(sets.error().code(),
                 "the recipe " + recipeFile + " calibrates on the folder " + data +
                     " (recorded when it was saved): " + sets.error().message() +
                     "; give the data with --calibration-data DIR, or calibrate on synthesized "
                     "input sets with --calibration-sets N");
  return sets;
}

Expected<std::unique_ptr<pipeline::CalibratingEvaluator>> CalibrationArgs::makeEvaluator(
    pipeline::CalibrationSetSource given, const std::vector<std::string>& dims,
    bool calibrates) const {
  if (given.count > 0) {
    if (calibrates) std::printf("calibration: %zu input sets from %s\n", given.count, data.c_str());
    return std::make_unique<pipeline::CalibratingEvaluator>(std::move(given));
  }
  auto parsed = pipeline::parseDims(dims);
  if (!parsed) return parsed.error();
  pipeline::InputSpec spec;
  spec.dims = *parsed;
  if (calibrates)
    std::printf(
        "note: calibrating on %d synthesized input sets; give real data with "
        "--calibration-data DIR\n",
        sets);
  return std::make_unique<pipeline::CalibratingEvaluator>(
      pipeline::synthesizedCalibration(spec, sets));
}

void warnFewCheckSets(int checkSets, size_t calibrationSets) {
  const Text warning =
      pipeline::fewCheckSetsWarning(static_cast<size_t>(std::max(checkSets, 0)), calibrationSets);
  if (!warning.empty()) std::printf("warning: %s\n", warning.str().c_str());
}

}  // namespace passlab::cli
