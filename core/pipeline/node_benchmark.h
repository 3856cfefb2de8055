// A kernel benchmark of one rewritten node: the node, cut out of the
// optimized model as a model of its own, against the original nodes it
// stands for (through provenance), cut out of the original model the same
// way; both timed with profileModel on made-up inputs of the shapes of a run
// of the whole model.
#pragma once

#include <functional>
#include <string>
#include <vector>

#include "core/pipeline/profile.h"
#include "core/pipeline/profile_compare.h"

namespace passlab::pipeline {

struct NodeBenchmark {
  std::string node, op;                     // the new node
  std::vector<std::string> originalLabels;  // the original nodes it stands for
  ProfileResult optimized, original;        // the two standalone models
  double speedup = 0;                       // latency medians: original / optimized
  // Both standalone models run once in context, each on the values its
  // whole model computes for the run's inputs: the largest |difference| over
  // their outputs (by position; when the original group has more outputs,
  // each fused output against the one original output of its type and
  // shape); -1 when they could not be compared (a boundary value of a cut-out
  // is not a main-graph value, or an output has no single counterpart).
  double maxAbsDifference = -1;
};

// Called with each model the benchmark runs and the inputs it runs on, before
// it runs: the two whole models that feed the cut-outs in context (only the
// values the cut-outs read exposed as outputs), the two cut-outs on those
// values, and the two cut-outs on the made-up inputs they are timed on. The
// checks of the whole models and of the timed cut-outs come before any run;
// an error stops the benchmark there (`profile --memory-limit` refuses a limit
// a run would pass this way: app/cli/memory_limit.h).
using RunCheck = std::function<Status(const ir::Model& model, const exec::NamedInputs& inputs)>;

// `request.model` is the original; `optimized` came from optimizeForCompare
// (or matchedByNames). An error names a node that is not in the optimized
// model's main graph, or one that stands for no original node. Every run
// (the timed ones and those in context) is under request.memoryLimitBytes.
Expected<NodeBenchmark> benchmarkNode(const ProfileRequest& request,
                                      const OptimizedModel& optimized, const std::string& nodeName,
                                      const RunCheck& check = {});

}  // namespace passlab::pipeline
