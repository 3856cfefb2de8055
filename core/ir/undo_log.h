// An undo log for graph edits: how a pass that fails is rolled back without
// copying the model before every pass.
//
// The Rewriter (the only way a pass edits a graph) and shape inference record
// here the old state of everything they change. Removed nodes and values are not
// destroyed while a log is attached: they are moved into the log (list splices,
// so pointers stay valid) and put back exactly where they were by undo().
// Undo applies the records newest first, so every pointer a record holds is
// alive again when that record is undone. Keeping the log costs O(1) per edit;
// a full copy of the model cost O(N) per pass, which made the pipeline's time per
// node grow with the graph (allocator churn, scattered nodes).
#pragma once

#include <cstddef>
#include <cstdint>
#include <deque>
#include <memory>
#include <optional>
#include <string>
#include <utility>
#include <vector>

#include <absl/container/flat_hash_map.h>
#include <absl/container/flat_hash_set.h>

#include "core/ir/graph.h"

namespace passlab::ir {

class UndoLog {
 public:
  UndoLog() = default;
  UndoLog(const UndoLog&) = delete;
  UndoLog& operator=(const UndoLog&) = delete;
  ~UndoLog();

  // ---- records (each called after the edit succeeded, with the old state) ----
  void nodeAdded(Node* n);
  void inputSet(Node* n, size_t index, Value* old);
  // Before the attribute named `name` is replaced or removed (or added, when
  // the node has none of that name).
  void attrAboutToChange(Node* n, const std::string& name);
  void typeSet(Value* v, Type old);
  void outputSet(Graph* g, size_t index, Value* old);
  void renamed(Value* v, std::string oldName);
  void initializerAdded(Value* v);
  // Before setInitializer(v, ...) changes v's data (or makes v an initializer).
  void initializerAboutToChange(Value* v);

  // Called by Graph::removeNode / removeInput / removeInitializer when a log is
  // passed to them: they hand over instead of destroying.
  // takeNode is called before the node's inputs are detached.
  void takeNode(Graph* g, Node* n);
  void takeValue(Graph* g, Value* v);
  void inputRemoved(Graph* g, Value* v, size_t index);
  void initializerRemoved(Graph* g, Value* v, size_t index);

  // Nodes still in the graph whose schema check may have a new answer after
  // the recorded edits: added or rewired nodes, nodes whose attributes
  // changed (with every node of a subgraph they hold), and the producer and
  // readers of every value whose type, initializer or name changed (schema
  // messages name the value). Call before
  // commit() or undo().
  absl::flat_hash_set<const Node*> touchedNodes() const;

  // Beyond those nodes, what the recorded edits may have broken in the
  // graphs' structure, for a verification limited to the edits
  // (VerifierOptions::structureScope): values that lost a use, a producer,
  // their data or their place as an input (a value may be listed twice), and
  // graphs whose output list was set. Call before commit() or undo().
  struct StructureFootprint {
    std::vector<const Value*> values;
    std::vector<const Graph*> outputsSet;
  };
  StructureFootprint structureFootprint() const;

  // How the recorded edits changed the number of nodes of each op, keyed by
  // interned (domain, op type), so statistics after a step need no walk over
  // the graph. nullopt when an edit added, removed or re-attributed a node
  // that holds a subgraph, or gave one a node (nested nodes are not in the
  // log): count by walking then. Call before commit() or undo().
  using OpKey = std::pair<const std::string*, const std::string*>;
  std::optional<absl::flat_hash_map<OpKey, int64_t>> opCountDelta() const;

  // Restores the state before the first record and empties the log.
  void undo();
  // Frees what was removed and forgets the records (the edits stay).
  void commit();
  bool empty() const { return records_.empty(); }
  size_t size() const { return records_.size(); }

 private:
  enum class Kind {
    kNodeAdded,
    kNodeRemoved,
    kValueRemoved,
    kInputSet,
    kAttr,
    kType,
    kOutputSet,
    kRenamed,
    kInitializerAdded,
    kInitializerChanged,
    kInputRemoved,
    kInitializerRemoved,
  };
  // A read of a value outside a detached subgraph, cut while the subgraph is
  // held here (it must not count as a use of that value meanwhile). With
  // node == nullptr: the subgraph `graph` returns the outer value as an output
  // (it must not make that value a graph output meanwhile).
  struct OuterRead {
    Node* node;
    size_t index;
    Value* value;
    Graph* graph = nullptr;
  };
  // What only some records carry; most records (rewired inputs, removed
  // nodes and values) need none of it, so it is held by pointer and a Record
  // stays at 64 bytes: a pass that removes 100k nodes appends 200k records.
  struct Payload {
    std::string name;
    std::unique_ptr<Attribute> attr;    // the attribute before the change
    std::vector<OuterRead> outerReads;  // cut reads of held subgraphs
    std::unique_ptr<Type> type;         // old type
    std::unique_ptr<Tensor> tensor;     // old initializer data
  };
  struct Record {
    Kind kind;
    bool flag = false;  // kInitializerChanged: was an initializer; kNodeRemoved: held a subgraph
    uint32_t inputCount = 0;  // kNodeRemoved: its inputs, from removedInputs_[index]
    Graph* graph = nullptr;
    Node* node = nullptr;
    Value* value = nullptr;
    size_t index = 0;
    Node* nodeSuccessor = nullptr;  // where a removed node was: before this one (nullptr: last)
    std::list<std::unique_ptr<Value>>::iterator valuePos;  // where a removed value was
    std::unique_ptr<Payload> payload;
    Payload& extra() {
      if (!payload) payload = std::make_unique<Payload>();
      return *payload;
    }
  };

  static std::vector<OuterRead> cutOuterReads(const std::vector<Graph*>& subgraphs);
  static void restoreOuterReads(const std::vector<OuterRead>& reads);
  // Before a held subgraph is freed: its outputs that are outer values go.
  static void dropOuterOutputs(const std::vector<OuterRead>& reads);
  Record& add(Kind kind, Graph* g, Node* n, Value* v);
  void undoOne(Record& r);

  std::deque<Record> records_;  // no relocation as it grows (see EditLog)
  // Removed nodes by op, counted while each node is at hand (see opCountDelta).
  absl::flat_hash_map<OpKey, int64_t> removedOps_;
  bool nestedNodesChanged_ = false;    // a subgraph came or went with a node or attribute
  std::vector<Value*> removedInputs_;  // inputs of removed nodes, one run per record
  std::vector<std::unique_ptr<Node>> removedNodes_;
  // Removed nodes that hold subgraphs: freed on this thread (see deferred_free.h).
  std::vector<std::unique_ptr<Node>> removedNestedNodes_;
  std::list<std::unique_ptr<Value>> removedValues_;
};

}  // namespace passlab::ir
