#include "core/ir/type.h"

namespace passlab::ir {

Type Type::tensor(DataType elem, std::optional<Shape> shape) {
  Type t;
  t.kind_ = Kind::kTensor;
  t.elem_ = elem;
  t.shape_ = std::move(shape);
  return t;
}

Type Type::sparseTensor(DataType elem, std::optional<Shape> shape) {
  Type t = tensor(elem, std::move(shape));
  t.kind_ = Kind::kSparseTensor;
  return t;
}

Type Type::sequence(Type elem) {
  Type t;
  t.kind_ = Kind::kSequence;
  t.inner_ = std::make_shared<const Type>(std::move(elem));
  return t;
}

Type Type::optional(Type elem) {
  Type t;
  t.kind_ = Kind::kOptional;
  t.inner_ = std::make_shared<const Type>(std::move(elem));
  return t;
}

Type Type::map(DataType key, Type value) {
  Type t;
  t.kind_ = Kind::kMap;
  t.elem_ = key;
  t.inner_ = std::make_shared<const Type>(std::move(value));
  return t;
}

Type Type::opaque(std::string domain, std::string name) {
  Type t;
  t.kind_ = Kind::kOpaque;
  t.opaqueDomain_ = std::move(domain);
  t.opaqueName_ = std::move(name);
  return t;
}

bool Type::operator==(const Type& o) const {
  if (kind_ != o.kind_ || elem_ != o.elem_ || shape_ != o.shape_ || denotation_ != o.denotation_ ||
      opaqueDomain_ != o.opaqueDomain_ || opaqueName_ != o.opaqueName_)
    return false;
  if (!inner_ || !o.inner_) return inner_ == o.inner_;
  return *inner_ == *o.inner_;
}

std::string Type::toString() const {
  switch (kind_) {
    case Kind::kUndefined:
      return "undefined";
    case Kind::kTensor:
    case Kind::kSparseTensor: {
      std::string s(dtypeName(elem_));
      if (shape_) s += shape_->toString();
      return kind_ == Kind::kSparseTensor ? "sparse_tensor(" + s + ")" : s;
    }
    case Kind::kSequence:
      return "seq(" + inner_->toString() + ")";
    case Kind::kOptional:
      return "optional(" + inner_->toString() + ")";
    case Kind::kMap:
      return "map(" + std::string(dtypeName(elem_)) + ", " + inner_->toString() + ")";
    case Kind::kOpaque:
      return "opaque(" + opaqueDomain_ + "," + opaqueName_ + ")";
  }
  return "?";
}

}  // namespace passlab::ir
