#include "core/ir/tensor.h"

#include <cstring>

#include "core/support/float16.h"
#include "core/support/mapped_file.h"
#include "core/support/strings.h"

namespace passlab::ir {

namespace {

class HeapBytes final : public Buffer {
 public:
  explicit HeapBytes(std::vector<std::byte> b) : bytes_(std::move(b)) {}
  const std::byte* data() const override { return bytes_.data(); }
  size_t size() const override { return bytes_.size(); }
  std::string origin() const override { return "heap"; }

 private:
  std::vector<std::byte> bytes_;
};

class HeapString final : public Buffer {
 public:
  explicit HeapString(std::string b) : bytes_(std::move(b)) {}
  const std::byte* data() const override {
    return reinterpret_cast<const std::byte*>(bytes_.data());
  }
  size_t size() const override { return bytes_.size(); }
  std::string origin() const override { return "heap"; }

 private:
  std::string bytes_;
};

class MappedWindow final : public Buffer {
 public:
  MappedWindow(std::shared_ptr<const MappedFile> f, size_t off, size_t len)
      : file_(std::move(f)), offset_(off), length_(len) {}
  const std::byte* data() const override { return file_->data() + offset_; }
  size_t size() const override { return length_; }
  std::string origin() const override { return "mapped " + file_->path(); }
  bool isMapped() const override { return true; }

 private:
  std::shared_ptr<const MappedFile> file_;
  size_t offset_, length_;
};

const std::vector<std::string>& emptyStrings() {
  static const std::vector<std::string> empty;
  return empty;
}

// FNV-1a over bytes.
uint64_t fnv(const void* p, size_t n, uint64_t h) {
  auto* b = static_cast<const unsigned char*>(p);
  for (size_t i = 0; i < n; ++i) {
    h ^= b[i];
    h *= 1099511628211ull;
  }
  return h;
}

}  // namespace

std::shared_ptr<const Buffer> makeHeapBuffer(std::vector<std::byte> bytes) {
  return std::make_shared<HeapBytes>(std::move(bytes));
}
std::shared_ptr<const Buffer> makeHeapBuffer(std::string bytes) {
  return std::make_shared<HeapString>(std::move(bytes));
}
std::shared_ptr<const Buffer> makeMappedBuffer(std::shared_ptr<const MappedFile> file,
                                               size_t offset, size_t length) {
  return std::make_shared<MappedWindow>(std::move(file), offset, length);
}

Tensor::Tensor(DataType dtype, std::vector<int64_t> dims) : dtype_(dtype), dims_(std::move(dims)) {
  if (dtype_ == DataType::kString) {
    strings_ = std::make_shared<std::vector<std::string>>(static_cast<size_t>(numel()));
  } else {
    buffer_ = makeHeapBuffer(std::vector<std::byte>(expectedBytes()));
  }
}

Tensor::Tensor(DataType dtype, std::vector<int64_t> dims, std::shared_ptr<const Buffer> buffer)
    : dtype_(dtype), dims_(std::move(dims)), buffer_(std::move(buffer)) {}

Tensor Tensor::scalarFloat(float v) {
  return fromVector<float>(DataType::kFloat, {}, {v});
}
Tensor Tensor::scalarInt64(int64_t v) {
  return fromVector<int64_t>(DataType::kInt64, {}, {v});
}
Tensor Tensor::fromInt64s(const std::vector<int64_t>& values) {
  return fromVector<int64_t>(DataType::kInt64, {static_cast<int64_t>(values.size())}, values);
}
Tensor Tensor::fromStrings(std::vector<int64_t> dims, std::vector<std::string> values) {
  Tensor t;
  t.dtype_ = DataType::kString;
  t.dims_ = std::move(dims);
  t.strings_ = std::make_shared<std::vector<std::string>>(std::move(values));
  return t;
}

int64_t Tensor::numel() const {
  int64_t n = 1;
  for (int64_t d : dims_) {
    if (d < 0 || __builtin_mul_overflow(n, d, &n)) return 0;
  }
  return n;
}

std::span<const std::byte> Tensor::bytes() const {
  if (!buffer_) return {};
  return {buffer_->data(), buffer_->size()};
}

std::span<std::byte> Tensor::mutableBytes() {
  // A buffer is only ever written through here, after making it private.
  if (!buffer_ || buffer_.use_count() > 1 || buffer_->isMapped()) {
    std::vector<std::byte> copy(buffer_ ? buffer_->size() : expectedBytes());
    if (buffer_ && buffer_->size() > 0) std::memcpy(copy.data(), buffer_->data(), buffer_->size());
    buffer_ = makeHeapBuffer(std::move(copy));
    external_.reset();
  }
  return {const_cast<std::byte*>(buffer_->data()), buffer_->size()};
}

const std::vector<std::string>& Tensor::strings() const {
  return strings_ ? *strings_ : emptyStrings();
}

std::vector<std::string>& Tensor::mutableStrings() {
  if (!strings_)
    strings_ = std::make_shared<std::vector<std::string>>();
  else if (strings_.use_count() > 1)
    strings_ = std::make_shared<std::vector<std::string>>(*strings_);
  return *strings_;
}

double Tensor::valueAsDouble(int64_t i) const {
  const std::byte* p = bytes().data();
  auto rd = [&](auto zero) {
    decltype(zero) v;
    std::memcpy(&v, p + i * sizeof(v), sizeof(v));
    return static_cast<double>(v);
  };
  switch (dtype_) {
    case DataType::kFloat:
      return rd(0.0f);
    case DataType::kDouble:
      return rd(0.0);
    case DataType::kInt8:
      return rd(int8_t{});
    case DataType::kUInt8:
      return rd(uint8_t{});
    case DataType::kBool:
      return rd(uint8_t{}) != 0 ? 1.0 : 0.0;
    case DataType::kInt16:
      return rd(int16_t{});
    case DataType::kUInt16:
      return rd(uint16_t{});
    case DataType::kInt32:
      return rd(int32_t{});
    case DataType::kUInt32:
      return rd(uint32_t{});
    case DataType::kInt64:
      return rd(int64_t{});
    case DataType::kUInt64:
      return rd(uint64_t{});
    case DataType::kFloat16: {
      uint16_t h;
      std::memcpy(&h, p + i * 2, 2);
      return halfToFloat(h);
    }
    case DataType::kBFloat16: {
      uint16_t h;
      std::memcpy(&h, p + i * 2, 2);
      return bfloat16ToFloat(h);
    }
    default:
      return 0.0;
  }
}

int64_t Tensor::valueAsInt64(int64_t i) const {
  const std::byte* p = bytes().data();
  auto rd = [&](auto zero) {
    decltype(zero) v;
    std::memcpy(&v, p + i * sizeof(v), sizeof(v));
    return static_cast<int64_t>(v);
  };
  switch (dtype_) {
    case DataType::kInt64:
      return rd(int64_t{});
    case DataType::kInt32:
      return rd(int32_t{});
    case DataType::kUInt64:
      return rd(uint64_t{});
    case DataType::kUInt32:
      return rd(uint32_t{});
    case DataType::kInt16:
      return rd(int16_t{});
    case DataType::kUInt16:
      return rd(uint16_t{});
    case DataType::kInt8:
      return rd(int8_t{});
    case DataType::kUInt8:
    case DataType::kBool:
      return rd(uint8_t{});
    default:
      return static_cast<int64_t>(valueAsDouble(i));
  }
}

std::vector<int64_t> Tensor::toInt64Vector() const {
  std::vector<int64_t> out(static_cast<size_t>(numel()));
  if (bytes().size() < expectedBytes()) return {};
  for (size_t i = 0; i < out.size(); ++i) out[i] = valueAsInt64(static_cast<int64_t>(i));
  return out;
}

std::vector<double> Tensor::toDoubleVector() const {
  std::vector<double> out(static_cast<size_t>(numel()));
  if (bytes().size() < expectedBytes()) return {};
  for (size_t i = 0; i < out.size(); ++i) out[i] = valueAsDouble(static_cast<int64_t>(i));
  return out;
}

bool Tensor::sameData(const Tensor& o) const {
  if (dtype_ != o.dtype_ || dims_ != o.dims_) return false;
  if (dtype_ == DataType::kString) return strings() == o.strings();
  auto a = bytes(), b = o.bytes();
  return a.size() == b.size() && (a.empty() || std::memcmp(a.data(), b.data(), a.size()) == 0);
}

uint64_t Tensor::contentHash() const {
  uint64_t h = 1469598103934665603ull;
  auto dt = static_cast<int32_t>(dtype_);
  h = fnv(&dt, sizeof dt, h);
  h = fnv(dims_.data(), dims_.size() * sizeof(int64_t), h);
  if (dtype_ == DataType::kString) {
    for (const auto& s : strings()) h = fnv(s.data(), s.size() + 1, h);
  } else {
    auto b = bytes();
    h = fnv(b.data(), b.size(), h);
  }
  return h;
}

std::string Tensor::summary() const {
  std::string s(dtypeName(dtype_));
  s += "[";
  for (size_t i = 0; i < dims_.size(); ++i) s += (i ? "," : "") + std::to_string(dims_[i]);
  s += "]";
  if (dtype_ != DataType::kString) s += " (" + str::humanBytes(expectedBytes()) + ")";
  return s;
}

}  // namespace passlab::ir
