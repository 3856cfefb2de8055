// Ops whose output 0 is a view of input 0 in the executor (cpu/shape_ops.cpp:
// the same bytes under other dims, nothing copied): Reshape, Flatten, Squeeze,
// Unsqueeze, Identity and Dropout. The memory plan puts such an output in its
// input's buffer (memory/memory_plan.h); a graph output that is such a view is
// handed over in the buffer of the value it views (output_buffers.h); a body
// output that is such a view keeps its base out of the body's block, as the
// output itself is (memory/body_plans.h).
#pragma once

#include <algorithm>
#include <array>
#include <cstdint>
#include <string_view>
#include <vector>

#include "core/exec/compiled_graph.h"
#include "core/ir/node.h"

namespace passlab::exec {

inline bool isViewOp(const ir::Node& n) {
  if (!n.domain().empty() && n.domain() != "ai.onnx") return false;
  static constexpr std::array<std::string_view, 6> kViews = {"Reshape",   "Flatten",  "Squeeze",
                                                             "Unsqueeze", "Identity", "Dropout"};
  return std::find(kViews.begin(), kViews.end(), n.opType()) != kViews.end();
}

// Per slot of `graph`: the slot of `graph` whose buffer it views through a
// chain of view ops, or itself (a value of an outer scope ends the chain).
inline std::vector<int32_t> viewBases(const CompiledGraph& graph) {
  std::vector<int32_t> base(graph.slotCount);
  for (size_t s = 0; s < base.size(); ++s) base[s] = static_cast<int32_t>(s);
  for (const Step& step : graph.steps) {  // in order: an input's base is known first
    if (!isViewOp(*step.node) || step.outputs.empty() || step.outputs[0] < 0 ||
        step.inputs.empty() || !step.inputs[0].present() || step.inputs[0].depth != 0)
      continue;
    base[static_cast<size_t>(step.outputs[0])] = base[static_cast<size_t>(step.inputs[0].index)];
  }
  return base;
}

}  // namespace passlab::exec
