#include "app/cli/run_inputs.h"

#include <algorithm>
#include <map>

#include "core/io/npy.h"
#include "core/io/tensor_file.h"
#include "core/pipeline/input_synthesis.h"
#include "core/pipeline/non_finite_count.h"
#include "core/support/strings.h"

namespace passlab::cli {

namespace {

std::string describe(const ir::Tensor& t) {
  std::string s = std::string(ir::dtypeName(t.dtype())) + "[";
  for (size_t i = 0; i < t.dims().size(); ++i) s += (i ? "," : "") + std::to_string(t.dims()[i]);
  return s + "]";
}

}  // namespace

Expected<PreparedInputs> prepareInputs(const exec::Executor& ex, const InputSpec& spec) {
  const ir::Model& model = ex.model();
  pipeline::InputSpec synth;
  synth.seed = spec.seed;
  std::map<std::string, std::string> files, values;
  std::string fillName = "random";
  for (const std::string& s : spec.inputs) {
    if (s == "random" || s == "zeros" || s == "arange") {
      fillName = s;
      synth.zeros = s == "zeros";
      synth.arange = s == "arange";
    } else if (auto eq = s.find('='); eq != std::string::npos && eq > 0) {
      std::string what = s.substr(eq + 1);
      bool file = str::endsWith(what, ".npy") || str::endsWith(what, ".pb");
      (file ? files : values)[s.substr(0, eq)] = what;
    } else {
      return invalidArgument("--input '" + s +
                             "': expected NAME=FILE.npy, NAME=VALUE[,VALUE...], random, zeros or "
                             "arange");
    }
  }
  for (const std::string& d : spec.dims) {
    auto eq = d.find('=');
    if (eq == std::string::npos || eq == 0)
      return invalidArgument("--dim '" + d + "': expected NAME=VALUE");
    try {
      size_t used = 0;
      int64_t v = std::stoll(d.substr(eq + 1), &used);
      if (used != d.size() - eq - 1 || v < 0) throw std::invalid_argument(d);
      synth.dims[d.substr(0, eq)] = v;
    } catch (const std::exception&) {
      return invalidArgument("--dim '" + d + "': the value must be a non-negative integer");
    }
  }
  // A --dim must name a symbolic dim of some input (a typo would silently stay 1).
  std::vector<std::string> symbols;
  for (const exec::InputInfo& in : ex.inputs())
    if (in.type.isTensor() && in.type.hasShape())
      for (const ir::Dim& d : in.type.shape()->dims())
        if (d.isSymbolic() && !pipeline::isAnonymousDim(d.param()) &&
            std::find(symbols.begin(), symbols.end(), d.param()) == symbols.end())
          symbols.push_back(d.param());
  for (const auto& [name, value] : synth.dims) {
    if (std::find(symbols.begin(), symbols.end(), name) != symbols.end()) continue;
    std::string known;
    for (const std::string& s : symbols) known += (known.empty() ? "" : ", ") + s;
    return invalidArgument(
        "--dim " + name + "=...: no input has a dim named '" + name + "' (" +
        (known.empty() ? "the inputs have no symbolic dims" : "symbolic dims: " + known) + ")");
  }
  for (const auto* given : {&files, &values})
    for (const auto& [name, what] : *given) {
      bool known = false;
      for (const exec::InputInfo& in : ex.inputs()) known = known || in.name == name;
      if (!known)
        return invalidArgument("--input " + name + "=...: the model has no input '" + name + "'");
    }
  std::map<std::string, std::string> source;  // input -> what the user gave
  for (const auto& [name, file] : files) {
    auto t = readInputFile(file);
    if (!t) return t.error();
    synth.fixed[name] = std::move(t.value());
    source[name] = file;
  }
  for (const auto& [name, what] : values) {
    auto t = pipeline::parseInputValues(model, name, what, synth);
    if (!t) return t.error().withContext("--input " + name + "=" + what);
    synth.fixed[name] = std::move(t.value());
    source[name] = "--input " + name + "=" + what;
  }
  auto plan = pipeline::planInputs(model, synth);
  if (!plan) return plan.error();
  auto filled = pipeline::fillInputs(*plan, model, synth);
  if (!filled) return filled.error();
  PreparedInputs out;
  out.values = std::move(filled.value());
  std::string how = fillName;
  if (fillName == "random") how += ", seed " + std::to_string(spec.seed);
  for (const pipeline::InputPlan& p : *plan) {
    if (p.given) {
      const ir::Tensor& t = synth.fixed.at(p.name);
      std::string d = p.name + " " + describe(t) + " (" + source[p.name] + ")";
      // Outputs computed from them may be NaN or infinite too: say where.
      if (Text bad = pipeline::nonFiniteText(pipeline::countNonFinite(t)); !bad.empty())
        d += ": " + bad.str();
      out.descriptions.push_back(std::move(d));
    } else {
      out.descriptions.push_back(p.describe().str() + (p.constant ? "" : " (" + how + ")"));
    }
  }
  return out;
}

Expected<ir::Tensor> readInputFile(const std::string& path) {
  if (str::endsWith(path, ".pb")) return io::readTensorFile(path);
  return io::readNpy(path);
}

}  // namespace passlab::cli
