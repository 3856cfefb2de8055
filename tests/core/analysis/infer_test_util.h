// Helpers for shape inference tests: parse a text-format model, forget the
// types of node outputs (so only inference decides them), infer, and read
// back types as text-format strings ("float[N,3]").
#pragma once

#include <string>

#include "core/analysis/shape_inference.h"
#include "core/ir/model.h"
#include "tests/support/test_support.h"

namespace passlab::testing {

// Sets every node output type (all graphs) to undefined.
inline void clearNodeOutputTypes(ir::Graph& g) {
  for (const auto& n : g.nodes()) {
    for (ir::Value* v : n->outputs())
      if (v) v->setType(ir::Type());
    for (ir::Graph* sub : n->subgraphs()) clearNodeOutputTypes(*sub);
  }
}

// A value by name in the main graph or any subgraph, or nullptr.
inline const ir::Value* findValueAnywhere(const ir::Graph& g, const std::string& name) {
  if (const ir::Value* v = g.findValue(name)) return v;
  for (const auto& n : g.nodes())
    for (const ir::Graph* sub : n->subgraphs())
      if (const ir::Value* v = findValueAnywhere(*sub, name)) return v;
  return nullptr;
}

struct Inferred {
  ir::Model model;
  analysis::ShapeInferenceReport report;
  // The value's type as text ("float[N,3]"), or "<no value NAME>".
  std::string type(const std::string& name) const {
    const ir::Value* v = findValueAnywhere(model.graph(), name);
    return v ? v->type().toString() : "<no value " + name + ">";
  }
};

// Parses `text`, clears node output types (unless keepDeclared), infers.
inline Inferred inferText(const std::string& text, bool keepDeclared = false,
                          const analysis::ShapeInferenceOptions& options = {}) {
  Inferred r;
  r.model = parse(text);
  if (!keepDeclared) clearNodeOutputTypes(r.model.graph());
  r.report = analysis::inferShapes(r.model, options);
  return r;
}

}  // namespace passlab::testing
