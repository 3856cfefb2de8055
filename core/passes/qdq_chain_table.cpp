#include "core/passes/qdq_chain_table.h"

#include <algorithm>
#include <deque>
#include <map>
#include <set>
#include <string>

#include "core/passes/fusion_utils.h"
#include "core/passes/rule_helpers.h"
#include "core/rewrite/match_utils.h"

namespace passlab::passes {

namespace {

// More than this many nodes is not a chain between two quantized tensors.
constexpr size_t kMaxChainNodes = 64;

bool is8Bit(ir::DataType t) {
  return t == ir::DataType::kUInt8 || t == ir::DataType::kInt8;
}

// Walks from a value back to the DequantizeLinear, adding chain nodes after
// their inputs (post-order: an evaluation order).
class ChainWalk {
 public:
  bool visit(const ir::Value* v, Text& why) {
    ir::Node* p = v->producer();
    if (!p) {
      why = Text::of("'%1' is a second variable input of the chain", v->name());
      return false;
    }
    if (isDefaultOp(*p, "DequantizeLinear")) return dequantize(p, why);
    if (seen_.count(p)) return true;
    if (!fusion::isElementwiseUnary(*p) && !fusion::isElementwiseBinary(*p)) {
      why = Text::of("%1 is not an elementwise op", p->describe());
      return false;
    }
    if (elemTypeOf(p->output(0)) != ir::DataType::kFloat) {
      why = Text::of("%1 is not on float32", p->describe());
      return false;
    }
    if (seen_.size() >= kMaxChainNodes) {
      why = Text::of("the chain has more than %1 nodes", std::to_string(kMaxChainNodes));
      return false;
    }
    seen_.insert(p);
    for (size_t i = 0; i < p->inputCount(); ++i) {
      const ir::Value* in = p->input(i);
      if (!in) continue;
      auto t = in->producer() && isDefaultOp(*in->producer(), "DequantizeLinear")
                   ? std::nullopt
                   : rewrite::constantValue(in);
      if (t ? !constantOperand(*t, in->name(), why) : !visit(in, why)) return false;
    }
    chain_.nodes.push_back(p);
    return true;
  }

  // The largest rank of the constants read.
  size_t constantRank() const { return constantRank_; }
  QdqChain take() { return std::move(chain_); }

 private:
  bool dequantize(ir::Node* p, Text& why) {
    if (chain_.dq && chain_.dq != p) {
      why = Text::of("the chain reads two DequantizeLinears (%1, %2)", chain_.dq->describe(),
                     p->describe());
      return false;
    }
    chain_.dq = p;
    return true;
  }

  bool constantOperand(const ir::Tensor& t, const std::string& name, Text& why) {
    if (t.numel() != 1) {
      why = Text::of("the constant '%1' holds more than one value", name);
      return false;
    }
    constantRank_ = std::max(constantRank_, t.rank());
    return true;
  }

  std::set<const ir::Node*> seen_;
  size_t constantRank_ = 0;
  QdqChain chain_;
};

}  // namespace

std::optional<QdqChain> findQdqChain(const ir::Node& q, Text& why) {
  if (!q.input(0) || !q.input(0)->producer()) {
    why = Text("the QuantizeLinear's input is not computed by a node");
    return std::nullopt;
  }
  ChainWalk walk;
  if (!walk.visit(q.input(0), why)) return std::nullopt;
  QdqChain c = walk.take();
  if (!c.dq) {
    why = Text("the chain reads no DequantizeLinear");
    return std::nullopt;
  }
  if (c.nodes.empty()) {
    why = Text("no float op between the DequantizeLinear and the QuantizeLinear");
    return std::nullopt;
  }
  if (!is8Bit(elemTypeOf(c.dq->input(0)))) {
    why = Text("the dequantized input is not 8-bit");
    return std::nullopt;
  }
  // A constant of higher rank would broadcast the result to another shape.
  const auto rank = rankOf(c.dq->input(0));
  if (walk.constantRank() > 0 && (!rank || static_cast<int64_t>(walk.constantRank()) > *rank)) {
    why = Text("a constant of the chain has a higher rank than the 8-bit input");
    return std::nullopt;
  }
  return c;
}

namespace {

// Runs `n` on the values computed so far and constants; its output goes into
// `values`.
bool evaluateInto(const ir::Node& n, std::map<const ir::Value*, ir::Tensor>& values,
                  rewrite::Evaluator& evaluator, int64_t opset, Text& why) {
  std::deque<ir::Tensor> constants;
  std::vector<const ir::Tensor*> inputs(n.inputCount(), nullptr);
  for (size_t i = 0; i < n.inputCount(); ++i) {
    const ir::Value* v = n.input(i);
    if (!v) continue;
    if (auto it = values.find(v); it != values.end()) {
      inputs[i] = &it->second;
      continue;
    }
    auto t = rewrite::constantValue(v);
    if (!t) {
      why =
          Text::of("the input '%1' of '%2' is neither computed nor constant", v->name(), n.name());
      return false;
    }
    constants.push_back(std::move(*t));
    inputs[i] = &constants.back();
  }
  auto out = evaluator.evaluate(n, inputs, opset);
  if (!out || out->empty()) {
    why = Text::of("%1 could not be evaluated: %2", n.describe(),
                   out ? std::string("no output") : out.error().message());
    return false;
  }
  values[n.output(0)] = std::move(out->front());
  return true;
}

}  // namespace

std::optional<ir::Tensor> qdqChainTable(const QdqChain& chain, const ir::Node& q,
                                        rewrite::Evaluator& evaluator, int64_t opset, Text& why) {
  const ir::DataType xType = elemTypeOf(chain.dq->input(0));
  std::vector<uint8_t> bytes(256);
  for (int i = 0; i < 256; ++i)  // from the type's lowest: -128 is 0x80 in int8
    bytes[i] = static_cast<uint8_t>(xType == ir::DataType::kInt8 ? i - 128 : i);
  std::map<const ir::Value*, ir::Tensor> values;
  values[chain.dq->input(0)] = ir::Tensor::fromVector<uint8_t>(xType, {256}, bytes);
  if (!evaluateInto(*chain.dq, values, evaluator, opset, why)) return std::nullopt;
  for (const ir::Node* n : chain.nodes)
    if (!evaluateInto(*n, values, evaluator, opset, why)) return std::nullopt;
  if (!evaluateInto(q, values, evaluator, opset, why)) return std::nullopt;
  const ir::Tensor& y = values[q.output(0)];
  if (!is8Bit(y.dtype()) || y.numel() != 256) {
    why = Text("the QuantizeLinear's result is not 256 8-bit values");
    return std::nullopt;
  }
  auto p = y.data<uint8_t>();
  return ir::Tensor::fromVector<uint8_t>(y.dtype(), {256},
                                         std::vector<uint8_t>(p.begin(), p.end()));
}

}  // namespace passlab::passes
