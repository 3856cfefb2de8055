// Which original nodes each node came from, across any number of passes:
// "FusedConv_7 came from Conv_3 + BatchNormalization_4 + Relu_5".
#pragma once

#include <string>
#include <unordered_map>
#include <vector>

#include "core/ir/node.h"

namespace passlab::rewrite {

class Provenance {
 public:
  // Original nodes `id` stands for: itself if it is original, else what it was derived from.
  std::vector<ir::NodeId> origins(ir::NodeId id) const;
  // The pass that created `id`, "" for original nodes.
  std::string createdBy(ir::NodeId id) const;
  // Records that `node` (made by `pass`) was derived from `from` (their origins are inherited).
  void recordDerived(ir::NodeId node, const std::vector<ir::NodeId>& from, const std::string& pass);
  bool isOriginal(ir::NodeId id) const { return derived_.find(id) == derived_.end(); }

 private:
  struct Entry {
    std::vector<ir::NodeId> origins;  // sorted, unique
    std::string pass;
  };
  std::unordered_map<ir::NodeId, Entry> derived_;
};

}  // namespace passlab::rewrite
