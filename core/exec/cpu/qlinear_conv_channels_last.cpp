#include "core/exec/cpu/qlinear_conv_channels_last.h"

#include <string>
#include <vector>

#include "core/exec/cpu/families.h"
#include "core/exec/cpu/qlinear_reference.h"
#include "core/exec/cpu/scratch_output_context.h"
#include "core/exec/parallel.h"
#include "core/ir/node.h"

namespace passlab::exec::cpu {

Dims channelsFirstDims(const Dims& d) {
  if (d.size() < 3) return d;
  Dims r{d[0], d.back()};
  r.insert(r.end(), d.begin() + 1, d.end() - 1);
  return r;
}

Dims channelsLastDims(const Dims& d) {
  if (d.size() < 3) return d;
  Dims r{d[0]};
  r.insert(r.end(), d.begin() + 2, d.end());
  r.push_back(d[1]);
  return r;
}

bool isChannelsLastQLinearConv(const ir::Node& n) {
  return n.domain() == "com.microsoft" && n.opType() == "QLinearConv" &&
         n.attrInt("channels_last", 0) != 0;
}

namespace {

// Tensors [N, A, B] -> [N, B, A] of elements of E's size.
template <class E>
void swapLastTwo(const E* x, E* y, int64_t n, int64_t a, int64_t b) {
  for (int64_t i = 0; i < n; ++i) {
    const E* xi = x + i * a * b;
    E* yi = y + i * a * b;
    for (int64_t p = 0; p < a; ++p)
      for (int64_t q = 0; q < b; ++q) yi[q * a + p] = xi[p * b + q];
  }
}

// The same for a tensor of 1- or 4-byte elements (8-bit activations, the
// float32 Y of FusedConvInteger).
Status swapLastTwo(const Tensor& x, Tensor& y, int64_t n, int64_t a, int64_t b) {
  const size_t bytes = x.numel() == 0 ? 1 : x.byteSize() / static_cast<size_t>(x.numel());
  if (bytes == 1)
    swapLastTwo(static_cast<const uint8_t*>(x.raw()), static_cast<uint8_t*>(y.mutableRaw()), n, a,
                b);
  else if (bytes == 4)
    swapLastTwo(static_cast<const uint32_t*>(x.raw()), static_cast<uint32_t*>(y.mutableRaw()), n, a,
                b);
  else
    return unsupported("a channels-last transpose of " + x.describe());
  return Status::ok();
}

int64_t spatialOf(const Dims& channelsFirst) {
  int64_t s = 1;
  for (size_t i = 2; i < channelsFirst.size(); ++i) s *= channelsFirst[i];
  return s;
}

// The NCHW kernel sees X transposed and writes an NCHW scratch output.
class ChannelsFirst final : public ScratchOutputContext {
 public:
  ChannelsFirst(KernelContext& inner, Value x) : ScratchOutputContext(inner), x_(std::move(x)) {}

  const Value* value(size_t i) const override { return i == 0 ? &x_ : inner_.value(i); }
  bool invariantInput(size_t i) const override { return i != 0 && inner_.invariantInput(i); }
  void holdsOwnCopy(size_t i) override {
    if (i != 0) inner_.holdsOwnCopy(i);
  }

 private:
  Value x_;
};

class ChannelsLastReference final : public Kernel {
 public:
  explicit ChannelsLastReference(std::unique_ptr<Kernel> nchw) : nchw_(std::move(nchw)) {}
  Status run(KernelContext& ctx) override { return runChannelsFirst(*nchw_, ctx); }

 private:
  std::unique_ptr<Kernel> nchw_;
};

}  // namespace

Status runChannelsFirst(Kernel& nchw, KernelContext& ctx) {
  const Tensor& x = ctx.input(0);
  if (x.dims().size() < 3)
    return invalidArgument("QLinearConv (channels_last): X " + x.describe() +
                           " has no spatial dims ([N, spatial..., C] expected)");
  const Dims first = channelsFirstDims(x.dims());
  PASSLAB_ASSIGN_OR_RETURN(Tensor t, ctx.scratch(x.dtype(), first));
  // [N, S, C] -> [N, C, S]
  PASSLAB_RETURN_IF_ERROR(swapLastTwo(x, t, first[0], spatialOf(first), first[1]));
  ChannelsFirst inner(ctx, Value(std::move(t)));
  PASSLAB_RETURN_IF_ERROR(nchw.run(inner));
  if (!inner.allocated()) return internalError("the NCHW QLinearConv gave no output");
  const Tensor& y = inner.output();
  PASSLAB_ASSIGN_OR_RETURN(Tensor * out, ctx.allocate(0, y.dtype(), channelsLastDims(y.dims())));
  // [N, M, S] -> [N, S, M]
  PASSLAB_RETURN_IF_ERROR(swapLastTwo(y, *out, y.dims()[0], y.dims()[1], spatialOf(y.dims())));
  return Status::ok();
}

Expected<std::unique_ptr<Kernel>> makeMsQLinearConvReference(const KernelBuild& b) {
  PASSLAB_ASSIGN_OR_RETURN(std::unique_ptr<Kernel> nchw, makeQLinearReference("QLinearConv", b));
  if (!isChannelsLastQLinearConv(b.node())) return nchw;
  return std::unique_ptr<Kernel>(new ChannelsLastReference(std::move(nchw)));
}

}  // namespace passlab::exec::cpu
