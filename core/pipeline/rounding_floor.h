// The rounding floor of a QDQ model: how far its outputs move when only its
// own roundings at quantization ties move.
//
// A step exact per node unit (fuse_qdq_into_qlinear) rounds an integer sum
// once where the QDQ unit rounds a float result: a few elements of a unit land
// on the neighbouring step (the check per node unit bounds them, unit_check.h).
// On a network that amplifies such flips (picodet_s_320's QDQ file: one step
// in a depthwise Conv's input comes out up to 233 steps after it), the outputs
// then move by percents, and by as much when nothing but the QuantizeLinear /
// DequantizeLinear scales move by one unit in the last place, which flips the
// same kind of near-tie roundings. The floor is that movement: the original
// with every Q/DQ scale moved one ulp up or down (random signs), measured per
// output as the accuracy budget measures a step. An exact-per-unit step whose
// units and kept values pass, but whose outputs are over the budget, is within
// the model's own tie-rounding noise when each failing figure is within
// kRoundingFloorMultiple times the floor's (docs/numeric-check.md).
#pragma once

#include <cstdint>
#include <map>
#include <set>
#include <string>
#include <vector>

#include "core/exec/executor.h"
#include "core/ir/model.h"
#include "core/pipeline/accuracy.h"
#include "core/pipeline/timeline.h"

namespace passlab::pipeline {

// How many times the floor's loss a step's may be (6 dB in noise power: the
// floor is the worst of two draws, and a step flips about as many elements as
// one draw; picodet's fold is at 0.7-1.1x its floor, docs/numeric-check.md).
inline constexpr double kRoundingFloorMultiple = 4;

// A copy of `model` whose QuantizeLinear and DequantizeLinear scales (input 1,
// a floating-point initializer of the main graph) each move every element by
// one unit in the last place, up or down at random (`seed`). Nothing else
// changes. `moved`: the scale tensors moved.
ir::Model perturbQuantScales(const ir::Model& model, uint64_t seed, size_t* moved = nullptr);

// The floor: `draws` runs of `original` with perturbed scales (seeds seed,
// seed + 1, ...) on `inputs`, each output measured against `reference` over
// all sets (AccuracyMeter), the worst draw kept per figure. Outputs in `skip`
// are left out. Empty when the model has no Q/DQ scale or a run fails.
std::map<std::string, OutputAccuracy> measureRoundingFloor(
    const ir::Model& original, const std::vector<exec::NamedInputs>& inputs,
    const std::vector<std::map<std::string, ir::Tensor>>& reference,
    const std::set<std::string>& skip, int draws, uint64_t seed, int topK);

// Whether each loss of `step` that `budget` limits (1 - cosine and the noise
// power 10^(-SNR/10) always; the max relative error, 1 - top-1 and 1 - top-k
// share where the budget sets them) is at most `multiple` times `floor`'s.
// An output that could not be compared, or with more non-finite values than
// the floor's, never is; a floor of no loss allows none.
bool withinRoundingFloor(const OutputAccuracy& step, const OutputAccuracy& floor,
                         const AccuracyBudget& budget, double multiple = kRoundingFloorMultiple);

// `c`, a check against the original over `budget`: when every output over the
// budget is within the rounding floor (withinRoundingFloor), passed, its
// detail naming the first such output against the floor, and the verdict in
// c.roundingFloor; else unchanged. An empty floor excuses nothing.
void excuseByRoundingFloor(NumericCheck& c, const AccuracyBudget& budget,
                           const std::map<std::string, OutputAccuracy>& floor);

// Whether `c` passed by excuseByRoundingFloor (over the budget, within the
// floor): c.roundingFloor is set.
bool excusedByRoundingFloor(const NumericCheck& c);

}  // namespace passlab::pipeline
