// The type of a value: a tensor (element type and optional shape), a sparse
// tensor, or a sequence / optional / map of other types.
#pragma once

#include <cstdint>
#include <memory>
#include <optional>
#include <string>

#include "core/ir/dtype.h"
#include "core/ir/shape.h"

namespace passlab::ir {

class Type {
 public:
  enum class Kind : uint8_t {
    kUndefined,
    kTensor,
    kSparseTensor,
    kSequence,
    kMap,
    kOptional,
    kOpaque
  };

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
  const Type* inner() const;
  const std::string& denotation() const;
  void setDenotation(std::string d);
  const std::string& opaqueDomain() const;
  const std::string& opaqueName() const;

  bool operator==(const Type& o) const;
  bool operator!=(const Type& o) const { return !(*this == o); }
  // ONNX text-format spelling: "float[N,3]", "seq(tensor(int64))", "float" (rank unknown).
  std::string toString() const;

 private:
  // What only sequences, maps, optionals, opaque types and denoted types
  // have. Immutable, so copies share it; kept out of line so that a tensor
  // type (kind, element type, shape) is 56 bytes and fits a Value's second
  // cache line (see Value).
  struct Rare;
  Rare& mutableRare();  // a private copy, for the setters

  Kind kind_ = Kind::kUndefined;
  DataType elem_ = DataType::kUndefined;
  std::optional<Shape> shape_;
  std::shared_ptr<const Rare> rare_;
};

}  // namespace passlab::ir
