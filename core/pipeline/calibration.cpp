#include "core/pipeline/calibration.h"

#include <algorithm>
#include <filesystem>
#include <map>

#include "core/io/npy.h"
#include "core/io/tensor_file.h"
#include "core/support/strings.h"

namespace passlab::pipeline {

namespace fs = std::filesystem;

namespace {

// "" when `t` fits graph input `in`'s declared type; else what it expects.
Text whyNotFits(const ir::Tensor& t, const ir::Value& in) {
  const ir::Type& want = in.type();
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
  return Text::of("input '%1' is %2, the model expects %3", in.name(), got.toString(),
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

Expected<exec::NamedInputs> readSet(const ir::Model& model, const fs::path& dir) {
  exec::NamedInputs set;
  size_t k = 0;
  for (const ir::Value* in : model.graph().inputs()) {
    if (in->isInitializer()) continue;
    const std::string file = inputFile(dir, k);
    if (file.empty())
      return invalidArgument(Text::of("%1: no input_%2.pb or .npy for input '%3'", dir.string(),
                                      std::to_string(k), in->name()));
    ++k;
    auto t = str::endsWith(file, ".pb") ? io::readTensorFile(file) : io::readNpy(file);
    if (!t) return t.error().withContext(file);
    if (Text why = whyNotFits(*t, *in); !why.empty())
      return invalidArgument(Text::of("%1: %2", file, why));
    set.emplace_back(in->name(), exec::Value(*t));
  }
  if (!inputFile(dir, k).empty())
    return invalidArgument(Text::of("%1: the model has %2 inputs, but %3 exists", dir.string(),
                                    std::to_string(k), inputFile(dir, k)));
  return set;
}

// A copy of `model` whose graph outputs also include `values` (by name).
Expected<ir::Model> withOutputs(const ir::Model& model, const std::vector<std::string>& values) {
  ir::Model copy = model.clone();
  ir::Graph& g = copy.graph();
  for (const std::string& name : values) {
    ir::Value* v = g.findValue(name);
    if (!v) return invalidArgument(Text::of("calibration: the model has no value '%1'", name));
    if (!v->isGraphOutput()) g.addOutput(v);
  }
  return copy;
}

}  // namespace

Expected<std::vector<exec::NamedInputs>> readCalibrationSets(const ir::Model& model,
                                                             const std::string& dir) {
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
  std::vector<exec::NamedInputs> sets;
  for (const fs::path& f : folders) {
    auto set = readSet(model, f);
    if (!set) return set.error();
    sets.push_back(std::move(set.value()));
  }
  return sets;
}

Expected<std::vector<exec::NamedInputs>> synthesizedCalibrationSets(const ir::Model& model,
                                                                    const InputSpec& spec,
                                                                    int count) {
  std::vector<exec::NamedInputs> sets;
  for (int i = 0; i < count; ++i) {
    InputSpec s = spec;
    s.seed = spec.seed + 1000 + static_cast<uint64_t>(i);
    auto in = makeInputs(model, s);
    if (!in) return in.error();
    sets.push_back(std::move(in.value()));
  }
  return sets;
}

CalibratingEvaluator::CalibratingEvaluator(std::vector<exec::NamedInputs> sets)
    : sets_(std::move(sets)), count_(sets_->size()) {}

CalibratingEvaluator::CalibratingEvaluator(MakeSets make, size_t count)
    : make_(std::move(make)), count_(count) {}

Expected<std::vector<ir::Tensor>> CalibratingEvaluator::evaluate(
    const ir::Node& node, const std::vector<const ir::Tensor*>& inputs, int64_t opsetVersion) {
  return constants_.evaluate(node, inputs, opsetVersion);
}

Status CalibratingEvaluator::observeValues(const ir::Model& model,
                                           const std::vector<std::string>& values,
                                           const Observer& observe,
                                           const std::atomic<bool>* cancel) {
  if (!sets_) {
    if (!make_) return unsupported("this pipeline has no calibration data");
    auto made = make_(model);
    if (!made) return made.error().withContext("calibration inputs");
    sets_ = std::move(made.value());
    count_ = sets_->size();
  }
  if (sets_->empty()) return invalidArgument("calibration: no input sets");
  auto exposed = withOutputs(model, values);
  if (!exposed) return exposed.error();
  auto ex = exec::Executor::create(*exposed);
  if (!ex) return ex.error().withContext("calibration");
  std::map<std::string, size_t> wanted;
  for (size_t k = 0; k < values.size(); ++k) wanted.emplace(values[k], k);
  exec::RunOptions options;
  options.cancel = cancel;
  for (size_t s = 0; s < sets_->size(); ++s) {
    auto r = (*ex)->run((*sets_)[s], options);
    if (!r) return r.error().withContext(Text::of("calibration set %1", std::to_string(s)));
    for (size_t i = 0; i < r->outputNames.size(); ++i)
      if (auto it = wanted.find(r->outputNames[i]); it != wanted.end())
        PASSLAB_RETURN_IF_ERROR(observe(it->second, r->outputs[i]));
  }
  return Status::ok();
}

}  // namespace passlab::pipeline
