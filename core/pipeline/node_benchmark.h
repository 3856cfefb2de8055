// A kernel benchmark of one rewritten node: the node, cut out of the
// optimized model as a model of its own, against the original nodes it
// stands for (through provenance), cut out of the original model the same
// way; both timed with profileModel on made-up inputs of the shapes of a run
// of the whole model.
#pragma once

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

// `request.model` is the original; `optimized` came from optimizeForCompare
// (or matchedByNames). An error names a node that is not in the optimized
// model's main graph, or one that stands for no original node.
Expected<NodeBenchmark> benchmarkNode(const ProfileRequest& request,
                                      const OptimizedModel& optimized, const std::string& nodeName);

}  // namespace passlab::pipeline
