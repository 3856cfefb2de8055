// PassLab's own fused operators (domain ai.passlab, version 1), emitted by the
// fusion passes when non-standard output is allowed (docs/fused-kernels.md):
//
//   FusedConv(X, W, B?, Z?)   Y = act(Conv(X, W) + B + Z)
//   FusedGemm(A, B, C?, Z?)   Y = act(alpha * A' * B' + beta * C + Z)
//   FusedElementwise(X...)    Y = a program of elementwise ops, one pass over the data
//   FusedAttention(Q, K, V, masks...)  Y = Softmax(mask(scale * Q Kᵀ)) V, a tile of scores at a
//   time
//   FusedLayerNorm(X, Scale, B?, Skip?) -> Y, Sum?  Y = LayerNorm(X + Skip) * Scale + B, one
//   pass per row
//   FusedSoftmax(X, M?)       Y = Softmax(scale * X +/- M) over the last axis, one pass per row
//
// This header holds what the FusedConv and FusedGemm kernels share: the
// activation named by the `activation` / `activation_params` attributes, the
// epilogue loop that applies it (with the residual) where oneDNN's post-ops do
// not, and the factories the family table (passlab_fused_kernels.cpp) lists.
#pragma once

#include <cstdint>
#include <oneapi/dnnl/dnnl.hpp>
#include <string>

#include "core/exec/kernel.h"
#include "core/ir/passlab_ops.h"

namespace passlab::exec::cpu::fused {

inline constexpr std::string_view kDomain = ir::passlab_ops::kDomain;

enum class ActKind : uint8_t {
  kNone,         // "" (or absent)
  kRelu,         // "Relu"
  kLeakyRelu,    // "LeakyRelu", params [alpha = 0.01]
  kClip,         // "Clip", params [min = -inf, max = +inf]
  kSigmoid,      // "Sigmoid"
  kTanh,         // "Tanh"
  kHardSigmoid,  // "HardSigmoid", params [alpha = 0.2, beta = 0.5]
  kHardSwish,    // "HardSwish"
  kGelu,         // "Gelu", params [] or [0]: the erf form
  kGeluTanh,     // "Gelu", params [1]: the tanh approximation
};

struct Activation {
  ActKind kind = ActKind::kNone;
  float alpha = 0.0f, beta = 0.0f;
};

// The activation of a FusedConv/FusedGemm node; an error names a bad name or
// parameter count.
Expected<Activation> parseActivation(const ir::Node& node);

// The activation's oneDNN eltwise post-op; false when there is none
// (kNone, or a function oneDNN lacks).
bool onednnEltwise(const Activation& a, dnnl::algorithm& alg, float& alpha, float& beta);

// y[i] = act(y[i] + z[i]) for i in [0, n); z may be null (no residual).
// The formulas are those of the ONNX reference kernels in activations.cpp,
// unary_ops.cpp and clip.cpp, in float.
void epilogue(const Activation& a, float* y, const float* z, int64_t n);
// The same over a whole tensor, split across threads.
void epilogue(const Activation& a, Tensor& y, const Tensor* z, int threads);

// Forwards everything to `inner` and remembers the tensor allocated for
// output 0, so that a fused kernel can run an unfused base kernel (the
// reference Conv, oneDNN's declines) and then its epilogue on the result.
class CaptureOutput final : public KernelContext {
 public:
  explicit CaptureOutput(KernelContext& inner) : inner_(inner) {}
  Tensor* output() const { return out_; }

  size_t inputCount() const override { return inner_.inputCount(); }
  const Value* value(size_t i) const override { return inner_.value(i); }
  size_t outputCount() const override { return inner_.outputCount(); }
  bool wantsOutput(size_t i) const override { return inner_.wantsOutput(i); }
  Expected<Tensor*> allocate(size_t i, ir::DataType dtype, Dims dims) override {
    auto t = inner_.allocate(i, dtype, std::move(dims));
    if (t && i == 0) out_ = *t;
    return t;
  }
  void setOutput(size_t i, Value v) override { inner_.setOutput(i, std::move(v)); }
  Expected<Tensor> scratch(ir::DataType dtype, Dims dims) override {
    return inner_.scratch(dtype, std::move(dims));
  }
  int threads() const override { return inner_.threads(); }
  bool invariantInput(size_t i) const override { return inner_.invariantInput(i); }
  bool cancelled() const override { return inner_.cancelled(); }
  int64_t maxLoopIterations() const override { return inner_.maxLoopIterations(); }

 private:
  KernelContext& inner_;
  Tensor* out_ = nullptr;
};

// Factories (passlab_fused_conv.cpp, passlab_fused_gemm.cpp, passlab_fused_elementwise.cpp).
Expected<std::unique_ptr<Kernel>> makeFusedConv(const KernelBuild& b);     // oneDNN, post-ops
Expected<std::unique_ptr<Kernel>> makeFusedConvRef(const KernelBuild& b);  // reference + epilogue
// FusedConvInteger (passlab_fused_conv_integer.cpp): oneDNN's int8 convolution
// and one dequantizing epilogue; the reference ConvInteger and the same epilogue.
Expected<std::unique_ptr<Kernel>> makeFusedConvInteger(const KernelBuild& b);
Expected<std::unique_ptr<Kernel>> makeFusedConvIntegerRef(const KernelBuild& b);
Expected<std::unique_ptr<Kernel>> makeFusedGemm(const KernelBuild& b);     // oneDNN, post-ops
Expected<std::unique_ptr<Kernel>> makeFusedGemmRef(const KernelBuild& b);  // loops + epilogue
Expected<std::unique_ptr<Kernel>> makeFusedElementwise(const KernelBuild& b);
Expected<std::unique_ptr<Kernel>> makeFusedAttention(
    const KernelBuild& b);  // passlab_fused_attention.cpp
Expected<std::unique_ptr<Kernel>> makeFusedLayerNorm(
    const KernelBuild& b);  // passlab_fused_layer_norm.cpp
Expected<std::unique_ptr<Kernel>> makeFusedSoftmax(
    const KernelBuild& b);  // passlab_fused_softmax.cpp

}  // namespace passlab::exec::cpu::fused
