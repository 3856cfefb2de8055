// The type of a value: a tensor (element type and optional shape), a sparse
// tensor, or a sequence / optional / map of other types.
#pragma once

#include <memory>
#include <optional>
#include <string>

#include "core/ir/dtype.h"
#include "core/ir/shape.h"

namespace passlab::ir {

class Type {
 public:
  enum class Kind { kUndefined, kTensor, kSparseTensor, kSequence, kMap, kOptional, kOpaque };

  Type() = default;  // undefined: nothing is known
  static Type tensor(DataType elem, std::optional<Shape> shape = std::nullopt);
  static Type sparseTensor(DataType elem, std::optional<Shape> shape = std::nullopt);
  static Type sequence(Type elem);
  static Type optional(Type elem);
  static Type map(DataType key, Type value);
  static Type opaque(std::string domain, std::string name);

  Kind kind() const { return kind_; }
  bool isUndefined() const { return kind_ == Kind::kUndefined; }
  bool isTensor() const { return kind_ == Kind::kTensor; }
  // Element type of a (sparse) tensor, the key type of a map; kUndefined otherwise.
  DataType elemType() const { return elem_; }
  void setElemType(DataType t) { elem_ = t; }
  // Shape of a (sparse) tensor; nullopt when the rank is unknown.
  const std::optional<Shape>& shape() const { return shape_; }
  std::optional<Shape>& shape() { return shape_; }
  void setShape(std::optional<Shape> s) { shape_ = std::move(s); }
  bool hasShape() const { return shape_.has_value(); }
  // Element type of a sequence/optional, value type of a map.
  const Type* inner() const { return inner_.get(); }
  const std::string& denotation() const { return denotation_; }
  void setDenotation(std::string d) { denotation_ = std::move(d); }
  const std::string& opaqueDomain() const { return opaqueDomain_; }
  const std::string& opaqueName() const { return opaqueName_; }

  bool operator==(const Type& o) const;
  bool operator!=(const Type& o) const { return !(*this == o); }
  // ONNX text-format spelling: "float[N,3]", "seq(tensor(int64))", "float" (rank unknown).
  std::string toString() const;

 private:
  Kind kind_ = Kind::kUndefined;
  DataType elem_ = DataType::kUndefined;
  std::optional<Shape> shape_;
  std::shared_ptr<const Type> inner_;  // immutable, so copies can share it
  std::string denotation_;
  std::string opaqueDomain_, opaqueName_;
};

}  // namespace passlab::ir
