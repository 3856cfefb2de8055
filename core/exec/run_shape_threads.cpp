#include "core/exec/run_shape_threads.h"

#include <string>

#include "core/analysis/cost_model.h"
#include "core/analysis/work_micros.h"
#include "core/exec/step_threads.h"
#include "core/ir/graph.h"

namespace passlab::exec {

namespace {

ir::Type typeOf(const Tensor& t) {
  return ir::Type::tensor(t.dtype(), ir::Shape::fromValues(t.dims()));
}

// The attributes the cost model reads (transA, kernel_shape, num_heads...):
// numbers and strings; tensors and graphs are not copied.
void copyScalarAttributes(const ir::Node& from, ir::Node& to) {
  for (const ir::Attribute& a : from.attributes()) {
    ir::Attribute copy(a.name(), a.type());
    copy.f = a.f;
    copy.i = a.i;
    copy.s = a.s;
    copy.floats = a.floats;
    copy.ints = a.ints;
    copy.strings = a.strings;
    to.setAttr(std::move(copy));
  }
}

// A one-node graph in `probe` that runs `node` on tensors typed as `ins` and
// `outs`; nullptr when one of them is not a tensor.
const ir::Node* probeNode(ir::Graph& probe, const ir::Node& node,
                          const std::vector<const Value*>& ins, const std::vector<Value>& outs) {
  std::vector<ir::Value*> inputs(ins.size(), nullptr);
  for (size_t i = 0; i < ins.size(); ++i) {
    if (ins[i] == nullptr) continue;
    if (!ins[i]->isTensor()) return nullptr;
    inputs[i] = probe.addInput("in" + std::to_string(i), typeOf(ins[i]->tensor()));
  }
  std::vector<std::string> names(outs.size());
  for (size_t i = 0; i < outs.size(); ++i) {
    if (outs[i].isNone()) continue;
    if (!outs[i].isTensor()) return nullptr;
    names[i] = "out" + std::to_string(i);
  }
  ir::Node* twin = probe.addNode(node.opType(), node.domain(), inputs, names);
  copyScalarAttributes(node, *twin);
  for (size_t i = 0; i < outs.size(); ++i)
    if (twin->output(i) != nullptr) twin->output(i)->setType(typeOf(outs[i].tensor()));
  return twin;
}

}  // namespace

analysis::NodeCost costOnTensors(const ir::Node& node, const std::vector<const Value*>& ins,
                                 const std::vector<Value>& outs) {
  ir::Graph probe;
  const ir::Node* twin = probeNode(probe, node, ins, outs);
  if (twin == nullptr) {
    analysis::NodeCost unknown;
    unknown.known = false;
    return unknown;
  }
  return analysis::estimateNodeCost(*twin);
}

double workMicrosOnTensors(const ir::Node& node, const std::vector<const Value*>& ins,
                           const std::vector<Value>& outs) {
  ir::Graph probe;
  const ir::Node* twin = probeNode(probe, node, ins, outs);
  return twin == nullptr ? -1.0 : analysis::workMicros(*twin);
}

uint64_t RunShapeThreads::key(const std::vector<const Value*>& ins) {
  uint64_t h = 1469598103934665603ull;  // FNV-1a over types and dims
  auto mix = [&h](uint64_t x) {
    h ^= x;
    h *= 1099511628211ull;
  };
  for (const Value* v : ins) {
    if (v == nullptr || !v->isTensor()) {
      mix(v == nullptr ? 0xffu : 0xfeu);
      continue;
    }
    mix(static_cast<uint64_t>(v->tensor().dtype()));
    mix(v->tensor().dims().size());
    for (int64_t d : v->tensor().dims()) mix(static_cast<uint64_t>(d));
  }
  return h;
}

RunShapeThreads::Choice RunShapeThreads::choose(const ir::Node& node,
                                                const std::vector<const Value*>& ins) const {
  auto it = seen_.find(&node);
  if (it == seen_.end()) return Choice::kLearn;
  uint64_t k = key(ins);
  for (const auto& [shapes, single] : it->second)
    if (shapes == k) return single ? Choice::kOne : Choice::kAll;
  return it->second.size() < kMaxShapesPerNode ? Choice::kLearn : Choice::kAll;
}

void RunShapeThreads::learn(const ir::Node& node, const std::vector<const Value*>& ins,
                            const std::vector<Value>& outs, double limitMicros) {
  std::vector<std::pair<uint64_t, bool>>& known = seen_[&node];
  if (known.size() >= kMaxShapesPerNode) return;
  bool single = threadsForWork(workMicrosOnTensors(node, ins, outs), 2, limitMicros) == 1;
  known.emplace_back(key(ins), single);
}

}  // namespace passlab::exec
