// What the pass pipeline learns about nodes, for the properties panel:
// provenance (which original nodes a node came from and which pass made it)
// and, per pattern, the last reason it gave for not matching (MLIR's
// notifyMatchFailure). The pipeline (phase 2) fills a NodeInsightsStore from
// its Timeline and EditLog and hands it to the Document; until then the
// document has none and the panel says that no data exists yet.
#pragma once

#include <optional>
#include <string>
#include <unordered_map>
#include <vector>

#include "core/ir/node.h"
#include "core/support/text.h"

namespace passlab::ui {

struct Provenance {
  std::string passId;                     // "fuse_conv_batchnorm"
  int step = -1;                          // Timeline step that created the node
  std::vector<ir::NodeId> origins;        // original nodes it replaces
  std::vector<std::string> originLabels;  // "Conv 'conv1' (#3)", same order
};

struct MatchFailure {
  std::string passId;   // the pass that tried
  std::string pattern;  // the pattern's name
  Text reason;          // "the BatchNormalization output has a second reader"
  int step = -1;
};

class NodeInsights {
 public:
  virtual ~NodeInsights() = default;
  virtual std::optional<Provenance> provenance(ir::NodeId node) const = 0;
  // The last reason per pattern, in the order the patterns were tried.
  virtual std::vector<MatchFailure> matchFailures(ir::NodeId node) const = 0;
};

class NodeInsightsStore : public NodeInsights {
 public:
  void setProvenance(ir::NodeId node, Provenance p) { provenance_[node] = std::move(p); }
  // Replaces the previous reason of the same (pass, pattern).
  void recordMatchFailure(ir::NodeId node, MatchFailure f);
  std::optional<Provenance> provenance(ir::NodeId node) const override;
  std::vector<MatchFailure> matchFailures(ir::NodeId node) const override;

 private:
  std::unordered_map<ir::NodeId, Provenance> provenance_;
  std::unordered_map<ir::NodeId, std::vector<MatchFailure>> failures_;
};

}  // namespace passlab::ui
