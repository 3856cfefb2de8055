// Scan as opset 8 defines it (opset 9 and later are in control_flow.cpp):
// inputs are (sequence_lens, states..., scan inputs...) with a leading batch
// dim; each batch entry runs the body over its own sequence length along axis
// 1 (reversed per `directions`). Scan outputs past an entry's length are zero.
#include <cstring>
#include <string>

#include "core/exec/cpu/data_util.h"
#include "core/exec/cpu/families.h"
#include "core/exec/kernel.h"

namespace passlab::exec::cpu {

namespace {

// Element `index` of x's leading dim, as a heap tensor without that dim.
Tensor row(const Tensor& x, int64_t index) {
  Dims d(x.dims().begin() + 1, x.dims().end());
  Tensor y = Tensor::zeros(x.dtype(), d);
  copyElements(x, index * y.numel(), y, 0, y.numel());
  return y;
}

class Scan8 final : public Kernel {
 public:
  static Expected<std::unique_ptr<Kernel>> create(const KernelBuild& b) {
    auto body = b.subgraph("body");
    if (!body) return body.error();
    const int64_t n = b.node().attrInt("num_scan_inputs", -1);
    if (n < 1) return invalidModel("num_scan_inputs is required");
    return std::unique_ptr<Kernel>(new Scan8(*body, n, b.node().attrInts("directions")));
  }

  Status run(KernelContext& ctx) override {
    const size_t inputs = ctx.inputCount();
    const auto scanIn = static_cast<size_t>(numScanInputs_);
    if (inputs < 1 + scanIn) return invalidArgument("fewer inputs than num_scan_inputs + 1");
    const size_t states = inputs - 1 - scanIn;
    const size_t scanOut = ctx.outputCount() > states ? ctx.outputCount() - states : 0;
    // Batch size and the longest sequence, from the scan inputs [batch, time, ...].
    int64_t B = -1, T = -1;
    for (size_t j = 0; j < scanIn; ++j) {
      if (!ctx.has(1 + states + j))
        return invalidArgument("scan input " + std::to_string(j) + " is missing");
      const Tensor& x = ctx.input(1 + states + j);
      if (x.rank() < 2)
        return invalidArgument("scan inputs need [batch, sequence, ...], got " + x.describe());
      if (!movable(x.dtype())) return unsupported("scanning " + x.describe());
      if ((B >= 0 && x.dim(0) != B) || (T >= 0 && x.dim(1) != T))
        return invalidArgument("scan inputs differ in batch or sequence length");
      B = x.dim(0);
      T = x.dim(1);
    }
    for (size_t s = 0; s < states; ++s)
      if (!ctx.has(1 + s) || ctx.input(1 + s).rank() < 1 || ctx.input(1 + s).dim(0) != B)
        return invalidArgument("state " + std::to_string(s) + " must have the batch size " +
                               std::to_string(B) + " as its first dim");
    std::vector<int64_t> lens(static_cast<size_t>(B), T);
    if (ctx.has(0)) {
      PASSLAB_ASSIGN_OR_RETURN(lens, readInts(ctx.input(0), "sequence_lens"));
      if (static_cast<int64_t>(lens.size()) != B)
        return invalidArgument("sequence_lens has " + std::to_string(lens.size()) +
                               " values for a batch of " + std::to_string(B));
      for (int64_t l : lens)
        if (l < 0 || l > T)
          return invalidArgument("sequence length " + std::to_string(l) + " is out of range [0, " +
                                 std::to_string(T) + "]");
    }
    // Per batch entry: final states, and per step the scan outputs.
    std::vector<std::vector<Value>> finals(static_cast<size_t>(B));
    std::vector<std::vector<std::vector<Value>>> steps(static_cast<size_t>(B));
    for (int64_t b = 0; b < B; ++b) {
      std::vector<Value> state;
      for (size_t s = 0; s < states; ++s) state.emplace_back(row(ctx.input(1 + s), b));
      for (int64_t t = 0; t < lens[static_cast<size_t>(b)]; ++t) {
        if (ctx.cancelled()) return Error(ErrorCode::kCancelled, "run cancelled inside the scan");
        std::vector<Value> in = state;
        for (size_t j = 0; j < scanIn; ++j) {
          const Tensor& x = ctx.input(1 + states + j);
          const bool reverse = j < directions_.size() && directions_[j] != 0;
          const int64_t at = reverse ? lens[static_cast<size_t>(b)] - 1 - t : t;
          in.emplace_back(row(row(x, b), at));
        }
        PASSLAB_ASSIGN_OR_RETURN(std::vector<Value> outs, ctx.runSubgraph(*body_, std::move(in)));
        if (outs.size() != states + scanOut)
          return invalidModel("the body has " + std::to_string(outs.size()) +
                              " outputs, expected " + std::to_string(states + scanOut));
        for (const Value& v : outs)
          if (!v.isTensor()) return invalidArgument("a body output is " + v.describe());
        state.assign(outs.begin(), outs.begin() + static_cast<std::ptrdiff_t>(states));
        steps[static_cast<size_t>(b)].emplace_back(
            outs.begin() + static_cast<std::ptrdiff_t>(states), outs.end());
      }
      finals[static_cast<size_t>(b)] = std::move(state);
    }
    for (size_t s = 0; s < states && s < ctx.outputCount(); ++s) {
      if (!ctx.wantsOutput(s)) continue;
      const Tensor& init = ctx.input(1 + s);
      Dims itemDims(init.dims().begin() + 1, init.dims().end());
      PASSLAB_RETURN_IF_ERROR(stack(
          ctx, s, B, 1, false,
          [&](int64_t b, int64_t) -> const Value* { return &finals[static_cast<size_t>(b)][s]; },
          itemDims, init.dtype()));
    }
    for (size_t k = 0; k < scanOut; ++k) {
      if (!ctx.wantsOutput(states + k)) continue;
      bool any = false;
      for (const auto& st : steps) any |= !st.empty();
      if (!any)
        return unsupported("a Scan whose every sequence is empty (the output shape is unknown)");
      PASSLAB_RETURN_IF_ERROR(stack(
          ctx, states + k, B, T, true,
          [&](int64_t b, int64_t t) -> const Value* {
            const auto& st = steps[static_cast<size_t>(b)];
            return t < static_cast<int64_t>(st.size()) ? &st[static_cast<size_t>(t)][k] : nullptr;
          },
          Dims{}, ir::DataType::kFloat));
    }
    return Status::ok();
  }

 private:
  Scan8(const CompiledGraph* body, int64_t n, std::vector<int64_t> directions)
      : body_(body), numScanInputs_(n), directions_(std::move(directions)) {}

  // Output `o` as [B, T, item...] (or [B, item...] for states, withTime false);
  // missing items (past a sequence's length) are zeros.
  template <class F>
  Status stack(KernelContext& ctx, size_t o, int64_t B, int64_t T, bool withTime, F item,
               const Dims& fallbackDims, ir::DataType fallbackType) {
    const Value* first = nullptr;
    for (int64_t b = 0; b < B && !first; ++b)
      for (int64_t t = 0; t < T && !first; ++t) first = item(b, t);
    const Dims itemDims = first ? first->tensor().dims() : fallbackDims;
    const ir::DataType dt = first ? first->tensor().dtype() : fallbackType;
    Dims out = {B};
    if (withTime) out.push_back(T);
    out.insert(out.end(), itemDims.begin(), itemDims.end());
    PASSLAB_ASSIGN_OR_RETURN(Tensor * y, ctx.allocate(o, dt, out));
    const int64_t n = numelOf(itemDims);
    if (!y->isString() && y->numel() > 0) std::memset(y->mutableRaw(), 0, y->byteSize());
    for (int64_t b = 0; b < B; ++b)
      for (int64_t t = 0; t < T; ++t) {
        const Value* v = item(b, t);
        if (v == nullptr) continue;
        if (v->tensor().dims() != itemDims || v->tensor().dtype() != dt)
          return invalidArgument("a scan output changes type or shape between iterations (" +
                                 first->describe() + " then " + v->describe() + ")");
        copyElements(v->tensor(), 0, *y, (b * T + t) * n, n);
      }
    return Status::ok();
  }

  const CompiledGraph* body_;
  int64_t numScanInputs_;
  std::vector<int64_t> directions_;
};

const KernelDef kRows[] = {
    {"", "Scan", 8, 8, types::kAll, kAnyType, Tier::kReference, "cpu.Scan8", makeKernel<Scan8>,
     kValueInputs},
};

}  // namespace

std::span<const KernelDef> scan8Kernels() {
  return kRows;
}

}  // namespace passlab::exec::cpu
