// Runtime values: a tensor, a sequence, a map (ai.onnx.ml), or nothing (an
// omitted input or an empty optional). A non-empty optional is represented by
// its element. Values are cheap to copy: tensors share storage, sequences and
// maps are immutable and shared.
#pragma once

#include <memory>
#include <string>
#include <vector>

#include "core/exec/tensor.h"
#include "core/ir/type.h"

namespace passlab::exec {

class Value;

struct Sequence {
  // Element type, kept so an empty sequence still knows it (tensor(float), map(...)).
  ir::Type elemType;
  std::vector<Value> items;
};

// A map from int64 or string keys to the elements of a 1-D values tensor.
struct Map {
  Tensor keys;    // 1-D, int64 or string
  Tensor values;  // 1-D, same length
};

class Value {
 public:
  enum class Kind { kNone, kTensor, kSequence, kMap };

  Value() = default;
  Value(Tensor t) : kind_(Kind::kTensor), tensor_(std::move(t)) {}  // NOLINT
  Value(const ir::Tensor& t) : Value(Tensor::fromIr(t)) {}          // NOLINT (zero-copy)
  static Value sequence(Sequence s);
  static Value map(Map m);
  // An empty optional of the given type (the type is kept for results).
  static Value none(ir::Type type = {});

  Kind kind() const { return kind_; }
  bool isNone() const { return kind_ == Kind::kNone; }
  bool isTensor() const { return kind_ == Kind::kTensor; }
  bool isSequence() const { return kind_ == Kind::kSequence; }
  bool isMap() const { return kind_ == Kind::kMap; }

  const Tensor& tensor() const { return tensor_; }
  Tensor& mutableTensor() { return tensor_; }
  const Sequence& sequence() const { return *seq_; }
  const Map& map() const { return *map_; }
  // Type of an empty optional (undefined when unknown or for plain "omitted").
  const ir::Type& noneType() const { return noneType_; }

  // Bytes held by the value's tensors.
  size_t byteSize() const;
  // A deep copy on the heap, sharing nothing with an arena.
  Value detached() const;
  // "float[2,3]", "seq(3 x float[2])", "map(int64 -> float, 10)", "none".
  std::string describe() const;

 private:
  Kind kind_ = Kind::kNone;
  Tensor tensor_;
  std::shared_ptr<const Sequence> seq_;
  std::shared_ptr<const Map> map_;
  ir::Type noneType_;
};

}  // namespace passlab::exec
