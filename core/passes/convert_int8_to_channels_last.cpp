// convert_int8_to_channels_last, convert_dynamic_int8_to_channels_last — keep
// the activations of int8 convolution chains channels-last (NHWC), with
// Transposes only at the chains' ends (ONNX Runtime's NHWC transformer for
// QLinearConv); the second for the dynamic INT8 form only (below).
//
// Before:  y = QLinearConv(x, ...); u = QLinearLookup(y, t); z = QLinearConv(u, ...); o =
// Flatten(z) After:   xt = Transpose(x, [0, 2, 3, 1])
//          yt = com.microsoft.QLinearConv <channels_last = 1> (xt, ...)
//          ut = QLinearLookup(yt, t); zt = com.microsoft.QLinearConv <channels_last = 1> (ut, ...)
//          z = Transpose(zt, [0, 3, 1, 2]); o = Flatten(z)
// oneDNN's int8 convolutions work channels-last: on NCHW tensors each one
// reorders its input and output (ppocr_cls_mobile_v2: 77 reorders, 0.34 ms of
// 0.80). What goes channels-last, in graph order:
//   * QLinearConv (standard, or com.microsoft without channels_last) and
//     ai.passlab FusedConvInteger (the dynamic INT8 convolution,
//     fuse_conv_integer_epilogue), 2-D, whose input is channels-last already
//     or whose output some other node of this list reads (a lone one stays:
//     two Transposes would gain nothing); both take channels_last = 1;
//   * of a channels-last input: ai.passlab QLinearLookup and QLinearSqueezeExcite
//     (with channels_last = 1); DequantizeLinear and
//     QuantizeLinear with one scale; Relu, LeakyRelu, HardSwish, HardSigmoid,
//     Sigmoid; GlobalAveragePool (float) as ReduceMean over axes 1, 2 with
//     keepdims; DynamicQuantizeLinear (its range is the whole tensor's, in
//     any order; the scale and zero point are read as they were); an
//     ai.passlab FusedElementwise whose inputs all have its output's shape
//     (no broadcast, so the same program element by element);
//   * of a channels-last uint8 / int8 input: MaxPool without the Indices
//     output, as ONNX Runtime's com.microsoft NhwcMaxPool (the same window
//     attributes; storage_order only orders Indices and goes);
//   * of two channels-last inputs: Add, Mul, com.microsoft QLinearAdd and
//     QLinearMul (both operands of rank 4, so they broadcast the same way
//     permuted); Concat on the channels of channels-last inputs (axis 3).
// Every channels-last value that something else reads (or a graph output)
// gets one Transpose back, under the original name. A chain's end that keeps
// or widens its elements (DequantizeLinear, an activation, a lookup) and that
// only nodes outside the chain read stays channels-first: the Transpose back
// then moves its 8-bit input instead of its output (a quarter of the bytes
// after a DequantizeLinear). But where every reader of such an end is a
// Transpose to channels-last ([0, 2, 3, 1]; ultraface's DequantizeLinear ->
// Transpose -> Reshape heads), the end stays channels-last and those
// Transposes go: their readers take its channels-last output.
// Exact: the same integer kernels on permuted tensors (a ReduceMean may sum
// in another order than the GlobalAveragePool: last bits of a float).
// Conditions: main graph only; rank-4 activations.
//
// convert_dynamic_int8_to_channels_last (in the fused level, after
// fuse_conv_integer_epilogue and the blocked layout): the same for the
// dynamic form only: chains start at FusedConvInteger alone, so a model
// without one (float, static QDQ, QLinearConv) is left as it was; a
// QLinearConv stays channels-first, and so does a float GlobalAveragePool
// (as a ReduceMean it could sum in another order): the outputs stay the
// same bit for bit.
#include <algorithm>
#include <unordered_map>
#include <unordered_set>

#include "core/passes/function_pass.h"
#include "core/passes/layout_chain.h"
#include "core/passes/node_policy.h"
#include "core/passes/pass.h"
#include "core/passes/pass_catalog.h"
#include "core/passes/rule_helpers.h"
#include "core/passes/transpose_perm.h"

namespace passlab::passes {

namespace {

const std::vector<int64_t> kToLast{0, 2, 3, 1};
const std::vector<int64_t> kToFirst{0, 3, 1, 2};
constexpr const char* kMs = "com.microsoft";
constexpr const char* kPassLab = "ai.passlab";

bool isOp(const ir::Node& n, std::string_view domain, std::initializer_list<std::string_view> ops) {
  if (n.domain() != domain) return false;
  for (std::string_view op : ops)
    if (n.opType() == op) return true;
  return false;
}

bool rank4(const ir::Value* v) {
  return v && v->type().hasShape() && v->type().shape()->rank() == 4;
}

// A MaxPool on an 8-bit tensor that NhwcMaxPool can take: no Indices output.
bool isMaxPool8(const ir::Node& n) {
  if (!isOp(n, "", {"MaxPool"}) || n.inputCount() != 1) return false;
  if (n.outputCount() > 1 && n.output(1) &&
      (!n.output(1)->uses().empty() || n.output(1)->isGraphOutput()))
    return false;
  const ir::Value* x = n.input(0);
  const ir::DataType t = x ? x->type().elemType() : ir::DataType::kUndefined;
  return t == ir::DataType::kUInt8 || t == ir::DataType::kInt8;
}

bool isQLinearConv(const ir::Node& n) {
  return (n.domain().empty() && n.opType() == "QLinearConv") ||
         (n.domain() == kMs && n.opType() == "QLinearConv" && n.attrInt("channels_last", 0) == 0);
}

bool isFusedConvInteger(const ir::Node& n) {
  return isOp(n, kPassLab, {"FusedConvInteger"}) && n.attrInt("channels_last", 0) == 0;
}

// The convolutions that go channels-last (QLinearConv only `withQLinear`),
// and their weights' input.
bool isConv(const ir::Node& n, bool withQLinear) {
  return (withQLinear && isQLinearConv(n)) || isFusedConvInteger(n);
}
size_t weightsInput(const ir::Node& n) {
  return isQLinearConv(n) ? 3 : 1;
}

// A DynamicQuantizeLinear whose scale and zero point no graph output is (they
// move to the channels-last node).
bool isDynamicQuantize(const ir::Node& n) {
  if (!isOp(n, "", {"DynamicQuantizeLinear"}) || n.inputCount() != 1) return false;
  for (size_t i = 1; i < n.outputCount(); ++i)
    if (n.output(i) && n.output(i)->isGraphOutput()) return false;
  return true;
}

// A FusedElementwise whose inputs all have its output's static shape.
bool isSameShapeElementwise(const ir::Node& n) {
  if (!isOp(n, kPassLab, {"FusedElementwise"}) || n.inputCount() == 0 || n.outputCount() != 1)
    return false;
  const ir::Value* y = n.output(0);
  if (!y || !y->type().hasShape() || !y->type().shape()->isStatic()) return false;
  for (const ir::Value* v : n.inputs())
    if (!v || !v->type().hasShape() || *v->type().shape() != *y->type().shape()) return false;
  return true;
}

// One constant value: a per-tensor scale.
bool perTensor(const ir::Value* scale) {
  const ir::Tensor* t = scale ? scale->initializer() : nullptr;
  return t && t->numel() == 1;
}

// The data inputs of a node that can go channels-last, or empty.
std::vector<size_t> dataInputs(const ir::Node& n, bool withQLinear) {
  if (isConv(n, withQLinear) || isDynamicQuantize(n)) return {0};
  if (isOp(n, "ai.passlab", {"QLinearLookup"}) || isMaxPool8(n)) return {0};
  if (isOp(n, "ai.passlab", {"QLinearSqueezeExcite"}) && n.attrInt("channels_last", 0) == 0)
    return {0};
  if (isOp(n, "", {"DequantizeLinear", "QuantizeLinear"}))
    return perTensor(n.inputCount() > 1 ? n.input(1) : nullptr) ? std::vector<size_t>{0}
                                                                : std::vector<size_t>{};
  if (isOp(n, "", {"Relu", "LeakyRelu", "HardSwish", "HardSigmoid", "Sigmoid"})) return {0};
  // A ReduceMean may sum in another order: not in the exact (dynamic) form.
  if (withQLinear && isOp(n, "", {"GlobalAveragePool"})) return {0};
  if (isOp(n, "", {"Add", "Mul"})) return {0, 1};
  if (isSameShapeElementwise(n)) {
    std::vector<size_t> all(n.inputCount());
    for (size_t i = 0; i < all.size(); ++i) all[i] = i;
    return all;
  }
  if (isOp(n, kMs, {"QLinearAdd", "QLinearMul"})) return {0, 3};
  if (isOp(n, "", {"Concat"}) && (n.attrInt("axis", 1) == 1 || n.attrInt("axis", 1) == -3)) {
    std::vector<size_t> all(n.inputCount());
    for (size_t i = 0; i < all.size(); ++i) all[i] = i;
    return all;
  }
  return {};
}

class ChannelsLast {
 public:
  ChannelsLast(PassContext& ctx, bool withQLinear)
      : ctx_(ctx), rw_(ctx.rewriter), g_(ctx.model().graph()), withQLinear_(withQLinear) {}

  Status run() {
    converted_ = convertInGraphOrder(g_, ctx_.filter, [&](ir::Node& n) { return convert(n); });
    keepWideningEndsChannelsFirst();
    if (converted_.empty()) return Status::ok();
    dropTransposesToLast();
    transposeBackWhereRead();
    removeConverted(rw_, g_, converted_);
    if (ctx_.note)
      *ctx_.note =
          Text::of("%1 nodes channels-last, %2 Transposes in, %3 out",
                   std::to_string(converted_.size()), std::to_string(in_), std::to_string(out_));
    return Status::ok();
  }

 private:
  void note(const ir::Node& n, const Text& why) {
    if (ctx_.explain)
      ctx_.explain->note(
          n.id(),
          withQLinear_ ? "convert_int8_to_channels_last" : "convert_dynamic_int8_to_channels_last",
          why);
  }

  ir::Value* lastOf(const ir::Value* v) const {
    auto it = last_.find(v);
    return it == last_.end() ? nullptr : it->second;
  }

  // `v` channels-last: the value made already, or a new Transpose before `before`.
  ir::Value* lastInput(ir::Value* v, ir::Node* before) {
    if (ir::Value* l = lastOf(v)) return l;
    const ir::Node* from = v->producer() ? v->producer() : before;
    ir::Node* t = rw_.addNode(g_, "Transpose", "", {v}, 1, before, "", {from});
    rw_.setAttr(t, ir::Attribute::makeInts("perm", kToLast));
    rw_.setType(t->output(0), permutedType(v, kToLast));
    last_[v] = t->output(0);
    ++in_;
    return t->output(0);
  }

  // A QLinearConv whose output another node of the list reads.
  bool feedsConvertible(const ir::Node& n) const {
    for (const ir::Use& u : n.output(0)->uses())
      if (!dataInputs(*u.node, withQLinear_).empty()) return true;
    return false;
  }

  bool convert(ir::Node& n) {
    const std::vector<size_t> data = dataInputs(n, withQLinear_);
    const bool pool = isMaxPool8(n), dynamic = isDynamicQuantize(n);
    if (data.empty() || (n.outputCount() != 1 && !pool && !dynamic) || !rank4(n.output(0)))
      return false;
    for (size_t i : data)
      if (!rank4(n.input(i))) {
        note(n, "an operand is not of rank 4");
        return false;
      }
    const bool conv = isConv(n, withQLinear_);
    if (conv) {
      const ir::Value* w = n.input(weightsInput(n));
      if (!rank4(w)) {
        note(n, "not a 2-D convolution with known weights");
        return false;
      }
      if (!lastOf(n.input(0)) && !feedsConvertible(n)) {
        note(n, "a lone convolution (its input and readers are channels-first)");
        return false;
      }
    } else {
      for (size_t i : data)
        if (!lastOf(n.input(i))) return false;
    }
    std::vector<ir::Value*> ins = n.inputs();
    for (size_t i : data) ins[i] = lastInput(n.input(i), &n);
    ir::Node* m = nullptr;
    if (conv) {
      const bool fused = isFusedConvInteger(n);
      m = rw_.addNode(g_, fused ? "FusedConvInteger" : "QLinearConv", fused ? kPassLab : kMs, ins,
                      1, &n, "", {&n});
      if (!fused && !ctx_.model().opsetVersion(kMs)) rw_.setOpsetVersion(kMs, 1);
      for (const ir::Attribute& a : n.attributes())
        if (auto c = copyAttribute(a)) rw_.setAttr(m, std::move(*c));
      rw_.setAttr(m, ir::Attribute::makeInt("channels_last", 1));
    } else if (pool) {
      m = rw_.addNode(g_, "NhwcMaxPool", kMs, ins, 1, &n, "", {&n});
      if (!ctx_.model().opsetVersion(kMs)) rw_.setOpsetVersion(kMs, 1);
      for (const ir::Attribute& a : n.attributes())
        if (a.name() != "storage_order")
          if (auto c = copyAttribute(a)) rw_.setAttr(m, std::move(*c));
    } else if (dynamic) {
      // y channels-last; the scale and zero point are the same scalars.
      m = rw_.addNode(g_, n.opType(), n.domain(), ins, n.outputCount(), &n, "", {&n});
      for (size_t i = 1; i < n.outputCount(); ++i)
        if (ir::Value* old = n.output(i)) {
          rw_.setType(m->output(i), old->type());
          rw_.replaceAllUsesWith(old, m->output(i));
        }
    } else if (n.opType() == "Concat") {
      m = rw_.addNode(g_, "Concat", "", ins, 1, &n, "", {&n});
      rw_.setAttr(m, ir::Attribute::makeInt("axis", 3));
    } else if (n.opType() == "GlobalAveragePool") {
      const bool axesInput = ctx_.model().opsetVersion("").value_or(13) >= 18;
      if (axesInput)
        ins.push_back(addConstant(rw_, g_, &n, n.output(0)->name() + "_axes",
                                  ir::Tensor::fromInt64s({1, 2}), {&n}));
      m = rw_.addNode(g_, "ReduceMean", "", ins, 1, &n, "", {&n});
      if (!axesInput) rw_.setAttr(m, ir::Attribute::makeInts("axes", {1, 2}));
      rw_.setAttr(m, ir::Attribute::makeInt("keepdims", 1));
    } else {
      m = rw_.addNode(g_, n.opType(), n.domain(), ins, 1, &n, "", {&n});
      for (const ir::Attribute& a : n.attributes())
        if (auto c = copyAttribute(a)) rw_.setAttr(m, std::move(*c));
      if (n.opType() == "QLinearSqueezeExcite")
        rw_.setAttr(m, ir::Attribute::makeInt("channels_last", 1));
    }
    rw_.setType(m->output(0), permutedType(n.output(0), kToLast));
    last_[n.output(0)] = m->output(0);
    return true;
  }

  // A node whose output holds as many bytes per element as its input or more.
  static bool widening(const ir::Node& n) {
    return isOp(n, "",
                {"DequantizeLinear", "Relu", "LeakyRelu", "HardSwish", "HardSigmoid", "Sigmoid"}) ||
           isOp(n, "ai.passlab", {"QLinearLookup"});
  }

  // Converted widening nodes that no converted node reads, last first (so
  // that a run of them at a chain's end goes back whole), return to
  // channels-first: their channels-last copies go.
  void keepWideningEndsChannelsFirst() {
    std::unordered_set<const ir::Node*> chain(converted_.begin(), converted_.end());
    for (size_t i = converted_.size(); i-- > 0;) {
      ir::Node* n = converted_[i];
      if (!widening(*n)) continue;
      bool readInside = false;
      for (const ir::Use& u : n->output(0)->uses()) readInside = readInside || chain.count(u.node);
      if (readInside || onlyTransposedToLast(n->output(0))) continue;
      rw_.removeNode(last_.at(n->output(0))->producer());
      last_.erase(n->output(0));
      chain.erase(n);
      converted_.erase(converted_.begin() + static_cast<std::ptrdiff_t>(i));
    }
  }

  bool isGraphOutput(const ir::Value* v) const {
    return std::find(g_.outputs().begin(), g_.outputs().end(), v) != g_.outputs().end();
  }

  // A Transpose to channels-last whose output is not a graph output, and
  // which the step's filter lets it remove.
  bool transposeToLast(const ir::Node& n) const {
    return isOp(n, "", {"Transpose"}) && n.attrInts("perm") == kToLast &&
           !isGraphOutput(n.output(0)) && mayChange(ctx_, n);
  }

  // Whether `v` is read, and only by such Transposes (and is not a graph output).
  bool onlyTransposedToLast(const ir::Value* v) const {
    if (v->uses().empty() || isGraphOutput(v)) return false;
    for (const ir::Use& u : v->uses())
      if (!transposeToLast(*u.node)) return false;
    return true;
  }

  // A Transpose to channels-last of a converted output: its readers read the
  // channels-last value instead, and it goes.
  void dropTransposesToLast() {
    for (ir::Node* n : converted_) {
      ir::Value* y = n->output(0);
      std::vector<ir::Node*> drop;
      for (const ir::Use& u : y->uses())
        if (transposeToLast(*u.node) && std::find(drop.begin(), drop.end(), u.node) == drop.end())
          drop.push_back(u.node);
      for (ir::Node* t : drop) {
        rw_.replaceAllUsesWith(t->output(0), last_.at(y));
        rw_.removeNode(t);
      }
    }
  }

  // A Transpose back for every converted output that an unconverted node or
  // the graph's outputs read; it takes over the value's uses.
  void transposeBackWhereRead() {
    for (ir::Node* n : readOutsideChain(g_, converted_)) {
      ir::Value* y = n->output(0);
      ir::Node* t = rw_.addNode(g_, "Transpose", "", {last_.at(y)}, 1, n, "", {n});
      rw_.setAttr(t, ir::Attribute::makeInts("perm", kToFirst));
      rw_.setType(t->output(0), y->type());
      rw_.replaceAllUsesWith(y, t->output(0));
      ++out_;
    }
  }

  PassContext& ctx_;
  rewrite::Rewriter& rw_;
  ir::Graph& g_;
  const bool withQLinear_;
  std::unordered_map<const ir::Value*, ir::Value*> last_;
  std::vector<ir::Node*> converted_;
  size_t in_ = 0, out_ = 0;
};

}  // namespace

std::unique_ptr<Pass> makeConvertInt8ToChannelsLast() {
  return std::make_unique<FunctionPass>(
      catalogInfo("convert_int8_to_channels_last"),
      [](PassContext& ctx) { return ChannelsLast(ctx, /*withQLinear=*/true).run(); });
}

std::unique_ptr<Pass> makeConvertDynamicInt8ToChannelsLast() {
  return std::make_unique<FunctionPass>(
      catalogInfo("convert_dynamic_int8_to_channels_last"),
      [](PassContext& ctx) { return ChannelsLast(ctx, /*withQLinear=*/false).run(); });
}

}  // namespace passlab::passes
