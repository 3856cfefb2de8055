#include "core/ir/dtype.h"

#include <array>

namespace passlab::ir {

namespace {
struct DtypeInfo {
  std::string_view name;
  int bits;
};
// Indexed by the enum value; the static_assert keeps the table complete.
constexpr std::array<DtypeInfo, kDataTypeCount> kInfo = {{
    {"undefined", 0},      {"float", 32},       {"uint8", 8},          {"int8", 8},
    {"uint16", 16},        {"int16", 16},       {"int32", 32},         {"int64", 64},
    {"string", 0},         {"bool", 8},         {"float16", 16},       {"double", 64},
    {"uint32", 32},        {"uint64", 64},      {"complex64", 64},     {"complex128", 128},
    {"bfloat16", 16},      {"float8e4m3fn", 8}, {"float8e4m3fnuz", 8}, {"float8e5m2", 8},
    {"float8e5m2fnuz", 8}, {"uint4", 4},        {"int4", 4},           {"float4e2m1", 4},
    {"float8e8m0", 8},     {"uint2", 2},        {"int2", 2},
}};
static_assert(kInfo.size() == static_cast<size_t>(DataType::kInt2) + 1, "dtype table incomplete");
}  // namespace

bool isKnownDtype(int32_t value) {
  return value > 0 && value < kDataTypeCount;
}

std::string_view dtypeName(DataType t) {
  auto i = static_cast<int32_t>(t);
  return (i >= 0 && i < kDataTypeCount) ? kInfo[i].name : std::string_view("unknown");
}

std::optional<DataType> dtypeFromName(std::string_view name) {
  for (int i = 1; i < kDataTypeCount; ++i)
    if (kInfo[i].name == name) return static_cast<DataType>(i);
  if (name == "float32") return DataType::kFloat;
  if (name == "float64") return DataType::kDouble;
  return std::nullopt;
}

int dtypeBits(DataType t) {
  auto i = static_cast<int32_t>(t);
  return (i >= 0 && i < kDataTypeCount) ? kInfo[i].bits : 0;
}

uint64_t dtypeStorageBytes(DataType t, uint64_t count) {
  int bits = dtypeBits(t);
  return (count * static_cast<uint64_t>(bits) + 7) / 8;
}

bool isFloatingPoint(DataType t) {
  switch (t) {
    case DataType::kFloat:
    case DataType::kDouble:
    case DataType::kFloat16:
    case DataType::kBFloat16:
    case DataType::kFloat8E4M3FN:
    case DataType::kFloat8E4M3FNUZ:
    case DataType::kFloat8E5M2:
    case DataType::kFloat8E5M2FNUZ:
    case DataType::kFloat4E2M1:
    case DataType::kFloat8E8M0:
      return true;
    default:
      return false;
  }
}

bool isSignedInteger(DataType t) {
  switch (t) {
    case DataType::kInt8:
    case DataType::kInt16:
    case DataType::kInt32:
    case DataType::kInt64:
    case DataType::kInt4:
    case DataType::kInt2:
      return true;
    default:
      return false;
  }
}

bool isInteger(DataType t) {
  switch (t) {
    case DataType::kUInt8:
    case DataType::kUInt16:
    case DataType::kUInt32:
    case DataType::kUInt64:
    case DataType::kUInt4:
    case DataType::kUInt2:
      return true;
    default:
      return isSignedInteger(t);
  }
}

bool isComplex(DataType t) {
  return t == DataType::kComplex64 || t == DataType::kComplex128;
}

}  // namespace passlab::ir
