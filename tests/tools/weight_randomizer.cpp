#include "tests/tools/weight_randomizer.h"

#include <algorithm>
#include <cmath>
#include <unordered_map>
#include <unordered_set>
#include <utility>

#include "core/exec/executor.h"
#include "core/exec/input_fill.h"

namespace passlab::testtools {
namespace {

using ir::Node;
using ir::Value;

// Ops a weight may pass through (input 0) on its way to the node that reads it.
bool looksThrough(const std::string& op) {
  return op == "Reshape" || op == "Unsqueeze" || op == "Squeeze" || op == "Flatten" ||
         op == "Identity" || op == "Transpose";
}

// Deterministic across platforms: splitmix64 seeded from the seed and the
// tensor's name, so a tensor's values do not depend on the order of the graph.
class Rng {
 public:
  Rng(uint64_t seed, const std::string& name) {
    uint64_t h = 1469598103934665603ull;  // FNV-1a
    for (unsigned char c : name) h = (h ^ c) * 1099511628211ull;
    state_ = seed * 0x9E3779B97F4A7C15ull ^ h;
  }
  uint64_t next() {
    uint64_t z = (state_ += 0x9E3779B97F4A7C15ull);
    z = (z ^ (z >> 30)) * 0xBF58476D1CE4E5B9ull;
    z = (z ^ (z >> 27)) * 0x94D049BB133111EBull;
    return z ^ (z >> 31);
  }
  double uniform() { return static_cast<double>(next() >> 11) * 0x1.0p-53; }  // [0, 1)
  double uniform(double lo, double hi) { return lo + (hi - lo) * uniform(); }
  double normal() {  // Box-Muller
    double u1 = 1.0 - uniform(), u2 = uniform();
    return std::sqrt(-2.0 * std::log(u1)) * std::cos(6.283185307179586 * u2);
  }

 private:
  uint64_t state_;
};

// The node (and input slot) a weight is read by, past reshapes.
std::pair<Node*, int> finalUse(Value* v) {
  for (int depth = 0; depth < 8 && v != nullptr; ++depth) {
    if (v->uses().empty()) return {nullptr, -1};
    const ir::Use& u = v->uses().front();
    if (u.inputIndex == 0 && looksThrough(u.node->opType()) && u.node->outputCount() > 0) {
      v = u.node->output(0);
      continue;
    }
    return {u.node, u.inputIndex};
  }
  return {nullptr, -1};
}

// The initializer (or fill output) a node input comes from, before reshapes.
Value* rootOf(Value* v) {
  for (int depth = 0; depth < 8 && v != nullptr; ++depth) {
    Node* p = v->producer();
    if (p == nullptr || !looksThrough(p->opType()) || p->inputCount() == 0) return v;
    v = p->input(0);
  }
  return v;
}

bool isLayer(const std::string& op) {
  return op == "Conv" || op == "ConvTranspose" || op == "Gemm" || op == "MatMul";
}

// Whether a float initializer read this way is a weight we may replace.
bool isWeightRole(Node* n, int slot) {
  if (n == nullptr) return false;
  const std::string& op = n->opType();
  if (op == "Conv" || op == "ConvTranspose" || op == "Gemm") return slot == 1 || slot == 2;
  if (op == "MatMul") return slot == 1;
  if (op == "BatchNormalization") return slot >= 1 && slot <= 4;
  if (op == "Mul" || op == "Add") {
    Value* other = n->input(slot == 0 ? 1 : 0);
    return other != nullptr && !rootOf(other)->isInitializer() &&
           rootOf(other)->producer() != nullptr;
  }
  return false;
}

// Random values of a scale that suits how the tensor is read.
std::vector<float> randomValues(const std::vector<int64_t>& dims, const std::string& name,
                                Node* user, int slot, uint64_t seed) {
  int64_t numel = 1;
  for (int64_t d : dims) numel *= d;
  Rng rng(seed, name);
  std::vector<float> out(static_cast<size_t>(numel));
  auto fill = [&](auto draw) {
    for (float& x : out) x = static_cast<float>(draw());
  };
  auto he = [&](int64_t fanIn) {
    double sd = std::sqrt(2.0 / static_cast<double>(std::max<int64_t>(fanIn, 1)));
    fill([&] { return sd * rng.normal(); });
  };
  // Per-channel scales in [0.5, 1.5) divided by their rms: no growth (or
  // decay) on average through hundreds of them (densenet121 has 238).
  auto scales = [&] {
    fill([&] { return rng.uniform(0.5, 1.5); });
    double sq = 0;
    for (float x : out) sq += static_cast<double>(x) * x;
    const double rms = out.empty() ? 1.0 : std::sqrt(sq / static_cast<double>(out.size()));
    for (float& x : out) x = static_cast<float>(x / rms);
  };
  // Leading 1s dropped: [1,1,1000,1024] read by a Gemm through a Reshape.
  std::vector<int64_t> d = dims;
  while (d.size() > 1 && d.front() == 1) d.erase(d.begin());
  const int64_t lead = d.empty() ? 1 : std::max<int64_t>(d.front(), 1);
  const std::string op = user != nullptr ? user->opType() : "";
  if ((op == "Conv" || op == "ConvTranspose") && slot == 1) {
    he(numel / lead);
  } else if (op == "Gemm" && slot == 1) {
    bool transB = user->attrInt("transB", 0) != 0;
    he(d.size() == 2 ? (transB ? d[1] : d[0]) : numel / lead);
  } else if (op == "MatMul" && slot == 1) {
    he(d.size() >= 2 ? d[d.size() - 2] : lead);
  } else if ((op == "Conv" || op == "ConvTranspose" || op == "Gemm") && slot == 2) {
    fill([&] { return rng.uniform(-0.1, 0.1); });
  } else if (op == "BatchNormalization" && slot == 1) {
    scales();
  } else if (op == "BatchNormalization" && slot == 4) {
    // A variance with mean(1 / var) = 1: scale^2 / var averages 1 too.
    fill([&] { return rng.uniform(0.5, 1.5); });
    double inv = 0;
    for (float x : out) inv += 1.0 / x;
    inv /= static_cast<double>(out.size());
    for (float& x : out) x = static_cast<float>(x * inv);
  } else if (op == "BatchNormalization" && slot == 2) {
    fill([&] { return rng.uniform(-0.2, 0.2); });  // shift
  } else if (op == "BatchNormalization" && slot == 3) {
    fill([&] { return rng.uniform(-0.1, 0.1); });  // mean
  } else if (op == "Add" || op == "Sub") {
    fill([&] { return rng.uniform(-0.2, 0.2); });
  } else if (d.size() >= 2) {
    he(numel / lead);
  } else {
    scales();
  }
  return out;
}

ir::Tensor floatTensor(std::vector<int64_t> dims, const std::vector<float>& values) {
  return ir::Tensor::fromVector(ir::DataType::kFloat, std::move(dims), values);
}

void scaleInitializer(Value* v, double k) {
  ir::Tensor* t = v->mutableInitializer();
  if (t == nullptr || t->dtype() != ir::DataType::kFloat) return;
  for (float& x : t->mutableData<float>()) x = static_cast<float>(x * k);
}

// The root mean square of a float tensor's elements.
double rmsOf(const ir::Tensor& t) {
  if (t.dtype() != ir::DataType::kFloat) return 0;
  auto data = t.data<float>();
  double sq = 0;
  for (float x : data) sq += static_cast<double>(x) * x;
  return data.empty() ? 0 : std::sqrt(sq / static_cast<double>(data.size()));
}

// Runs a copy of `model` with `probes` as extra outputs on seeded random inputs.
Expected<std::unordered_map<std::string, ir::Tensor>> probe(const ir::Model& model,
                                                            const std::vector<std::string>& probes,
                                                            uint64_t seed) {
  ir::Model copy = model.clone();
  ir::Graph& g = copy.graph();
  std::unordered_set<std::string> already;
  for (Value* o : g.outputs()) already.insert(o->name());
  for (const std::string& name : probes) {
    if (already.count(name) != 0) continue;
    Value* v = g.findValue(name);
    if (v == nullptr) return internalError("probe value " + name + " not found");
    g.addOutput(v);
    already.insert(name);
  }
  auto executor = exec::Executor::create(copy);
  if (!executor.isOk()) return executor.error();
  exec::NamedInputs inputs;
  exec::FillOptions fill;
  fill.seed = seed;
  for (const exec::InputInfo& info : (*executor)->inputs()) {
    if (info.optional) continue;
    auto t = exec::makeInput(info, fill);
    if (!t.isOk()) return t.error();
    inputs.emplace_back(info.name, exec::Value(*t));
  }
  exec::RunOptions runOptions;
  auto result = (*executor)->run(inputs, runOptions);
  if (!result.isOk()) return result.error();
  std::unordered_map<std::string, ir::Tensor> out;
  for (size_t i = 0; i < result->outputNames.size() && i < result->outputs.size(); ++i)
    out.emplace(result->outputNames[i], result->outputs[i]);
  return out;
}

}  // namespace

Expected<RandomizeReport> randomizeWeights(ir::Model& model, const RandomizeOptions& options) {
  RandomizeReport report;
  ir::Graph& g = model.graph();
  std::unordered_set<const Value*> randomized;

  // 1. ConstantOfShape fills of a constant shape, float.
  std::vector<Node*> fills;
  for (const auto& n : g.nodes())
    if (n->opType() == "ConstantOfShape" && n->domain().empty() && n->inputCount() == 1 &&
        n->input(0) != nullptr && n->input(0)->isInitializer() && n->outputCount() == 1)
      fills.push_back(n.get());
  for (Node* n : fills) {
    const ir::Attribute* value = n->attr("value");
    if (value != nullptr && value->t.dtype() != ir::DataType::kFloat) continue;
    std::vector<int64_t> dims = n->input(0)->initializer()->toInt64Vector();
    if (std::any_of(dims.begin(), dims.end(), [](int64_t d) { return d <= 0; })) continue;
    Value* out = n->output(0);
    auto [user, slot] = finalUse(out);
    const std::string name = out->name();
    std::vector<float> values;
    if (options.random) {
      values = randomValues(dims, name, user, slot, options.seed);
    } else {
      int64_t numel = 1;
      for (int64_t d : dims) numel *= d;
      const float fill = value != nullptr && value->t.numel() > 0
                             ? static_cast<float>(value->t.valueAsDouble(0))
                             : 0.0f;
      values.assign(static_cast<size_t>(numel), fill);
    }
    ir::Tensor t = floatTensor(dims, values);
    Value* shape = n->input(0);
    Value* init = g.addInitializer(g.freshName(name), std::move(t));
    g.replaceAllUsesWith(out, init);
    g.removeNode(n);
    g.renameValue(init, name);
    if (!shape->hasUses() && !shape->isGraphOutput() && !shape->isGraphInput())
      g.removeInitializer(shape);
    randomized.insert(init);
    ++report.fillsReplaced;
  }

  if (!options.random) return report;

  // 2. Float initializers read as weights, if asked.
  if (options.initializers) {
    for (Value* v : std::vector<Value*>(g.initializers())) {
      if (randomized.count(v) != 0) continue;
      const ir::Tensor* t = v->initializer();
      if (t == nullptr || t->dtype() != ir::DataType::kFloat || t->rank() == 0 || t->numel() == 0)
        continue;
      auto [user, slot] = finalUse(v);
      if (!isWeightRole(user, slot)) continue;
      g.setInitializer(
          v, floatTensor(t->dims(), randomValues(t->dims(), v->name(), user, slot, options.seed)));
      randomized.insert(v);
      ++report.initializersReplaced;
    }
  }

  // 3. The last layers (a Conv/Gemm/MatMul with random weights after which no
  // other such layer, and no BatchNormalization with random statistics, comes)
  // scaled so their outputs have an rms of 1 on seeded random inputs: one
  // probe run, exact because nothing after them was changed. A Softmax after
  // them then neither saturates nor flattens.
  if (!options.scaleLastLayers) return report;
  std::unordered_set<const Value*> laterLayer;  // values a randomized layer reads, transitively
  std::vector<Node*> last;
  std::vector<Node*> order;
  for (const auto& owned : g.nodes()) order.push_back(owned.get());
  for (auto it = order.rbegin(); it != order.rend(); ++it) {
    Node* n = *it;
    const bool layer = isLayer(n->opType()) && n->input(1) != nullptr &&
                       randomized.count(rootOf(n->input(1))) != 0;
    const bool norm = n->opType() == "BatchNormalization" && n->inputCount() >= 5 &&
                      randomized.count(rootOf(n->input(3))) != 0;
    bool feedsLater = false;
    for (Value* o : n->outputs())
      if (o != nullptr && laterLayer.count(o) != 0) feedsLater = true;
    if (layer && !feedsLater && n->outputCount() > 0) last.push_back(n);
    if (layer || norm || feedsLater)
      for (Value* in : n->inputs())
        if (in != nullptr) laterLayer.insert(in);
  }
  if (last.empty()) return report;
  std::vector<std::string> probes;
  for (Node* n : last) probes.push_back(n->output(0)->name());
  auto seen = probe(model, probes, options.seed);
  if (!seen.isOk()) return seen.error();
  for (Node* n : last) {
    auto it = seen->find(n->output(0)->name());
    if (it == seen->end()) continue;
    const double rms = rmsOf(it->second);
    if (!(rms > 0) || !std::isfinite(rms)) continue;
    const double k = 1.0 / rms;
    scaleInitializer(rootOf(n->input(1)), k);
    if (n->input(2) != nullptr && randomized.count(rootOf(n->input(2))) != 0)
      scaleInitializer(rootOf(n->input(2)), k);
    ++report.layersScaled;
  }
  return report;
}

Expected<std::string> swapConvOutputChannels(ir::Model& model, size_t index) {
  size_t seen = 0;
  for (const auto& owned : model.graph().nodes()) {
    Node* n = owned.get();
    if (n->opType() != "Conv" || n->input(1) == nullptr || !n->input(1)->isInitializer()) continue;
    if (seen++ != index) continue;
    ir::Tensor* w = n->input(1)->mutableInitializer();
    if (w->dtype() != ir::DataType::kFloat || w->rank() < 2 || w->dims()[0] < 2)
      return invalidArgument("Conv " + n->name() + " has no two float output channels");
    const int64_t per = w->numel() / w->dims()[0];
    auto data = w->mutableData<float>();
    std::swap_ranges(data.begin(), data.begin() + per, data.begin() + per);
    if (n->input(2) != nullptr && n->input(2)->isInitializer()) {
      auto bias = n->input(2)->mutableInitializer()->mutableData<float>();
      if (bias.size() >= 2) std::swap(bias[0], bias[1]);
    }
    return n->name().empty() ? n->output(0)->name() : n->name();
  }
  return invalidArgument("the model has no Conv number " + std::to_string(index) +
                         " with an initializer weight");
}

}  // namespace passlab::testtools
