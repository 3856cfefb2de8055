#include "core/exec/tensor.h"

#include <cstdlib>
#include <cstring>

namespace passlab::exec {

namespace {

// 64-byte aligned heap memory, uninitialized.
std::byte* allocateAligned(size_t bytes) {
  size_t rounded = (bytes + 63) / 64 * 64;
  auto* p = static_cast<std::byte*>(std::aligned_alloc(64, rounded == 0 ? 64 : rounded));
  if (p == nullptr) throw std::bad_alloc();
  return p;
}

class HeapStorage final : public Storage {
 public:
  // `zeroed` false: the caller writes every byte (a copy).
  explicit HeapStorage(size_t bytes, bool zeroed = true)
      : data_(allocateAligned(bytes)), size_(bytes) {
    if (zeroed) std::memset(data_, 0, bytes);
  }
  ~HeapStorage() override { std::free(data_); }
  std::byte* data() override { return data_; }
  size_t size() const override { return size_; }

 private:
  std::byte* data_;
  size_t size_;
};

class StringStorage final : public Storage {
 public:
  explicit StringStorage(size_t count) : strings_(count) {}
  std::byte* data() override { return reinterpret_cast<std::byte*>(strings_.data()); }
  size_t size() const override { return strings_.size() * sizeof(std::string); }

 private:
  std::vector<std::string> strings_;
};

// A copy of `size` bytes as an ir::Buffer (written once, without zeroing first).
class CopiedBytes final : public ir::Buffer {
 public:
  CopiedBytes(const std::byte* src, size_t size) : data_(allocateAligned(size)), size_(size) {
    if (size > 0) std::memcpy(data_, src, size);
  }
  ~CopiedBytes() override { std::free(data_); }
  const std::byte* data() const override { return data_; }
  size_t size() const override { return size_; }
  std::string origin() const override { return "heap"; }

 private:
  std::byte* data_;
  size_t size_;
};

// An ir::Buffer used in place.
class IrBufferStorage final : public Storage {
 public:
  explicit IrBufferStorage(std::shared_ptr<const ir::Buffer> b) : buffer_(std::move(b)) {}
  std::byte* data() override { return const_cast<std::byte*>(buffer_->data()); }
  size_t size() const override { return buffer_->size(); }

 private:
  std::shared_ptr<const ir::Buffer> buffer_;
};

size_t elementBytes(ir::DataType dt, int64_t n) {
  if (dt == ir::DataType::kString) return static_cast<size_t>(n) * sizeof(std::string);
  return ir::dtypeStorageBytes(dt, static_cast<uint64_t>(n));
}

}  // namespace

std::shared_ptr<Storage> makeHeapStorage(size_t bytes) {
  return std::make_shared<HeapStorage>(bytes);
}
std::shared_ptr<Storage> makeStringStorage(size_t count) {
  return std::make_shared<StringStorage>(count);
}

int64_t numelOf(const Dims& dims) {
  int64_t n = 1;
  for (int64_t d : dims)
    if (d < 0 || __builtin_mul_overflow(n, d, &n)) return -1;
  return n;
}

std::string dimsToString(const Dims& dims) {
  std::string s = "[";
  for (size_t i = 0; i < dims.size(); ++i) {
    if (i) s += ",";
    s += std::to_string(dims[i]);
  }
  return s + "]";
}

Tensor::Tensor(ir::DataType dtype, Dims dims, std::shared_ptr<Storage> storage, size_t offset,
               bool readOnly)
    : dtype_(dtype),
      dims_(std::move(dims)),
      numel_(numelOf(dims_)),
      storage_(std::move(storage)),
      data_(storage_ ? storage_->data() + offset : nullptr),
      readOnly_(readOnly) {}

Tensor Tensor::zeros(ir::DataType dtype, Dims dims) {
  int64_t n = numelOf(dims);
  if (n < 0) n = 0;
  auto storage = dtype == ir::DataType::kString ? makeStringStorage(static_cast<size_t>(n))
                                                : makeHeapStorage(elementBytes(dtype, n));
  return Tensor(dtype, std::move(dims), std::move(storage));
}

Tensor Tensor::fromIr(const ir::Tensor& t) {
  if (t.dtype() == ir::DataType::kString) {
    Tensor out = zeros(t.dtype(), t.dims());
    const auto& src = t.strings();
    auto* dst = out.mutableData<std::string>();
    for (size_t i = 0; i < src.size() && i < static_cast<size_t>(out.numel()); ++i) dst[i] = src[i];
    return out;
  }
  if (!t.buffer() || t.buffer()->size() < t.expectedBytes()) return zeros(t.dtype(), t.dims());
  return Tensor(t.dtype(), t.dims(), std::make_shared<IrBufferStorage>(t.buffer()), 0, true);
}

ir::Tensor Tensor::toIr(std::string name) const {
  ir::Tensor out;
  if (dtype_ == ir::DataType::kString) {
    const std::string* s = data<std::string>();
    out = ir::Tensor::fromStrings(dims_, std::vector<std::string>(s, s + numel_));
  } else {
    out = ir::Tensor(dtype_, dims_, std::make_shared<CopiedBytes>(data_, byteSize()));
  }
  out.setName(std::move(name));
  return out;
}

Tensor Tensor::clone() const {
  if (!defined()) return {};
  if (dtype_ == ir::DataType::kString) {
    Tensor out = zeros(dtype_, dims_);
    for (int64_t i = 0; i < numel_; ++i) out.mutableData<std::string>()[i] = data<std::string>()[i];
    return out;
  }
  Tensor out(dtype_, dims_, std::make_shared<HeapStorage>(byteSize(), /*zeroed=*/false));
  if (byteSize() > 0) std::memcpy(out.mutableRaw(), data_, byteSize());
  return out;
}

size_t Tensor::byteSize() const {
  return elementBytes(dtype_, numel_);
}

Tensor Tensor::view(Dims dims) const {
  Tensor t = *this;
  t.dims_ = std::move(dims);
  t.numel_ = numelOf(t.dims_);
  assert(t.numel_ == numel_);
  return t;
}

Tensor Tensor::withoutData() const {
  Tensor t(dtype_, dims_, nullptr, 0, /*readOnly=*/true);
  t.dataFreed_ = true;
  return t;
}

std::string Tensor::describe() const {
  return std::string(ir::dtypeName(dtype_)) + dimsToString(dims_);
}

}  // namespace passlab::exec
