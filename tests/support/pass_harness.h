// Test harness for passes: run one pass on a text-format model through the
// PassManager, compare with an expected graph, check convergence and that a
// pass leaves a graph alone (with the reason it gives), and check that the
// outputs did not change (the model before and after, run on the CPU executor
// with seeded random inputs).
#pragma once

#include <string>

#include "core/ir/model.h"
#include "core/passes/pass.h"
#include "core/pipeline/pass_manager.h"
#include "core/rewrite/evaluator.h"

namespace passlab::testing {

// The Evaluator the pipeline gives passes: exec::evaluateNode on the CPU.
rewrite::Evaluator* cpuEvaluator();

struct PassOutcome {
  ir::Model model;
  pipeline::Step step;  // snapshots dropped
};

// Runs `passId` on the parsed `text` (shape inference first, as the pipeline does).
PassOutcome runPass(const std::string& passId, const std::string& text,
                    const passes::Options& options = {},
                    rewrite::Evaluator* evaluator = cpuEvaluator());
PassOutcome runPass(const std::string& passId, ir::Model model, const passes::Options& options = {},
                    rewrite::Evaluator* evaluator = cpuEvaluator());
// The same for a run that may fail: a rolled-back step is returned, not a test failure.
PassOutcome runPassMayFail(const std::string& passId, const std::string& text,
                           const passes::Options& options = {},
                           rewrite::Evaluator* evaluator = cpuEvaluator());

// The graph as text in which the names a pass chooses do not show: ops, attributes,
// wiring, initializer data, model input and output names (see pass_harness.cpp).
std::string canonicalForm(const ir::Graph& g);

// The pass turns `input` into `expected` (compared structurally: ops, attributes,
// wiring and initializer data; intermediate names, initializer names and node
// names ignored).
// When the CPU executor can run both models, their outputs are compared too.
void expectRewrite(const std::string& passId, const std::string& input, const std::string& expected,
                   const passes::Options& options = {});
// Running the pass again on its own output changes nothing.
void expectConverges(const std::string& passId, const std::string& input,
                     const passes::Options& options = {});
// The pass changes nothing; if `reason` is given, some node's explanation contains it.
void expectUnchanged(const std::string& passId, const std::string& input,
                     const std::string& reason = "", const passes::Options& options = {});

// ---- numeric equivalence ----

struct NumericResult {
  bool ran = false;    // false: the executor could not run a model (the reason says why)
  bool equal = false;  // every output within tolerance
  std::string detail;  // the first difference, or why it did not run
};

// Runs `before` and `after` on the CPU executor with `sets` sets of seeded random
// inputs (pipeline::makeInputs, core/pipeline/input_synthesis.h) and compares the outputs with the
// pipeline's dtype-aware tolerances (fp32: rtol 1e-4, atol 1e-5; integers exactly).
NumericResult compareOutputs(const ir::Model& before, const ir::Model& after, int sets = 2,
                             uint64_t seed = 1234);
// `after` within `budget` of `before` (a lossy pass's numeric test); `equal`
// means within budget.
NumericResult compareWithinBudget(const ir::Model& before, const ir::Model& after,
                                  const pipeline::AccuracyBudget& budget = {}, int sets = 2);
// The pass keeps the outputs of `input` (a lossy pass: within the default
// accuracy budget); fails if the executor cannot run it.
void expectSameOutputs(const std::string& passId, const std::string& input,
                       const passes::Options& options = {});

// Every reason the step's explain recorded, one per line (failure messages,
// and tests of why a pattern did not fire).
std::string explainNotes(const PassOutcome& out);

// The initializer read as input `index` by the node whose first output is
// `output`; null when there is none.
const ir::Tensor* initializerInput(const ir::Model& m, const std::string& output, size_t index);

}  // namespace passlab::testing
