// push_transposes, chain steps through ONNX Runtime's com.microsoft quantized
// pools (QLinearAveragePool, QLinearGlobalAveragePool), as its transpose
// optimizer's handler does:
//   Before:  t = Transpose(x, [0, r-1, 1, ..., r-2]); y = QLinearAveragePool(t, ..., channels_last
//   = 0) After:   y' = QLinearAveragePool(x, ..., channels_last = 1); y = Transpose(y', the same
//   perm) Algebra: the pool reads [N, C, spatial...] with channels_last = 0 and [N, spatial..., C]
//   with 1, and writes its output in the same layout; its kernel, strides and pads are per spatial
//   dim, in the same order either way. So a pool on x moved channels first (NHWC -> NCHW) is the
//   pool on x reading channels last, with its output moved channels first; and the other way round
//   (NCHW -> NHWC with channels_last = 1). Conditions: the chain is the pool's X (not a scale or
//   zero point); the chain's perm is exactly the move that flipping channels_last undoes; rank 3 or
//   more. The Transpose after it is the chain's perm again, so push_transposes carries it on.
// QLinearReduceMean passes like ReduceMean (push_transposes.cpp).
#include "core/passes/push_transposes_rules.h"
#include "core/passes/transpose_perm.h"

namespace passlab::passes {

namespace {

// [0, r-1, 1, ..., r-2]: [N, spatial..., C] -> [N, C, spatial...].
std::vector<int64_t> lastToFirst(size_t rank) {
  std::vector<int64_t> p{0, static_cast<int64_t>(rank) - 1};
  for (size_t i = 1; i + 1 < rank; ++i) p.push_back(static_cast<int64_t>(i));
  return p;
}

}  // namespace

bool isQLinearPool(const ir::Node& n) {
  return n.domain() == "com.microsoft" &&
         (n.opType() == "QLinearAveragePool" || n.opType() == "QLinearGlobalAveragePool");
}

std::optional<int64_t> flippedChannelsLast(const ir::Node& pool, const ir::Value* chain,
                                           const std::vector<int64_t>& perm, Text& why) {
  for (size_t i = 1; i < pool.inputCount(); ++i)
    if (pool.input(i) == chain) {
      why = Text::of("%1 reads the chain as a scale or zero point", pool.opType());
      return std::nullopt;
    }
  if (perm.size() < 3) {
    why = Text::of("%1 reads a chain of rank %2 (not N, C and spatial dims)", pool.opType(),
                   std::to_string(perm.size()));
    return std::nullopt;
  }
  const int64_t channelsLast = pool.attrInt("channels_last", 0) != 0 ? 1 : 0;
  // Channels first: the chain must move x's channels from last to first; channels last: back.
  const std::vector<int64_t> toFirst = lastToFirst(perm.size());
  const std::vector<int64_t> wanted = channelsLast ? inversePerm(toFirst) : toFirst;
  if (perm != wanted) {
    why = Text::of(
        "%1 with channels_last = %2 reads the chain transposed by %3, not by %4 (the move that "
        "flipping channels_last undoes)",
        pool.opType(), std::to_string(channelsLast), intsText(perm), intsText(wanted));
    return std::nullopt;
  }
  return 1 - channelsLast;
}

}  // namespace passlab::passes
