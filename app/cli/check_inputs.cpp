#include "app/cli/check_inputs.h"

#include <CLI/CLI.hpp>
#include <cstdio>
#include <filesystem>
#include <map>

#include "app/cli/run_inputs.h"
#include "core/ir/model.h"
#include "core/pipeline/non_finite_count.h"
#include "core/pipeline/numeric_check.h"
#include "core/support/strings.h"

namespace fs = std::filesystem;

namespace passlab::cli {

namespace {

// --input-dir DIR: DIR/input_0.pb, input_1.pb, ... (an ONNX test data set)
// for the graph inputs without an initializer, in order.
Expected<std::map<std::string, ir::Tensor>> inputsFromDir(const ir::Model& model,
                                                          const std::string& dir) {
  std::map<std::string, ir::Tensor> out;
  size_t k = 0;
  for (const ir::Value* in : model.graph().inputs()) {
    if (in->isInitializer()) continue;
    if (!in->type().isUndefined() && !in->type().isTensor())
      return unsupported("input '" + in->name() + "' is a " + in->type().toString() +
                         "; --input-dir reads tensors only");
    const std::string file = (fs::path(dir) / ("input_" + std::to_string(k++) + ".pb")).string();
    if (!fs::exists(file)) return invalidArgument("no " + file + " for input '" + in->name() + "'");
    auto t = readInputFile(file);
    if (!t) return t.error().withContext(file);
    out.emplace(in->name(), std::move(t.value()));
  }
  const std::string extra = (fs::path(dir) / ("input_" + std::to_string(k) + ".pb")).string();
  if (fs::exists(extra))
    return invalidArgument("the model has " + std::to_string(k) + " inputs, but " + extra +
                           " exists");
  return out;
}

// --input NAME=FILE.npy, or NAME=V[,V...]: values for the input's shape as
// the input synthesis plans it (--dim, hints, window sizes); one value fills
// the whole tensor.
Expected<ir::Tensor> parseInputValue(const ir::Model& model, const std::string& given,
                                     const pipeline::InputSpec& spec) {
  size_t eq = given.find('=');
  if (eq == std::string::npos || eq == 0)
    return invalidArgument("expected NAME=FILE.npy, NAME=FILE.pb or NAME=VALUES");
  std::string name = given.substr(0, eq), what = given.substr(eq + 1);
  const ir::Value* in = model.graph().findValue(name);
  if (!in || !in->isGraphInput())
    return invalidArgument("the model has no input named '" + name + "'");
  if (str::endsWith(what, ".npy") || str::endsWith(what, ".pb")) return readInputFile(what);
  return pipeline::parseInputValues(model, name, what, spec);
}

}  // namespace

void CheckInputArgs::addTo(CLI::App& cmd) {
  // Each occurrence of a repeatable option takes one value: a model path
  // after it stays the positional argument.
  cmd.add_option("--dim", dims, "Value for a symbolic dim in checks, NAME=VALUE; repeatable")
      ->allow_extra_args(false);
  cmd.add_option("--input", inputs,
                 "A fixed input for the checks, NAME=FILE.npy, NAME=FILE.pb (a TensorProto) or "
                 "NAME=V[,V...] (others random); "
                 "repeatable")
      ->allow_extra_args(false);
  cmd.add_option("--input-dir", inputDir,
                 "Inputs for the check from DIR/input_0.pb, input_1.pb, ... (an ONNX test data "
                 "set), in the order of the graph inputs; --input overrides one");
}

std::vector<NamedPath> CheckInputArgs::files() const {
  std::vector<NamedPath> out = inputFilesOf(inputs);
  for (NamedPath& f : filesIn("--input-dir", inputDir)) out.push_back(std::move(f));
  return out;
}

Expected<pipeline::InputSpec> CheckInputArgs::spec(const ir::Model& model) const {
  auto parsed = pipeline::parseDims(dims);
  if (!parsed) return parsed.error();
  pipeline::InputSpec out;
  out.dims = *parsed;
  if (!inputDir.empty()) {
    auto files = inputsFromDir(model, inputDir);
    if (!files) return files.error().withContext("--input-dir " + inputDir);
    out.fixed = std::move(files.value());
  }
  for (const std::string& given : inputs) {
    auto t = parseInputValue(model, given, out);
    if (!t) return t.error().withContext("--input " + given);
    out.fixed[given.substr(0, given.find('='))] = std::move(t.value());
  }
  return out;
}

std::string CheckInputArgs::sourceOf(const ir::Model& model, const std::string& name) const {
  for (auto it = inputs.rbegin(); it != inputs.rend(); ++it) {
    const size_t eq = it->find('=');
    if (eq == std::string::npos || it->substr(0, eq) != name) continue;
    const std::string what = it->substr(eq + 1);
    if (str::endsWith(what, ".npy") || str::endsWith(what, ".pb")) return what;
    return "--input " + *it;
  }
  if (inputDir.empty()) return "";
  size_t k = 0;
  for (const ir::Value* in : model.graph().inputs()) {
    if (in->isInitializer()) continue;
    if (in->name() == name)
      return (fs::path(inputDir) / ("input_" + std::to_string(k) + ".pb")).string();
    ++k;
  }
  return "";
}

Status printCheckInputs(const ir::Model& model, const pipeline::InputSpec& spec,
                        const CheckInputArgs* args) {
  auto plan = pipeline::planInputs(model, spec);
  if (!plan) return plan.error().withContext("cannot check outputs");
  for (const pipeline::InputPlan& p : *plan) {
    std::string line = p.describe().str();
    if (p.given) {
      const std::string source = args ? args->sourceOf(model, p.name) : "";
      if (!source.empty()) line += " (" + source + ")";
      if (auto t = spec.fixed.find(p.name); t != spec.fixed.end())
        if (Text bad = pipeline::nonFiniteText(pipeline::countNonFinite(t->second)); !bad.empty())
          line += ": " + bad.str();
    }
    std::printf("check input: %s\n", line.c_str());
  }
  return Status::ok();
}

}  // namespace passlab::cli
