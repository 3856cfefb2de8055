// Control flow: If, Loop and Scan run their subgraphs through the executor
// (KernelContext::runSubgraph); the bodies see outer-scope values directly.
// Loops stop with an error past RunOptions::maxLoopIterations, and on cancel.
#include <string>

#include "core/exec/compiled_graph.h"
#include "core/exec/cpu/data_util.h"
#include "core/exec/cpu/families.h"
#include "core/exec/cpu/transpose.h"
#include "core/exec/kernel.h"

namespace passlab::exec::cpu {

namespace {

Expected<bool> readBool(const Value* v, const char* what) {
  if (v == nullptr || !v->isTensor() || v->tensor().numel() != 1)
    return invalidArgument(std::string(what) + " must be a one-element tensor");
  const Tensor& t = v->tensor();
  if (t.dtype() == ir::DataType::kBool) return t.data<bool>()[0];
  return invalidArgument(std::string(what) + " must be bool, got " + t.describe());
}

Tensor scalarInt64(int64_t v) {
  return Tensor::fromVector<int64_t>(ir::DataType::kInt64, {}, {v});
}
Tensor scalarBool(bool v) {
  return Tensor::fromVector<bool>(ir::DataType::kBool, {}, {v});
}

// Stacks per-iteration tensors along a new axis `axis` (reversed when asked).
Expected<Tensor*> stack(KernelContext& ctx, size_t output, const std::vector<Value>& items,
                        int64_t axis, bool reverse, const char* what) {
  if (items.empty()) return internalError("nothing to stack");
  const Tensor& first = items[0].tensor();
  for (const Value& v : items)
    if (!v.isTensor() || v.tensor().dtype() != first.dtype() || v.tensor().dims() != first.dims())
      return invalidArgument(std::string(what) + " changes type or shape between iterations (" +
                             first.describe() + " then " + v.describe() + ")");
  if (!movable(first.dtype())) return unsupported("stacking " + first.describe());
  const auto rank = static_cast<int64_t>(first.rank()) + 1;
  PASSLAB_ASSIGN_OR_RETURN(int64_t a, normalizeAxis(axis, rank));
  auto T = static_cast<int64_t>(items.size());
  Dims stacked = {T};
  stacked.insert(stacked.end(), first.dims().begin(), first.dims().end());
  Dims out = first.dims();
  out.insert(out.begin() + a, T);
  PASSLAB_ASSIGN_OR_RETURN(Tensor * y, ctx.allocate(output, first.dtype(), out));
  Tensor flat = a == 0 ? y->view(stacked) : Tensor::zeros(first.dtype(), stacked);
  const int64_t n = first.numel();
  for (int64_t t = 0; t < T; ++t)
    copyElements(items[static_cast<size_t>(reverse ? T - 1 - t : t)].tensor(), 0, flat, t * n, n);
  if (a != 0) {
    std::vector<int64_t> perm;
    for (int64_t d = 1; d <= a; ++d) perm.push_back(d);
    perm.push_back(0);
    for (int64_t d = a + 1; d < rank; ++d) perm.push_back(d);
    transposeInto(flat, perm, *y, ctx.threads());
  }
  return y;
}

class If final : public Kernel {
 public:
  static Expected<std::unique_ptr<Kernel>> create(const KernelBuild& b) {
    auto thenG = b.subgraph("then_branch");
    if (!thenG) return thenG.error();
    auto elseG = b.subgraph("else_branch");
    if (!elseG) return elseG.error();
    return std::unique_ptr<Kernel>(new If(*thenG, *elseG));
  }

  Status run(KernelContext& ctx) override {
    PASSLAB_ASSIGN_OR_RETURN(bool cond, readBool(ctx.value(0), "cond"));
    PASSLAB_ASSIGN_OR_RETURN(std::vector<Value> outs, ctx.runSubgraph(cond ? *then_ : *else_, {}));
    if (outs.size() < ctx.outputCount())
      return invalidModel(std::string(cond ? "then" : "else") + "_branch has " +
                          std::to_string(outs.size()) + " outputs, the node " +
                          std::to_string(ctx.outputCount()));
    for (size_t i = 0; i < ctx.outputCount(); ++i) ctx.setOutput(i, std::move(outs[i]));
    return Status::ok();
  }

 private:
  If(const CompiledGraph* t, const CompiledGraph* e) : then_(t), else_(e) {}
  const CompiledGraph* then_;
  const CompiledGraph* else_;
};

class Loop final : public Kernel {
 public:
  static Expected<std::unique_ptr<Kernel>> create(const KernelBuild& b) {
    auto body = b.subgraph("body");
    if (!body) return body.error();
    return std::unique_ptr<Kernel>(new Loop(*body));
  }

  Status run(KernelContext& ctx) override {
    int64_t maxTrips = INT64_MAX;
    if (ctx.has(0)) {
      const Tensor& m = ctx.input(0);
      if (m.numel() != 1 || m.dtype() != ir::DataType::kInt64)
        return invalidArgument("M must be an int64 scalar, got " + m.describe());
      maxTrips = m.data<int64_t>()[0];
    }
    bool cond = true;
    if (ctx.has(1)) {
      PASSLAB_ASSIGN_OR_RETURN(cond, readBool(ctx.value(1), "cond"));
    }
    const size_t carriedCount = ctx.inputCount() >= 2 ? ctx.inputCount() - 2 : 0;
    std::vector<Value> carried;
    for (size_t i = 0; i < carriedCount; ++i) {
      const Value* v = ctx.value(i + 2);
      carried.push_back(v ? *v : Value());
    }
    const size_t scanCount =
        ctx.outputCount() > carriedCount ? ctx.outputCount() - carriedCount : 0;
    std::vector<std::vector<Value>> scans(scanCount);
    int64_t trip = 0;
    for (; trip < maxTrips && cond; ++trip) {
      if (trip >= ctx.maxLoopIterations())
        return limitError("the loop ran " + std::to_string(trip) +
                          " iterations, the limit (RunOptions::maxLoopIterations); it may never "
                          "exit (trip count " +
                          (ctx.has(0) ? std::to_string(maxTrips) : std::string("none")) + ")");
      if (ctx.cancelled()) return Error(ErrorCode::kCancelled, "run cancelled inside the loop");
      std::vector<Value> in = {Value(scalarInt64(trip)), Value(scalarBool(cond))};
      in.insert(in.end(), carried.begin(), carried.end());
      PASSLAB_ASSIGN_OR_RETURN(std::vector<Value> outs, ctx.runSubgraph(*body_, std::move(in)));
      if (outs.size() != 1 + carriedCount + scanCount)
        return invalidModel("the body has " + std::to_string(outs.size()) + " outputs, expected " +
                            std::to_string(1 + carriedCount + scanCount));
      PASSLAB_ASSIGN_OR_RETURN(cond, readBool(&outs[0], "the body's condition output"));
      for (size_t i = 0; i < carriedCount; ++i) carried[i] = std::move(outs[1 + i]);
      for (size_t i = 0; i < scanCount; ++i)
        scans[i].push_back(std::move(outs[1 + carriedCount + i]));
    }
    for (size_t i = 0; i < carriedCount && i < ctx.outputCount(); ++i)
      ctx.setOutput(i, std::move(carried[i]));
    for (size_t i = 0; i < scanCount; ++i) {
      if (!ctx.wantsOutput(carriedCount + i)) continue;
      if (scans[i].empty()) {
        // No iteration: an empty tensor of the declared element type.
        auto y = ctx.allocate(carriedCount + i, scanType(1 + carriedCount + i), Dims{0});
        if (!y) return y.error();
        continue;
      }
      auto y = stack(ctx, carriedCount + i, scans[i], 0, false, "a scan output");
      if (!y) return y.error();
    }
    return Status::ok();
  }

 private:
  explicit Loop(const CompiledGraph* body) : body_(body) {}
  // The declared element type of body output k (float when undeclared).
  ir::DataType scanType(size_t k) const {
    const auto& outs = body_->graph->outputs();
    if (k < outs.size() && outs[k]->type().isTensor() &&
        outs[k]->type().elemType() != ir::DataType::kUndefined)
      return outs[k]->type().elemType();
    return ir::DataType::kFloat;
  }
  const CompiledGraph* body_;
};

class Scan final : public Kernel {
 public:
  static Expected<std::unique_ptr<Kernel>> create(const KernelBuild& b) {
    auto body = b.subgraph("body");
    if (!body) return body.error();
    const ir::Node& n = b.node();
    int64_t numScanInputs = n.attrInt("num_scan_inputs", -1);
    if (numScanInputs < 1) return invalidModel("num_scan_inputs is required");
    return std::unique_ptr<Kernel>(new Scan(*body, numScanInputs, n));
  }

  Status run(KernelContext& ctx) override {
    const size_t inputs = ctx.inputCount();
    const auto scanIn = static_cast<size_t>(numScanInputs_);
    if (inputs < scanIn) return invalidArgument("fewer inputs than num_scan_inputs");
    const size_t stateCount = inputs - scanIn;
    std::vector<Value> state;
    for (size_t i = 0; i < stateCount; ++i) state.push_back(ctx.has(i) ? *ctx.value(i) : Value());
    // The sequence length, from every scan input.
    int64_t T = -1;
    std::vector<int64_t> axes(scanIn);
    for (size_t j = 0; j < scanIn; ++j) {
      const Tensor& x = ctx.input(stateCount + j);
      int64_t axis = j < inAxes_.size() ? inAxes_[j] : 0;
      PASSLAB_ASSIGN_OR_RETURN(axes[j], normalizeAxis(axis, static_cast<int64_t>(x.rank())));
      int64_t len = x.dim(static_cast<size_t>(axes[j]));
      if (T >= 0 && len != T)
        return invalidArgument("scan inputs have different lengths (" + std::to_string(T) +
                               " and " + std::to_string(len) + ")");
      T = len;
      if (!movable(x.dtype())) return unsupported("scanning " + x.describe());
    }
    const size_t scanOut = ctx.outputCount() > stateCount ? ctx.outputCount() - stateCount : 0;
    std::vector<std::vector<Value>> scans(scanOut);
    for (int64_t t = 0; t < T; ++t) {
      if (ctx.cancelled()) return Error(ErrorCode::kCancelled, "run cancelled inside the scan");
      std::vector<Value> in = state;
      for (size_t j = 0; j < scanIn; ++j) {
        const Tensor& x = ctx.input(stateCount + j);
        bool reverse = j < inDirections_.size() && inDirections_[j] != 0;
        in.push_back(Value(sliceAt(x, axes[j], reverse ? T - 1 - t : t)));
      }
      PASSLAB_ASSIGN_OR_RETURN(std::vector<Value> outs, ctx.runSubgraph(*body_, std::move(in)));
      if (outs.size() != stateCount + scanOut)
        return invalidModel("the body has " + std::to_string(outs.size()) + " outputs, expected " +
                            std::to_string(stateCount + scanOut));
      for (size_t i = 0; i < stateCount; ++i) state[i] = std::move(outs[i]);
      for (size_t i = 0; i < scanOut; ++i) scans[i].push_back(std::move(outs[stateCount + i]));
    }
    for (size_t i = 0; i < stateCount && i < ctx.outputCount(); ++i)
      ctx.setOutput(i, std::move(state[i]));
    for (size_t i = 0; i < scanOut; ++i) {
      if (scans[i].empty()) return unsupported("a Scan over an empty sequence");
      int64_t axis = i < outAxes_.size() ? outAxes_[i] : 0;
      bool reverse = i < outDirections_.size() && outDirections_[i] != 0;
      auto y = stack(ctx, stateCount + i, scans[i], axis, reverse, "a scan output");
      if (!y) return y.error();
    }
    return Status::ok();
  }

 private:
  Scan(const CompiledGraph* body, int64_t numScanInputs, const ir::Node& n)
      : body_(body),
        numScanInputs_(numScanInputs),
        inAxes_(n.attrInts("scan_input_axes")),
        inDirections_(n.attrInts("scan_input_directions")),
        outAxes_(n.attrInts("scan_output_axes")),
        outDirections_(n.attrInts("scan_output_directions")) {}

  // x with `axis` removed, at position `index` of that axis (a copy).
  static Tensor sliceAt(const Tensor& x, int64_t axis, int64_t index) {
    Dims out;
    std::vector<int64_t> inStrides(x.rank(), 1), strides;
    for (size_t d = x.rank(); d-- > 1;) inStrides[d - 1] = inStrides[d] * x.dim(d);
    for (size_t d = 0; d < x.rank(); ++d) {
      if (static_cast<int64_t>(d) == axis) continue;
      out.push_back(x.dim(d));
      strides.push_back(inStrides[d]);
    }
    Tensor y = Tensor::zeros(x.dtype(), out);
    stridedCopy(x, index * inStrides[static_cast<size_t>(axis)], strides, y, 1);
    return y;
  }

  const CompiledGraph* body_;
  int64_t numScanInputs_;
  std::vector<int64_t> inAxes_, inDirections_, outAxes_, outDirections_;
};

const KernelDef kRows[] = {
    {"", "If", 1, kOpsetMax, types::kAll, kAnyType, Tier::kReference, "cpu.If", makeKernel<If>,
     kValueInputs},
    {"", "Loop", 1, kOpsetMax, types::kAll, kAnyType, Tier::kReference, "cpu.Loop",
     makeKernel<Loop>, kValueInputs},
    {"", "Scan", 9, kOpsetMax, types::kAll, kAnyType, Tier::kReference, "cpu.Scan",
     makeKernel<Scan>, kValueInputs},
};

}  // namespace

std::span<const KernelDef> controlFlowKernels() {
  return kRows;
}

}  // namespace passlab::exec::cpu
