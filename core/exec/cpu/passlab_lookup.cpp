// ai.passlab QLinearLookup: an 8-bit -> 8-bit function as a 256-entry table
// (core/ir/passlab_ops.h; fold_qdq_unary_into_lookup writes it): the byte of
// X (plus 128 for int8) indexes the table. With AVX-512 VBMI, 64 elements at
// a time: the table in four registers, two two-register byte permutes
// (vpermi2b, the low 7 bits) and a blend on the top bit; elsewhere one load
// per element (about 4x slower on ppocr's 36K-element tensors).
#include "core/exec/cpu/passlab_lookup.h"

#include <cstdint>
#include <string>

#if defined(__x86_64__)
#include "core/support/x86_intrinsics.h"
#endif

#include "core/exec/parallel.h"
#include "core/ir/passlab_ops.h"
#include "core/support/cpu_isa.h"

namespace passlab::exec::cpu::lookup {

namespace {

void lookupScalar(const uint8_t* x, const uint8_t* t, uint8_t* y, int64_t n, uint8_t flip) {
  for (int64_t i = 0; i < n; ++i) y[i] = t[static_cast<uint8_t>(x[i] ^ flip)];
}

#if defined(__x86_64__)
__attribute__((target("avx512f,avx512bw,avx512vbmi"))) void lookupVbmi(const uint8_t* x,
                                                                       const uint8_t* t, uint8_t* y,
                                                                       int64_t n, uint8_t flip) {
  const __m512i t0 = _mm512_loadu_si512(t), t1 = _mm512_loadu_si512(t + 64);
  const __m512i t2 = _mm512_loadu_si512(t + 128), t3 = _mm512_loadu_si512(t + 192);
  const __m512i f = _mm512_set1_epi8(static_cast<char>(flip));
  int64_t i = 0;
  for (; i + 64 <= n; i += 64) {
    const __m512i v = _mm512_xor_si512(_mm512_loadu_si512(x + i), f);
    const __m512i lo = _mm512_permutex2var_epi8(t0, v, t1);  // entries 0..127
    const __m512i hi = _mm512_permutex2var_epi8(t2, v, t3);  // entries 128..255
    _mm512_storeu_si512(y + i, _mm512_mask_blend_epi8(_mm512_movepi8_mask(v), lo, hi));
  }
  lookupScalar(x + i, t, y + i, n - i, flip);
}

bool haveVbmi() {
  return cpu_isa::hasAvx512Vbmi();
}
#endif

bool is8Bit(ir::DataType t) {
  return t == ir::DataType::kUInt8 || t == ir::DataType::kInt8;
}

class QLinearLookup final : public Kernel {
 public:
  Status run(KernelContext& ctx) override {
    const Tensor& x = ctx.input(0);
    const Tensor& table = ctx.input(1);
    if (!is8Bit(x.dtype()))
      return invalidArgument("QLinearLookup: X " + x.describe() + " is not uint8 or int8");
    if (!is8Bit(table.dtype()) || table.dims().size() != 1 ||
        table.numel() != static_cast<int64_t>(ir::passlab_ops::kLookupEntries))
      return invalidArgument("QLinearLookup: Table " + table.describe() +
                             " is not 256 uint8 or int8 values (one per value of X)");
    PASSLAB_ASSIGN_OR_RETURN(Tensor * y, ctx.allocate(0, table.dtype(), x.dims()));
    const auto* X = static_cast<const uint8_t*>(x.raw());
    const auto* T = static_cast<const uint8_t*>(table.raw());
    auto* Y = static_cast<uint8_t*>(y->mutableRaw());
    // int8 x: its byte is x + 256 for negative x; flipping the top bit gives x + 128.
    const uint8_t flip = x.dtype() == ir::DataType::kInt8 ? 0x80 : 0;
    parallelFor(x.numel(), ctx.threads(), kElementwiseGrain, [&](int64_t lo, int64_t hi) {
#if defined(__x86_64__)
      if (haveVbmi()) return lookupVbmi(X + lo, T, Y + lo, hi - lo, flip);
#endif
      lookupScalar(X + lo, T, Y + lo, hi - lo, flip);
    });
    return Status::ok();
  }
};

}  // namespace

Expected<std::unique_ptr<Kernel>> makeQLinearLookup(const KernelBuild&) {
  return std::unique_ptr<Kernel>(new QLinearLookup());
}

}  // namespace passlab::exec::cpu::lookup
