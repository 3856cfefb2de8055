#include "core/pipeline/precision_checker.h"

#include <algorithm>
#include <string>

namespace passlab::pipeline {

Expected<std::unique_ptr<ExecOutputChecker>> precisionChecker(
    const ir::Model& model, const std::vector<exec::NamedInputs>& calibration, int checkSets) {
  NoiseOptions quiet;
  quiet.draws = 0;
  if (calibration.empty()) return ExecOutputChecker::create(model, checkSets, {}, quiet);
  const size_t n = std::min(calibration.size(), static_cast<size_t>(std::max(1, checkSets)));
  std::vector<exec::NamedInputs> measureOn(calibration.begin(),
                                           calibration.begin() + static_cast<std::ptrdiff_t>(n));
  return ExecOutputChecker::create(model, std::move(measureOn), quiet);
}

Expected<std::unique_ptr<ExecOutputChecker>> precisionChecker(const ir::Model& model, int checkSets,
                                                              InputSpec spec) {
  NoiseOptions quiet;
  quiet.draws = 0;
  return ExecOutputChecker::create(model, std::max(1, checkSets), std::move(spec), quiet);
}

Text fewCheckSetsWarning(size_t checkSets, size_t calibrationSets) {
  if (checkSets >= calibrationSets) return {};
  return Text::of(
      "the accuracy budget is checked on %1 input sets, the calibration data has %2: a lossy "
      "step can pass or fail it by chance on so few; --check %2 checks on all of them",
      std::to_string(checkSets), std::to_string(calibrationSets));
}

int defaultLossyCheckSets(size_t calibrationSets) {
  constexpr size_t kMostSets = 16, kSynthesizedSets = 2;
  return static_cast<int>(calibrationSets > 0 ? std::min(calibrationSets, kMostSets)
                                              : kSynthesizedSets);
}

}  // namespace passlab::pipeline
