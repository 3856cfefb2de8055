// Runtime tensors: dtype, dims and a pointer into shared storage. Storage is an
// arena block, heap memory, or an ir::Tensor's immutable buffer used in place
// (weights are never copied; such tensors are read-only). Copying a Tensor
// shares the storage; `view` reinterprets the dims without copying.
#pragma once

#include <cassert>
#include <cstddef>
#include <cstdint>
#include <memory>
#include <string>
#include <vector>

#include "core/ir/dtype.h"
#include "core/ir/tensor.h"

namespace passlab::exec {

using Dims = std::vector<int64_t>;

// Element count of `dims` (1 for a scalar); -1 on overflow or a negative dim.
int64_t numelOf(const Dims& dims);
// "[1,3,224,224]".
std::string dimsToString(const Dims& dims);

// Bytes behind one or more tensors.
class Storage {
 public:
  virtual ~Storage() = default;
  virtual std::byte* data() = 0;
  virtual size_t size() const = 0;
};

class Tensor {
 public:
  Tensor() = default;
  Tensor(ir::DataType dtype, Dims dims, std::shared_ptr<Storage> storage, size_t offset = 0,
         bool readOnly = false);

  // Zero-filled heap memory (tests, evaluateNode, results); string tensors hold "".
  static Tensor zeros(ir::DataType dtype, Dims dims);
  // Shares the ir::Tensor's buffer (read-only); string data is copied.
  static Tensor fromIr(const ir::Tensor& t);
  template <class T>
  static Tensor fromVector(ir::DataType dtype, Dims dims, const std::vector<T>& values);
  // A private copy as an ir::Tensor.
  ir::Tensor toIr(std::string name = {}) const;
  // A private heap copy (no ties to an arena).
  Tensor clone() const;

  bool defined() const { return storage_ != nullptr || dtype_ != ir::DataType::kUndefined; }
  ir::DataType dtype() const { return dtype_; }
  const Dims& dims() const { return dims_; }
  size_t rank() const { return dims_.size(); }
  int64_t dim(size_t i) const { return dims_[i]; }
  int64_t numel() const { return numel_; }
  // Bytes of the elements (sizeof(std::string) per element for strings).
  size_t byteSize() const;
  bool isReadOnly() const { return readOnly_; }
  bool isString() const { return dtype_ == ir::DataType::kString; }

  const void* raw() const { return data_; }
  void* mutableRaw() {
    assert(!readOnly_ && "writing a read-only tensor (a weight or a kernel input)");
    return data_;
  }
  template <class T>
  const T* data() const {
    return reinterpret_cast<const T*>(data_);
  }
  template <class T>
  T* mutableData() {
    return reinterpret_cast<T*>(mutableRaw());
  }

  // The same elements seen with other dims (same element count).
  Tensor view(Dims dims) const;
  // The dtype and dims without the elements: what the executor binds for a
  // kept value it freed once every reader held its own copy
  // (KernelContext::holdsOwnCopy). raw() is null; only dims may be read.
  Tensor withoutData() const;
  bool dataFreed() const { return dataFreed_; }
  // "float[1,3,224,224]".
  std::string describe() const;

 private:
  ir::DataType dtype_ = ir::DataType::kUndefined;
  Dims dims_;
  int64_t numel_ = 0;
  std::shared_ptr<Storage> storage_;
  std::byte* data_ = nullptr;
  bool readOnly_ = false;
  bool dataFreed_ = false;
};

// Heap storage of `bytes` (64-byte aligned, zeroed), or of `count` strings.
std::shared_ptr<Storage> makeHeapStorage(size_t bytes);
std::shared_ptr<Storage> makeStringStorage(size_t count);

template <class T>
Tensor Tensor::fromVector(ir::DataType dtype, Dims dims, const std::vector<T>& values) {
  Tensor t = zeros(dtype, std::move(dims));
  assert(static_cast<size_t>(t.numel()) == values.size());
  T* out = t.mutableData<T>();
  for (size_t i = 0; i < values.size(); ++i) out[i] = values[i];
  return t;
}

}  // namespace passlab::exec
