// The ai.passlab family's table and what FusedConv and FusedGemm share: the
// activation attributes and the epilogue loop (docs/fused-kernels.md).
#include <cmath>
#include <limits>

#include "core/exec/cpu/activation_rows.h"
#include "core/exec/cpu/erf_rows.h"
#include "core/exec/cpu/families.h"
#include "core/exec/cpu/passlab_blocked.h"
#include "core/exec/cpu/passlab_fused.h"
#include "core/exec/cpu/passlab_lookup.h"
#include "core/exec/cpu/passlab_squeeze_excite.h"
#include "core/exec/cpu/sigmoid_rows.h"
#include "core/exec/parallel.h"

namespace passlab::exec::cpu {

namespace fused {

Expected<Activation> parseActivation(const ir::Node& node) {
  const std::string name = node.attrString("activation", "");
  const std::vector<float> p = node.attrFloats("activation_params");
  Activation a;
  auto want = [&](size_t most) -> Status {
    if (p.size() > most)
      return invalidArgument("activation " + name + " takes at most " + std::to_string(most) +
                             " activation_params, got " + std::to_string(p.size()));
    return Status::ok();
  };
  auto param = [&](size_t i, float fallback) { return i < p.size() ? p[i] : fallback; };
  if (name.empty() || name == "Identity") {
    PASSLAB_RETURN_IF_ERROR(want(0));
  } else if (name == "Relu" || name == "Sigmoid" || name == "Tanh" || name == "HardSwish") {
    PASSLAB_RETURN_IF_ERROR(want(0));
    a.kind = name == "Relu"      ? ActKind::kRelu
             : name == "Sigmoid" ? ActKind::kSigmoid
             : name == "Tanh"    ? ActKind::kTanh
                                 : ActKind::kHardSwish;
  } else if (name == "LeakyRelu") {
    PASSLAB_RETURN_IF_ERROR(want(1));
    a.kind = ActKind::kLeakyRelu;
    a.alpha = param(0, 0.01f);
  } else if (name == "Clip") {
    PASSLAB_RETURN_IF_ERROR(want(2));
    a.kind = ActKind::kClip;
    a.alpha = param(0, -std::numeric_limits<float>::infinity());
    a.beta = param(1, std::numeric_limits<float>::infinity());
  } else if (name == "HardSigmoid") {
    PASSLAB_RETURN_IF_ERROR(want(2));
    a.kind = ActKind::kHardSigmoid;
    a.alpha = param(0, 0.2f);
    a.beta = param(1, 0.5f);
  } else if (name == "Gelu") {
    PASSLAB_RETURN_IF_ERROR(want(1));
    float mode = param(0, 0.0f);
    if (mode != 0.0f && mode != 1.0f)
      return invalidArgument("Gelu's activation_params is [0] (erf) or [1] (tanh), got " +
                             std::to_string(mode));
    a.kind = mode == 1.0f ? ActKind::kGeluTanh : ActKind::kGelu;
  } else {
    return invalidArgument("unknown activation '" + name +
                           "' (known: Relu, LeakyRelu, Clip, Sigmoid, Tanh, HardSigmoid, "
                           "HardSwish, Gelu)");
  }
  return a;
}

bool onednnEltwise(const Activation& a, dnnl::algorithm& alg, float& alpha, float& beta) {
  alpha = 0.0f;
  beta = 0.0f;
  switch (a.kind) {
    case ActKind::kNone:
      return false;
    case ActKind::kRelu:
      alg = dnnl::algorithm::eltwise_relu;
      return true;
    case ActKind::kLeakyRelu:
      alg = dnnl::algorithm::eltwise_relu;
      alpha = a.alpha;
      return true;
    case ActKind::kClip:
      // clip_v2 keeps min < x < max exact and is what ONNX Clip computes.
      alg = dnnl::algorithm::eltwise_clip_v2;
      alpha = a.alpha;
      beta = a.beta;
      return true;
    case ActKind::kSigmoid:
      alg = dnnl::algorithm::eltwise_logistic;
      return true;
    case ActKind::kTanh:
      alg = dnnl::algorithm::eltwise_tanh;
      return true;
    case ActKind::kHardSigmoid:
      return false;  // oneDNN 2.6 has no hardsigmoid: the epilogue loop applies it
    case ActKind::kHardSwish:
      alg = dnnl::algorithm::eltwise_hardswish;  // x * relu6(x + 3) / 6, ONNX's
      return true;
    case ActKind::kGelu:
      alg = dnnl::algorithm::eltwise_gelu_erf;
      return true;
    case ActKind::kGeluTanh:
      alg = dnnl::algorithm::eltwise_gelu_tanh;
      return true;
  }
  return false;
}

namespace {

// y = f(y + z) (or f(y)), one loop per activation so each vectorizes.
template <class F>
void loop(float* y, const float* z, int64_t n, F f) {
  if (z) {
    for (int64_t i = 0; i < n; ++i) y[i] = f(y[i] + z[i]);
  } else {
    for (int64_t i = 0; i < n; ++i) y[i] = f(y[i]);
  }
}

}  // namespace

void epilogue(const Activation& a, float* y, const float* z, int64_t n) {
  const float alpha = a.alpha, beta = a.beta;
  switch (a.kind) {
    case ActKind::kNone:
      if (z) loop(y, z, n, [](float x) { return x; });
      return;
    case ActKind::kRelu:
      return loop(y, z, n, [](float x) { return std::max(x, 0.0f); });
    case ActKind::kLeakyRelu:
      return loop(y, z, n, [alpha](float x) { return x < 0.0f ? alpha * x : x; });
    case ActKind::kClip:
      return loop(y, z, n,
                  [alpha, beta](float x) { return x < alpha ? alpha : (x > beta ? beta : x); });
    case ActKind::kSigmoid:  // vectorized rows (sigmoid_rows.h), within a few ulp
      if (z) loop(y, z, n, [](float x) { return x; });
      return sigmoidRow(y, y, n);
    case ActKind::kTanh:
      if (z) loop(y, z, n, [](float x) { return x; });
      return tanhRow(y, y, n);
    case ActKind::kHardSigmoid:
      return loop(y, z, n, [alpha, beta](float x) {
        float v = alpha * x + beta;
        return v < 0.0f ? 0.0f : (v > 1.0f ? 1.0f : v);
      });
    case ActKind::kHardSwish:
      return loop(y, z, n, [](float x) {
        float v = x / 6.0f + 0.5f;
        v = v < 0.0f ? 0.0f : (v > 1.0f ? 1.0f : v);
        return x * v;
      });
    case ActKind::kGelu:  // the Gelu op's rows (erf_rows.h, activation_rows.h)
      if (z) loop(y, z, n, [](float x) { return x; });
      return geluErfRow(y, nullptr, 1, 0, y, n);
    case ActKind::kGeluTanh:
      if (z) loop(y, z, n, [](float x) { return x; });
      return geluTanhRow(y, y, n);
  }
}

void epilogue(const Activation& a, Tensor& y, const Tensor* z, int threads) {
  if (a.kind == ActKind::kNone && !z) return;
  float* py = y.mutableData<float>();
  const float* pz = z ? z->data<float>() : nullptr;
  parallelFor(y.numel(), threads, kElementwiseGrain,
              [&](int64_t b, int64_t e) { epilogue(a, py + b, pz ? pz + b : nullptr, e - b); });
}

}  // namespace fused

namespace {

using fused::kDomain;

// Float32 only: the passes fuse float32 graphs and leave the others alone.
constexpr TypeSet kLookupTypes{ir::DataType::kUInt8, ir::DataType::kInt8};

const KernelDef kRows[] = {
    {kDomain, ir::passlab_ops::kFusedConv, 1, kOpsetMax, types::kFloat32, 0, Tier::kOptimized,
     "onednn.passlab.FusedConv", fused::makeFusedConv},
    {kDomain, ir::passlab_ops::kFusedConv, 1, kOpsetMax, types::kFloat32, 0, Tier::kReference,
     "cpu.passlab.FusedConv", fused::makeFusedConvRef},
    {kDomain, ir::passlab_ops::kFusedGemm, 1, kOpsetMax, types::kFloat32, 0, Tier::kOptimized,
     "onednn.passlab.FusedGemm", fused::makeFusedGemm},
    {kDomain, ir::passlab_ops::kFusedGemm, 1, kOpsetMax, types::kFloat32, 0, Tier::kReference,
     "cpu.passlab.FusedGemm", fused::makeFusedGemmRef},
    {kDomain, ir::passlab_ops::kFusedElementwise, 1, kOpsetMax, types::kFloat32, 0,
     Tier::kReference, "cpu.passlab.FusedElementwise", fused::makeFusedElementwise},
    {kDomain, ir::passlab_ops::kFusedAttention, 1, kOpsetMax, types::kFloat32, 0, Tier::kReference,
     "cpu.passlab.FusedAttention", fused::makeFusedAttention},
    {kDomain, ir::passlab_ops::kFusedLayerNorm, 1, kOpsetMax, types::kFloat32, 0, Tier::kReference,
     "cpu.passlab.FusedLayerNorm", fused::makeFusedLayerNorm},
    {kDomain, ir::passlab_ops::kFusedSoftmax, 1, kOpsetMax, types::kFloat32, 0, Tier::kReference,
     "cpu.passlab.FusedSoftmax", fused::makeFusedSoftmax},
    // The blocked layout (passlab_blocked.cpp; the blocked FusedConv above).
    {kDomain, ir::passlab_ops::kReorderToBlocked, 1, kOpsetMax, types::kFloat32, 0,
     Tier::kOptimized, "onednn.passlab.ReorderToBlocked", blocked::makeReorderToBlocked},
    {kDomain, ir::passlab_ops::kReorderToBlocked, 1, kOpsetMax, types::kFloat32, 0,
     Tier::kReference, "cpu.passlab.ReorderToBlocked", blocked::makeReorderToBlockedRef},
    {kDomain, ir::passlab_ops::kReorderFromBlocked, 1, kOpsetMax, types::kFloat32, 0,
     Tier::kOptimized, "onednn.passlab.ReorderFromBlocked", blocked::makeReorderFromBlocked},
    {kDomain, ir::passlab_ops::kReorderFromBlocked, 1, kOpsetMax, types::kFloat32, 0,
     Tier::kReference, "cpu.passlab.ReorderFromBlocked", blocked::makeReorderFromBlockedRef},
    {kDomain, ir::passlab_ops::kBlockedPool, 1, kOpsetMax, types::kFloat32, 0, Tier::kOptimized,
     "onednn.passlab.BlockedPool", blocked::makeBlockedPool},
    {kDomain, ir::passlab_ops::kBlockedPool, 1, kOpsetMax, types::kFloat32, 0, Tier::kReference,
     "cpu.passlab.BlockedPool", blocked::makeBlockedPoolRef},
    // The dynamic INT8 convolution with its dequantizing epilogue
    // (passlab_fused_conv_integer.cpp).
    {kDomain, ir::passlab_ops::kFusedConvInteger, 1, kOpsetMax, kLookupTypes, 0, Tier::kOptimized,
     "onednn.passlab.FusedConvInteger", fused::makeFusedConvInteger},
    {kDomain, ir::passlab_ops::kFusedConvInteger, 1, kOpsetMax, kLookupTypes, 0, Tier::kReference,
     "cpu.passlab.FusedConvInteger", fused::makeFusedConvIntegerRef},
    // An 8-bit function as a table (passlab_lookup.cpp).
    {kDomain, ir::passlab_ops::kQLinearLookup, 1, kOpsetMax, kLookupTypes, 0, Tier::kReference,
     "cpu.passlab.QLinearLookup", lookup::makeQLinearLookup},
    // Squeeze-excitation on an 8-bit tensor (passlab_squeeze_excite.cpp).
    {kDomain, ir::passlab_ops::kQLinearSqueezeExcite, 1, kOpsetMax, kLookupTypes, 0,
     Tier::kReference, "cpu.passlab.QLinearSqueezeExcite",
     squeeze_excite::makeQLinearSqueezeExcite},
};

}  // namespace

std::span<const KernelDef> passlabFusedKernels() {
  return kRows;
}

}  // namespace passlab::exec::cpu
