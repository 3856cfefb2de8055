#include "core/ir/shape.h"

#include <absl/container/node_hash_set.h>
#include <absl/strings/string_view.h>

#include <mutex>

namespace passlab::ir {

const std::string* internDimName(std::string_view name) {
  if (name.empty()) return nullptr;
  // Never destroyed: interned names may be read by static objects' destructors.
  static std::mutex* mutex = new std::mutex;
  static auto* names = new absl::node_hash_set<std::string>;  // elements never move
  std::lock_guard lock(*mutex);
  // absl::string_view: Debian's Abseil has its own, which its string
  // hashing takes for lookups without a copy.
  const absl::string_view key(name.data(), name.size());
  auto it = names->find(key);
  if (it == names->end()) it = names->emplace(std::string(name)).first;
  return &*it;
}

const std::string& Dim::noName() {
  static const std::string* empty = new std::string;
  return *empty;
}

std::string Dim::toString() const {
  if (isStatic()) return std::to_string(value_);
  if (isSymbolic()) return *param_;
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
