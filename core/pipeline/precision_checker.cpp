#include "core/pipeline/precision_checker.h"

#include <algorithm>

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

}  // namespace passlab::pipeline
