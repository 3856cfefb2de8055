// Comparing an original model with an optimized one, node group by node group.
//
// Every node of the optimized model maps through provenance to the original
// nodes it stands for. New nodes whose origins overlap form one group with
// those origins (a fused node and its original subgraph; two nodes split from
// one); a node that is its own origin is unchanged and matched one to one;
// original nodes nothing stands for were removed (folded, eliminated). Each
// group carries the original group's time, the new time, the speedup and the
// time saved; regressions (groups that got slower) come first, then by time
// saved. The whole-model latency before and after is measured in interleaved
// rounds (A B A B ...), so drift of the machine affects both alike.
//
// Provenance lives only in memory while optimizing (a saved model does not
// keep it), so the usual path optimizes in process:
//   auto opt = pipeline::optimizeForCompare(original, "fused");
//   pipeline::CompareRequest req;
//   req.base.model = &original;
//   req.optimized = &opt->model;
//   req.provenance = &opt->provenance;
//   auto cmp = pipeline::compareModels(req);
// Without provenance (two files), a node matches the original node of the
// same domain, op and output names (node names are often given afresh on
// save); every other node falls into one "unmatched" group.
#pragma once

#include <string>
#include <vector>

#include "core/ir/model.h"
#include "core/pipeline/profile.h"
#include "core/rewrite/provenance.h"

namespace passlab::pipeline {

struct OptimizedModel {
  ir::Model model;
  rewrite::Provenance provenance;   // node ids of `model` -> node ids of the original
  std::vector<std::string> passes;  // the passes that ran
};

// Optimizes a clone of `original` at a pass level ("basic", "default",
// "fused", "ort"), keeping provenance. `standardOnly` as in PipelineOptions:
// passes that emit non-standard ops (ai.passlab, com.microsoft) are skipped.
Expected<OptimizedModel> optimizeForCompare(const ir::Model& original, const std::string& level,
                                            bool standardOnly = false);

// `other` (a file optimized elsewhere, no provenance) with each node mapped to
// the original node of the same op and output names, as --compare matches
// them; nodes without such a twin map to nothing.
OptimizedModel matchedByNames(const ir::Model& original, ir::Model other);

enum class GroupKind { kUnchanged, kRewritten, kRemoved, kUnmatched };
const char* groupKindName(GroupKind kind);  // "unchanged", "rewritten", "removed", "unmatched"

struct NodeGroup {
  GroupKind kind = GroupKind::kUnchanged;
  std::vector<ir::NodeId> originalNodes, newNodes;
  std::vector<std::string> originalLabels, newLabels;  // names ("#id" when unnamed)
  std::vector<std::string> originalOps, newOps;
  double beforeMs = 0;      // sum of the original nodes' medians
  double afterMs = 0;       // sum of the new nodes' medians
  double speedup = 0;       // beforeMs / afterMs (0 when afterMs is 0)
  double savedMs = 0;       // beforeMs - afterMs
  bool regression = false;  // rewritten, and slower by more than 10% and more than 1 microsecond
  bool noisy = false;       // a node of the group has a noisy time
};

struct CompareRequest {
  ProfileRequest base;  // model = the original; inputs, threads, warmup, repeats, cancel
  const ir::Model* optimized = nullptr;
  const rewrite::Provenance* provenance = nullptr;  // null: match by op and output names
  int rounds = 10;  // interleaved whole-model rounds (each runs A then B)
};

struct CompareResult {
  ProfileResult before, after;
  Timing latencyBefore, latencyAfter;  // from the interleaved rounds
  double speedup = 0;                  // latencyBefore / latencyAfter (medians)
  std::string matching;                // "provenance" or "op and output names"
  std::vector<NodeGroup> groups;       // regressions first, then by time saved
};

Expected<CompareResult> compareModels(const CompareRequest& request);

// The grouping alone, from two profiles (exposed for tests and the GUI).
std::vector<NodeGroup> groupNodes(const ProfileResult& before, const ProfileResult& after,
                                  const ir::Model& original, const ir::Model& optimized,
                                  const rewrite::Provenance* provenance);

}  // namespace passlab::pipeline
