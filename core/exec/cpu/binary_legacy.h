// Binary elementwise kernels that also run the opset 1-6 versions, where B
// broadcasts to A only when the node says so: broadcast=1 lines B's dims up
// with A's starting at `axis` (default: A's trailing dims); broadcast=0 needs
// equal shapes. From opset 7 both operands broadcast numpy-style.
//
//   struct EqualOp { static constexpr TypeSet kTypes = ...; bool operator()(C, C) const; };
//   legacyBinaryRow<EqualOp>("Equal", 1, kOpsetMax, "cpu.Equal"),
#pragma once

#include <optional>
#include <string>

#include "core/exec/cpu/elementwise.h"

namespace passlab::exec::cpu {

// B seen with A's rank for the pre-opset-7 broadcast rule; an error names the mismatch.
inline Expected<Tensor> legacyBroadcastOperand(const Tensor& a, const Tensor& b, bool broadcast,
                                               std::optional<int64_t> axis) {
  if (!broadcast) {
    if (a.dims() != b.dims())
      return invalidArgument("shapes " + dimsToString(a.dims()) + " and " + dimsToString(b.dims()) +
                             " differ and the node does not set broadcast=1");
    return b;
  }
  const auto ra = static_cast<int64_t>(a.rank());
  const auto rb = static_cast<int64_t>(b.rank());
  // A scalar-like B (one element) goes with anything.
  if (b.numel() == 1) return b.view(Dims(a.rank(), 1));
  int64_t start = axis ? *axis : ra - rb;
  if (start < 0) start += ra;
  if (rb > ra || start < 0 || start + rb > ra)
    return invalidArgument("B " + dimsToString(b.dims()) + " cannot be broadcast to A " +
                           dimsToString(a.dims()) + " at axis " + std::to_string(start));
  Dims d(a.rank(), 1);
  for (int64_t i = 0; i < rb; ++i) {
    int64_t bd = b.dim(static_cast<size_t>(i));
    int64_t ad = a.dim(static_cast<size_t>(start + i));
    if (bd != ad && bd != 1)
      return invalidArgument("B " + dimsToString(b.dims()) + " does not match A " +
                             dimsToString(a.dims()) + " at axis " + std::to_string(start));
    d[static_cast<size_t>(start + i)] = bd;
  }
  return b.view(std::move(d));
}

// Reads the pre-opset-7 broadcast attributes of a node.
struct LegacyBroadcast {
  LegacyBroadcast(const KernelBuild& b)  // NOLINT: built from the row's factory argument
      : legacy(b.opset() < 7),
        broadcast(b.node().attrInt("broadcast", 0) != 0),
        axis(b.node().hasAttr("axis") ? std::optional<int64_t>(b.node().attrInt("axis", 0))
                                      : std::nullopt) {}
  // The second operand as the op sees it.
  Expected<Tensor> operand(const Tensor& a, const Tensor& b) const {
    if (!legacy) return b;
    return legacyBroadcastOperand(a, b, broadcast, axis);
  }
  bool legacy;
  bool broadcast;
  std::optional<int64_t> axis;
};

// y = op(a, b); a and b have one type; the output type is Op's result type
// (bool for comparisons). Op may define `static Status check(const KernelBuild&)`
// to reject bad attributes when the kernel is built.
template <class Op>
class LegacyBinaryKernel final : public Kernel {
 public:
  static Expected<std::unique_ptr<Kernel>> create(const KernelBuild& b) {
    if constexpr (requires { Op::check(b); }) PASSLAB_RETURN_IF_ERROR(Op::check(b));
    return std::unique_ptr<Kernel>(new LegacyBinaryKernel(b));
  }

  Status run(KernelContext& ctx) override {
    const Tensor& a = ctx.input(0);
    if (a.dtype() != ctx.input(1).dtype())
      return invalidArgument("inputs have different element types (" + a.describe() + " and " +
                             ctx.input(1).describe() + ")");
    PASSLAB_ASSIGN_OR_RETURN(Tensor b, rule_.operand(a, ctx.input(1)));
    PASSLAB_ASSIGN_OR_RETURN(Dims dims, broadcastShapes(a.dims(), b.dims()));
    return dispatch<Op::kTypes>(a.dtype(), [&](auto tag) -> Status {
      using S = typename decltype(tag)::type;
      using C = ComputeT<S>;
      using Out = OutStorage<S, decltype(op_(C{}, C{}))>;
      PASSLAB_ASSIGN_OR_RETURN(Tensor * y, ctx.allocate(0, dtypeOf<Out>(), dims));
      binaryLoop<S, Out>(a, b, *y, op_, ctx.threads());
      return Status::ok();
    });
  }

 private:
  explicit LegacyBinaryKernel(const KernelBuild& b) : op_(makeOp<Op>(b)), rule_(b) {}

  Op op_;
  LegacyBroadcast rule_;
};

template <class Op>
constexpr KernelDef legacyBinaryRow(std::string_view op, int since, int until,
                                    std::string_view name) {
  return {"",
          op,
          since,
          until,
          Op::kTypes,
          0,
          Tier::kReference,
          name,
          makeKernel<LegacyBinaryKernel<Op>>,
          kInPlace};  // binaryLoop, as binaryRow (elementwise.h)
}

}  // namespace passlab::exec::cpu
