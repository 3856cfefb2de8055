// Threads for steps whose work is known only at run time (issue #26): nodes
// of subgraph bodies whose shapes inference leaves symbolic, such as a
// decoder run by BeamSearch with a past that grows every step. The first run
// of such a node with given input dims uses every thread; its input and
// output tensors then give the static cost model's time (step_threads.h),
// and later runs with the same dims use one thread when that work is small.
#pragma once

#include <cstdint>
#include <unordered_map>
#include <utility>
#include <vector>

#include "core/analysis/cost_model.h"
#include "core/exec/value.h"
#include "core/ir/node.h"

namespace passlab::exec {

class RunShapeThreads {
 public:
  enum class Choice { kAll, kOne, kLearn };  // kLearn: every thread, then learn()
  // Input dims remembered per node; further ones use every thread unlearnt.
  static constexpr size_t kMaxShapesPerNode = 64;

  Choice choose(const ir::Node& node, const std::vector<const Value*>& ins) const;
  // After `node` ran on `ins` and produced `outs` (empty values for omitted
  // outputs): one thread from now on for these dims when its work is under
  // `limitMicros`.
  void learn(const ir::Node& node, const std::vector<const Value*>& ins,
             const std::vector<Value>& outs, double limitMicros);

 private:
  static uint64_t key(const std::vector<const Value*>& ins);
  std::unordered_map<const ir::Node*, std::vector<std::pair<uint64_t, bool>>> seen_;
};

// The static cost model's estimate of `node` run on these tensors (unknown
// when one is not a tensor).
analysis::NodeCost costOnTensors(const ir::Node& node, const std::vector<const Value*>& ins,
                                 const std::vector<Value>& outs);
// Its estimated single-thread microseconds (analysis/work_micros.h; negative
// when not known).
double workMicrosOnTensors(const ir::Node& node, const std::vector<const Value*>& ins,
                           const std::vector<Value>& outs);

}  // namespace passlab::exec
