// quantize_dynamic — precision: INT8 dynamic quantization of MatMul, Gemm and
// Conv weights (lossy: the check holds the outputs to the accuracy budget), in the
// form ONNX Runtime's quantize_dynamic writes:
//
// Before:  y = MatMul(a, w)                       (w a float32 constant [K, N])
// After:   aq, as, az = DynamicQuantizeLinear(a)  (uint8, per tensor, per run)
//          yi = MatMulInteger(aq, wq, az, wz)     (wq int8 [K, N], symmetric: wz = 0)
//          y = Mul(Cast <to = 1> (yi), Mul(as, ws))
//
// The weights are quantized once, symmetric int8 in [-127, 127] ([-64, 64]
// with reduce_range, as ONNX Runtime's option: 7 bits, so that a CPU without
// VNNI cannot saturate its 16-bit sums of u8 x s8 pairs; the default, auto,
// chooses 7 bits on a CPU without AVX-512 VNNI or AVX-VNNI, the note says
// which: reduce_range_option.h), one scale
// per output column (per_channel, default) or one for the tensor; a column
// of zeros gets scale 1. Gemm (transA = 0) is the same with B transposed
// first when transB = 1, alpha folded into the weight scales and beta * C
// added after. The activations are quantized at run time by
// DynamicQuantizeLinear (uint8, asymmetric, per tensor), so no calibration.
// Conv is the same with ConvInteger (the Conv's attributes) for MatMulInteger:
// W [M, C/group, k...] int8 with one scale per output channel (a [M, 1, ...]
// tensor that broadcasts over the output) or one, a scalar int8 zero point 0,
// and the bias B added after the Mul.
// Conditions: a float32 A; a float32 constant weight (rank 2; a Conv's rank
// 3 or more) with at least min_weights elements; MatMul with A of rank >= 2;
// a Conv's B absent or a float32 constant; the op in op_types; opset >= 11.
// A constant is an initializer that is not a graph input or the output of a
// Constant node (paddle2onnx writes every weight so); a Constant node left
// unread goes with the float node.
// Subgraphs (If branches, Loop and Scan bodies, to any depth) are quantized
// too (option subgraphs, default true): a node in a body is rewritten in its
// body, with a weight that is an initializer of the body or of an enclosing
// graph; the new int8 weights and scales go to the body. The node's inputs
// and output keep their float32 types, so the bodies' interfaces do not
// change. With subgraphs=false the note counts the MatMul, Gemm and Conv
// nodes left in bodies.
// Running it again changes nothing: no MatMul with a float weight is left.
#include <algorithm>
#include <cmath>
#include <optional>
#include <set>
#include <string>
#include <vector>

#include "core/passes/function_pass.h"
#include "core/passes/fusion_utils.h"
#include "core/passes/matrix_weight.h"
#include "core/passes/node_policy.h"
#include "core/passes/pass.h"
#include "core/passes/pass_catalog.h"
#include "core/passes/reduce_range_option.h"
#include "core/passes/rule_helpers.h"
#include "core/rewrite/match_utils.h"
#include "core/support/strings.h"

namespace passlab::passes {

namespace {

constexpr const char* kId = "quantize_dynamic";

// A float32 weight as symmetric int8, one scale per channel (`channels`
// of them, channelOf(i) the channel of element i) or one.
struct QuantizedWeight {
  ir::Tensor values;          // int8, the weight's dims
  std::vector<float> scales;  // channels, or 1
};

template <class ChannelOf>
QuantizedWeight quantizeSymmetric(const std::vector<float>& w, std::vector<int64_t> dims,
                                  size_t channels, ChannelOf channelOf, float alpha, float qmax) {
  std::vector<float> maxAbs(channels, 0);
  for (size_t i = 0; i < w.size(); ++i) {
    float& m = maxAbs[channels > 1 ? channelOf(i) : 0];
    m = std::max(m, std::fabs(w[i]));
  }
  QuantizedWeight q;
  q.scales.resize(channels);
  for (size_t c = 0; c < channels; ++c) q.scales[c] = maxAbs[c] > 0 ? maxAbs[c] / qmax : 1.0f;
  std::vector<int8_t> values(w.size());
  for (size_t i = 0; i < w.size(); ++i) {
    const float s = q.scales[channels > 1 ? channelOf(i) : 0];
    values[i] = static_cast<int8_t>(std::clamp(std::nearbyint(w[i] / s), -qmax, qmax));
  }
  q.values = ir::Tensor::fromVector<int8_t>(ir::DataType::kInt8, std::move(dims), values);
  for (float& s : q.scales) s *= alpha;  // Gemm's alpha: a scale of the product
  return q;
}

// A weight [K, N] with one scale per column (or one).
QuantizedWeight quantizeWeight(const std::vector<float>& w, int64_t k, int64_t n, bool perChannel,
                               float alpha, float qmax) {
  return quantizeSymmetric(
      w, {k, n}, perChannel ? static_cast<size_t>(n) : 1,
      [n](size_t i) { return i % static_cast<size_t>(n); }, alpha, qmax);
}

// The node's weight as float32 [K, N] (transposed when `transposed`).
std::optional<std::vector<float>> weightKN(const ir::Tensor& t, bool transposed, int64_t& k,
                                           int64_t& n) {
  if (t.dtype() != ir::DataType::kFloat || t.rank() != 2) return std::nullopt;
  auto d = t.data<float>();
  const int64_t rows = t.dims()[0], cols = t.dims()[1];
  k = transposed ? cols : rows;
  n = transposed ? rows : cols;
  std::vector<float> out(static_cast<size_t>(k * n));
  for (int64_t r = 0; r < rows; ++r)
    for (int64_t c = 0; c < cols; ++c)
      out[static_cast<size_t>(transposed ? c * rows + r : r * cols + c)] =
          d[static_cast<size_t>(r * cols + c)];
  return out;
}

bool isFloat32(const ir::Value* v) {
  return v && v->type().isTensor() && v->type().elemType() == ir::DataType::kFloat;
}

class Quantizer {
 public:
  explicit Quantizer(PassContext& ctx)
      : ctx_(ctx),
        rw_(ctx.rewriter),
        g_(ctx.model().graph()),
        perChannel_(ctx.boolOption("per_channel")),
        subgraphs_(ctx.boolOption("subgraphs")),
        minWeights_(ctx.intOption("min_weights")) {}

  Status run() {
    auto range = readWeightRange(ctx_, kId);
    if (!range) return range.error();
    weightRange_ = *range;
    weightQmax_ = range->reduced ? 64.0f : 127.0f;
    PASSLAB_RETURN_IF_ERROR(readOpTypes());
    collect(g_);
    PASSLAB_RETURN_IF_ERROR(forEachNode(ctx_, kId, kId, matrices_, [&](ir::Node& n) {
      Text why =
          ops_.contains(n.opType()) ? whyNot(n) : Text::of("%1 is not in op_types", n.opType());
      if (why.empty())
        quantize(n);
      else if (ctx_.explain)
        ctx_.explain->note(n.id(), kId, std::move(why));
      return Status::ok();
    }));
    PASSLAB_RETURN_IF_ERROR(quantizeConvs());
    writeNote();
    return Status::ok();
  }

 private:
  Text whyNot(const ir::Node& n) const {
    if (!isFloat32(n.input(0))) return "A is not float32";
    if (Text why = whyNotConstantMatrixWeight(n); !why.empty()) return why;
    const int64_t numel = rewrite::constantValue(n.input(1))->numel();
    if (numel < minWeights_)
      return Text::of("the weight has %1 elements, fewer than min_weights", std::to_string(numel));
    if (n.opType() == "MatMul") {
      auto r = rankOf(n.input(0));
      if (!r || *r < 2) return "A's rank is unknown or below 2";
    } else if (n.input(2) && !isFloat32(n.input(2))) {
      return "C is not float32";
    }
    return "";
  }

  void writeNote() {
    if (!ctx_.note || quantized_ + convCount_ + leftInBodies_ == 0) return;
    Text note =
        Text::of("%1 MatMul/Gemm and %2 Conv weights in int8 (%3), activations quantized per run",
                 std::to_string(quantized_), std::to_string(convCount_),
                 std::string(perChannel_ ? "per output channel" : "per tensor") +
                     (weightQmax_ < 127 ? ", 7 bits" : ""));
    if (Text range = weightRangeNote(weightRange_); quantized_ + convCount_ > 0 && !range.empty())
      note = Text::of("%1; %2", note, range);
    if (inBodies_)
      note = Text::of("%1; %2 of them inside subgraphs", note, std::to_string(inBodies_));
    if (leftInBodies_)
      note = Text::of(
          "%1; %2 MatMul, Gemm and Conv nodes inside subgraphs left float32 (subgraphs=false, "
          "or their node is excluded)",
          note, std::to_string(leftInBodies_));
    *ctx_.note = note;
  }

  static bool isCandidate(const ir::Node& n) {
    return isDefaultOp(n, "MatMul") || isDefaultOp(n, "Gemm") || isDefaultOp(n, "Conv");
  }

  // The default-domain MatMul, Gemm (matrices_) and Conv (convs_) nodes of
  // `g` and, with option subgraphs, of the bodies its nodes hold (depth
  // first, after the graph's own); the candidates in bodies left are counted.
  void collect(ir::Graph& g) {
    for (const auto& n : g.nodes()) {
      if (isDefaultOp(*n, "MatMul") || isDefaultOp(*n, "Gemm")) matrices_.push_back(n.get());
      if (isDefaultOp(*n, "Conv")) convs_.push_back(n.get());
    }
    for (const auto& n : g.nodes()) {
      if (!n->hasSubgraphs()) continue;
      // A node the filter excludes keeps its bodies; one that a filter of
      // chosen nodes leaves out does not (the chosen may be in its bodies).
      const bool enter = subgraphs_ && (!ctx_.filter || !ctx_.filter->excluded.count(n->id()));
      for (ir::Graph* sub : n->subgraphs()) {
        if (enter) {
          collect(*sub);
          continue;
        }
        sub->forEachNodeRecursive([&](ir::Node* m) { leftInBodies_ += isCandidate(*m); });
      }
    }
  }

  void counted(const ir::Node& n) {
    if (n.owner() != &g_) ++inBodies_;
  }

  void quantize(ir::Node& n) {
    ir::Graph& g = *n.owner();
    counted(n);
    const bool gemm = n.opType() == "Gemm";
    int64_t k = 0, cols = 0;
    auto w = weightKN(*constantFloat(n.input(1)), gemm && n.attrInt("transB", 0) != 0, k, cols);
    QuantizedWeight q = quantizeWeight(*w, k, cols, perChannel_,
                                       gemm ? n.attrFloat("alpha", 1.0f) : 1.0f, weightQmax_);
    const std::vector<const ir::Node*> from{&n};
    const std::string base = n.output(0)->name();
    auto count = static_cast<int64_t>(q.scales.size());
    const std::vector<int8_t> zeros(q.scales.size(), 0);
    ir::Value* wq = addConstant(rw_, g, &n, base + "_wq", q.values, from);
    ir::Value* ws =
        addConstant(rw_, g, &n, base + "_ws",
                    ir::Tensor::fromVector<float>(ir::DataType::kFloat, {count}, q.scales), from);
    ir::Value* wz =
        addConstant(rw_, g, &n, base + "_wz",
                    ir::Tensor::fromVector<int8_t>(ir::DataType::kInt8, {count}, zeros), from);
    ir::Node* dq = rw_.addNode(g, "DynamicQuantizeLinear", "", {n.input(0)}, 3, &n, "", from);
    ir::Node* mm = rw_.addNode(g, "MatMulInteger", "", {dq->output(0), wq, dq->output(2), wz}, 1,
                               &n, "", from);
    ir::Node* cast = fusion::addDerived(rw_, "Cast", {mm->output(0)}, &n, from);
    rw_.setAttr(cast, ir::Attribute::makeInt("to", static_cast<int64_t>(ir::DataType::kFloat)));
    ir::Node* scale = fusion::addDerived(rw_, "Mul", {dq->output(1), ws}, &n, from);
    ir::Node* y = fusion::addDerived(rw_, "Mul", {cast->output(0), scale->output(0)}, &n, from);
    ir::Value* result = y->output(0);
    if (gemm && n.input(2)) result = addBias(n, result, from);
    rw_.setType(result, n.output(0)->type());
    fusion::replaceAndErase(rw_, n.output(0), result, {&n});
    ++quantized_;
  }

  Status readOpTypes() {
    for (const std::string& given : str::split(ctx_.option("op_types"), ',')) {
      const std::string op(str::trim(given));
      if (op.empty()) continue;
      if (op != "Conv" && op != "MatMul" && op != "Gemm")
        return invalidArgument(
            Text::of("%1: op_types names '%2'; it quantizes MatMul, Gemm and Conv", kId, op));
      ops_.insert(op);
    }
    return Status::ok();
  }

  // Each default-domain Conv collected, with the driver's policy.
  Status quantizeConvs() {
    return forEachNode(ctx_, kId, kId, convs_, [&](ir::Node& n) {
      Text why = ops_.contains("Conv") ? whyNotConv(n) : Text("Conv is not in op_types");
      if (why.empty())
        quantizeConv(n);
      else if (ctx_.explain)
        ctx_.explain->note(n.id(), kId, std::move(why));
      return Status::ok();
    });
  }

  Text whyNotConv(const ir::Node& n) const {
    if (!isFloat32(n.input(0))) return "X is not float32";
    const ir::Value* w = n.input(1);
    auto weight = constantFloat(w);
    if (!weight) return "the weight is not a float32 constant (an initializer or a Constant node)";
    const ir::Tensor& t = *weight;
    if (t.rank() < 3) return Text::of("the weight is %1, not [M, C/group, k...]", t.summary());
    if (t.numel() < minWeights_)
      return Text::of("the weight has %1 elements, fewer than min_weights",
                      std::to_string(t.numel()));
    const ir::Value* b = n.input(2);
    if (b && !(constantFloat(b) && constantFloat(b)->numel() == t.dims()[0]))
      return "B is not a float32 constant with one value per output channel";
    return "";
  }

  // X -> DynamicQuantizeLinear -> ConvInteger -> Cast -> Mul(x_scale * w_scale) [-> Add B].
  void quantizeConv(ir::Node& n) {
    ir::Graph& g = *n.owner();
    counted(n);
    const ir::Tensor wt = *constantFloat(n.input(1));
    const int64_t m = wt.dims()[0];
    const auto perOutput = static_cast<size_t>(wt.numel() / m);
    auto d = wt.data<float>();
    QuantizedWeight q = quantizeSymmetric(
        std::vector<float>(d.begin(), d.end()), wt.dims(), perChannel_ ? static_cast<size_t>(m) : 1,
        [perOutput](size_t i) { return i / perOutput; }, 1.0f, weightQmax_);
    // [M, 1, ...]: one value per channel of the output [N, M, spatial...].
    std::vector<int64_t> perChannelDims(static_cast<size_t>(wt.rank() - 1), 1);
    perChannelDims[0] = m;
    const std::vector<const ir::Node*> from{&n};
    const std::string base = n.output(0)->name();
    ir::Value* wq = addConstant(rw_, g, &n, base + "_wq", q.values, from);
    ir::Value* ws = addConstant(
        rw_, g, &n, base + "_ws",
        ir::Tensor::fromVector<float>(
            ir::DataType::kFloat, perChannel_ ? perChannelDims : std::vector<int64_t>{1}, q.scales),
        from);
    ir::Value* wz = addConstant(rw_, g, &n, base + "_wz",
                                ir::Tensor::fromVector<int8_t>(ir::DataType::kInt8, {}, {0}), from);
    ir::Node* dq = rw_.addNode(g, "DynamicQuantizeLinear", "", {n.input(0)}, 3, &n, "", from);
    ir::Node* conv =
        rw_.addNode(g, "ConvInteger", "", {dq->output(0), wq, dq->output(2), wz}, 1, &n, "", from);
    for (const ir::Attribute& a : n.attributes())
      if (auto copy = copyAttribute(a)) rw_.setAttr(conv, std::move(*copy));
    ir::Node* cast = fusion::addDerived(rw_, "Cast", {conv->output(0)}, &n, from);
    rw_.setAttr(cast, ir::Attribute::makeInt("to", static_cast<int64_t>(ir::DataType::kFloat)));
    ir::Node* scale = fusion::addDerived(rw_, "Mul", {dq->output(1), ws}, &n, from);
    ir::Node* y = fusion::addDerived(rw_, "Mul", {cast->output(0), scale->output(0)}, &n, from);
    ir::Value* result = y->output(0);
    if (const ir::Value* b = n.input(2)) {
      const ir::Tensor bt = *constantFloat(b);
      auto bv = bt.data<float>();
      ir::Value* bias =
          addConstant(rw_, g, &n, base + "_bias",
                      ir::Tensor::fromVector<float>(ir::DataType::kFloat, perChannelDims,
                                                    std::vector<float>(bv.begin(), bv.end())),
                      from);
      result = fusion::addDerived(rw_, "Add", {result, bias}, &n, from)->output(0);
    }
    rw_.setType(result, n.output(0)->type());
    fusion::replaceAndErase(rw_, n.output(0), result, {&n});
    ++convCount_;
  }

  // Gemm's beta * C after the product.
  ir::Value* addBias(ir::Node& n, ir::Value* product, const std::vector<const ir::Node*>& from) {
    ir::Graph& g = *n.owner();
    ir::Value* c = n.input(2);
    const float beta = n.attrFloat("beta", 1.0f);
    if (beta != 1.0f) {
      ir::Value* b = addConstant(rw_, g, &n, n.output(0)->name() + "_beta",
                                 ir::Tensor::scalarFloat(beta), from);
      c = fusion::addDerived(rw_, "Mul", {c, b}, &n, from)->output(0);
    }
    return fusion::addDerived(rw_, "Add", {product, c}, &n, from)->output(0);
  }

  PassContext& ctx_;
  rewrite::Rewriter& rw_;
  ir::Graph& g_;
  bool perChannel_;
  bool subgraphs_;
  WeightRange weightRange_;    // reduce_range as given or chosen (auto)
  float weightQmax_ = 127.0f;  // 64 with reduce_range (7 bits)
  int64_t minWeights_;
  std::set<std::string> ops_;
  std::vector<ir::Node*> matrices_, convs_;
  size_t quantized_ = 0, convCount_ = 0, inBodies_ = 0, leftInBodies_ = 0;
};

}  // namespace

std::unique_ptr<Pass> makeQuantizeDynamic() {
  return std::make_unique<FunctionPass>(catalogInfo(kId),
                                        [](PassContext& ctx) { return Quantizer(ctx).run(); });
}

}  // namespace passlab::passes
