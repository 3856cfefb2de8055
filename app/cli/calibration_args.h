// Calibration data for static quantization on the command line (optimize):
// --calibration-data DIR (one subfolder per input set, laid out as an ONNX
// test data set) or --calibration-sets N synthesized sets.
#pragma once

#include <memory>
#include <string>
#include <vector>

#include "core/pipeline/calibration.h"
#include "core/pipeline/recipe.h"

namespace CLI {
class App;
class Option;
}  // namespace CLI

namespace passlab::cli {

struct CalibrationArgs {
  std::string data;
  int sets = 16;
  CLI::Option* dataOption = nullptr;
  CLI::Option* setsOption = nullptr;
  // The recipe file `data` came from (replay), for the error when it
  // cannot be read; empty when the command line gave it.
  std::string recipeFile;

  void addTo(CLI::App& cmd);
  // Whether --calibration-data or --calibration-sets was on the command line.
  bool given() const;
  // What a recipe records of them: the folder as an absolute path, or the
  // count of synthesized sets.
  pipeline::RecipeCalibration recorded() const;
  // The recipe's calibration, where it records one and the command line gives
  // none (the command line wins, said in a note); returns whether it was taken.
  // `file`: the recipe's path, named in readSets' error.
  bool replay(const pipeline::RecipeCalibration& recipe, const std::string& file);
  // The sets in `data`, each checked against `model` now and read again one
  // at a time when calibration asks; none (count 0) when no folder was given.
  // A folder from a recipe that cannot be read (moved, another machine): the
  // error names the recipe and the folder, and the options that override it.
  Expected<pipeline::CalibrationSetSource> readSets(const ir::Model& model) const;
  // The pipeline's evaluator: constant folding, and `given` (from readSets)
  // for a pass that calibrates, or `sets` synthesized with `dims`, one at a
  // time, when no folder was given. Says where they come from when
  // `calibrates` (the plan runs quantize_static).
  Expected<std::unique_ptr<pipeline::CalibratingEvaluator>> makeEvaluator(
      pipeline::CalibrationSetSource given, const std::vector<std::string>& dims,
      bool calibrates) const;
};

// Prints a warning when a lossy step's check uses fewer input sets than the
// calibration data holds (pipeline::fewCheckSetsWarning); nothing otherwise.
void warnFewCheckSets(int checkSets, size_t calibrationSets);

}  // namespace passlab::cli
