#include "app/cli/calibration_args.h"

#include <CLI/CLI.hpp>
#include <algorithm>
#include <cstdio>

#include "core/pipeline/precision_checker.h"

namespace passlab::cli {

void CalibrationArgs::addTo(CLI::App& cmd) {
  cmd.add_option("--calibration-data", data,
                 "Input sets quantize_static calibrates on: DIR/<set>/input_0.pb, input_1.pb, ... "
                 "(or .npy; one subfolder per set, inputs in the model's order)");
  cmd.add_option("--calibration-sets", sets,
                 "Without --calibration-data: how many synthesized input sets to calibrate on")
      ->check(CLI::Range(1, 100000));
}

Expected<pipeline::CalibrationSetSource> CalibrationArgs::readSets(const ir::Model& model) const {
  if (data.empty()) return pipeline::CalibrationSetSource{};
  return pipeline::calibrationFolder(model, data);
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
