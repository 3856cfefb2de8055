// Checks the invariants every pass must preserve: each value has one producer
// and is defined (in scope) before it is used, the graph is acyclic, use lists
// are exact, nodes match their operator's arity, attributes and type constraints.
#pragma once

#include <absl/container/flat_hash_set.h>

#include <string>
#include <vector>

#include "core/ir/model.h"
#include "core/support/error.h"

namespace passlab::ir {

struct VerifierProblem {
  enum class Severity { kError, kWarning };
  Severity severity = Severity::kError;
  NodeId node = 0;  // 0 when not about one node
  std::string message;
  bool schema = false;  // from an operator schema check (else the graph's structure)
  // The problem without node ids ("Conv 'c': required input 'W' is missing"):
  // a rewrite renumbers nodes, so errors a model already had are recognized
  // after an edit by their key, never by their message.
  std::string key;
};

// Where a step may have changed the graphs' structure (the PassManager takes
// it from the step's UndoLog). With it, the structure is checked there alone:
// each node as the full walk checks it (inputs visible and defined before it,
// its place in their use lists, outputs, subgraph links and outputs) and the
// readers of its outputs (defined before them); each value's definition (a
// value that is gone must have no reader and be no graph output) and use
// list; the output lists of the graphs named, and always the main graph's.
// Whatever a step did not touch was checked before, so a step is checked in
// O(what it touched: those nodes, values and their use lists) rather than
// O(graph). The errors an edit can introduce (order, visibility, missing
// definitions, output links) are worded as the whole walk words them; use
// lists, which only a fault in the IR itself can break, have texts of their
// own.
struct StructureScope {
  const absl::flat_hash_set<const Node*>* nodes = nullptr;
  std::vector<const Value*> values;  // repeats are checked once
  std::vector<const Graph*> graphOutputs;
};

struct VerifierOptions {
  bool checkSchemas = true;  // arity, attributes and type constraints of known ops
  // When set, schemas are checked only for these nodes: the PassManager
  // passes the nodes a step touched (UndoLog::touchedNodes), the rest were
  // checked before.
  const absl::flat_hash_set<const Node*>* schemaNodes = nullptr;
  // When set, the structure is checked only there (see StructureScope), and
  // schemas (if checked) only for its nodes (those in `schemaNodes`, if set).
  // The check ranks the node lists' chunks (NodeList::numberChunks), writing
  // into the model: no two such checks of one model at once.
  const StructureScope* structureScope = nullptr;
  size_t maxProblems = 100;
};

std::vector<VerifierProblem> verifyModel(const Model& model, const VerifierOptions& options = {});
// The first error as a Status (warnings ignored).
Status verifyModelStatus(const Model& model, const VerifierOptions& options = {});

// ONNX spelling of a type for matching type constraints: "tensor(float)", "seq(tensor(int64))".
std::string onnxTypeString(const Type& t);

}  // namespace passlab::ir
