// Prepares graphs for running: orders nodes, assigns slots, binds constants,
// selects kernels (and builds them when the element type is known), and
// computes value lifetimes.
#pragma once

#include <memory>
#include <vector>

#include "core/exec/compiled_graph.h"
#include "core/exec/kernel_registry.h"
#include "core/exec/step_threads.h"
#include "core/ir/model.h"
#include "core/support/error.h"

namespace passlab::exec {

class Compiler {
 public:
  // `buildAhead`: kernels whose element type is known are built by compile()
  // (bad attributes are reported then); false: each on its first use (a
  // device backend runs most steps on its own kernels).
  Compiler(const ir::Model& model, const KernelRegistry& registry, bool referenceKernels,
           bool buildAhead = true);

  // `parent` is the compiled graph enclosing `g` (nullptr for the main graph).
  Expected<std::unique_ptr<CompiledGraph>> compile(const ir::Graph& g, const CompiledGraph* parent);
  // The kernel for `dtype` at `step` of `plan`, built on first use.
  Expected<KernelInstance*> instance(const CompiledGraph& plan, const Step& step,
                                     ir::DataType dtype);
  // Which steps of the main graph run on one thread, for a run's input shapes
  // (step_threads.h).
  StepThreads& stepThreads() { return stepThreads_; }

 private:
  Status buildSteps(const ir::Graph& g, CompiledGraph& plan);
  Status computeLifetimes(CompiledGraph& plan);

  const ir::Model& model_;
  const KernelRegistry& registry_;
  bool referenceKernels_;
  bool buildAhead_;
  StepThreads stepThreads_;
};

// Values of `g` that nodes inside `n`'s subgraphs read (directly or as a
// subgraph output), at any depth.
void collectOuterReads(const ir::Node& n, const ir::Graph& g, std::vector<const ir::Value*>& out);

// The element type that selects `step`'s kernel, from its declared input
// types (kUndefined when unknown before running).
ir::DataType declaredDispatchType(const Step& step);

}  // namespace passlab::exec
