// Type and shape inference for every value of a model.
//
// The driver visits each graph in node order, recursing into If/Loop/Scan
// bodies with their inputs bound from the parent node, and applies one rule per
// (domain, op) from the table in core/analysis/infer/rule_list.cpp. Every op
// with a schema in ir::OpRegistry gets at least its output element types.
// Small integer tensors (shapes and their arithmetic) are tracked element by
// element, so Reshape/Expand/Tile/ConstantOfShape targets built from Shape
// resolve even when dims are symbolic. Symbolic dims stay symbolic; a dim that
// cannot be determined is unknown, never a guessed number. Linear in model size.
#pragma once

#include <cstddef>
#include <string>
#include <vector>

#include "core/ir/model.h"
#include "core/ir/undo_log.h"

namespace passlab::analysis {

struct ShapeInferenceOptions {
  bool replaceDeclared =
      false;  // overwrite types the file declared (else keep them, report conflicts)
  size_t maxConstantElements =
      1024;                     // int tensors up to this size are tracked for data propagation
  ir::UndoLog* undo = nullptr;  // records every type it changes, when set
};

struct ShapeInferenceReport {
  size_t values = 0;                   // node outputs considered, all graphs incl. subgraphs
  size_t typed = 0;                    // with known element type (or known non-tensor type)
  size_t shaped = 0;                   // with known rank (a known non-tensor type counts as shaped)
  std::vector<std::string> conflicts;  // declared vs inferred disagreements, naming node + value
  std::vector<std::string> failures;   // node-level inference errors naming the node ("Reshape 'r'
                                       // (#3): two -1 in target shape")
  std::vector<std::string> opsWithoutRule;  // qualified op types with no rule ("com.microsoft.Foo")
  // Node outputs whose contents inference knows element by element (small
  // tensors: shapes and their arithmetic, casts of them). Rewiring a use to or
  // from one of these may change what inference can derive downstream.
  std::vector<const ir::Value*> knownContents;
};

// Infers the types of all node outputs of the model's graph and its subgraphs
// and stores them in the values. Model-local function bodies are not visited.
ShapeInferenceReport inferShapes(ir::Model& model, const ShapeInferenceOptions& options = {});

}  // namespace passlab::analysis
