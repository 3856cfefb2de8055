// The input sets a command's output check runs on (optimize, precision):
// --input-dir DIR (an ONNX test data set), --input NAME=FILE.npy|FILE.pb|V[,V...]
// (over --input-dir's), --dim NAME=VALUE; the other inputs synthesized.
// One parser for both commands, so they mean the same.
#pragma once

#include <string>
#include <vector>

#include "app/cli/output_files.h"
#include "core/pipeline/input_synthesis.h"

namespace CLI {
class App;
}

namespace passlab::ir {
class Model;
}

namespace passlab::cli {

struct CheckInputArgs {
  std::vector<std::string> inputs;  // NAME=FILE.npy, NAME=FILE.pb or NAME=V[,V...]
  std::string inputDir;             // DIR/input_0.pb, input_1.pb, ...
  std::vector<std::string> dims;    // NAME=VALUE

  // --dim, --input, --input-dir.
  void addTo(CLI::App& cmd);
  // Whether --input or --input-dir fixes some input (else the check may run
  // on the calibration sets).
  bool fixesInputs() const { return !inputs.empty() || !inputDir.empty(); }
  // The files they read, for checkOutputPaths.
  std::vector<NamedPath> files() const;
  // The synthesis spec: --dim's values, --input-dir's tensors for the graph
  // inputs without an initializer in order, then each --input over them. An
  // error names the option and the file or input.
  Expected<pipeline::InputSpec> spec(const ir::Model& model) const;
  // Where input `name` of `model` comes from: the file of its last --input,
  // "--input NAME=V[,V...]", or --input-dir's file; "" when not given.
  std::string sourceOf(const ir::Model& model, const std::string& name) const;
};

// Prints "check input: ..." for each input of `model` as `spec` plans it
// (given, or synthesized and how); an error when it cannot be planned. A
// given input is named with its source in `args` (when given) and, when it
// holds NaN or infinite values, how many.
Status printCheckInputs(const ir::Model& model, const pipeline::InputSpec& spec,
                        const CheckInputArgs* args = nullptr);

}  // namespace passlab::cli
