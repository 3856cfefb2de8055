#include "ui/document/graph_ref.h"

#include <QCoreApplication>

namespace passlab::ui {

namespace {
ir::Node* findIn(const ir::Graph& g, ir::NodeId id) {
  if (ir::Node* n = g.findNode(id)) return n;
  for (const auto& node : g.nodes())
    for (ir::Graph* sub : node->subgraphs())
      if (ir::Node* n = findIn(*sub, id)) return n;
  return nullptr;
}
}  // namespace

ir::Node* findNode(const ir::Model& model, ir::NodeId id) {
  return findIn(model.graph(), id);
}

ir::Graph* GraphRef::resolve(const ir::Model& model) const {
  if (isMain()) return const_cast<ir::Graph*>(&model.graph());
  ir::Node* n = findNode(model, owner);
  if (n == nullptr) return nullptr;
  ir::Attribute* a = n->attr(attribute);
  if (a == nullptr) return nullptr;
  if (a->type() == ir::AttrType::kGraph) return index == 0 ? a->g.get() : nullptr;
  if (a->type() == ir::AttrType::kGraphs && index >= 0 &&
      static_cast<size_t>(index) < a->graphs.size())
    return a->graphs[static_cast<size_t>(index)].get();
  return nullptr;
}

QString GraphRef::title(const ir::Model& model) const {
  if (isMain()) {
    const std::string& name = model.graph().name();
    return name.empty() ? QCoreApplication::translate("GraphRef", "main graph")
                        : QString::fromStdString(name);
  }
  ir::Node* n = findNode(model, owner);
  QString who = n == nullptr ? QStringLiteral("#%1").arg(owner)
                : n->name().empty()
                    ? QStringLiteral("%1 #%2").arg(QString::fromStdString(n->opType())).arg(owner)
                    : QString::fromStdString(n->name());
  QString what = QString::fromStdString(attribute);
  if (index > 0) what += QStringLiteral("[%1]").arg(index);
  return QStringLiteral("%1 ▸ %2").arg(who, what);
}

std::vector<GraphRef> subgraphsOf(const ir::Node& node) {
  std::vector<GraphRef> out;
  for (const ir::Attribute& a : node.attributes()) {
    if (a.type() == ir::AttrType::kGraph && a.g)
      out.push_back({node.id(), a.name(), 0});
    else if (a.type() == ir::AttrType::kGraphs)
      for (size_t i = 0; i < a.graphs.size(); ++i)
        out.push_back({node.id(), a.name(), static_cast<int>(i)});
  }
  return out;
}

}  // namespace passlab::ui
