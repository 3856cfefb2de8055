// PassLab's text format for models: the ONNX textual syntax (as onnx's own
// parser and printer use it), with optional node names in brackets.
//
//   <ir_version: 8, opset_import: ["" : 17]>
//   main (float[N,3] X) => (float[N,3] Y)
//   <float[3] B = {1, 2, 3}>
//   {
//     [add] T = Add(X, B)
//     Y = Relu(T)
//   }
//
// Tests write graphs this way; the printer writes any model this way.
#pragma once

#include <string>
#include <string_view>

#include "core/io/model_io.h"
#include "core/ir/model.h"
#include "core/support/error.h"

namespace passlab::io {

// Parses a model. Without a <...> header the model imports the default domain at
// `defaultOpset` and uses IR version 8. Errors give the line and column.
Expected<ir::Model> parseModelText(std::string_view text, int64_t defaultOpset = 17);

struct PrintOptions {
  // Tensors with more elements are printed as a summary ("float[64,3,7,7] w = {...}")
  // which the parser rejects; 0 prints everything.
  size_t maxTensorElements = 16;
  bool printHeader = true;
};
std::string printModelText(const ir::Model& model, const PrintOptions& options = {});
std::string printGraphText(const ir::Graph& graph, const PrintOptions& options = {});

}  // namespace passlab::io
