// com.microsoft QLinearSoftmax by a lookup table, as ONNX Runtime computes it
// (contrib_ops/cpu/quantization/qlinear_softmax.cc): per row of the softmax
// axis, with m the row's largest 8-bit value, exp((x - m) * x_scale) is
// table[x - m + 255] where table[i] = exp((i - 255) * x_scale) (256 values,
// built per run; x's zero point cancels), summed in float32, and each
// element quantized as round_half_even(table[.] / (sum * y_scale)) + y_zp,
// saturated to the 8-bit type. Where ONNX Runtime multiplies by
// floor(1 / y_scale) and does not saturate int8, this kernel uses the exact
// 1 / y_scale and saturates (AVX-512: 16 elements a step, the exps gathered
// from the table; scalar code sums in the same lane order, so the result does
// not depend on the machine): its result is the float DQ -> Softmax -> Q up to
// float32 rounding of the exps and the sum (at most one step), and within one
// step of ONNX Runtime's. Rows must be contiguous: the last axis from opset
// 13, the input seen as 2-D at the axis before; another axis is declined
// (the reference kernel, contrib_qlinear_softmax.cpp, takes it).
#include "core/support/x86_intrinsics.h"

#include <algorithm>
#include <array>
#include <cmath>
#include <limits>
#include <string>
#include <type_traits>
#include <vector>

#include "core/exec/cpu/contrib_qlinear_softmax.h"
#include "core/exec/parallel.h"
#include "core/support/cpu_isa.h"

namespace passlab::exec::cpu {

namespace {

using ir::DataType;

constexpr int64_t kGrainElements = 1 << 13;

using Table = std::array<float, 256>;

Table expTable(float xScale) {
  Table t;
  for (int i = 0; i < 256; ++i)
    t[static_cast<size_t>(i)] = static_cast<float>(std::exp(static_cast<double>(i - 255) * xScale));
  return t;
}

constexpr int kLanes = 16;

// The row's sum of exps: element i added to lane i % 16 in order, the lanes
// then summed 0 to 15 (the AVX-512 path's order, so that both give one result).
float laneSum(const float (&lanes)[kLanes]) {
  float sum = 0;
  for (float v : lanes) sum += v;
  return sum;
}

template <class T>
T quantizedProbability(float e, float r, int32_t yZero) {
  constexpr float lo = std::numeric_limits<T>::min(), hi = std::numeric_limits<T>::max();
  const float q = std::nearbyint(e * r) + static_cast<float>(yZero);
  return static_cast<T>(static_cast<int32_t>(std::clamp(q, lo, hi)));
}

// `exps` holds the row's exps between the two passes (d floats).
template <class T>
void softmaxRow(const T* x, T* y, int64_t d, const float* shifted, float yScale, int32_t yZero,
                float* exps) {
  float lanes[kLanes] = {};
  for (int64_t i = 0; i < d; ++i) {
    exps[i] = shifted[x[i]];
    lanes[i % kLanes] += exps[i];
  }
  const float r = 1.0f / (laneSum(lanes) * yScale);
  for (int64_t i = 0; i < d; ++i) y[i] = quantizedProbability<T>(exps[i], r, yZero);
}

// The mask of the (at most 16) elements from `i` of a row of `d`.
__mmask16 maskAt(int64_t i, int64_t d) {
  const int64_t n = std::min<int64_t>(kLanes, d - i);
  return static_cast<__mmask16>(n == kLanes ? 0xFFFF : (1u << n) - 1);
}

// The exps of the masked elements of 16 from `x`: the 8-bit values widened
// to 32-bit indices into `shifted`, gathered (masked-off lanes 0).
template <class T>
__attribute__((target("avx512f,avx512bw,avx512vl"), always_inline)) inline __m512 gatherExps(
    const T* x, __mmask16 mask, const float* shifted) {
  const __m128i b = _mm_maskz_loadu_epi8(mask, x);
  const __m512i idx =
      std::is_same_v<T, uint8_t> ? _mm512_cvtepu8_epi32(b) : _mm512_cvtepi8_epi32(b);
  return _mm512_mask_i32gather_ps(_mm512_setzero_ps(), mask, idx, shifted, 4);
}

// 16 elements at a time, the exps gathered once (kept in `exps` for the
// second pass); rounding as nearbyint (the default mode).
template <class T>
__attribute__((target("avx512f,avx512bw,avx512vl"))) void softmaxRowAvx512(
    const T* x, T* y, int64_t d, const float* shifted, float yScale, int32_t yZero, float* exps) {
  __m512 acc = _mm512_setzero_ps();
  for (int64_t i = 0; i < d; i += kLanes) {
    const __mmask16 mask = maskAt(i, d);
    const __m512 e = gatherExps(x + i, mask, shifted);
    _mm512_mask_storeu_ps(exps + i, mask, e);
    acc = _mm512_add_ps(acc, e);
  }
  float lanes[kLanes];
  _mm512_storeu_ps(lanes, acc);
  const __m512 r = _mm512_set1_ps(1.0f / (laneSum(lanes) * yScale));
  const __m512i zero = _mm512_set1_epi32(yZero);
  const __m512i lo = _mm512_set1_epi32(std::numeric_limits<T>::min());
  const __m512i hi = _mm512_set1_epi32(std::numeric_limits<T>::max());
  for (int64_t i = 0; i < d; i += kLanes) {
    const __mmask16 mask = maskAt(i, d);
    const __m512 e = _mm512_maskz_loadu_ps(mask, exps + i);
    __m512i q = _mm512_add_epi32(_mm512_cvtps_epi32(_mm512_mul_ps(e, r)), zero);
    q = _mm512_min_epi32(_mm512_max_epi32(q, lo), hi);
    _mm512_mask_cvtepi32_storeu_epi8(y + i, mask, q);
  }
}

template <class T>
void softmaxRows(const Tensor& x, Tensor& y, int64_t d, const Table& table, const Quantization& qy,
                 int threads) {
  const int64_t rows = d == 0 ? 0 : x.numel() / d;
  const T* px = x.data<T>();
  T* py = y.mutableData<T>();
  const bool avx512 = cpu_isa::hasAvx512BwVl();
  parallelFor(rows, threads, std::max<int64_t>(1, kGrainElements / std::max<int64_t>(1, d)),
              [&](int64_t begin, int64_t end) {
                std::vector<float> exps(static_cast<size_t>(d));
                for (int64_t r = begin; r < end; ++r) {
                  const T* row = px + r * d;
                  // exp((x - m) x_scale) is table[x - m + 255].
                  const float* shifted = table.data() + 255 - *std::max_element(row, row + d);
                  if (avx512) {
                    softmaxRowAvx512<T>(row, py + r * d, d, shifted, qy.scale, qy.zeroPoint,
                                        exps.data());
                  } else {
                    softmaxRow<T>(row, py + r * d, d, shifted, qy.scale, qy.zeroPoint, exps.data());
                  }
                }
              });
}

class QLinearSoftmaxLut final : public Kernel {
 public:
  static Expected<std::unique_ptr<Kernel>> create(const KernelBuild& b) {
    const ir::Node& n = b.node();
    if (!n.hasAttr("opset")) return unsupported("QLinearSoftmax without an opset attribute");
    const bool flattened = n.attrInt("opset", 13) < 13;
    const int64_t axis = n.attrInt("axis", -1);
    if (!flattened && axis != -1) {
      const ir::Value* x = n.input(0);
      const bool ranked = x && x->type().isTensor() && x->type().shape();
      if (!ranked || axis != static_cast<int64_t>(x->type().shape()->rank()) - 1)
        return unsupported("QLinearSoftmax along an axis that is not known to be the last");
    }
    return std::unique_ptr<Kernel>(std::make_unique<QLinearSoftmaxLut>(flattened, axis));
  }
  QLinearSoftmaxLut(bool flattened, int64_t axis) : flattened_(flattened), axis_(axis) {}

  Status run(KernelContext& ctx) override {
    const Tensor& x = ctx.input(0);
    PASSLAB_ASSIGN_OR_RETURN(QLinearSoftmaxQuantization q, qlinearSoftmaxQuantization(ctx));
    const int64_t rank = static_cast<int64_t>(x.dims().size());
    const int64_t axis = axis_ < 0 ? axis_ + rank : axis_;
    if (axis < 0 || axis >= std::max<int64_t>(rank, 1))
      return invalidArgument("axis " + std::to_string(axis_) + " is out of range for X " +
                             x.describe());
    if (!flattened_ && rank > 0 && axis != rank - 1)
      return invalidArgument("axis " + std::to_string(axis_) + " is not the last of X " +
                             x.describe());
    int64_t d = 1;
    for (int64_t i = axis; i < rank; ++i) d *= x.dims()[static_cast<size_t>(i)];
    PASSLAB_ASSIGN_OR_RETURN(Tensor * y, ctx.allocate(0, x.dtype(), x.dims()));
    const Table table = expTable(q.x.scale);
    if (x.dtype() == DataType::kInt8) {
      softmaxRows<int8_t>(x, *y, d, table, q.y, ctx.threads());
    } else {
      softmaxRows<uint8_t>(x, *y, d, table, q.y, ctx.threads());
    }
    return Status::ok();
  }

 private:
  bool flattened_;
  int64_t axis_;
};

}  // namespace

Expected<std::unique_ptr<Kernel>> makeQLinearSoftmaxLut(const KernelBuild& b) {
  return QLinearSoftmaxLut::create(b);
}

}  // namespace passlab::exec::cpu
