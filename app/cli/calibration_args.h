// Calibration data for static quantization on the command line (optimize):
// --calibration-data DIR (one subfolder per input set, laid out as an ONNX
// test data set) or --calibration-sets N synthesized sets.
#pragma once

#include <memory>
#include <string>
#include <vector>

#include "core/pipeline/calibration.h"

namespace CLI {
class App;
}

namespace passlab::cli {

struct CalibrationArgs {
  std::string data;
  int sets = 16;

  void addTo(CLI::App& cmd);
  // The sets in `data`, checked against `model`; none when no folder was given.
  Expected<std::vector<exec::NamedInputs>> readSets(const ir::Model& model) const;
  // The pipeline's evaluator: constant folding, and `given` (from readSets)
  // for a pass that calibrates, or `sets` synthesized with `dims` when the
  // first such pass asks. Says where they come from when `calibrates` (the
  // plan runs quantize_static).
  Expected<std::unique_ptr<pipeline::CalibratingEvaluator>> makeEvaluator(
      std::vector<exec::NamedInputs> given, const std::vector<std::string>& dims,
      bool calibrates) const;
};

// Prints a warning when a lossy step's check uses fewer input sets than the
// calibration data holds (pipeline::fewCheckSetsWarning); nothing otherwise.
void warnFewCheckSets(int checkSets, size_t calibrationSets);

}  // namespace passlab::cli
