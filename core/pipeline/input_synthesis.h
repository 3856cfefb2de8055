// Inputs made up so that a model runs without data: one synthesis for
// `passlab-cli run`, `optimize --check` and the GUI's check.
//
// Every dim and every value range is a choice with a reason, in this order:
//   dims:   the user's --dim; a hint in the model (a static dim the input is
//           unified with through an op with a constant operand, model metadata
//           "NAME=VALUE"); the smallest size every sliding-window op
//           (Conv, ConvTranspose, pools) on the path from the input accepts,
//           rounded up to the path's total stride; a default by kind (batch 1,
//           sequence 4, height/width 32, else 1).
//   values: floats uniform in [-1, 1); integers in [0, 4), except indices of a
//           Gather (or an embedding) in [0, rows), masks 0/1, and a scalar
//           compared by Equal with a constant takes that constant.
// Unnamed dynamic dims ('?' or an empty dim_param) are independent of each other.
#pragma once

#include <cstdint>
#include <map>
#include <optional>
#include <string>
#include <vector>

#include "core/exec/executor.h"
#include "core/ir/model.h"
#include "core/support/error.h"

namespace passlab::pipeline {

struct InputSpec {
  uint64_t seed = 20261202;
  bool zeros = false;
  bool arange = false;                  // element i = i / n (floats), i mod range (integers)
  std::map<std::string, int64_t> dims;  // symbolic dim name -> value (the user's --dim)
  // Inputs the user gave (a sample rate, a beam count): used as they are.
  std::map<std::string, ir::Tensor> fixed;
};

// One dim of a planned input: its value and why.
struct DimChoice {
  int64_t value = 1;
  Text reason;  // empty for a static dim
};

struct InputPlan {
  std::string name;
  ir::DataType dtype = ir::DataType::kFloat;
  std::vector<DimChoice> dims;
  bool given = false;  // spec.fixed holds the value
  // Values: a constant, or uniform in [lo, hi) (integers: lo <= v < hi).
  std::optional<double> constant;
  double lo = -1, hi = 1;
  bool whole = false;  // whole numbers in [lo, hi) (integer types, and masks of any type)
  Text valuesReason;

  std::vector<int64_t> shape() const;
  // "x float[1,3,32,32]: dim 2 = 32 (smallest size Conv 'c1' accepts: ...); values in [-1, 1)"
  Text describe() const;
};

// True for dim names that name nothing: "" and "?" (each such dim is its own unknown).
bool isAnonymousDim(const std::string& param);

// The plan for every graph input without an initializer. An error names the
// input, the op and the constraint when a --dim is smaller than a window op accepts.
Expected<std::vector<InputPlan>> planInputs(const ir::Model& model, const InputSpec& spec);

// Values for a plan (seeded per input name, so adding an input does not change the others).
Expected<exec::NamedInputs> fillInputs(const std::vector<InputPlan>& plan, const ir::Model& model,
                                       const InputSpec& spec);

// planInputs + fillInputs.
Expected<exec::NamedInputs> makeInputs(const ir::Model& model, const InputSpec& spec);

// --input NAME=V[,V...]: values for input NAME's shape as planned with `spec`
// (one value fills the whole tensor; a scalar input takes one value).
Expected<ir::Tensor> parseInputValues(const ir::Model& model, const std::string& name,
                                      const std::string& values, const InputSpec& spec);

}  // namespace passlab::pipeline
