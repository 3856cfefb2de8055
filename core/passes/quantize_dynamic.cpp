// quantize_dynamic — precision: INT8 dynamic quantization of MatMul and Gemm
// weights (lossy: the check holds the outputs to the accuracy budget), in the
// form ONNX Runtime's quantize_dynamic writes:
//
// Before:  y = MatMul(a, w)                       (w a float32 constant [K, N])
// After:   aq, as, az = DynamicQuantizeLinear(a)  (uint8, per tensor, per run)
//          yi = MatMulInteger(aq, wq, az, wz)     (wq int8 [K, N], symmetric: wz = 0)
//          y = Mul(Cast <to = 1> (yi), Mul(as, ws))
//
// The weights are quantized once, symmetric int8 in [-127, 127], one scale
// per output column (per_channel, default) or one for the tensor; a column
// of zeros gets scale 1. Gemm (transA = 0) is the same with B transposed
// first when transB = 1, alpha folded into the weight scales and beta * C
// added after. The activations are quantized at run time by
// DynamicQuantizeLinear (uint8, asymmetric, per tensor), so no calibration.
// Conditions: a float32 A; a float32 constant weight of rank 2 with at least
// min_weights elements; MatMul with A of rank >= 2; opset >= 11.
// Running it again changes nothing: no MatMul with a float weight is left.
#include <algorithm>
#include <cmath>

#include "core/passes/function_pass.h"
#include "core/passes/fusion_utils.h"
#include "core/passes/matrix_weight.h"
#include "core/passes/pass.h"
#include "core/passes/pass_catalog.h"
#include "core/passes/rule_helpers.h"

namespace passlab::passes {

namespace {

constexpr const char* kId = "quantize_dynamic";

// A float32 weight [K, N] as symmetric int8, one scale per column (or one).
struct QuantizedWeight {
  ir::Tensor values;          // int8 [K, N]
  std::vector<float> scales;  // N, or 1
  std::vector<int8_t> zeros;  // the same count, all 0
};

QuantizedWeight quantizeWeight(const std::vector<float>& w, int64_t k, int64_t n, bool perChannel,
                               float alpha) {
  const size_t groups = perChannel ? static_cast<size_t>(n) : 1;
  std::vector<float> maxAbs(groups, 0);
  for (int64_t r = 0; r < k; ++r)
    for (int64_t c = 0; c < n; ++c) {
      float& m = maxAbs[perChannel ? static_cast<size_t>(c) : 0];
      m = std::max(m, std::fabs(w[static_cast<size_t>(r * n + c)]));
    }
  QuantizedWeight q;
  q.scales.resize(groups);
  for (size_t g = 0; g < groups; ++g) q.scales[g] = maxAbs[g] > 0 ? maxAbs[g] / 127.0f : 1.0f;
  std::vector<int8_t> values(w.size());
  for (int64_t r = 0; r < k; ++r)
    for (int64_t c = 0; c < n; ++c) {
      const size_t i = static_cast<size_t>(r * n + c);
      const float s = q.scales[perChannel ? static_cast<size_t>(c) : 0];
      values[i] = static_cast<int8_t>(std::clamp(std::nearbyint(w[i] / s), -127.0f, 127.0f));
    }
  q.values = ir::Tensor::fromVector<int8_t>(ir::DataType::kInt8, {k, n}, values);
  for (float& s : q.scales) s *= alpha;  // Gemm's alpha: a scale of the product
  q.zeros.assign(groups, 0);
  return q;
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
        minWeights_(ctx.intOption("min_weights")) {}

  Status run() {
    PASSLAB_RETURN_IF_ERROR(forEachMatrixNode(ctx_, kId, [&](ir::Node& n) {
      Text why = whyNot(n);
      if (why.empty()) quantize(n);
      return why;
    }));
    if (ctx_.note && quantized_ > 0)
      *ctx_.note = Text::of("%1 MatMul/Gemm weights in int8 (%2), activations quantized per run",
                            std::to_string(quantized_),
                            std::string(perChannel_ ? "per column" : "per tensor"));
    return Status::ok();
  }

 private:
  Text whyNot(const ir::Node& n) const {
    if (!isFloat32(n.input(0))) return "A is not float32";
    if (Text why = whyNotConstantMatrixWeight(n); !why.empty()) return why;
    const ir::Tensor& w = *n.input(1)->initializer();
    if (w.numel() < minWeights_)
      return Text::of("the weight has %1 elements, fewer than min_weights",
                      std::to_string(w.numel()));
    if (n.opType() == "MatMul") {
      auto r = rankOf(n.input(0));
      if (!r || *r < 2) return "A's rank is unknown or below 2";
    } else if (n.input(2) && !isFloat32(n.input(2))) {
      return "C is not float32";
    }
    return "";
  }

  void quantize(ir::Node& n) {
    const bool gemm = n.opType() == "Gemm";
    int64_t k = 0, cols = 0;
    auto w = weightKN(*n.input(1)->initializer(), gemm && n.attrInt("transB", 0) != 0, k, cols);
    QuantizedWeight q =
        quantizeWeight(*w, k, cols, perChannel_, gemm ? n.attrFloat("alpha", 1.0f) : 1.0f);
    const std::vector<const ir::Node*> from{&n};
    const std::string base = n.output(0)->name();
    auto count = static_cast<int64_t>(q.scales.size());
    ir::Value* wq = addConstant(rw_, g_, &n, base + "_wq", q.values, from);
    ir::Value* ws =
        addConstant(rw_, g_, &n, base + "_ws",
                    ir::Tensor::fromVector<float>(ir::DataType::kFloat, {count}, q.scales), from);
    ir::Value* wz =
        addConstant(rw_, g_, &n, base + "_wz",
                    ir::Tensor::fromVector<int8_t>(ir::DataType::kInt8, {count}, q.zeros), from);
    ir::Node* dq = rw_.addNode(g_, "DynamicQuantizeLinear", "", {n.input(0)}, 3, &n, "", from);
    ir::Node* mm = rw_.addNode(g_, "MatMulInteger", "", {dq->output(0), wq, dq->output(2), wz}, 1,
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

  // Gemm's beta * C after the product.
  ir::Value* addBias(ir::Node& n, ir::Value* product, const std::vector<const ir::Node*>& from) {
    ir::Value* c = n.input(2);
    const float beta = n.attrFloat("beta", 1.0f);
    if (beta != 1.0f) {
      ir::Value* b = addConstant(rw_, g_, &n, n.output(0)->name() + "_beta",
                                 ir::Tensor::scalarFloat(beta), from);
      c = fusion::addDerived(rw_, "Mul", {c, b}, &n, from)->output(0);
    }
    return fusion::addDerived(rw_, "Add", {product, c}, &n, from)->output(0);
  }

  PassContext& ctx_;
  rewrite::Rewriter& rw_;
  ir::Graph& g_;
  bool perChannel_;
  int64_t minWeights_;
  size_t quantized_ = 0;
};

}  // namespace

std::unique_ptr<Pass> makeQuantizeDynamic() {
  return std::make_unique<FunctionPass>(catalogInfo(kId),
                                        [](PassContext& ctx) { return Quantizer(ctx).run(); });
}

}  // namespace passlab::passes
