// Tensor shapes whose dimensions may be known numbers, named symbols ("batch")
// or unknown.
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

namespace passlab::ir {

// Dim names ("batch") and denotations are interned: a model has few distinct
// ones, while a Dim is copied and compared wherever shapes go (inference,
// the verifier, every pass that checks a shape). Holding a pointer keeps a
// Dim at 24 bytes instead of 72 (a rank-4 shape in two cache lines instead
// of five) and makes comparing names a pointer comparison. The table only
// grows (by the distinct names seen, like a symbol table) and is shared by
// all threads under a lock; nullptr stands for "".
const std::string* internDimName(std::string_view name);

class Dim {
 public:
  Dim() = default;                       // unknown
  Dim(int64_t value) : value_(value) {}  // NOLINT(google-explicit-constructor)
  static Dim symbol(std::string_view name) {
    Dim d;
    d.param_ = internDimName(name);
    return d;
  }

  bool isStatic() const { return value_ >= 0; }
  bool isSymbolic() const { return value_ < 0 && param_ != nullptr; }
  bool isUnknown() const { return value_ < 0 && param_ == nullptr; }
  int64_t value() const { return value_; }  // -1 unless static
  const std::string& param() const { return param_ ? *param_ : noName(); }
  // Optional ONNX dimension denotation ("DATA_BATCH"), kept for round trips.
  const std::string& denotation() const { return denotation_ ? *denotation_ : noName(); }
  void setDenotation(std::string_view d) { denotation_ = internDimName(d); }

  // Same value, or the same symbol. Unknown dims are never "the same".
  bool sameAs(const Dim& o) const {
    if (isStatic()) return o.isStatic() && value_ == o.value_;
    if (isSymbolic()) return o.isSymbolic() && param_ == o.param_;
    return false;
  }
  bool operator==(const Dim& o) const {
    return value_ == o.value_ && param_ == o.param_ && denotation_ == o.denotation_;
  }
  std::string toString() const;  // "3", "N", "?"

 private:
  static const std::string& noName();

  int64_t value_ = -1;
  const std::string* param_ = nullptr;       // interned; nullptr: no name
  const std::string* denotation_ = nullptr;  // interned; nullptr: none
};

class Shape {
 public:
  Shape() = default;
  Shape(std::vector<Dim> dims) : dims_(std::move(dims)) {}  // NOLINT(google-explicit-constructor)
  static Shape fromValues(const std::vector<int64_t>& values);

  size_t rank() const { return dims_.size(); }
  const std::vector<Dim>& dims() const { return dims_; }
  std::vector<Dim>& dims() { return dims_; }
  const Dim& operator[](size_t i) const { return dims_[i]; }
  Dim& operator[](size_t i) { return dims_[i]; }

  bool isStatic() const;
  // The static dims, or nullopt if any dim is not static.
  std::optional<std::vector<int64_t>> staticDims() const;
  // Number of elements if static and representable in int64; nullopt otherwise.
  std::optional<int64_t> numel() const;

  bool operator==(const Shape& o) const { return dims_ == o.dims_; }
  std::string toString() const;  // "[N,3,224,224]"

 private:
  std::vector<Dim> dims_;
};

// Product of dims with overflow detection; nullopt on overflow or negative dims.
std::optional<int64_t> checkedProduct(const std::vector<int64_t>& dims);

}  // namespace passlab::ir
