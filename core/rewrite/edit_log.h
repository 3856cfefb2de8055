// The record of what a pass did to a graph. Every edit made through the
// Rewriter lands here; diffs, provenance, statistics and reports all derive
// from it.
#pragma once

#include <cstdint>
#include <deque>
#include <string>
#include <vector>

#include "core/ir/node.h"

namespace passlab::rewrite {

enum class EditKind {
  kNodeAdded,
  kNodeRemoved,
  kInputRewired,        // node: the consumer; index: its input; from/to: value names
  kAttributeChanged,    // node; detail: attribute name
  kGraphOutputRewired,  // graphOwner: 0 for the main graph; index: output; from/to
  kInitializerAdded,    // value: name
  kInitializerRemoved,
  kInitializerChanged,
  kValueRenamed,  // from/to
  kOpsetChanged,  // detail: the domain ("ai.onnx" for the default); from/to: versions ("" absent)
};
std::string_view editKindName(EditKind k);

struct Edit {
  EditKind kind;
  ir::NodeId node = 0;        // the node concerned (0 if none)
  ir::NodeId graphOwner = 0;  // node owning the subgraph edited; 0 = main graph
  int index = -1;
  std::string from, to;  // value names
  std::string detail;    // op type of an added/removed node, attribute name, ...
};

// Net effect of a sequence of edits (a node added then removed counts for nothing).
struct EditSummary {
  std::vector<ir::NodeId> added, removed, rewired, attributeChanged;
  std::vector<std::string> initializersAdded, initializersRemoved, initializersChanged;
  size_t graphOutputsRewired = 0;
  std::vector<std::string> opsetsChanged;  // "ai.onnx 9 -> 13"
  bool empty() const {
    return added.empty() && removed.empty() && rewired.empty() && attributeChanged.empty() &&
           initializersAdded.empty() && initializersRemoved.empty() &&
           initializersChanged.empty() && graphOutputsRewired == 0 && opsetsChanged.empty();
  }
  // "3 removed, 1 added, 2 rewired, 1 initializer changed"
  std::string toString() const;
};

class EditLog {
 public:
  void record(Edit e) { edits_.push_back(std::move(e)); }
  const std::deque<Edit>& edits() const { return edits_; }
  bool empty() const { return edits_.empty(); }
  size_t size() const { return edits_.size(); }
  void clear() { edits_.clear(); }
  EditSummary summarize() const;

 private:
  // A deque: a pass on a large graph records 100k+ edits, and a vector grew by
  // copying them all into fresh (page-faulting) memory at each doubling.
  std::deque<Edit> edits_;
};

}  // namespace passlab::rewrite
