// The numeric check's noise floor: how far two equally valid floating-point
// evaluations of the same model differ on the same inputs.
//
// A rewrite that only re-rounds float arithmetic (BatchNormalization folded
// into a Conv's weights, constants reassociated, a fused kernel summing in
// another order) moves every weight it touches by about one unit in the last
// place (ulp); over 60 layers that adds up to more than any fixed tolerance
// allows. So the check measures the model's own sensitivity to exactly that:
// the original model is run again with every floating-point weight that
// arithmetic reads moved by a random relative step of at most one ulp of its
// type, and the largest deviation of each tensor from the plain run is that
// tensor's floor. An element passes when it is within the fixed tolerance or
// within `multiple` times its tensor's floor. A real bug (a weight off by
// 1e-3, a wrong perm, a dropped bias) moves outputs by thousands of floors.
// Method and limits: docs/numeric-check.md.
#pragma once

#include <cstdint>
#include <map>
#include <string>

#include "core/ir/model.h"
#include "core/ir/tensor.h"
#include "core/pipeline/quant_steps.h"

namespace passlab::pipeline {

struct NoiseOptions {
  int draws = 2;         // perturbed runs per input set; the floor is their maximum
  double multiple = 16;  // how many floors a pass may deviate by
  double ulps = 1;       // the largest step, in units in the last place of the weight's type
  uint64_t seed = 0x9e3779b97f4a7c15ull;
  StepRule steps{};  // outputs on a quantization grid (quant_steps.h; off by default)
};

// Largest |perturbed - reference| per tensor name. A tensor whose perturbed
// value had another type or shape, or NaN or infinity elsewhere, in any run
// has no usable floor: -1 (the fixed tolerance applies to it alone).
using NoiseFloors = std::map<std::string, double>;

// A copy of `model` whose floating-point weights read by arithmetic ops
// (initializers and Constant values) are each multiplied by 1 + u * ulps * ulp,
// u uniform in [-1, 1]. Weights read by anything else (shape arithmetic,
// comparisons, Resize scales, Pow exponents) are left alone. Returns the
// number of weights moved in `moved`.
ir::Model perturbWeights(const ir::Model& model, uint64_t seed, double ulps,
                         size_t* moved = nullptr);

// Folds one perturbed run into `floors` (the maximum over runs).
void accumulateFloors(NoiseFloors& floors, const std::map<std::string, ir::Tensor>& reference,
                      const std::map<std::string, ir::Tensor>& perturbed);

// The largest |a - b| over the elements of two float tensors of the same
// type and shape; -1 when they cannot be compared that way (types, shapes,
// NaN or infinity in different places).
double maxAbsDifference(const ir::Tensor& a, const ir::Tensor& b);

}  // namespace passlab::pipeline
