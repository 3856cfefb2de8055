// A graph: nodes in order (an unrolled list), the values they connect, inputs, outputs and
// initializers. Subgraphs (If/Loop/Scan bodies) are Graphs owned by node
// attributes; a node in a subgraph may read values of enclosing graphs
// directly, and such reads appear in those values' use lists.
#pragma once

#include <cstdint>
#include <functional>
#include <list>
#include <memory>
#include <mutex>
#include <string>
#include <string_view>
#include <unordered_map>
#include <unordered_set>
#include <utility>
#include <vector>

#include <absl/container/flat_hash_map.h>
#include <absl/container/flat_hash_set.h>

#include "core/ir/node.h"

namespace passlab::ir {

class UndoLog;

// State shared by a model's graphs: the node-id counter and the set of value
// names in use, so fresh names and ids are unique across all scopes.
struct GraphContext {
  NodeId nextNodeId = 1;
  uint32_t nextValueId = 0;                // Value::denseId() bound
  absl::flat_hash_set<std::string> names;  // looked up by string_view without a copy
  uint64_t nameCounter = 0;
};

struct QuantizationAnnotation {
  std::string tensorName;
  std::vector<std::pair<std::string, std::string>> params;  // e.g. SCALE_TENSOR -> name
  bool operator==(const QuantizationAnnotation& o) const {
    return tensorName == o.tensorName && params == o.params;
  }
};

class Graph {
 public:
  using NodeList = ir::NodeList;  // an unrolled list (node_list.h)

  // A new root graph (own context) or a graph sharing `ctx`.
  explicit Graph(std::shared_ptr<GraphContext> ctx = nullptr);
  ~Graph();
  Graph(const Graph&) = delete;
  Graph& operator=(const Graph&) = delete;

  // Deep copy. Node ids, names and order are kept; weights are shared, not copied.
  // A root graph gets a copy of the context; a subgraph clone keeps referring to
  // the same outer values unless remapped by an enclosing clone.
  std::unique_ptr<Graph> clone() const;

  const std::string& name() const { return name_; }
  void setName(std::string n) { name_ = std::move(n); }
  const std::string& docString() const { return docString_; }
  void setDocString(std::string s) { docString_ = std::move(s); }
  std::vector<std::pair<std::string, std::string>>& metadata() { return metadata_; }
  const std::vector<std::pair<std::string, std::string>>& metadata() const { return metadata_; }
  std::vector<QuantizationAnnotation>& quantizationAnnotations() { return quantAnnotations_; }
  const std::vector<QuantizationAnnotation>& quantizationAnnotations() const {
    return quantAnnotations_;
  }
  const std::string& unknownFields() const { return unknownFields_; }
  void setUnknownFields(std::string b) { unknownFields_ = std::move(b); }

  // ---- scope ----
  const std::shared_ptr<GraphContext>& context() const { return ctx_; }
  Graph* parent() const;  // enclosing graph, nullptr for the main graph
  Node* parentNode() const { return parentNode_; }
  void setParentNode(Node* n) { parentNode_ = n; }  // called when attached to an attribute
  // A value defined in this graph, or nullptr.
  Value* findValue(std::string_view name) const;
  // A value visible here: this graph or an enclosing one.
  Value* lookup(std::string_view name) const;

  // ---- inputs, outputs, initializers ----
  const std::vector<Value*>& inputs() const { return inputs_; }
  const std::vector<Value*>& outputs() const { return outputs_; }
  const std::vector<Value*>& initializers() const { return initializers_; }
  const std::vector<Value*>& sparseInitializers() const { return sparseInitializers_; }
  Value* addInput(std::string name, Type type);
  // With `undo`, what is removed is handed to it instead of destroyed.
  void removeInput(Value* v,
                   UndoLog* undo = nullptr);  // the value stays if it is an initializer or used
  Value* addInitializer(std::string name, Tensor t);
  // Turns an existing value (input or fresh) into an initializer, or replaces its data.
  void setInitializer(Value* v, Tensor t);
  // Drops the data; removes the value if nothing else holds it.
  void removeInitializer(Value* v, UndoLog* undo = nullptr);
  Value* addSparseInitializer(std::string name, SparseTensor t);
  void addOutput(Value* v);
  void setOutput(size_t i, Value* v);
  void removeOutput(size_t i);

  // ---- nodes ----
  const NodeList& nodes() const { return nodes_; }
  size_t nodeCount() const { return nodes_.size(); }
  size_t nodeCountRecursive() const;  // including subgraphs
  // Creates a node whose outputs get the given names ("" = omitted output).
  // It is appended, or inserted before `before`.
  Node* addNode(std::string opType, std::string domain, const std::vector<Value*>& inputs,
                const std::vector<std::string>& outputNames, Node* before = nullptr);
  // Same, with `numOutputs` outputs named fresh from `nameHint`.
  Node* addNode(std::string opType, std::string domain, const std::vector<Value*>& inputs,
                size_t numOutputs, Node* before = nullptr, std::string_view nameHint = "");
  // Removes a node. Its outputs must be unused and not graph outputs. With
  // `undo`, the node and its outputs are handed to it instead of destroyed.
  void removeNode(Node* n, UndoLog* undo = nullptr);
  void moveBefore(Node* n, Node* pos);  // pos == nullptr: move to the end
  Node* findNode(NodeId id) const;      // this graph only
  // Attaches a subgraph to a node attribute (sets the scope links).
  void adoptSubgraph(Node* owner, Graph* sub);

  // ---- values ----
  // Every use of `from` (nodes, nested subgraphs, graph outputs) now reads `to`.
  void replaceAllUsesWith(Value* from, Value* to);
  // A value name not used anywhere in the model, derived from `hint`.
  std::string freshName(std::string_view hint);
  bool renameValue(Value* v, std::string newName);  // false if the name is taken in scope
  // Removes a value with no producer, no uses, not an input/output/initializer.
  void removeValue(Value* v);
  size_t valueCount() const { return values_.size(); }
  // One more than the largest Value::denseId() in this model (all scopes):
  // the size of a side table indexed by it.
  uint32_t valueIdBound() const { return ctx_->nextValueId; }
  template <class F>
  void forEachValue(F&& f) const {
    for (const auto& v : values_) f(v.get());
  }

  // Reorders nodes so every value is defined before it is used. Returns false,
  // leaving the order unchanged, if the nodes form a cycle.
  bool sortTopologically();
  // Visits nodes of this graph and, depth-first, of all subgraphs.
  void forEachNodeRecursive(const std::function<void(Node*)>& f) const;

 private:
  friend class Node;
  friend class UndoLog;
  Value* newValue(std::string name);
  void eraseValue(Value* v, UndoLog* undo = nullptr);
  Node* newNode(std::string opType, std::string domain, Node* before);
  void joinContext(const std::shared_ptr<GraphContext>& ctx);
  void cloneInto(Graph& dst, std::unordered_map<const Value*, Value*>& map) const;

  std::shared_ptr<GraphContext> ctx_;
  Node* parentNode_ = nullptr;
  std::string name_, docString_, unknownFields_;
  std::vector<std::pair<std::string, std::string>> metadata_;
  std::vector<QuantizationAnnotation> quantAnnotations_;
  NodeList nodes_;
  // Open-addressing tables (Abseil): the pipeline adds and removes entries for
  // every node it edits, and on a graph far larger than the cache a node-based
  // std::unordered_map costs several misses per edit (bucket, chain, key).
  // Node id -> node, for findNode (the GUI, reports; no pass looks nodes up
  // by id). Kept as nodes are added; a removal only marks it stale, and the
  // next findNode rebuilds it: erasing cost a random access into a large
  // table for every node a pass removed.
  mutable absl::flat_hash_map<NodeId, Node*> nodeIndex_;
  mutable bool nodeIndexStale_ = false;
  mutable std::mutex nodeIndexMutex_;  // findNode is const: readers on several threads
  std::list<std::unique_ptr<Value>> values_;
  // Keyed by a view of the value's own name (a Value never moves), so an
  // entry is 16 bytes and holds no copy of the name.
  absl::flat_hash_map<std::string_view, Value*> valueIndex_;
  std::vector<Value*> inputs_, outputs_, initializers_, sparseInitializers_;
};

// The node with `id` in `g` or any of its subgraphs, or nullptr.
Node* findNodeRecursive(const Graph& g, NodeId id);

}  // namespace passlab::ir
