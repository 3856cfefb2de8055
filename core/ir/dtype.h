// Element types of tensors, numbered as ONNX TensorProto.DataType.
#pragma once

#include <cstddef>
#include <cstdint>
#include <optional>
#include <string_view>

namespace passlab::ir {

enum class DataType : int32_t {
  kUndefined = 0,
  kFloat = 1,
  kUInt8 = 2,
  kInt8 = 3,
  kUInt16 = 4,
  kInt16 = 5,
  kInt32 = 6,
  kInt64 = 7,
  kString = 8,
  kBool = 9,
  kFloat16 = 10,
  kDouble = 11,
  kUInt32 = 12,
  kUInt64 = 13,
  kComplex64 = 14,
  kComplex128 = 15,
  kBFloat16 = 16,
  kFloat8E4M3FN = 17,
  kFloat8E4M3FNUZ = 18,
  kFloat8E5M2 = 19,
  kFloat8E5M2FNUZ = 20,
  kUInt4 = 21,
  kInt4 = 22,
  kFloat4E2M1 = 23,
  kFloat8E8M0 = 24,
  kUInt2 = 25,
  kInt2 = 26,
};
inline constexpr int kDataTypeCount = 27;  // one past the highest enumerator

// The spelling ONNX uses in type strings and the text format: "float", "int64", "float16".
std::string_view dtypeName(DataType t);
std::optional<DataType> dtypeFromName(std::string_view name);
// True for values 1..26; false for kUndefined and unknown numbers from newer files.
bool isKnownDtype(int32_t value);

// Storage size in bits of one element (4 for int4, 2 for int2; 0 for string/undefined).
int dtypeBits(DataType t);
// Bytes needed to store `count` elements, packing sub-byte types.
uint64_t dtypeStorageBytes(DataType t, uint64_t count);

bool isFloatingPoint(DataType t);  // float, double, float16, bfloat16, float8*, float4
bool isInteger(DataType t);        // signed and unsigned, including 4- and 2-bit
bool isSignedInteger(DataType t);
bool isComplex(DataType t);

}  // namespace passlab::ir
