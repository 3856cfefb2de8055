#include "core/pipeline/non_finite_count.h"

#include <algorithm>
#include <cmath>
#include <cstring>
#include <string>

namespace passlab::pipeline {

namespace {

template <class T>
void countFloats(const void* data, size_t n, NonFiniteCount& c) {
  const auto* p = static_cast<const std::byte*>(data);
  for (size_t i = 0; i < n; ++i) {
    T v;
    std::memcpy(&v, p + i * sizeof(T), sizeof(T));
    if (std::isnan(v))
      ++c.nan;
    else if (std::isinf(v))
      ++c.infinite;
  }
}

// float16 (exponent bits 0x7c00) or bfloat16 (0x7f80): all exponent bits
// set is an infinity (no mantissa bit) or a NaN.
void countHalves(const void* data, size_t n, uint16_t exponent, NonFiniteCount& c) {
  const auto* p = static_cast<const std::byte*>(data);
  const auto mantissa = static_cast<uint16_t>(exponent - 1) & ~exponent & 0x7fff;
  for (size_t i = 0; i < n; ++i) {
    uint16_t h;
    std::memcpy(&h, p + 2 * i, 2);
    if ((h & exponent) != exponent) continue;
    ++((h & mantissa) ? c.nan : c.infinite);
  }
}

}  // namespace

NonFiniteCount countNonFinite(ir::DataType dtype, const void* data, size_t n) {
  NonFiniteCount c;
  c.values = n;
  if (!data) return c;
  switch (dtype) {
    case ir::DataType::kFloat:
      countFloats<float>(data, n, c);
      break;
    case ir::DataType::kDouble:
      countFloats<double>(data, n, c);
      break;
    case ir::DataType::kFloat16:
      countHalves(data, n, 0x7c00, c);
      break;
    case ir::DataType::kBFloat16:
      countHalves(data, n, 0x7f80, c);
      break;
    default:
      break;
  }
  return c;
}

NonFiniteCount countNonFinite(const ir::Tensor& t) {
  const auto numel = static_cast<uint64_t>(t.numel());
  const uint64_t width = ir::dtypeStorageBytes(t.dtype(), 1);
  if (t.dtype() == ir::DataType::kString || width == 0) return {0, 0, numel};
  // Never past the bytes there are (a tensor whose data is short).
  NonFiniteCount c =
      countNonFinite(t.dtype(), t.bytes().data(),
                     static_cast<size_t>(std::min<uint64_t>(numel, t.bytes().size() / width)));
  c.values = numel;
  return c;
}

Text nonFiniteText(const NonFiniteCount& c) {
  const std::string values = std::to_string(c.values);
  if (c.nan > 0 && c.infinite > 0)
    return Text::of("%1 NaN and %2 infinite of its %3 values", std::to_string(c.nan),
                    std::to_string(c.infinite), values);
  if (c.nan > 0) return Text::of("%1 NaN of its %2 values", std::to_string(c.nan), values);
  if (c.infinite > 0)
    return Text::of("%1 infinite of its %2 values", std::to_string(c.infinite), values);
  return "";
}

}  // namespace passlab::pipeline
