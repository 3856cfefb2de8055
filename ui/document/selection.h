// What the user picked in a graph view: a node, a value (an arrow, an input
// or output box, an initializer row) or a collapsed group.
#pragma once

#include <QMetaType>

#include <string>

#include "ui/document/graph_ref.h"

namespace passlab::ui {

struct Selection {
  enum class Kind { kNone, kNode, kValue, kGroup };
  Kind kind = Kind::kNone;
  GraphRef graph;
  ir::NodeId node = 0;  // kNode
  std::string value;    // kValue
  std::string group;    // kGroup

  static Selection ofNode(GraphRef g, ir::NodeId id) {
    return {Kind::kNode, std::move(g), id, {}, {}};
  }
  static Selection ofValue(GraphRef g, std::string name) {
    return {Kind::kValue, std::move(g), 0, std::move(name), {}};
  }
  static Selection ofGroup(GraphRef g, std::string id) {
    return {Kind::kGroup, std::move(g), 0, {}, std::move(id)};
  }
  bool operator==(const Selection& o) const {
    return kind == o.kind && graph == o.graph && node == o.node && value == o.value &&
           group == o.group;
  }
};

}  // namespace passlab::ui

Q_DECLARE_METATYPE(passlab::ui::Selection)
Q_DECLARE_METATYPE(passlab::ui::GraphRef)
