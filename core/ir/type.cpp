#include "core/ir/type.h"

namespace passlab::ir {

struct Type::Rare {
  std::shared_ptr<const Type> inner;
  std::string denotation, opaqueDomain, opaqueName;
  bool operator==(const Rare& o) const {
    if (denotation != o.denotation || opaqueDomain != o.opaqueDomain || opaqueName != o.opaqueName)
      return false;
    if (!inner || !o.inner) return inner == o.inner;
    return *inner == *o.inner;
  }
};

namespace {
const std::string kNoString;
}  // namespace

Type::Rare& Type::mutableRare() {
  auto copy = rare_ ? std::make_shared<Rare>(*rare_) : std::make_shared<Rare>();
  Rare& r = *copy;
  rare_ = std::move(copy);
  return r;
}

const Type* Type::inner() const {
  return rare_ ? rare_->inner.get() : nullptr;
}
const std::string& Type::denotation() const {
  return rare_ ? rare_->denotation : kNoString;
}
const std::string& Type::opaqueDomain() const {
  return rare_ ? rare_->opaqueDomain : kNoString;
}
const std::string& Type::opaqueName() const {
  return rare_ ? rare_->opaqueName : kNoString;
}

void Type::setDenotation(std::string d) {
  if (d.empty() && !rare_) return;
  mutableRare().denotation = std::move(d);
}

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
  t.mutableRare().inner = std::make_shared<const Type>(std::move(elem));
  return t;
}

Type Type::optional(Type elem) {
  Type t;
  t.kind_ = Kind::kOptional;
  t.mutableRare().inner = std::make_shared<const Type>(std::move(elem));
  return t;
}

Type Type::map(DataType key, Type value) {
  Type t;
  t.kind_ = Kind::kMap;
  t.elem_ = key;
  t.mutableRare().inner = std::make_shared<const Type>(std::move(value));
  return t;
}

Type Type::opaque(std::string domain, std::string name) {
  Type t;
  t.kind_ = Kind::kOpaque;
  Rare& r = t.mutableRare();
  r.opaqueDomain = std::move(domain);
  r.opaqueName = std::move(name);
  return t;
}

bool Type::operator==(const Type& o) const {
  if (kind_ != o.kind_ || elem_ != o.elem_ || shape_ != o.shape_) return false;
  if (rare_ == o.rare_) return true;  // shared, or both absent
  if (!rare_ || !o.rare_) {
    // One side may hold an emptied record (a denotation set and cleared).
    static const Rare kNone;
    return (rare_ ? *rare_ : kNone) == (o.rare_ ? *o.rare_ : kNone);
  }
  return *rare_ == *o.rare_;
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
      return "seq(" + inner()->toString() + ")";
    case Kind::kOptional:
      return "optional(" + inner()->toString() + ")";
    case Kind::kMap:
      return "map(" + std::string(dtypeName(elem_)) + ", " + inner()->toString() + ")";
    case Kind::kOpaque:
      return "opaque(" + opaqueDomain() + "," + opaqueName() + ")";
  }
  return "?";
}

}  // namespace passlab::ir
