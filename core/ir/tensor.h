// Constant tensor data: initializers, attribute tensors, folded constants.
//
// The bytes live in a shared, immutable Buffer: heap memory or a window of a
// memory-mapped external-data file. Copying a Tensor shares the buffer, so
// snapshots of a graph cost no weight copies; writers get a private copy.
#pragma once

#include <cstddef>
#include <cstdint>
#include <cstring>
#include <memory>
#include <optional>
#include <span>
#include <string>
#include <utility>
#include <vector>

#include "core/ir/dtype.h"
#include "core/ir/shape.h"

namespace passlab {
class MappedFile;
}

namespace passlab::ir {

// Immutable bytes.
class Buffer {
 public:
  virtual ~Buffer() = default;
  virtual const std::byte* data() const = 0;
  virtual size_t size() const = 0;
  // Where the bytes come from, for messages ("heap", "mapped weights.bin").
  virtual std::string origin() const = 0;
  virtual bool isMapped() const { return false; }
};

std::shared_ptr<const Buffer> makeHeapBuffer(std::vector<std::byte> bytes);
std::shared_ptr<const Buffer> makeHeapBuffer(std::string bytes);  // takes ownership, no copy
// A window [offset, offset+length) of a mapped file; the caller checks bounds.
std::shared_ptr<const Buffer> makeMappedBuffer(std::shared_ptr<const MappedFile> file,
                                               size_t offset, size_t length);

// Where a tensor's data was stored outside the model file (kept so a save can
// write it back the same way).
struct ExternalDataInfo {
  std::string location;  // relative to the model's folder
  int64_t offset = 0;
  int64_t length = -1;  // -1: to the end of the file
  std::string checksum;
  std::vector<std::pair<std::string, std::string>> extra;  // other keys, kept verbatim
};

class Tensor {
 public:
  Tensor() = default;
  Tensor(DataType dtype, std::vector<int64_t> dims);  // zero-filled
  Tensor(DataType dtype, std::vector<int64_t> dims, std::shared_ptr<const Buffer> buffer);

  template <class T>
  static Tensor fromVector(DataType dtype, std::vector<int64_t> dims, const std::vector<T>& values);
  static Tensor scalarFloat(float v);
  static Tensor scalarInt64(int64_t v);
  static Tensor fromInt64s(const std::vector<int64_t>& values);  // 1-D
  static Tensor fromStrings(std::vector<int64_t> dims, std::vector<std::string> values);

  const std::string& name() const { return name_; }
  void setName(std::string n) { name_ = std::move(n); }
  DataType dtype() const { return dtype_; }
  const std::vector<int64_t>& dims() const { return dims_; }
  Shape shape() const { return Shape::fromValues(dims_); }
  size_t rank() const { return dims_.size(); }
  // Element count; dims are validated on construction by the loader so this cannot overflow.
  int64_t numel() const;
  // Bytes the data should occupy (packed for sub-byte types); 0 for strings.
  uint64_t expectedBytes() const {
    return dtypeStorageBytes(dtype_, static_cast<uint64_t>(numel()));
  }

  // Raw little-endian bytes (empty for string tensors).
  std::span<const std::byte> bytes() const;
  template <class T>
  std::span<const T> data() const {
    auto b = bytes();
    return {reinterpret_cast<const T*>(b.data()), b.size() / sizeof(T)};
  }
  // Private, writable bytes (copies the buffer if it is shared or mapped).
  std::span<std::byte> mutableBytes();
  template <class T>
  std::span<T> mutableData() {
    auto b = mutableBytes();
    return {reinterpret_cast<T*>(b.data()), b.size() / sizeof(T)};
  }
  const std::shared_ptr<const Buffer>& buffer() const { return buffer_; }

  const std::vector<std::string>& strings() const;
  std::vector<std::string>& mutableStrings();

  // Reads element i converted to double / int64 (all numeric dtypes; 0 for others).
  double valueAsDouble(int64_t i) const;
  int64_t valueAsInt64(int64_t i) const;
  // All elements as int64 (for shape-like tensors: int32/int64 and friends).
  std::vector<int64_t> toInt64Vector() const;
  std::vector<double> toDoubleVector() const;

  const std::string& docString() const { return docString_; }
  void setDocString(std::string s) { docString_ = std::move(s); }
  const std::optional<ExternalDataInfo>& externalData() const { return external_; }
  void setExternalData(std::optional<ExternalDataInfo> e) { external_ = std::move(e); }
  std::vector<std::pair<std::string, std::string>>& metadata() { return metadata_; }
  const std::vector<std::pair<std::string, std::string>>& metadata() const { return metadata_; }

  // Same dtype, dims and element bytes/strings (names and doc strings ignored).
  bool sameData(const Tensor& o) const;
  // Hash of dtype, dims and data, for deduplication.
  uint64_t contentHash() const;
  // Short description: "float[64,3,7,7] (37.6 KiB)".
  std::string summary() const;

 private:
  std::string name_;
  DataType dtype_ = DataType::kUndefined;
  std::vector<int64_t> dims_;
  std::shared_ptr<const Buffer> buffer_;
  std::shared_ptr<std::vector<std::string>> strings_;
  std::string docString_;
  std::optional<ExternalDataInfo> external_;
  std::vector<std::pair<std::string, std::string>> metadata_;
};

// COO sparse tensor: `values` (1-D, NNZ) at `indices` ([NNZ] linearized or [NNZ, rank]).
struct SparseTensor {
  Tensor values;
  Tensor indices;
  std::vector<int64_t> dims;
  bool operator==(const SparseTensor& o) const {
    return values.sameData(o.values) && indices.sameData(o.indices) && dims == o.dims &&
           values.name() == o.values.name();
  }
};

template <class T>
Tensor Tensor::fromVector(DataType dtype, std::vector<int64_t> dims, const std::vector<T>& values) {
  std::vector<std::byte> bytes(values.size() * sizeof(T));
  if (!bytes.empty()) std::memcpy(bytes.data(), values.data(), bytes.size());
  return Tensor(dtype, std::move(dims), makeHeapBuffer(std::move(bytes)));
}

}  // namespace passlab::ir
