#include "core/pipeline/calibration.h"

#include <algorithm>
#include <cmath>
#include <cstring>
#include <filesystem>
#include <map>
#include <memory>
#include <set>
#include <unordered_map>

#include "core/exec/body_value_watch.h"
#include "core/io/npy.h"
#include "core/io/tensor_file.h"
#include "core/support/strings.h"

namespace passlab::pipeline {

namespace fs = std::filesystem;

namespace {

// A graph input without an initializer: what a set's input_K must fit.
struct InputDecl {
  std::string name;
  ir::Type type;
};

std::vector<InputDecl> inputDecls(const ir::Model& model) {
  std::vector<InputDecl> decls;
  for (const ir::Value* in : model.graph().inputs())
    if (!in->isInitializer()) decls.push_back({in->name(), in->type()});
  return decls;
}

// "" when `t` fits graph input `in`'s declared type; else what it expects.
Text whyNotFits(const ir::Tensor& t, const InputDecl& in) {
  const ir::Type& want = in.type;
  if (!want.isTensor()) return "";
  const ir::Type got = ir::Type::tensor(t.dtype(), ir::Shape::fromValues(t.dims()));
  bool fits = t.dtype() == want.elemType();
  if (fits && want.shape()) {
    const ir::Shape& s = *want.shape();
    fits = s.rank() == t.dims().size();
    for (size_t i = 0; fits && i < s.rank(); ++i)
      fits = !s[i].isStatic() || s[i].value() == t.dims()[i];
  }
  if (fits) return "";
  return Text::of("input '%1' is %2, the model expects %3", in.name, got.toString(),
                  want.toString());
}

// input_K.pb or input_K.npy in `dir`; "" when neither is there.
std::string inputFile(const fs::path& dir, size_t k) {
  for (const char* ext : {".pb", ".npy"}) {
    fs::path p = dir / ("input_" + std::to_string(k) + ext);
    if (fs::exists(p)) return p.string();
  }
  return "";
}

Expected<exec::NamedInputs> readSet(const std::vector<InputDecl>& inputs, const fs::path& dir) {
  exec::NamedInputs set;
  size_t k = 0;
  for (const InputDecl& in : inputs) {
    const std::string file = inputFile(dir, k);
    if (file.empty())
      return invalidArgument(Text::of("%1: no input_%2.pb or .npy for input '%3'", dir.string(),
                                      std::to_string(k), in.name));
    ++k;
    auto t = str::endsWith(file, ".pb") ? io::readTensorFile(file) : io::readNpy(file);
    if (!t) return t.error().withContext(file);
    if (Text why = whyNotFits(*t, in); !why.empty())
      return invalidArgument(Text::of("%1: %2", file, why));
    set.emplace_back(in.name, exec::Value(*t));
  }
  if (!inputFile(dir, k).empty())
    return invalidArgument(Text::of("%1: the model has %2 inputs, but %3 exists", dir.string(),
                                    std::to_string(k), inputFile(dir, k)));
  return set;
}

// The names of the values of the subgraphs of `g` (to any depth): their
// inputs and their nodes' outputs.
std::set<std::string> bodyValueNames(const ir::Graph& g) {
  std::set<std::string> names;
  for (const auto& n : g.nodes())
    for (const ir::Graph* sub : n->subgraphs()) {
      for (const ir::Value* v : sub->inputs())
        if (v) names.insert(v->name());
      sub->forEachNodeRecursive([&](ir::Node* m) {
        for (const ir::Value* v : m->outputs())
          if (v) names.insert(v->name());
        for (const ir::Graph* inner : m->subgraphs())
          for (const ir::Value* v : inner->inputs())
            if (v) names.insert(v->name());
      });
    }
  return names;
}

// A copy of `model` whose graph outputs also include those of `values` (by
// name) that are values of the main graph; the others, values of If/Loop/Scan
// bodies, go to `inBodies` (with their index in `values`): the run hands them
// over as the bodies compute them (exec::BodyValueWatch).
Expected<ir::Model> withOutputs(const ir::Model& model, const std::vector<std::string>& values,
                                std::unordered_map<std::string, size_t>& inBodies) {
  ir::Model copy = model.clone();
  ir::Graph& g = copy.graph();
  std::set<std::string> bodies;
  bool bodiesListed = false;
  for (size_t k = 0; k < values.size(); ++k) {
    const std::string& name = values[k];
    ir::Value* v = g.findValue(name);
    if (!v) {
      if (!bodiesListed) bodies = bodyValueNames(g), bodiesListed = true;
      if (!bodies.count(name))
        return invalidArgument(Text::of("calibration: the model has no value '%1'", name));
      inBodies.emplace(name, k);
      continue;
    }
    if (!v->isGraphOutput()) g.addOutput(v);
  }
  return copy;
}

}  // namespace

Expected<CalibrationSetSource> calibrationFolder(const ir::Model& model, const std::string& dir) {
  std::error_code ec;
  if (!fs::is_directory(dir, ec))
    return invalidArgument(Text::of("calibration data: %1 is not a folder", dir));
  std::vector<fs::path> folders;
  if (!inputFile(dir, 0).empty()) {
    folders.push_back(dir);
  } else {
    for (const auto& e : fs::directory_iterator(dir, ec))
      if (e.is_directory()) folders.push_back(e.path());
    std::sort(folders.begin(), folders.end());
  }
  if (folders.empty())
    return invalidArgument(Text::of(
        "calibration data: %1 holds no input set (subfolders with input_0.pb or input_0.npy)",
        dir));
  auto inputs = std::make_shared<const std::vector<InputDecl>>(inputDecls(model));
  for (const fs::path& f : folders) {
    auto set = readSet(*inputs, f);  // checked, then dropped
    if (!set) return set.error();
  }
  CalibrationSetSource source;
  source.count = folders.size();
  // Checked against the model listed with (the one the user gave), as when
  // every set was read up front, whatever the model being calibrated is.
  auto listed = std::make_shared<const std::vector<fs::path>>(std::move(folders));
  source.make = [inputs, listed](const ir::Model&, size_t i) {
    return readSet(*inputs, listed->at(i));
  };
  source.file = [listed](size_t i, size_t k) { return inputFile(listed->at(i), k); };
  return source;
}

Expected<std::vector<exec::NamedInputs>> readCalibrationSets(const ir::Model& model,
                                                             const std::string& dir) {
  auto source = calibrationFolder(model, dir);
  if (!source) return source.error();
  return firstCalibrationSets(*source, model, source->count);
}

CalibrationSetSource synthesizedCalibration(const InputSpec& spec, int count) {
  CalibrationSetSource source;
  source.count = static_cast<size_t>(std::max(count, 0));
  source.make = [spec](const ir::Model& model, size_t i) {
    InputSpec s = spec;
    s.seed = spec.seed + 1000 + static_cast<uint64_t>(i);
    return makeInputs(model, s);
  };
  return source;
}

Expected<std::vector<exec::NamedInputs>> synthesizedCalibrationSets(const ir::Model& model,
                                                                    const InputSpec& spec,
                                                                    int count) {
  return firstCalibrationSets(synthesizedCalibration(spec, count), model,
                              static_cast<size_t>(std::max(count, 0)));
}

Expected<std::vector<exec::NamedInputs>> firstCalibrationSets(const CalibrationSetSource& source,
                                                              const ir::Model& model, size_t n) {
  std::vector<exec::NamedInputs> sets;
  n = std::min(n, source.count);
  sets.reserve(n);
  for (size_t i = 0; i < n; ++i) {
    auto set = source.make(model, i);
    if (!set) return set.error();
    sets.push_back(std::move(set.value()));
  }
  return sets;
}

namespace {

// A source over sets held together.
CalibrationSetSource heldSets(std::vector<exec::NamedInputs> sets) {
  auto held = std::make_shared<const std::vector<exec::NamedInputs>>(std::move(sets));
  CalibrationSetSource source;
  source.count = held->size();
  source.make = [held](const ir::Model&, size_t i) -> Expected<exec::NamedInputs> {
    return held->at(i);
  };
  return source;
}

// Whether `t` (float32, float64, float16 or bfloat16) holds a NaN or an
// infinity; other element types never do.
bool holdsNonFinite(const exec::Tensor& t) {
  const auto n = static_cast<size_t>(t.numel());
  auto anyOf = [&](auto bad) {
    for (size_t i = 0; i < n; ++i)
      if (bad(i)) return true;
    return false;
  };
  auto halfBits = [&](size_t i) {
    uint16_t h;
    std::memcpy(&h, static_cast<const char*>(t.raw()) + 2 * i, 2);
    return h;
  };
  switch (t.dtype()) {
    case ir::DataType::kFloat:
      return anyOf([&](size_t i) { return !std::isfinite(t.data<float>()[i]); });
    case ir::DataType::kDouble:
      return anyOf([&](size_t i) { return !std::isfinite(t.data<double>()[i]); });
    case ir::DataType::kFloat16:
      return anyOf([&](size_t i) { return (halfBits(i) & 0x7c00) == 0x7c00; });
    case ir::DataType::kBFloat16:
      return anyOf([&](size_t i) { return (halfBits(i) & 0x7f80) == 0x7f80; });
    default:
      return false;
  }
}

}  // namespace

CalibratingEvaluator::CalibratingEvaluator(std::vector<exec::NamedInputs> sets)
    : source_(heldSets(std::move(sets))), count_(source_->count) {}

CalibratingEvaluator::CalibratingEvaluator(CalibrationSetSource source)
    : source_(std::move(source)), count_(source_->count) {}

CalibratingEvaluator::CalibratingEvaluator(MakeSets make, size_t count)
    : make_([make = std::move(make)](const ir::Model& model) -> Expected<CalibrationSetSource> {
        auto sets = make(model);
        if (!sets) return sets.error();
        return heldSets(std::move(sets.value()));
      }),
      count_(count) {}

CalibratingEvaluator::CalibratingEvaluator(MakeSource make, size_t count)
    : make_(std::move(make)), count_(count) {}

Expected<std::vector<ir::Tensor>> CalibratingEvaluator::evaluate(
    const ir::Node& node, const std::vector<const ir::Tensor*>& inputs, int64_t opsetVersion) {
  return constants_.evaluate(node, inputs, opsetVersion);
}

Status CalibratingEvaluator::observeValues(const ir::Model& model,
                                           const std::vector<std::string>& values,
                                           const Observer& observe,
                                           const std::atomic<bool>* cancel) {
  if (!source_) {
    if (!make_) return unsupported("this pipeline has no calibration data");
    auto made = make_(model);
    if (!made) return made.error().withContext("calibration inputs");
    source_ = std::move(made.value());
    count_ = source_->count;
  }
  if (source_->count == 0) return invalidArgument("calibration: no input sets");
  std::unordered_map<std::string, size_t> inBodies;
  auto exposed = withOutputs(model, values, inBodies);
  if (!exposed) return exposed.error();
  // The statistics go into the saved model's scales: reproducible runs (no
  // thread choice by timing, executor.h), so that the same model, options
  // and sets give the same file every time.
  exec::ExecutorOptions executorOptions;
  executorOptions.reproducible = true;
  auto ex = exec::Executor::create(*exposed, executorOptions);
  if (!ex) return ex.error().withContext("calibration");
  std::map<std::string, size_t> wanted;
  for (size_t k = 0; k < values.size(); ++k) wanted.emplace(values[k], k);
  exec::RunOptions options;
  options.cancel = cancel;
  // A body's values as each run of it computes them (every If branch taken,
  // every Loop iteration, every Scan step); a body that never runs hands
  // over none.
  std::optional<exec::BodyValueWatch> watch;
  if (!inBodies.empty())
    watch.emplace(std::move(inBodies), [&](size_t k, const exec::Value& v) -> Status {
      if (!v.isTensor())
        return invalidArgument(
            Text::of("calibration: '%1' is %2, not a tensor", values[k], v.describe()));
      return observe(k, v.tensor().toIr());
    });
  for (size_t s = 0; s < source_->count; ++s) {
    // One set at a time: made here, dropped (with the run's outputs) before
    // the next is made.
    auto set = source_->make(model, s);
    if (!set) return set.error().withContext("calibration inputs");
    recordNonFinite(s, *set);
    auto r = (*ex)->run(*set, options);
    if (!r) return r.error().withContext(Text::of("calibration set %1", std::to_string(s)));
    for (size_t i = 0; i < r->outputNames.size(); ++i)
      if (auto it = wanted.find(r->outputNames[i]); it != wanted.end())
        PASSLAB_RETURN_IF_ERROR(observe(it->second, r->outputs[i]));
  }
  return Status::ok();
}

Text CalibratingEvaluator::firstNonFiniteInput(const ir::Model& model) {
  if (!source_) return "";
  for (size_t s = 0; s < source_->count; ++s) {
    auto set = source_->make(model, s);
    if (!set) return "";
    for (size_t k = 0; k < set->size(); ++k) {
      const auto& [name, value] = (*set)[k];
      if (!value.isTensor() || !holdsNonFinite(value.tensor())) continue;
      const std::string file = source_->file ? source_->file(s, k) : "";
      if (!file.empty()) return Text::of("input '%1' in %2", name, file);
      return Text::of("input '%1' in calibration set %2", name, std::to_string(s));
    }
  }
  return "";
}

void CalibratingEvaluator::recordNonFinite(size_t set, const exec::NamedInputs& inputs) {
  for (size_t k = 0; k < inputs.size(); ++k) {
    const auto& [name, value] = inputs[k];
    if (!value.isTensor()) continue;
    const exec::Tensor& t = value.tensor();
    if (t.isString()) continue;
    const NonFiniteCount c = countNonFinite(t.dtype(), t.raw(), static_cast<size_t>(t.numel()));
    if (!c.any()) continue;
    const std::string file = source_->file ? source_->file(set, k) : "";
    std::lock_guard<std::mutex> lock(nonFiniteMutex_);
    // By set and input: a set observed again is counted once.
    nonFinite_[{set, k}] = NonFiniteInput{name, file, c};
  }
}

Text CalibratingEvaluator::takeNonFiniteNote() {
  std::map<std::pair<size_t, size_t>, NonFiniteInput> seen;
  {
    std::lock_guard<std::mutex> lock(nonFiniteMutex_);
    seen.swap(nonFinite_);
  }
  if (seen.empty()) return "";
  // The first few inputs by set, then how many more.
  constexpr size_t kListed = 3;
  std::set<size_t> sets;
  std::vector<Text> listed;
  for (const auto& [at, in] : seen) {
    sets.insert(at.first);
    if (listed.size() == kListed) continue;
    const Text where = in.file.empty() ? Text::of("input '%1' in calibration set %2", in.name,
                                                  std::to_string(at.first))
                                       : Text::of("input '%1' in %2", in.name, in.file);
    listed.push_back(Text::of("%1: %2", where, nonFiniteText(in.count)));
  }
  Text inputs = Text::join(std::move(listed), "; ");
  if (seen.size() > kListed)
    inputs = Text::of("%1; and %2 more", inputs, std::to_string(seen.size() - kListed));
  return Text::of(
      "calibration: %1 of %2 input sets hold NaN or infinite values (%3): the ranges come from "
      "the finite values only",
      std::to_string(sets.size()), std::to_string(count_), inputs);
}

}  // namespace passlab::pipeline
