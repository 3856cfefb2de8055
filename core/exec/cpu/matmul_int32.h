// The exact int32 products of (A - za)(B - zb) for MatMulInteger and
// QLinearMatMul (the reference's intMatMul in qlinear.cpp) on oneDNN's int8
// matmul, for 8-bit A and B of either type and any zero points: oneDNN
// computes P = A * B' without zero points (B' = B - c as int8, c = 128 for
// uint8 B and 0 for int8 B: oneDNN takes int8 weights only), and the zero
// points are taken out afterwards with the row sums of A and the column sums
// of B':
//
//   sum_k (a_k - za)(b_k - zb) = P + (c - zb) * (sum_k a_k - K za) - za * sum_k b'_k
//
// in wrapping int32 arithmetic, so equal to the reference bit for bit. za is
// one value or one per row of A's matrices, zb one value or one per column
// of B. A and B have numpy matmul shapes (ranks 2 or more, batch dims
// broadcast); a constant B (invariant) is flipped, packed and summed once,
// and a 2-D one stays held (packed, with its sums) across plans for other
// shapes of A, so B's data is not read again (holdsB).
// Only on CPUs whose int8 dot products are exact (exactInt8DotProducts), or
// without VNNI for uint8 A and a constant B whose B' is in [-64, 64]
// (narrow_signed_weights.h: quantize_dynamic's reduce_range=true).
#pragma once

#include <cstdint>
#include <memory>
#include <optional>
#include <span>
#include <vector>

#include "core/exec/cpu/matmul_shape.h"
#include "core/exec/kernel.h"

namespace passlab::exec::cpu {

class Int32MatMul {
 public:
  Int32MatMul();
  ~Int32MatMul();

  // Readies the product of a and b (their shape, their types, the threads):
  // the numpy shape, or nullopt where this does not run it (the caller runs
  // the reference): operands not 8-bit or of rank under 2, empty ones, a CPU
  // without exact int8 dot products, oneDNN offering only its reference.
  std::optional<MatMulShape> prepare(const Tensor& a, const Tensor& b, bool bInvariant,
                                     int threads);

  // The sums into out (the prepared shape's out dims), za one or M values,
  // zb one or N values; after a successful prepare for these operands.
  void compute(const Tensor& a, const Tensor& b, std::span<const int32_t> za,
               std::span<const int32_t> zb, int threads, int32_t* out);

  // After compute: the prepared plan holds the invariant B packed with its
  // column sums, and later prepares for other shapes of A take them, so the
  // caller may say KernelContext::holdsOwnCopy.
  bool holdsB() const;

 private:
  struct Plan;
  std::unique_ptr<Plan> build(const Tensor& a, const Tensor& b, bool bInvariant, int threads) const;
  const int8_t* signedB(const Tensor& b);
  void correct(const Tensor& a, std::span<const int32_t> za, std::span<const int32_t> zb,
               int threads, int32_t* out) const;

  // Takes the held B into plan p when it is for the same B (reordered into
  // p's layout, which is held from then on).
  void adoptHeld(Plan& p);

  // Without exact int8 dot products: whether oneDNN's sums of A and B are
  // exact anyway (uint8 A, a constant B with B' in [-64, 64]).
  bool narrowB(const Tensor& a, const Tensor& b, bool bInvariant);

  std::unique_ptr<Plan> plan_;
  struct Held;
  std::shared_ptr<Held> held_;   // the invariant 2-D B' packed and summed, for any plan
  std::optional<bool> narrowB_;  // narrowB's answer for the constant B, once decided
};

// One zero point input (`i`) of an 8-bit tensor of type `type`: absent {0},
// one value, or `count` values; nullopt when it is none of these.
std::optional<std::vector<int32_t>> int8ZeroPoints(const KernelContext& ctx, size_t i,
                                                   ir::DataType type, int64_t count);

}  // namespace passlab::exec::cpu
