// The only way a pass edits a graph. Each edit is applied to the IR and
// recorded in the EditLog; new nodes get provenance from the nodes they derive
// from. Matching code never mutates; it returns a closure that uses this.
#pragma once

#include <string>
#include <unordered_map>
#include <unordered_set>
#include <vector>

#include "core/ir/model.h"
#include "core/ir/undo_log.h"
#include "core/rewrite/edit_log.h"
#include "core/rewrite/provenance.h"
#include "core/support/text.h"

namespace passlab::rewrite {

class Rewriter {
 public:
  Rewriter(ir::Model& model, EditLog& log, Provenance* provenance = nullptr,
           std::string passId = "");

  // With an undo log attached, every edit also records how to reverse it, so
  // the pass can be rolled back (UndoLog::undo) without a copy of the model.
  void setUndoLog(ir::UndoLog* undo) { undo_ = undo; }

  ir::Model& model() { return model_; }
  const std::string& passId() const { return passId_; }
  bool changed() const { return !log_.empty(); }
  const EditLog& log() const { return log_; }
  // False while every edit so far leaves every value's type as shape inference
  // would compute it: nodes and initializers removed, uses rewired from one
  // value to another of the same floating-point type where inference can read
  // the contents of neither. Contents it can read: initializers and Constant
  // outputs (rules such as Resize read their scales from them) and the values
  // listed in `knownContents` (by Value::denseId, from the last inference:
  // small tensors it tracks element by element). Without that table every
  // rewire counts as a possible change. The PassManager skips re-inference
  // after a pass for which this stays false.
  bool typesMayHaveChanged() const { return typesMayChange_; }
  void setKnownContents(const std::vector<bool>* byDenseId) { knownContents_ = byDenseId; }

  // ---- nodes ----
  // Adds a node before `before` (nullptr: in `graph` at the end). Outputs get
  // fresh names derived from `name` (or the op). `derivedFrom` sets provenance.
  ir::Node* addNode(ir::Graph& graph, std::string opType, std::string domain,
                    const std::vector<ir::Value*>& inputs, size_t numOutputs, ir::Node* before,
                    std::string name, const std::vector<const ir::Node*>& derivedFrom);
  // Removes a node whose outputs are unused.
  void removeNode(ir::Node* node);
  // Removes `node` if none of its outputs is used, then its producers that became
  // unused, transitively (within its graph). Returns how many nodes were removed.
  size_t eraseIfDead(ir::Node* node);
  void setInput(ir::Node* node, size_t index, ir::Value* value);
  void setAttr(ir::Node* node, ir::Attribute attr);
  bool removeAttr(ir::Node* node, const std::string& name);

  // ---- values ----
  // Every use of `from` now reads `to`. When `from` is an output of the main
  // graph, `to` takes over its name so the model's interface does not change
  // (check canReplace first). A null `to` leaves the uses as omitted optional
  // inputs; it is refused (std::logic_error, nothing edited) when `from`
  // is an output of any graph.
  void replaceAllUsesWith(ir::Value* from, ir::Value* to);
  // "" if replaceAllUsesWith(from, to) keeps the model's interface, else why not.
  static Text canReplace(const ir::Value* from, const ir::Value* to);
  // Sets the type of a value the pass created or changed.
  void setType(ir::Value* value, ir::Type type);

  // ---- initializers and outputs ----
  ir::Value* addInitializer(ir::Graph& graph, const std::string& nameHint, ir::Tensor tensor);
  void setInitializer(ir::Value* value, ir::Tensor tensor);
  void removeInitializer(ir::Value* value);  // must be unused
  // An initializer that is also a graph input stops being an input: it can no
  // longer be overridden at run time, so passes may treat it as a constant.
  // Below IR version 4 every initializer had to be an input; the model is
  // raised to IR version 4, where that rule went.
  void freezeInitializer(ir::Value* value);
  // Raises the model's IR version to at least `version` (the PassManager
  // restores it when it rolls the pass back).
  void raiseIrVersion(int64_t version);
  void setGraphOutput(ir::Graph& graph, size_t index, ir::Value* value);

  // ---- the model ----
  // The model imports `version` of `domain` ("" the default; added when it
  // imported none). The PassManager restores the imports when it rolls back.
  void setOpsetVersion(const std::string& domain, int64_t version);

 private:
  static ir::NodeId ownerId(const ir::Graph& g) {
    return g.parentNode() ? g.parentNode()->id() : 0;
  }
  void noteRewire(const ir::Value* from, const ir::Value* to);
  void record(EditKind kind, ir::NodeId node, ir::NodeId graphOwner, int index, std::string from,
              std::string to, std::string detail = "");

  // A name for a new node in `g` that no other node of `g` has (ONNX Runtime
  // refuses files with two nodes of one name). The names in use are collected
  // once per graph, so naming stays O(1) per node.
  std::string uniqueNodeName(const ir::Graph& g, std::string wanted);

  ir::Model& model_;
  EditLog& log_;
  ir::UndoLog* undo_ = nullptr;
  std::unordered_map<const ir::Graph*, std::unordered_set<std::string>> nodeNames_;
  Provenance* provenance_;
  std::string passId_;
  bool typesMayChange_ = false;
  const std::vector<bool>* knownContents_ = nullptr;
};

}  // namespace passlab::rewrite
