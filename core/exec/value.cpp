#include "core/exec/value.h"

namespace passlab::exec {

Value Value::sequence(Sequence s) {
  Value v;
  v.kind_ = Kind::kSequence;
  v.seq_ = std::make_shared<const Sequence>(std::move(s));
  return v;
}

Value Value::map(Map m) {
  Value v;
  v.kind_ = Kind::kMap;
  v.map_ = std::make_shared<const Map>(std::move(m));
  return v;
}

Value Value::none(ir::Type type) {
  Value v;
  v.noneType_ = std::move(type);
  return v;
}

size_t Value::byteSize() const {
  switch (kind_) {
    case Kind::kTensor:
      return tensor_.byteSize();
    case Kind::kSequence: {
      size_t n = 0;
      for (const Value& item : seq_->items) n += item.byteSize();
      return n;
    }
    case Kind::kMap:
      return map_->keys.byteSize() + map_->values.byteSize();
    case Kind::kNone:
      break;
  }
  return 0;
}

Value Value::detached() const {
  switch (kind_) {
    case Kind::kTensor:
      return Value(tensor_.clone());
    case Kind::kSequence: {
      Sequence s;
      s.elemType = seq_->elemType;
      for (const Value& item : seq_->items) s.items.push_back(item.detached());
      return sequence(std::move(s));
    }
    case Kind::kMap:
      return map(Map{map_->keys.clone(), map_->values.clone()});
    case Kind::kNone:
      break;
  }
  return *this;
}

std::string Value::describe() const {
  switch (kind_) {
    case Kind::kTensor:
      return tensor_.describe();
    case Kind::kSequence: {
      std::string s = "seq(" + std::to_string(seq_->items.size());
      if (!seq_->items.empty()) s += " x " + seq_->items.front().describe();
      return s + ")";
    }
    case Kind::kMap:
      return "map(" + std::string(ir::dtypeName(map_->keys.dtype())) + " -> " +
             std::string(ir::dtypeName(map_->values.dtype())) + ", " +
             std::to_string(map_->keys.numel()) + ")";
    case Kind::kNone:
      break;
  }
  return "none";
}

}  // namespace passlab::exec
