#include "ui/graphview/graph_search.h"

#include <unordered_set>

namespace passlab::ui {

namespace {
bool matches(const std::string& s, const QString& needle) {
  return !s.empty() && QString::fromStdString(s).contains(needle, Qt::CaseInsensitive);
}
}  // namespace

std::vector<SearchHit> searchGraph(const ir::Graph& graph, const QString& text, SearchField field) {
  std::vector<SearchHit> hits;
  QString needle = text.trimmed();
  if (needle.isEmpty()) return hits;
  const bool names = field == SearchField::kAny || field == SearchField::kNodeName;
  const bool ops = field == SearchField::kAny || field == SearchField::kOpType;
  const bool tensors = field == SearchField::kAny || field == SearchField::kTensorName;
  std::unordered_set<const ir::Value*> seen;
  auto addValue = [&](const ir::Value* v, ir::NodeId producer) {
    if (v == nullptr || !seen.insert(v).second || !matches(v->name(), needle)) return;
    hits.push_back({producer, v->name()});
  };
  if (tensors) {
    for (const ir::Value* v : graph.inputs()) addValue(v, 0);
    for (const ir::Value* v : graph.initializers()) addValue(v, 0);
  }
  for (const auto& n : graph.nodes()) {
    if ((names && matches(n->name(), needle)) ||
        (ops && (matches(n->opType(), needle) || matches(n->qualifiedOpType(), needle))))
      hits.push_back({n->id(), {}});
    if (tensors)
      for (const ir::Value* v : n->outputs()) addValue(v, n->id());
  }
  return hits;
}

}  // namespace passlab::ui
