// The reference a precision analysis measures against (per-layer
// sensitivity, automatic mixed precision: core/pipeline/sensitivity.h), set
// up the same way by `passlab-cli precision` and the GUI's Precision panel:
// the model's outputs on the first `checkSets` calibration sets when there
// are any (the data the model is meant for), else on `checkSets`
// synthesized sets; no noise floor, as the budget decides, not equality.
#pragma once

#include <memory>
#include <vector>

#include "core/exec/executor.h"
#include "core/pipeline/numeric_check.h"
#include "core/support/text.h"

namespace passlab::pipeline {

Expected<std::unique_ptr<ExecOutputChecker>> precisionChecker(
    const ir::Model& model, const std::vector<exec::NamedInputs>& calibration, int checkSets);
// The same on `checkSets` sets of which `spec` fixes some inputs (the user's
// --input, --input-dir), the others synthesized.
Expected<std::unique_ptr<ExecOutputChecker>> precisionChecker(const ir::Model& model, int checkSets,
                                                              InputSpec spec);

// A warning for a lossy step checked on fewer input sets than the calibration
// data holds (both counts named, --check suggested): on one set a step within
// the budget on the data can fail it, or the reverse (docs/precision.md, "A
// budget checked on one image"). Empty when the check uses them all.
Text fewCheckSetsWarning(size_t checkSets, size_t calibrationSets);

// The input sets a lossy step is checked on when the user named no count:
// every calibration set up to 16 (the data the model is meant for; on 2 sets
// a step can pass or fail the budget by chance), else 2 synthesized sets.
int defaultLossyCheckSets(size_t calibrationSets);

}  // namespace passlab::pipeline
