// Reading lone data files: a TensorProto, SequenceProto, MapProto or
// OptionalProto serialized on its own, as the ONNX test data sets
// (test_data_set_*/input_*.pb, output_*.pb) store them.
#pragma once

#include <string>
#include <string_view>
#include <vector>

#include "core/ir/tensor.h"
#include "core/ir/type.h"
#include "core/support/error.h"

namespace passlab::io {

// A value read from a data file.
struct DataValue {
  enum class Kind { kTensor, kSequence, kMap, kOptional };
  Kind kind = Kind::kTensor;
  std::string name;
  ir::Tensor tensor;             // kTensor
  std::vector<DataValue> items;  // kSequence: elements; kOptional: none or one; kMap: values
  ir::Tensor mapKeys;            // kMap: int64 or string keys, parallel to items
};

Expected<ir::Tensor> readTensorFile(const std::string& path);
// Reads a file holding a value of `type` (tensor, sequence, map or optional).
Expected<DataValue> readDataFile(const std::string& path, const ir::Type& type);
// The same from bytes in memory; `displayName` names them in messages.
Expected<ir::Tensor> readTensorFromBytes(std::string_view bytes, const std::string& displayName);
Expected<DataValue> readDataFromBytes(std::string_view bytes, const ir::Type& type,
                                      const std::string& displayName);

}  // namespace passlab::io
