// A value: one SSA tensor (or sequence, map, ...) of a graph, with its type,
// its single producer and the list of its uses.
#pragma once

#include <cstdint>
#include <list>
#include <memory>
#include <optional>
#include <string>
#include <utility>
#include <vector>

#include "core/ir/tensor.h"
#include "core/ir/type.h"

namespace passlab::ir {

class Graph;
class Node;

struct Use {
  Node* node;
  int inputIndex;
  bool operator==(const Use& o) const { return node == o.node && inputIndex == o.inputIndex; }
};

class Value {
 public:
  const std::string& name() const { return name_; }
  const Type& type() const { return type_; }
  Type& mutableType() { return type_; }
  void setType(Type t) { type_ = std::move(t); }
  // The graph that defines this value (its scope).
  Graph* owner() const { return owner_; }

  // Unique among the values of one model (all scopes), assigned at creation
  // and never reused: analyses index side tables by it instead of hashing
  // pointers (see Graph::valueIdBound()).
  uint32_t denseId() const { return denseId_; }

  // Producer: a node output, or nullptr for graph inputs and initializers.
  Node* producer() const { return producer_; }
  int producerOutputIndex() const { return producerIndex_; }

  // Every (node, input index) reading this value, including nodes in nested subgraphs.
  const std::vector<Use>& uses() const { return uses_; }
  bool hasUses() const { return !uses_.empty(); }
  // Graphs listing this value as an output (a subgraph may output an outer value).
  const std::vector<Graph*>& outputOf() const;
  // Answered from a count in the value's first cache line: pattern matching
  // asks it of every intermediate it looks at.
  bool isGraphOutput() const { return outputOfCount_ != 0; }
  bool isGraphInput() const { return isGraphInput_; }

  // Constant data when this value is an initializer.
  bool isInitializer() const { return initializer_ != nullptr; }
  const Tensor* initializer() const { return initializer_.get(); }
  Tensor* mutableInitializer() { return initializer_.get(); }
  bool isSparseInitializer() const { return extras_ && extras_->sparseInitializer; }
  const SparseTensor* sparseInitializer() const {
    return extras_ ? extras_->sparseInitializer.get() : nullptr;
  }

  // ValueInfoProto extras, kept for round trips.
  const std::string& docString() const;
  void setDocString(std::string s);
  // True if the file declared this value in value_info (or an edit asked to).
  bool declaredInValueInfo() const { return declaredInValueInfo_; }
  void setDeclaredInValueInfo(bool b) { declaredInValueInfo_ = b; }
  std::vector<std::pair<std::string, std::string>>& metadata() { return extras().metadata; }
  const std::vector<std::pair<std::string, std::string>>& metadata() const;

 private:
  friend class Graph;
  friend class UndoLog;
  friend class Node;
  Value() = default;

  // What few values have, kept out of the walked record.
  struct Extras {
    std::vector<Graph*> outputOf;
    std::unique_ptr<SparseTensor> sparseInitializer;
    std::string docString;
    std::vector<std::pair<std::string, std::string>> metadata;
  };
  Extras& extras();
  void addOutputOf(Graph* g);
  void removeOutputOf(Graph* g);  // one occurrence, if listed

  // Fields read by every walk (verifier, shape inference, pattern matching)
  // come first: the first cache line holds the links and uses, the second
  // the type, the third the name. The graph is walked many times per
  // pipeline and is far larger than the cache, so a value is kept to three
  // lines (192 bytes, one allocator size class); the rest is in `extras_`.
  Graph* owner_ = nullptr;
  Node* producer_ = nullptr;
  int producerIndex_ = -1;
  uint32_t denseId_ = 0;
  bool isGraphInput_ = false;
  bool declaredInValueInfo_ = false;
  uint32_t outputOfCount_ = 0;  // extras_->outputOf.size()
  // Held by pointer: most values are not initializers.
  std::unique_ptr<Tensor> initializer_;
  std::vector<Use> uses_;
  Type type_;
  std::list<std::unique_ptr<Value>>::iterator self_;
  std::string name_;
  std::unique_ptr<Extras> extras_;
};

}  // namespace passlab::ir
