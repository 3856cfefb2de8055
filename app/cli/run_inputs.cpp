#include "app/cli/run_inputs.h"

#include <algorithm>
#include <map>

#include "core/io/npy.h"
#include "core/io/tensor_file.h"
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
  exec::FillOptions fill;
  fill.seed = spec.seed;
  std::map<std::string, std::string> files;
  for (const std::string& s : spec.inputs) {
    if (s == "random") {
      fill.fill = exec::Fill::kRandom;
    } else if (s == "zeros") {
      fill.fill = exec::Fill::kZeros;
    } else if (s == "arange") {
      fill.fill = exec::Fill::kArange;
    } else if (auto eq = s.find('='); eq != std::string::npos && eq > 0) {
      files[s.substr(0, eq)] = s.substr(eq + 1);
    } else {
      return invalidArgument("--input '" + s +
                             "': expected NAME=FILE.npy, random, zeros or arange");
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
      fill.dims[d.substr(0, eq)] = v;
    } catch (const std::exception&) {
      return invalidArgument("--dim '" + d + "': the value must be a non-negative integer");
    }
  }
  // A --dim must name a symbolic dim of some input (a typo would silently stay 1).
  std::vector<std::string> symbols;
  for (const exec::InputInfo& in : ex.inputs())
    if (in.type.isTensor() && in.type.hasShape())
      for (const ir::Dim& d : in.type.shape()->dims())
        if (d.isSymbolic() && std::find(symbols.begin(), symbols.end(), d.param()) == symbols.end())
          symbols.push_back(d.param());
  for (const auto& [name, value] : fill.dims) {
    if (std::find(symbols.begin(), symbols.end(), name) != symbols.end()) continue;
    std::string known;
    for (const std::string& s : symbols) known += (known.empty() ? "" : ", ") + s;
    return invalidArgument(
        "--dim " + name + "=...: no input has a dim named '" + name + "' (" +
        (known.empty() ? "the inputs have no symbolic dims" : "symbolic dims: " + known) + ")");
  }
  PreparedInputs out;
  for (const auto& [name, file] : files) {
    bool known = false;
    for (const exec::InputInfo& in : ex.inputs()) known = known || in.name == name;
    if (!known)
      return invalidArgument("--input " + name + "=...: the model has no input '" + name + "'");
  }
  const char* fillName = fill.fill == exec::Fill::kRandom  ? "random"
                         : fill.fill == exec::Fill::kZeros ? "zeros"
                                                           : "arange";
  for (const exec::InputInfo& in : ex.inputs()) {
    auto f = files.find(in.name);
    if (f != files.end()) {
      auto t = readInputFile(f->second);
      if (!t) return t.error();
      out.descriptions.push_back(in.name + " " + describe(*t) + " (" + f->second + ")");
      out.values.emplace_back(in.name, *t);
      continue;
    }
    if (in.optional) continue;  // an initializer backs it
    auto t = exec::makeInput(in, fill);
    if (!t) return t.error();
    std::string how = fillName;
    if (fill.fill == exec::Fill::kRandom) how += ", seed " + std::to_string(spec.seed);
    out.descriptions.push_back(in.name + " " + describe(*t) + " (" + how + ")");
    out.values.emplace_back(in.name, *t);
  }
  return out;
}

Expected<ir::Tensor> readInputFile(const std::string& path) {
  if (str::endsWith(path, ".pb")) return io::readTensorFile(path);
  return io::readNpy(path);
}

}  // namespace passlab::cli
