// A graph prepared for running: nodes in execution order with their kernels,
// every value given a slot of a frame, constants bound, and for each step the
// slots whose last use it is (the memory plan: they are released after it).
#pragma once

#include <cstdint>
#include <memory>
#include <unordered_map>
#include <utility>
#include <vector>

#include "core/exec/kernel.h"
#include "core/exec/value.h"
#include "core/ir/graph.h"

namespace passlab::exec {

// A slot `depth` frames up (0: this graph; 1: the enclosing graph, ...).
struct SlotRef {
  uint32_t depth = 0;
  int32_t index = -1;  // -1: omitted
  bool present() const { return index >= 0; }
};

// Whether a value is the same on every run: a Constant's value, an
// initializer, or an output of a deterministic node (no Random*, Multinomial,
// Bernoulli, Dropout, no subgraphs) whose inputs are all such values. In the
// main graph such a node runs once per executor and its outputs are kept
// (kept_values.h); kernels may also keep their preparation of such an input
// (packed weights) across runs.
enum class Invariance : uint8_t {
  kNo,  // may change between runs (graph inputs, values computed from them)
  // Depends on initializers of the main graph that are also graph inputs (as
  // in IR version 3 models, which list every initializer as an input): the
  // same on every run where the caller overrides none of them.
  kUnlessOverridden,
  kAlways,  // initializers that are not graph inputs, Constants, and values from them only
};

struct KernelInstance {
  ir::DataType dtype = ir::DataType::kUndefined;
  const KernelDef* def = nullptr;
  std::unique_ptr<Kernel> kernel;
};

struct Step {
  const ir::Node* node = nullptr;
  int64_t opset = 0;
  std::vector<const KernelDef*> candidates;  // rows for (domain, op, opset), optimized first
  int typeInput = kAnyType;                  // input whose dtype selects the kernel
  bool valueInputs = false;                  // kernel reads non-tensor values
  std::vector<SlotRef> inputs;
  std::vector<int32_t> outputs;  // slot per output, -1 for omitted ones
  std::vector<const ir::Tensor*> constantInputs;
  // Per input: whether it holds the same dims and values on every run of this
  // executor, by the structure of the graph (see Invariance).
  std::vector<Invariance> invariantInputs;
  // Of its outputs, in the main graph (kNo in subgraph bodies, whose steps
  // run every time): not kNo when the step is computed once per executor.
  Invariance outputsInvariance = Invariance::kNo;
  std::vector<int32_t> releaseAfter;
  // Kernels by element type (usually one; built at compile time when the type
  // is known, else on first use, which is why they are mutable: runs of one
  // executor are serialized).
  mutable std::vector<KernelInstance> instances;
};

class CompiledGraph {
 public:
  const ir::Graph* graph = nullptr;
  const CompiledGraph* parent = nullptr;
  int depth = 0;  // nesting level (0: main graph)
  std::vector<Step> steps;
  size_t slotCount = 0;
  std::vector<int32_t> inputSlots;                   // formal inputs in order
  std::vector<SlotRef> outputs;                      // outputs in order (may be outer values)
  std::vector<std::pair<int32_t, Value>> constants;  // initializers
  std::unordered_map<const ir::Value*, int32_t> slotOf;
  std::vector<const ir::Value*> slotValues;                       // slot -> value, for messages
  mutable std::vector<std::unique_ptr<CompiledGraph>> subgraphs;  // grown with kernels
};

}  // namespace passlab::exec
