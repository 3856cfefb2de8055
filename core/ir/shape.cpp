#include "core/ir/shape.h"

namespace passlab::ir {

std::string Dim::toString() const {
  if (isStatic()) return std::to_string(value_);
  if (isSymbolic()) return param_;
  return "?";
}

Shape Shape::fromValues(const std::vector<int64_t>& values) {
  std::vector<Dim> dims;
  dims.reserve(values.size());
  for (int64_t v : values) dims.emplace_back(v);
  return Shape(std::move(dims));
}

bool Shape::isStatic() const {
  for (const Dim& d : dims_)
    if (!d.isStatic()) return false;
  return true;
}

std::optional<std::vector<int64_t>> Shape::staticDims() const {
  std::vector<int64_t> out;
  out.reserve(dims_.size());
  for (const Dim& d : dims_) {
    if (!d.isStatic()) return std::nullopt;
    out.push_back(d.value());
  }
  return out;
}

std::optional<int64_t> Shape::numel() const {
  auto dims = staticDims();
  if (!dims) return std::nullopt;
  return checkedProduct(*dims);
}

std::string Shape::toString() const {
  std::string s = "[";
  for (size_t i = 0; i < dims_.size(); ++i) {
    if (i) s += ",";
    s += dims_[i].toString();
  }
  return s + "]";
}

std::optional<int64_t> checkedProduct(const std::vector<int64_t>& dims) {
  int64_t n = 1;
  for (int64_t d : dims) {
    if (d < 0) return std::nullopt;
    if (__builtin_mul_overflow(n, d, &n)) return std::nullopt;
  }
  return n;
}

}  // namespace passlab::ir
