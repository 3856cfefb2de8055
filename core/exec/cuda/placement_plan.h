// Where each step of a model would run on the CUDA backend, decided on the
// host without a GPU: the rows for the element types the model declares, and
// each row's factory (which reads attributes and constant inputs only). What
// only a run can decide is marked so: steps whose dispatch type is not
// declared, steps that take small integer inputs on the host (shape
// arithmetic), and refusals that depend on run-time shapes.
// `passlab-cli devices --plan MODEL` prints it; run --device cuda reports
// what actually happened.
#pragma once

#include <vector>

#include "core/exec/backend.h"
#include "core/ir/model.h"

namespace passlab::exec::cuda {

Expected<std::vector<StepPlacement>> planCudaPlacement(const ir::Model& model);

}  // namespace passlab::exec::cuda
