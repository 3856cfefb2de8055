#include "core/rewrite/edit_log.h"

#include <algorithm>
#include <set>

namespace passlab::rewrite {

std::string_view editKindName(EditKind k) {
  switch (k) {
    case EditKind::kNodeAdded:
      return "node added";
    case EditKind::kNodeRemoved:
      return "node removed";
    case EditKind::kInputRewired:
      return "input rewired";
    case EditKind::kAttributeChanged:
      return "attribute changed";
    case EditKind::kGraphOutputRewired:
      return "graph output rewired";
    case EditKind::kInitializerAdded:
      return "initializer added";
    case EditKind::kInitializerRemoved:
      return "initializer removed";
    case EditKind::kInitializerChanged:
      return "initializer changed";
    case EditKind::kValueRenamed:
      return "value renamed";
    case EditKind::kOpsetChanged:
      return "opset changed";
  }
  return "?";
}

// Sorted vectors rather than node sets: a pass may log hundreds of thousands of
// edits, and one allocation per id made this a visible share of pipeline time.
EditSummary EditLog::summarize() const {
  std::set<std::string> initAdded, initRemoved, initChanged;
  EditSummary s;
  std::vector<ir::NodeId> addOrder, removeOrder, rewired, attrs;
  for (const Edit& e : edits_) {
    switch (e.kind) {
      case EditKind::kNodeAdded:
        addOrder.push_back(e.node);
        break;
      case EditKind::kNodeRemoved:
        removeOrder.push_back(e.node);
        break;
      case EditKind::kInputRewired:
        rewired.push_back(e.node);
        break;
      case EditKind::kAttributeChanged:
        attrs.push_back(e.node);
        break;
      case EditKind::kGraphOutputRewired:
        ++s.graphOutputsRewired;
        break;
      case EditKind::kInitializerAdded:
        initAdded.insert(e.to);
        break;
      case EditKind::kInitializerRemoved:
        if (initAdded.erase(e.from) == 0) initRemoved.insert(e.from);
        break;
      case EditKind::kInitializerChanged:
        initChanged.insert(e.to);
        break;
      case EditKind::kValueRenamed:
        break;
      case EditKind::kOpsetChanged:
        s.opsetsChanged.push_back(e.detail + " " + (e.from.empty() ? "(none)" : e.from) + " -> " +
                                  e.to);
        break;
    }
  }
  auto sorted = [](std::vector<ir::NodeId> v) {
    std::sort(v.begin(), v.end());
    v.erase(std::unique(v.begin(), v.end()), v.end());
    return v;
  };
  auto in = [](const std::vector<ir::NodeId>& v, ir::NodeId id) {
    return std::binary_search(v.begin(), v.end(), id);
  };
  // Node ids are never reused, so a node removed after being added was added by
  // this pass: it counts for nothing.
  const std::vector<ir::NodeId> addedSorted = sorted(addOrder);
  const std::vector<ir::NodeId> removedSorted = sorted(removeOrder);
  for (ir::NodeId id : addOrder)
    if (!in(removedSorted, id)) s.added.push_back(id);
  for (ir::NodeId id : removeOrder)
    if (!in(addedSorted, id)) s.removed.push_back(id);
  // Rewiring or attribute edits on nodes that are new or gone are part of that, not separate.
  for (ir::NodeId id : sorted(std::move(rewired)))
    if (!in(addedSorted, id) && !in(removedSorted, id)) s.rewired.push_back(id);
  for (ir::NodeId id : sorted(std::move(attrs)))
    if (!in(addedSorted, id) && !in(removedSorted, id)) s.attributeChanged.push_back(id);
  s.initializersAdded.assign(initAdded.begin(), initAdded.end());
  s.initializersRemoved.assign(initRemoved.begin(), initRemoved.end());
  for (const auto& n : initChanged)
    if (!initAdded.count(n)) s.initializersChanged.push_back(n);
  return s;
}

std::string EditSummary::toString() const {
  std::vector<std::string> parts;
  auto add = [&](size_t n, const char* what) {
    if (n) parts.push_back(std::to_string(n) + " " + what);
  };
  add(removed.size(), "removed");
  add(added.size(), "added");
  add(rewired.size(), "rewired");
  add(attributeChanged.size(), "attribute edits");
  add(initializersAdded.size(), "initializers added");
  add(initializersRemoved.size(), "initializers removed");
  add(initializersChanged.size(), "initializers changed");
  add(graphOutputsRewired, "outputs rewired");
  for (const std::string& o : opsetsChanged) parts.push_back("opset " + o);
  if (parts.empty()) return "no change";
  std::string out;
  for (size_t i = 0; i < parts.size(); ++i) out += (i ? ", " : "") + parts[i];
  return out;
}

}  // namespace passlab::rewrite
