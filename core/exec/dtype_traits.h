// Element types at run time: the C++ storage type of each ONNX dtype, the type
// arithmetic is done in (float for float16/bfloat16), type sets, and dispatch
// from a runtime dtype to a template instantiated only for the types of a set.
#pragma once

#include <cstdint>
#include <cstring>
#include <string>
#include <type_traits>
#include <utility>

#include "core/ir/dtype.h"
#include "core/support/error.h"
#include "core/support/float16.h"

namespace passlab::exec {

// 16-bit floats are stored as their bits and computed in float.
struct Half {
  uint16_t bits;
};
struct BFloat16 {
  uint16_t bits;
};

template <class S>
struct ComputeOf {
  using type = S;
};
template <>
struct ComputeOf<Half> {
  using type = float;
};
template <>
struct ComputeOf<BFloat16> {
  using type = float;
};
// The type arithmetic on storage type S is done in.
template <class S>
using ComputeT = typename ComputeOf<S>::type;

// float16 <-> float32 without loops or tables (F. Giesen's conversions): the
// same results as core/support/float16.h (round to nearest even, NaNs stay
// quiet NaNs), several times faster, which the float16 kernels feel.
inline float halfToFloatFast(uint16_t h) {
  constexpr uint32_t kShiftedExp = 0x7c00u << 13;
  uint32_t o = static_cast<uint32_t>(h & 0x7fffu) << 13;
  const uint32_t exp = kShiftedExp & o;
  o += (127u - 15u) << 23;
  float f;
  if (exp == kShiftedExp) {  // inf or NaN
    o += (128u - 16u) << 23;
    std::memcpy(&f, &o, 4);
  } else if (exp == 0) {  // zero or subnormal: renormalize in float
    o += 1u << 23;
    std::memcpy(&f, &o, 4);
    f -= 6.103515625e-05f;  // 2^-14
  } else {
    std::memcpy(&f, &o, 4);
  }
  uint32_t bits;
  std::memcpy(&bits, &f, 4);
  bits |= static_cast<uint32_t>(h & 0x8000u) << 16;
  std::memcpy(&f, &bits, 4);
  return f;
}
inline uint16_t floatToHalfFast(float v) {
  uint32_t u;
  std::memcpy(&u, &v, 4);
  const uint32_t sign = u & 0x80000000u;
  u ^= sign;
  uint16_t o;
  if (u >= ((127u + 16u) << 23)) {  // inf, NaN, or too large: inf
    o = u > (255u << 23) ? 0x7e00u : 0x7c00u;
  } else if (u < (113u << 23)) {  // subnormal or zero: align with a magic add (RNE)
    constexpr uint32_t kMagicBits = ((127u - 15u) + (23u - 10u) + 1u) << 23;
    float f, magic;
    std::memcpy(&f, &u, 4);
    std::memcpy(&magic, &kMagicBits, 4);
    f += magic;
    std::memcpy(&u, &f, 4);
    o = static_cast<uint16_t>(u - kMagicBits);
  } else {
    const uint32_t mantOdd = (u >> 13) & 1u;
    u += ((15u - 127u) << 23) + 0xfffu;
    u += mantOdd;
    o = static_cast<uint16_t>(u >> 13);
  }
  return static_cast<uint16_t>(o | (sign >> 16));
}

template <class S>
inline ComputeT<S> load(S v) {
  return v;
}
inline float load(Half v) {
  return halfToFloatFast(v.bits);
}
inline float load(BFloat16 v) {
  return bfloat16ToFloat(v.bits);
}
template <class S>
inline S store(ComputeT<S> v) {
  return static_cast<S>(v);
}
template <>
inline Half store<Half>(float v) {
  return Half{floatToHalfFast(v)};
}
template <>
inline BFloat16 store<BFloat16>(float v) {
  return BFloat16{floatToBfloat16(v)};
}

// The ONNX dtype of a storage type.
template <class S>
constexpr ir::DataType dtypeOf() {
  using ir::DataType;
  if constexpr (std::is_same_v<S, float>)
    return DataType::kFloat;
  else if constexpr (std::is_same_v<S, double>)
    return DataType::kDouble;
  else if constexpr (std::is_same_v<S, Half>)
    return DataType::kFloat16;
  else if constexpr (std::is_same_v<S, BFloat16>)
    return DataType::kBFloat16;
  else if constexpr (std::is_same_v<S, int8_t>)
    return DataType::kInt8;
  else if constexpr (std::is_same_v<S, uint8_t>)
    return DataType::kUInt8;
  else if constexpr (std::is_same_v<S, int16_t>)
    return DataType::kInt16;
  else if constexpr (std::is_same_v<S, uint16_t>)
    return DataType::kUInt16;
  else if constexpr (std::is_same_v<S, int32_t>)
    return DataType::kInt32;
  else if constexpr (std::is_same_v<S, uint32_t>)
    return DataType::kUInt32;
  else if constexpr (std::is_same_v<S, int64_t>)
    return DataType::kInt64;
  else if constexpr (std::is_same_v<S, uint64_t>)
    return DataType::kUInt64;
  else if constexpr (std::is_same_v<S, bool>)
    return DataType::kBool;
  else if constexpr (std::is_same_v<S, std::string>)
    return DataType::kString;
  else
    static_assert(!sizeof(S), "not an element type");
}

// A set of dtypes (a bit per ONNX dtype number). Usable as a template argument.
struct TypeSet {
  uint32_t bits = 0;
  constexpr TypeSet() = default;
  constexpr TypeSet(std::initializer_list<ir::DataType> types) {
    for (ir::DataType t : types) bits |= 1u << static_cast<int>(t);
  }
  constexpr bool contains(ir::DataType t) const {
    auto i = static_cast<int>(t);
    return i >= 0 && i < 32 && (bits >> i) & 1u;
  }
  constexpr bool empty() const { return bits == 0; }
  constexpr TypeSet operator|(TypeSet o) const {
    TypeSet s;
    s.bits = bits | o.bits;
    return s;
  }
  constexpr bool operator==(const TypeSet&) const = default;
  // "float, double, float16".
  std::string toString() const;
};

namespace types {
using ir::DataType;
inline constexpr TypeSet kFloat32{DataType::kFloat};
inline constexpr TypeSet kFloats{DataType::kFloat, DataType::kDouble, DataType::kFloat16,
                                 DataType::kBFloat16};
inline constexpr TypeSet kSignedInts{DataType::kInt8, DataType::kInt16, DataType::kInt32,
                                     DataType::kInt64};
inline constexpr TypeSet kUnsignedInts{DataType::kUInt8, DataType::kUInt16, DataType::kUInt32,
                                       DataType::kUInt64};
inline constexpr TypeSet kInts = kSignedInts | kUnsignedInts;
inline constexpr TypeSet kSignedNumeric = kFloats | kSignedInts;
inline constexpr TypeSet kNumeric = kFloats | kInts;
inline constexpr TypeSet kBool{DataType::kBool};
inline constexpr TypeSet kString{DataType::kString};
inline constexpr TypeSet kAll = kNumeric | kBool | kString;
}  // namespace types

template <class S>
struct TypeTag {
  using type = S;
};

namespace detail {
template <TypeSet Set, class S, class F>
bool tryDispatch(ir::DataType dt, F& f, Status& result) {
  if constexpr (Set.contains(dtypeOf<S>())) {
    if (dt == dtypeOf<S>()) {
      result = f(TypeTag<S>{});
      return true;
    }
  }
  return false;
}
}  // namespace detail

// Calls f(TypeTag<S>{}) with S the storage type of `dt`, instantiating f only
// for the types of `Set`; f returns Status. A dtype outside the set is an
// "unsupported" error naming it.
template <TypeSet Set, class F>
Status dispatch(ir::DataType dt, F&& f) {
  Status result;
  bool done = detail::tryDispatch<Set, float>(dt, f, result) ||
              detail::tryDispatch<Set, double>(dt, f, result) ||
              detail::tryDispatch<Set, Half>(dt, f, result) ||
              detail::tryDispatch<Set, BFloat16>(dt, f, result) ||
              detail::tryDispatch<Set, int8_t>(dt, f, result) ||
              detail::tryDispatch<Set, uint8_t>(dt, f, result) ||
              detail::tryDispatch<Set, int16_t>(dt, f, result) ||
              detail::tryDispatch<Set, uint16_t>(dt, f, result) ||
              detail::tryDispatch<Set, int32_t>(dt, f, result) ||
              detail::tryDispatch<Set, uint32_t>(dt, f, result) ||
              detail::tryDispatch<Set, int64_t>(dt, f, result) ||
              detail::tryDispatch<Set, uint64_t>(dt, f, result) ||
              detail::tryDispatch<Set, bool>(dt, f, result) ||
              detail::tryDispatch<Set, std::string>(dt, f, result);
  if (!done)
    return unsupported("element type " + std::string(ir::dtypeName(dt)) +
                       " is not supported here (supported: " + Set.toString() + ")");
  return result;
}

}  // namespace passlab::exec
