#include "core/ir/graph_compare.h"

#include <unordered_map>

namespace passlab::ir {

namespace {

class Comparator {
 public:
  explicit Comparator(const GraphCompareOptions& o) : o_(o) {}

  std::optional<std::string> graph(const Graph& a, const Graph& b, const std::string& where) {
    if (a.inputs().size() != b.inputs().size())
      return where + ": " + std::to_string(a.inputs().size()) + " inputs vs " +
             std::to_string(b.inputs().size());
    for (size_t i = 0; i < a.inputs().size(); ++i)
      if (auto d = value(a.inputs()[i], b.inputs()[i], where + " input " + std::to_string(i), true))
        return d;
    if (a.initializers().size() != b.initializers().size())
      return where + ": " + std::to_string(a.initializers().size()) + " initializers vs " +
             std::to_string(b.initializers().size());
    for (size_t i = 0; i < a.initializers().size(); ++i) {
      const Value* va = a.initializers()[i];
      const Value* vb = b.initializers()[i];
      if (va->name() != vb->name())
        return where + ": initializer '" + va->name() + "' vs '" + vb->name() + "'";
      if (!va->initializer()->sameData(*vb->initializer()))
        return where + ": initializer '" + va->name() + "' differs";
      map_[va] = vb;
    }
    if (a.nodeCount() != b.nodeCount())
      return where + ": " + std::to_string(a.nodeCount()) + " nodes vs " +
             std::to_string(b.nodeCount());
    auto ia = a.nodes().begin();
    auto ib = b.nodes().begin();
    for (; ia != a.nodes().end(); ++ia, ++ib)
      if (auto d = node(**ia, **ib, where)) return d;
    if (a.outputs().size() != b.outputs().size()) return where + ": output counts differ";
    for (size_t i = 0; i < a.outputs().size(); ++i)
      if (auto d =
              value(a.outputs()[i], b.outputs()[i], where + " output " + std::to_string(i), false))
        return d;
    return std::nullopt;
  }

 private:
  std::optional<std::string> value(const Value* a, const Value* b, const std::string& where,
                                   bool define) {
    if (!a || !b) {
      if (a != b) return where + ": one side is omitted";
      return std::nullopt;
    }
    if (define) {
      if ((o_.compareValueNames || a->isGraphInput()) && a->name() != b->name())
        return where + ": '" + a->name() + "' vs '" + b->name() + "'";
      map_[a] = b;
    } else {
      auto it = map_.find(a);
      if (it != map_.end()) {
        if (it->second != b) return where + ": '" + a->name() + "' is wired to '" + b->name() + "'";
      } else if (a->name() != b->name()) {  // outer-scope value outside the comparison
        return where + ": '" + a->name() + "' vs '" + b->name() + "'";
      }
    }
    if (o_.compareTypes && a->type() != b->type())
      return where + ": '" + a->name() + "' has type " + a->type().toString() + " vs " +
             b->type().toString();
    return std::nullopt;
  }

  std::optional<std::string> node(const Node& a, const Node& b, const std::string& where) {
    std::string w = where + ": node " + a.describe();
    if (a.opType() != b.opType() || a.domain() != b.domain()) return w + " vs " + b.describe();
    if (o_.compareNodeNames && a.name() != b.name())
      return w + " is named '" + b.name() + "' on the other side";
    if (a.inputs().size() != b.inputs().size()) return w + ": input counts differ";
    for (size_t i = 0; i < a.inputs().size(); ++i)
      if (auto d = value(a.inputs()[i], b.inputs()[i], w + " input " + std::to_string(i), false))
        return d;
    if (a.attributes().size() != b.attributes().size()) return w + ": attribute counts differ";
    for (const Attribute& x : a.attributes()) {
      const Attribute* y = b.attr(x.name());
      if (!y) return w + ": attribute '" + x.name() + "' missing on the other side";
      if (x.type() == AttrType::kGraph || x.type() == AttrType::kGraphs) {
        if (x.type() != y->type()) return w + ": attribute '" + x.name() + "' kinds differ";
        std::vector<const Graph*> ga, gb;
        if (x.g) ga.push_back(x.g.get());
        if (y->g) gb.push_back(y->g.get());
        for (const auto& g : x.graphs) ga.push_back(g.get());
        for (const auto& g : y->graphs) gb.push_back(g.get());
        if (ga.size() != gb.size()) return w + ": attribute '" + x.name() + "' graph counts differ";
        for (size_t i = 0; i < ga.size(); ++i)
          if (auto d = graph(*ga[i], *gb[i], w + " attribute '" + x.name() + "'")) return d;
      } else if (!attributesEqual(x, *y)) {
        return w + ": attribute '" + x.name() + "' is " + x.valueToString() + " vs " +
               y->valueToString();
      }
    }
    if (a.outputs().size() != b.outputs().size()) return w + ": output counts differ";
    for (size_t i = 0; i < a.outputs().size(); ++i)
      if (auto d = value(a.outputs()[i], b.outputs()[i], w + " output " + std::to_string(i), true))
        return d;
    return std::nullopt;
  }

  const GraphCompareOptions& o_;
  std::unordered_map<const Value*, const Value*> map_;
};

bool sameFloats(const std::vector<float>& a, const std::vector<float>& b) {
  if (a.size() != b.size()) return false;
  for (size_t i = 0; i < a.size(); ++i)
    if (!(a[i] == b[i] || (a[i] != a[i] && b[i] != b[i]))) return false;
  return true;
}

}  // namespace

bool attributesEqual(const Attribute& a, const Attribute& b) {
  if (a.name() != b.name() || a.type() != b.type() || a.refAttrName() != b.refAttrName())
    return false;
  switch (a.type()) {
    case AttrType::kFloat:
      return sameFloats({a.f}, {b.f});
    case AttrType::kInt:
      return a.i == b.i;
    case AttrType::kString:
      return a.s == b.s;
    case AttrType::kTensor:
      return a.t.sameData(b.t);
    case AttrType::kFloats:
      return sameFloats(a.floats, b.floats);
    case AttrType::kInts:
      return a.ints == b.ints;
    case AttrType::kStrings:
      return a.strings == b.strings;
    case AttrType::kTensors: {
      if (a.tensors.size() != b.tensors.size()) return false;
      for (size_t i = 0; i < a.tensors.size(); ++i)
        if (!a.tensors[i].sameData(b.tensors[i])) return false;
      return true;
    }
    case AttrType::kSparseTensor:
      return a.sparse == b.sparse;
    case AttrType::kSparseTensors:
      return a.sparseTensors == b.sparseTensors;
    case AttrType::kTypeProto:
      return a.tp == b.tp;
    case AttrType::kTypeProtos:
      return a.typeProtos == b.typeProtos;
    default:
      return true;
  }
}

std::optional<std::string> firstDifference(const Graph& a, const Graph& b,
                                           const GraphCompareOptions& options) {
  return Comparator(options).graph(a, b, "main graph");
}

}  // namespace passlab::ir
