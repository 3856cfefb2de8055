// A node: one operator application with inputs, outputs and attributes.
#pragma once

#include <atomic>
#include <cstdint>
#include <list>
#include <memory>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

#include "core/ir/attribute.h"
#include "core/ir/node_list.h"
#include "core/ir/value.h"

namespace passlab::ir {

// The one copy of an op type or domain name: every node with that op points
// at it (thread-safe; the table only grows and lives until the process ends).
const std::string& internOpName(std::string_view name);

// Stable identity of a node. Never reused within a model, kept by copies and
// snapshots, so two versions of a graph can be compared node by node.
using NodeId = uint64_t;

class Node {
 public:
  NodeId id() const { return id_; }
  const std::string& name() const { return name_; }
  void setName(std::string n) { name_ = std::move(n); }
  const std::string& opType() const { return *opType_; }
  void setOpType(std::string_view op) { opType_ = &internOpName(op); }
  // "" is the default ONNX domain ("ai.onnx" is normalised to "" by the loader).
  const std::string& domain() const { return *domain_; }
  void setDomain(std::string_view d) { domain_ = &internOpName(d); }
  // The interned op type and domain: two nodes have the same op type exactly
  // when these pointers are equal, so tables keyed by op hash a pointer.
  const std::string* opTypeKey() const { return opType_; }
  const std::string* domainKey() const { return domain_; }
  // "Conv" or "com.microsoft.Attention".
  std::string qualifiedOpType() const;
  const std::string& overload() const;
  void setOverload(std::string o);
  const std::string& docString() const;
  void setDocString(std::string s);
  std::vector<std::pair<std::string, std::string>>& metadata() { return extras().metadata; }
  const std::vector<std::pair<std::string, std::string>>& metadata() const;
  // Serialized protobuf fields this version of PassLab does not know; written back on save.
  const std::string& unknownFields() const;
  void setUnknownFields(std::string b);

  Graph* owner() const { return owner_; }

  // Inputs; nullptr marks an omitted optional input ("" in ONNX).
  const std::vector<Value*>& inputs() const { return inputs_; }
  size_t inputCount() const { return inputs_.size(); }
  Value* input(size_t i) const { return i < inputs_.size() ? inputs_[i] : nullptr; }
  void setInput(size_t i, Value* v);  // keeps use lists right
  void addInput(Value* v);
  void removeLastInput();
  void replaceInput(Value* from, Value* to);  // every occurrence
  // Where input i's Use sits in that value's use list (the verifier checks
  // a use list against it instead of searching the list).
  size_t useSlot(size_t i) const { return i < useSlots_.size() ? useSlots_[i] : SIZE_MAX; }

  // Outputs; nullptr marks an omitted optional output.
  const std::vector<Value*>& outputs() const { return outputs_; }
  size_t outputCount() const { return outputs_.size(); }
  Value* output(size_t i) const { return i < outputs_.size() ? outputs_[i] : nullptr; }

  // Attributes.
  const std::vector<Attribute>& attributes() const { return attrs_; }
  // Mutable access: a graph attached through it is seen by hasSubgraphs()
  // once the reference is no longer used (attach subgraphs with setAttr).
  std::vector<Attribute>& attributes() {
    forgetSubgraphFlag();
    return attrs_;
  }
  const Attribute* attr(std::string_view name) const;
  Attribute* attr(std::string_view name);
  bool hasAttr(std::string_view name) const { return attr(name) != nullptr; }
  void setAttr(Attribute a);  // replaces one of the same name
  bool removeAttr(std::string_view name);
  int64_t attrInt(std::string_view name, int64_t fallback) const;
  float attrFloat(std::string_view name, float fallback) const;
  std::string attrString(std::string_view name, std::string fallback) const;
  std::vector<int64_t> attrInts(std::string_view name, std::vector<int64_t> fallback = {}) const;
  std::vector<float> attrFloats(std::string_view name, std::vector<float> fallback = {}) const;

  // Subgraphs held by GRAPH/GRAPHS attributes (If branches, Loop/Scan bodies).
  std::vector<Graph*> subgraphs() const;
  // Answered from a flag in the node itself: every walk over the graph asks
  // it of every node, and reading the attributes would cost a cache miss per
  // node on a graph larger than the cache.
  bool hasSubgraphs() const {
    int8_t f = subgraphFlag_.load(std::memory_order_relaxed);
    if (f == kUnknown) {
      f = scanForSubgraphs() ? kYes : kNo;
      subgraphFlag_.store(f, std::memory_order_relaxed);
    }
    return f == kYes;
  }

  // A label for messages: "Conv 'conv1' (#12)".
  std::string describe() const;
  // The same without the id, which edits renumber: "Conv 'conv1'".
  std::string label() const;

 private:
  friend class Graph;
  friend class UndoLog;
  friend class NodeList;
  Node();
  void attachUse(size_t i);  // adds input i to its value's use list
  void detachUse(size_t i);  // removes it
  bool scanForSubgraphs() const;
  // What few nodes have, kept out of the walked record.
  struct Extras {
    std::string overload, docString, unknownFields;
    std::vector<std::pair<std::string, std::string>> metadata;
  };
  Extras& extras();
  void forgetSubgraphFlag() { subgraphFlag_.store(kUnknown, std::memory_order_relaxed); }
  enum : int8_t { kNo, kYes, kUnknown };

  // Fields read by every walk first (see Value), the rarely read ones last
  // or in `extras_`: owner, id, op and inputs fill the first cache line,
  // outputs, attributes and use slots the second; 192 bytes in all (one
  // allocator size class, three whole lines).
  Graph* owner_ = nullptr;
  NodeId id_ = 0;
  const std::string* opType_;  // interned (internOpName)
  const std::string* domain_;
  std::vector<Value*> inputs_;
  // Whether an attribute holds a graph; kUnknown after mutable access to the
  // attributes (recomputed on the next question). Atomic (relaxed: plain
  // loads and stores) because const readers on several threads may fill it.
  mutable std::atomic<int8_t> subgraphFlag_ = kNo;
  std::vector<Value*> outputs_;
  std::vector<Attribute> attrs_;
  // Where input i's Use sits in that value's use list, so detaching it is O(1)
  // (swap with the last Use) even for a value read by thousands of nodes.
  std::vector<uint32_t> useSlots_;
  NodeList::Chunk* chunk_ = nullptr;  // where the graph's order holds it
  std::string name_;
  std::unique_ptr<Extras> extras_;
};

}  // namespace passlab::ir
