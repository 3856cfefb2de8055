#include "core/pipeline/numeric_check.h"

#include <cmath>
#include <cstdio>
#include <optional>
#include <string_view>
#include <unordered_map>

#include "core/exec/evaluate.h"
#include "core/pipeline/node_extract.h"
#include "core/pipeline/non_finite_pair.h"
#include "core/pipeline/quant_steps.h"
#include "core/pipeline/rounding_floor.h"
#include "core/pipeline/unit_check.h"
#include "core/support/float16.h"
#include "core/support/strings.h"

namespace passlab::pipeline {

Expected<std::vector<ir::Tensor>> ExecEvaluator::evaluate(
    const ir::Node& node, const std::vector<const ir::Tensor*>& inputs, int64_t opsetVersion) {
  return exec::evaluateNode(node, inputs, opsetVersion);
}

Tolerance toleranceFor(ir::DataType t) {
  switch (t) {
    case ir::DataType::kFloat:
      return {1e-4, 1e-5};
    case ir::DataType::kFloat16:
    case ir::DataType::kBFloat16:
      return {1e-2, 1e-3};
    case ir::DataType::kDouble:
      return {1e-7, 1e-9};
    default:
      return {0, 0};
  }
}

bool allClose(const ir::Tensor& got, const ir::Tensor& want, double& maxAbs, double& maxRel,
              Text& why, double noiseAllowance, size_t* sameNonFinite) {
  if (got.dtype() != want.dtype()) {
    why = Text::of("element type %1 vs %2", std::string(ir::dtypeName(got.dtype())),
                   std::string(ir::dtypeName(want.dtype())));
    return false;
  }
  if (got.dims() != want.dims()) {
    why = Text::of("shape %1 vs %2", got.shape().toString(), want.shape().toString());
    return false;
  }
  if (got.dtype() == ir::DataType::kString) {
    if (got.strings() != want.strings()) {
      why = "strings differ";
      return false;
    }
    return true;
  }
  Tolerance tol = toleranceFor(got.dtype());
  bool ok = true;
  int64_t n = got.numel();
  bool floating = ir::isFloatingPoint(got.dtype());
  for (int64_t i = 0; i < n; ++i) {
    double a = floating ? got.valueAsDouble(i) : static_cast<double>(got.valueAsInt64(i));
    double b = floating ? want.valueAsDouble(i) : static_cast<double>(want.valueAsInt64(i));
    const ValuePair pair = classifyPair(a, b);  // the rule of non_finite_pair.h
    if (pair == ValuePair::kSameNonFinite) {
      if (sameNonFinite) ++*sameNonFinite;
      continue;
    }
    if (pair == ValuePair::kNonFiniteDiffer) {
      if (ok)
        why = std::isnan(a) || std::isnan(b)
                  ? Text::of("NaN at element %1", std::to_string(i))
                  : Text::of("infinity mismatch at element %1", std::to_string(i));
      ok = false;
      continue;
    }
    double abs = std::fabs(a - b);
    double rel = abs / std::max(std::fabs(b), 1e-30);
    maxAbs = std::max(maxAbs, abs);
    if (abs > 0) maxRel = std::max(maxRel, rel);
    const bool within =
        noiseAllowance > 0 ? abs <= noiseAllowance : abs <= tol.atol + tol.rtol * std::fabs(b);
    if (!within) {
      if (ok)
        why = Text::of("element %1: %2 vs %3", std::to_string(i), std::to_string(a),
                       std::to_string(b));
      ok = false;
    }
  }
  return ok;
}

namespace {

// A sequence or map output as tensors the check compares like any other:
// "name.length", then "name[i]" per element; a map as "name.keys" and
// "name.values" (a ZipMap's classes and probabilities).
void addFlattened(const std::string& name, const exec::Value& v,
                  std::map<std::string, ir::Tensor>& out) {
  if (v.isTensor()) {
    out[name] = v.tensor().toIr();
  } else if (v.isMap()) {
    out[name + ".keys"] = v.map().keys.toIr();
    out[name + ".values"] = v.map().values.toIr();
  } else if (v.isSequence()) {
    const auto& items = v.sequence().items;
    out[name + ".length"] = ir::Tensor::fromVector<int64_t>(ir::DataType::kInt64, {},
                                                            {static_cast<int64_t>(items.size())});
    for (size_t i = 0; i < items.size(); ++i)
      addFlattened(name + "[" + std::to_string(i) + "]", items[i], out);
  }
}

// Runs one model on several input sets with one Executor: compiled and
// memory-planned once, not once per set (a mixed-precision search checks a
// hundred models or more on 16 sets each; the plans were most of its time).
// The outputs are a fresh Executor's: a run's results are handed over or
// copied (output_buffers.h), no step trials move a step to another thread
// count (and kernel) on later runs, and a failed run drops the Executor, so
// the next set starts from a fresh one as before. Its runs are reproducible
// (executor.h): a figure printed, or a rollback decided, is the same in
// every process.
class ModelRunner {
 public:
  explicit ModelRunner(const ir::Model& model) : model_(model) {}

  Expected<std::map<std::string, ir::Tensor>> run(const exec::NamedInputs& inputs) {
    if (!executor_) {
      // No step trials: each set's run takes the cost model's thread counts,
      // and with them the kernels, as a fresh executor's first run would.
      // The greedy memory plan: the same outputs, planned in a fraction of
      // the time the hill climb takes (most of a search's time before).
      exec::ExecutorOptions options;
      options.stepTrials = false;
      options.reproducible = true;
      options.tightMemoryPlan = false;
      auto ex = exec::Executor::create(model_, options);
      if (!ex) return ex.error();
      executor_ = std::move(ex.value());
    }
    auto r = executor_->run(inputs);
    if (!r) {
      executor_.reset();
      return r.error();
    }
    std::map<std::string, ir::Tensor> out;
    for (size_t i = 0; i < r->outputNames.size(); ++i) {
      out[r->outputNames[i]] = r->outputs[i];
      if (i < r->values.size() && (r->values[i].isSequence() || r->values[i].isMap()))
        addFlattened(r->outputNames[i], r->values[i], out);
    }
    return out;
  }

 private:
  const ir::Model& model_;
  std::unique_ptr<exec::Executor> executor_;
};

Expected<std::map<std::string, ir::Tensor>> runModel(const ir::Model& model,
                                                     const exec::NamedInputs& inputs) {
  return ModelRunner(model).run(inputs);
}

std::map<std::string, OutputAccuracy> roundingFloorOf(
    const ir::Model& original, const std::vector<exec::NamedInputs>& inputs,
    const std::vector<std::map<std::string, ir::Tensor>>& reference,
    const std::set<std::string>& random, const NoiseOptions& noise, int topK) {
  return measureRoundingFloor(original, inputs, reference, random, std::max(noise.draws, 1),
                              noise.seed, topK);
}

}  // namespace

namespace {
bool isUnseededRandom(const ir::Node& n) {
  if (!n.domain().empty() && n.domain() != "ai.onnx") return false;
  static const std::set<std::string_view> kOps{"RandomNormal",     "RandomUniform",
                                               "RandomNormalLike", "RandomUniformLike",
                                               "Bernoulli",        "Multinomial"};
  if (n.hasAttr("seed")) return false;
  if (kOps.count(n.opType())) return true;
  // Dropout draws its mask in training mode (input 2 not a constant false).
  if (n.opType() == "Dropout" && n.inputs().size() > 2 && n.input(2)) {
    const ir::Value* mode = n.input(2);
    const ir::Tensor* t = mode->initializer();
    return !(t && t->numel() == 1 && t->dtype() == ir::DataType::kBool && !t->data<bool>()[0]);
  }
  return false;
}
}  // namespace

std::set<std::string> unseededRandomValues(const ir::Model& model) {
  std::set<std::string> random;
  for (const auto& n : model.graph().nodes()) {
    bool r = isUnseededRandom(*n);
    for (const ir::Value* in : n->inputs()) r = r || (in && random.count(in->name()));
    // A subgraph with its own generator, reading a random value from outside,
    // or returning one. (Per node, not per output: a holder with one random
    // output counts as random in all of them.)
    for (const ir::Graph* g : n->subgraphs()) {
      for (const ir::Value* out : g->outputs()) r = r || (out && random.count(out->name()));
      g->forEachNodeRecursive([&](ir::Node* inner) {
        if (r) return;
        r = isUnseededRandom(*inner);
        for (const ir::Value* in : inner->inputs()) r = r || (in && random.count(in->name()));
      });
    }
    if (r)
      for (const ir::Value* out : n->outputs())
        if (out) random.insert(out->name());
  }
  return random;
}

Expected<std::unique_ptr<ExecOutputChecker>> ExecOutputChecker::create(const ir::Model& original,
                                                                       int inputSets,
                                                                       InputSpec spec,
                                                                       NoiseOptions noise) {
  std::vector<exec::NamedInputs> sets;
  for (int i = 0; i < inputSets; ++i) {
    InputSpec s = spec;
    s.seed = spec.seed + static_cast<uint64_t>(i);
    auto in = makeInputs(original, s);
    if (!in) return in.error();
    sets.push_back(std::move(in.value()));
  }
  return create(original, std::move(sets), noise);
}

Expected<std::unique_ptr<ExecOutputChecker>> ExecOutputChecker::create(
    const ir::Model& original, std::vector<exec::NamedInputs> inputSets, NoiseOptions noise) {
  auto checker = std::unique_ptr<ExecOutputChecker>(new ExecOutputChecker());
  checker->original_ = original.clone();
  checker->noise_ = noise;
  checker->random_ = unseededRandomValues(original);
  checker->steps_ = pipeline::outputSteps(original);
  for (const ir::Value* out : original.graph().outputs())
    if (out && checker->random_.count(out->name())) checker->uncompared_.push_back(out->name());
  ModelRunner runner(original);
  for (exec::NamedInputs& in : inputSets) {
    auto ref = runner.run(in);
    if (!ref) return ref.error().withContext("running the original model for the numeric check");
    checker->inputs_.push_back(std::move(in));
    checker->reference_.push_back(std::move(ref.value()));
  }
  checker->measureOutputFloors();
  return checker;
}

void ExecOutputChecker::measureOutputFloors() {
  floors_.clear();
  for (int d = 0; d < noise_.draws; ++d) {
    size_t moved = 0;
    ir::Model perturbed = perturbWeights(original_, noise_.seed + d, noise_.ulps, &moved);
    if (moved == 0) return;  // no float weights that arithmetic reads: no floor
    ModelRunner runner(perturbed);
    for (size_t s = 0; s < inputs_.size(); ++s) {
      auto out = runner.run(inputs_[s]);
      if (out) {
        accumulateFloors(floors_, reference_[s], *out);
      } else {  // perturbing broke the run: no floor
        for (const auto& [name, t] : reference_[s]) floors_[name] = -1;
      }
    }
  }
}

namespace {

// `t` with its values in the float type `to` (float, float16 or bfloat16).
ir::Tensor inFloatType(const ir::Tensor& t, ir::DataType to) {
  const auto n = static_cast<size_t>(t.numel());
  if (to == ir::DataType::kFloat) {
    std::vector<float> v(n);
    for (size_t i = 0; i < n; ++i)
      v[i] = static_cast<float>(t.valueAsDouble(static_cast<int64_t>(i)));
    return ir::Tensor::fromVector<float>(to, t.dims(), v);
  }
  std::vector<uint16_t> bits(n);
  for (size_t i = 0; i < n; ++i) {
    const auto f = static_cast<float>(t.valueAsDouble(static_cast<int64_t>(i)));
    bits[i] = to == ir::DataType::kFloat16 ? floatToHalf(f) : floatToBfloat16(f);
  }
  return ir::Tensor::fromVector<uint16_t>(to, t.dims(), bits);
}

// The check's inputs as `model` declares them: a float input that a lossy
// pass turned into another float type (without keep_io_types) converted.
exec::NamedInputs asDeclared(const ir::Model& model, const exec::NamedInputs& inputs) {
  exec::NamedInputs out = inputs;
  for (auto& [name, value] : out) {
    const ir::Value* in = model.graph().findValue(name);
    if (!in || !in->isGraphInput() || !value.isTensor()) continue;
    const ir::DataType want = in->type().elemType();
    const ir::DataType have = value.tensor().dtype();
    const bool convertible = want == ir::DataType::kFloat || want == ir::DataType::kFloat16 ||
                             want == ir::DataType::kBFloat16;
    if (want == have || !convertible || !ir::isFloatingPoint(have)) continue;
    value = exec::Value(inFloatType(value.tensor().toIr(), want));
  }
  return out;
}

}  // namespace

NoiseFloors ExecOutputChecker::intermediateFloors(
    const ir::Model& model, const exec::NamedInputs& inputs,
    const std::map<std::string, ir::Tensor>& reference) const {
  NoiseFloors floors;
  for (int d = 0; d < noise_.draws; ++d) {
    size_t moved = 0;
    std::vector<std::string> order;
    ir::Model perturbed =
        exposeAllValues(perturbWeights(model, noise_.seed + d, noise_.ulps, &moved), &order);
    if (moved == 0) break;
    auto out = runModel(perturbed, inputs);
    if (!out) return {};
    accumulateFloors(floors, reference, *out);
  }
  return floors;
}

double ExecOutputChecker::allowance(const NoiseFloors& floors, const std::string& name) const {
  auto it = floors.find(name);
  return it != floors.end() && it->second > 0 ? noise_.multiple * it->second : 0;
}

void ExecOutputChecker::noteNoise(NumericCheck& c, const NoiseFloors& floors,
                                  const std::string& name, double maxAbs) const {
  auto it = floors.find(name);
  if (it == floors.end() || it->second <= 0) return;
  c.noiseMultiple = noise_.multiple;
  const double ratio = maxAbs / it->second;
  if (ratio >= c.noiseRatio) {
    c.noiseRatio = ratio;
    c.noiseFloor = it->second;
  }
}

bool ExecOutputChecker::withinGrid(NumericCheck& c, const ir::Tensor& got, const ir::Tensor& want,
                                   double step, double noiseAllowance, Text& why) const {
  const StepRule& rule = noise_.steps;
  const StepCount n = countSteps(got, want, step, noiseAllowance, rule);
  c.stepMoved += n.moved;
  c.stepCompared += n.compared;
  c.stepShareLimit = rule.maxShare;
  c.stepLimit = rule.maxSteps;
  c.stepMostSteps = std::max(c.stepMostSteps, n.maxSteps);
  if (n.compared > 0)
    c.stepWorstShare =
        std::max(c.stepWorstShare, static_cast<double>(n.moved) / static_cast<double>(n.compared));
  if (n.beyond > 0) {
    why = Text::of("element %1: %2 vs %3, more than %4 quantization steps of %5 apart",
                   std::to_string(n.firstBeyond), std::to_string(got.valueAsDouble(n.firstBeyond)),
                   std::to_string(want.valueAsDouble(n.firstBeyond)),
                   str::printed("%g", rule.maxSteps), str::printed("%.3g", step));
    return false;
  }
  const double share =
      n.compared > 0 ? static_cast<double>(n.moved) / static_cast<double>(n.compared) : 0;
  if (share <= rule.maxShare && n.worstChannelShare > rule.maxChannelShare) {
    why =
        Text::of("channel %1: %2 of its elements moved by a quantization step of %3 (at most %4)",
                 std::to_string(n.worstChannel), str::printed("%.2g%%", 100 * n.worstChannelShare),
                 str::printed("%.3g", step), str::printed("%g%%", 100 * rule.maxChannelShare));
    return false;
  }
  if (!withinSteps(n, rule)) {
    why = Text::of("%1 of %2 elements moved by a quantization step of %3 (%4, at most %5)",
                   std::to_string(n.moved), std::to_string(n.compared), str::printed("%.3g", step),
                   str::printed("%.2g%%", 100.0 * static_cast<double>(n.moved) /
                                              static_cast<double>(n.compared)),
                   str::printed("%g%%", 100 * rule.maxShare));
    return false;
  }
  return true;
}

namespace {
// "output 'y' differs on input set 0: <why> (0.8x the noise floor 9.7e-05)";
// the floor's part only when the output has one.
Text differsText(const std::string& name, size_t set, const Text& why, double maxAbs,
                 double floor) {
  if (floor <= 0)
    return Text::of("output '%1' differs on input set %2: %3", name, std::to_string(set), why);
  return Text::of("output '%1' differs on input set %2: %3 (%4x the noise floor %5)", name,
                  std::to_string(set), why, str::printed("%.2g", maxAbs / floor),
                  str::printed("%.1e", floor));
}
}  // namespace

std::string ExecOutputChecker::firstDivergence(const ir::Model& current,
                                               const exec::NamedInputs& inputs,
                                               const StandIns& standIns, double& maxAbs,
                                               double& maxRel) {
  std::vector<std::string> order, unused;
  ir::Model a = exposeAllValues(current, &order);
  const ir::Model& reference = rebased_ ? *rebased_ : original_;
  ir::Model b = exposeAllValues(reference, &unused);
  auto ra = runModel(a, asDeclared(current, inputs));
  auto rb = runModel(b, asDeclared(reference, inputs));
  if (!ra || !rb) return "";
  const NoiseFloors floors = intermediateFloors(reference, asDeclared(reference, inputs), *rb);
  const std::set<std::string> randomNow = unseededRandomValues(current);
  for (const auto& name : order) {
    if (randomNow.count(name) || random_.count(name)) continue;  // differs from run to run
    auto ia = ra->find(name);
    auto ib = rb->find(name);
    if (ib == rb->end())
      if (auto s = standIns.find(name); s != standIns.end()) ib = rb->find(s->second);
    if (ia == ra->end() || ib == rb->end()) continue;
    if (ia->second.dtype() == ir::DataType::kUndefined ||
        ib->second.dtype() == ir::DataType::kUndefined)
      continue;
    double ma = 0, mr = 0;
    Text why;
    // A renamed value (a stand-in) is compared with its original's floor.
    if (!allClose(ia->second, ib->second, ma, mr, why, allowance(floors, ib->first))) {
      maxAbs = ma;
      maxRel = mr;
      return name;
    }
  }
  return "";
}

NumericCheck ExecOutputChecker::check(const ir::Model& current, const StandIns& standIns) {
  NumericCheck c;
  c.ran = true;
  c.inputSets = inputs_.size();
  const auto& references = rebased_ ? rebasedReference_ : reference_;
  std::set<std::string> randomNow;  // unseededRandomValues(current), when needed
  ModelRunner runner(current);
  for (size_t s = 0; s < inputs_.size(); ++s) {
    auto got = runner.run(asDeclared(current, inputs_[s]));
    if (!got) {
      c.passed = false;
      c.detail = Text::of("the optimized model does not run: %1", got.error().text());
      return c;
    }
    for (const auto& [name, want] : references[s]) {
      auto it = got->find(name);
      if (it == got->end()) {
        c.passed = false;
        c.detail = Text::of("output '%1' is missing", name);
        return c;
      }
      if (want.dtype() == ir::DataType::kUndefined)
        continue;  // a sequence or map: compared through its flattened tensors
      if (random_.count(name)) {
        // From an unseeded generator: the values differ every run, but the
        // output must still be random, of the same type and shape.
        if (randomNow.empty()) randomNow = unseededRandomValues(current);
        Text why;
        if (!randomNow.count(name))
          why = "it came from a random op without a seed and no longer does";
        else if (it->second.dtype() != want.dtype() || it->second.dims() != want.dims())
          why = Text::of("element type or shape %1 %2 vs %3 %4", it->second.shape().toString(),
                         std::string(ir::dtypeName(it->second.dtype())), want.shape().toString(),
                         std::string(ir::dtypeName(want.dtype())));
        if (!why.empty()) {
          c.passed = false;
          c.detail =
              Text::of("output '%1' differs on input set %2: %3", name, std::to_string(s), why);
          c.firstDivergingTensor = name;
          return c;
        }
        continue;
      }
      Text why;
      double ma = 0, mr = 0;
      size_t same = 0;
      bool close = allClose(it->second, want, ma, mr, why, allowance(floors_, name), &same);
      c.sameNonFinite += same;
      c.finiteCompared += static_cast<size_t>(want.numel()) - same;
      // An output on a quantization grid is judged in steps of it instead.
      if (auto grid = steps_.find(name); noise_.steps.enabled && grid != steps_.end() &&
                                         it->second.dtype() == want.dtype() &&
                                         it->second.dims() == want.dims()) {
        why = Text();
        close = withinGrid(c, it->second, want, grid->second, allowance(floors_, name), why);
      }
      c.maxAbsError = std::max(c.maxAbsError, ma);
      c.maxRelError = std::max(c.maxRelError, mr);
      noteNoise(c, floors_, name, ma);
      if (!close) {
        const auto floor = floors_.find(name);
        c.passed = false;
        c.detail = differsText(name, s, why, ma, floor == floors_.end() ? 0 : floor->second);
        double ma = 0, mr = 0;
        std::string first = firstDivergence(current, inputs_[s], standIns, ma, mr);
        c.firstDivergingTensor = first.empty() ? name : first;
        if (!first.empty()) {
          c.detail = Text::of("%1; first diverging tensor '%2'", c.detail, first);
        }
        return c;
      }
    }
  }
  return c;
}

namespace {

// The budget's verdict on `got` (a model's outputs per input set) against
// `reference`: the figures per output, the first over the budget named.
NumericCheck budgetVerdict(const std::vector<std::map<std::string, ir::Tensor>>& got,
                           const std::vector<std::map<std::string, ir::Tensor>>& reference,
                           const std::set<std::string>& random, const AccuracyBudget& budget) {
  NumericCheck c;
  c.ran = true;
  c.lossy = true;
  c.inputSets = got.size();
  std::map<std::string, AccuracyMeter> meters;
  for (size_t s = 0; s < got.size() && s < reference.size(); ++s)
    for (const auto& [name, want] : reference[s]) {
      if (want.dtype() == ir::DataType::kUndefined || random.count(name)) continue;
      auto it = got[s].find(name);
      if (it == got[s].end()) {
        c.passed = false;
        c.detail = Text::of("output '%1' is missing", name);
        return c;
      }
      meters.try_emplace(name, name, budget.topK).first->second.add(it->second, want);
    }
  for (const auto& [name, meter] : meters) {
    OutputAccuracy a = meter.result();
    c.maxRelError = std::max(c.maxRelError, a.maxRelError);
    if (Text why = whyOverBudget(a, budget); !why.empty() && c.passed) {
      c.passed = false;
      c.detail = why;
      c.firstDivergingTensor = name;
    }
    c.accuracy.push_back(std::move(a));
  }
  return c;
}

const OutputAccuracy* figuresOf(const NumericCheck& c, const std::string& output) {
  for (const OutputAccuracy& a : c.accuracy)
    if (a.output == output) return &a;
  return nullptr;
}

// The main-graph nodes of `current` that the step of `log` changed: those it
// added, rewired or rewrote, those reading an initializer it changed, and
// those reading or writing a value of another element type than the same
// value of `original` (a precision change by types alone, convert_to_float16's).
std::set<ir::NodeId> changedNodes(const rewrite::EditLog& log, const ir::Model& current,
                                  const ir::Model& original) {
  std::set<ir::NodeId> ids;
  std::set<std::string> changedWeights;
  for (const rewrite::Edit& e : log.edits()) {
    if (e.graphOwner != 0) continue;
    if (e.node != 0 &&
        (e.kind == rewrite::EditKind::kNodeAdded || e.kind == rewrite::EditKind::kInputRewired ||
         e.kind == rewrite::EditKind::kAttributeChanged))
      ids.insert(e.node);
    if (e.kind == rewrite::EditKind::kInitializerChanged) changedWeights.insert(e.from);
  }
  for (const auto& n : current.graph().nodes()) {
    for (const ir::Value* in : n->inputs())
      if (in && changedWeights.count(in->name())) ids.insert(n->id());
    for (const auto* values : {&n->inputs(), &n->outputs()})
      for (const ir::Value* v : *values) {
        const ir::Value* was = v ? original.graph().findValue(v->name()) : nullptr;
        if (was && was->type().elemType() != v->type().elemType()) ids.insert(n->id());
      }
  }
  return ids;
}

}  // namespace

Expected<std::vector<std::map<std::string, ir::Tensor>>> ExecOutputChecker::outputsOn(
    const ir::Model& current) {
  std::vector<std::map<std::string, ir::Tensor>> outputs;
  ModelRunner runner(current);
  for (const exec::NamedInputs& inputs : inputs_) {
    auto got = runner.run(asDeclared(current, inputs));
    if (!got) return got.error();
    outputs.push_back(std::move(got.value()));
  }
  return outputs;
}

std::map<std::string, OutputAccuracy> ExecOutputChecker::roundingFloor(int topK) const {
  return roundingFloorOf(original_, inputs_, reference_, random_, noise_, topK);
}

NumericCheck ExecOutputChecker::checkWithinBudget(const ir::Model& current,
                                                  const AccuracyBudget& budget,
                                                  const StandIns& standIns) {
  (void)standIns;  // values keep their names through a lossy pass
  return budgetCheck(current, budget, nullptr);
}

NumericCheck ExecOutputChecker::checkBudgetStep(const ir::Model& current,
                                                const rewrite::EditLog& log,
                                                const AccuracyBudget& budget,
                                                const StandIns& standIns) {
  (void)standIns;
  return budgetCheck(current, budget, &log);
}

NumericCheck ExecOutputChecker::budgetCheck(const ir::Model& current, const AccuracyBudget& budget,
                                            const rewrite::EditLog* log) {
  auto outputs = outputsOn(current);
  if (!outputs) {
    NumericCheck c;
    c.ran = true;
    c.lossy = true;
    c.passed = false;
    c.inputSets = inputs_.size();
    c.detail = Text::of("the optimized model does not run: %1", outputs.error().text());
    return c;
  }
  NumericCheck c = budgetVerdict(*outputs, reference_, random_, budget);
  c.inputSets = inputs_.size();
  if (!c.passed && rebased_) excuseAfterRebase(c, *outputs, budget);
  if (!c.passed) nameCostliestLayer(c, current, log);
  return c;
}

// After a step exact per node unit its roundings are in the figures against
// the original, and the rounding floor excuses them; what changed since (a
// lossy step's own loss) is held to the budget against the model it left.
void ExecOutputChecker::excuseAfterRebase(
    NumericCheck& c, const std::vector<std::map<std::string, ir::Tensor>>& outputs,
    const AccuracyBudget& budget) {
  if (c.accuracy.empty()) return;  // a missing output: nothing to excuse
  const NumericCheck own = budgetVerdict(outputs, rebasedReference_, random_, budget);
  if (!own.passed) {
    c.detail = Text::of(
        "%1; against the model the last step exact per node unit left, %2 (the rounding floor "
        "excuses only the roundings of such steps)",
        c.detail, own.detail);
    return;
  }
  excuseByRoundingFloor(c, budget, roundingFloor(budget.topK));
  if (c.roundingFloor)
    if (const OutputAccuracy* a = figuresOf(own, c.roundingFloor->output))
      c.roundingFloor->sinceRebase = *a;
}

void ExecOutputChecker::nameCostliestLayer(NumericCheck& c, const ir::Model& current,
                                           const rewrite::EditLog* log) const {
  if (inputs_.empty()) return;
  std::set<ir::NodeId> changed;
  if (log) changed = changedNodes(*log, current, original_);
  if (Text worst = costliestLayer(current, inputs_[0], log ? &changed : nullptr); !worst.empty())
    c.detail = Text::of("%1; %2", c.detail, worst);
}

std::vector<OutputAccuracy> ExecOutputChecker::referenceAccuracy(int topK) const {
  std::map<std::string, AccuracyMeter> meters;
  for (const auto& set : reference_)
    for (const auto& [name, want] : set) {
      if (want.dtype() == ir::DataType::kUndefined || random_.count(name)) continue;
      meters.try_emplace(name, name, topK).first->second.add(want, want);
    }
  std::vector<OutputAccuracy> out;
  for (const auto& [name, meter] : meters) out.push_back(meter.result());
  return out;
}

NumericCheck ExecOutputChecker::checkUnitExactStep(const ir::Model& before,
                                                   const ir::Model& current,
                                                   const rewrite::EditLog& log,
                                                   const AccuracyBudget& budget,
                                                   const StandIns& standIns) {
  const UnitCheck units = checkRewrittenUnits(before, current, log, inputs_);
  NumericCheck c;
  if (!units.ran) {
    // Nothing vouches for the step's roundings: the outputs must be equal.
    c = check(current, standIns);
    c.detail = Text::of("its units were not judged (%1)%2", units.detail,
                        c.passed ? Text() : Text::of("; %1", c.detail));
    return c;
  }
  if (units.passed) {
    // The units vouch for what the step rewired and the kept values for the
    // rest; the cumulative figures against the original are reported, and
    // the budget still holds, or the rounding floor: the figures include the
    // step's own roundings, held to the model's.
    auto outputs = outputsOn(current);
    if (!outputs) {
      c.ran = true;
      c.lossy = true;
      c.passed = false;
      c.detail = Text::of("the optimized model does not run: %1", outputs.error().text());
    } else {
      c = budgetVerdict(*outputs, reference_, random_, budget);
      if (!c.passed) excuseByRoundingFloor(c, budget, roundingFloor(budget.topK));
      if (!c.passed) nameCostliestLayer(c, current, &log);
    }
    c.inputSets = inputs_.size();
    (void)standIns;
    if (!c.passed) c.detail = Text::of("its units pass the check per node unit, but %1", c.detail);
  } else if (!units.keptFailed.empty()) {
    c.ran = true;
    c.passed = false;
    c.inputSets = inputs_.size();
    c.firstDivergingTensor = units.keptFailed;
    c.detail = Text::of("its units pass the check per node unit, but %1", units.detail);
  } else {
    c.ran = true;
    c.passed = false;
    c.inputSets = inputs_.size();
    c.firstDivergingTensor = units.failedUnit;
    c.detail = Text::of("the check per node unit: %1", units.detail);
  }
  c.unitsJudged = true;
  c.units = units.units;
  c.unitMoved = units.moved;
  c.unitCompared = units.compared;
  c.worstUnit = units.passed ? units.worstUnit : units.failedUnit;
  return c;
}

void ExecOutputChecker::rebase(const ir::Model& current) {
  std::vector<std::map<std::string, ir::Tensor>> outputs;
  ModelRunner runner(current);
  for (const exec::NamedInputs& inputs : inputs_) {
    // As the step's check ran it: a float input a float16 step without
    // keep_io_types turned into float16 converted.
    auto got = runner.run(asDeclared(current, inputs));
    if (!got) return;  // it ran in the step's check; if not, the reference stays
    outputs.push_back(std::move(got.value()));
  }
  rebased_ = current.clone();
  rebasedReference_ = std::move(outputs);
}

Text ExecOutputChecker::costliestLayer(const ir::Model& current, const exec::NamedInputs& inputs,
                                       const std::set<ir::NodeId>* changed) const {
  std::vector<std::string> order, unused;
  auto ra = runModel(exposeAllValues(current, &order), asDeclared(current, inputs));
  auto rb = runModel(exposeAllValues(original_, &unused), inputs);
  if (!ra || !rb) return "";
  // SNR per tensor both models have; exact data (graph inputs) counts as the cap.
  constexpr double kCap = 150;
  std::map<std::string, double> snr;
  for (const auto& [name, want] : *rb) {
    auto it = ra->find(name);
    if (it == ra->end() || !ir::isFloatingPoint(want.dtype())) continue;
    AccuracyMeter m(name);
    m.add(it->second, want);
    const OutputAccuracy a = m.result();
    if (a.compared) snr[name] = std::min(a.snrDb, kCap);
  }
  // A DequantizeLinear(QuantizeLinear(x)) the pass added is x as its readers
  // see it: its SNR against x in the original (quantization noise included).
  auto quantizedCopySnr = [&](const ir::Value* v) -> std::optional<double> {
    const ir::Node* dq = v ? v->producer() : nullptr;
    if (!dq || dq->opType() != "DequantizeLinear" || !dq->input(0)) return std::nullopt;
    const ir::Node* q = dq->input(0)->producer();
    if (!q || q->opType() != "QuantizeLinear" || !q->input(0)) return std::nullopt;
    auto got = ra->find(v->name());
    auto want = rb->find(q->input(0)->name());
    if (got == ra->end() || want == rb->end()) return std::nullopt;
    AccuracyMeter m(v->name());
    m.add(got->second, want->second);
    const OutputAccuracy a = m.result();
    if (!a.compared) return std::nullopt;
    return std::min(a.snrDb, kCap);
  };
  // A value the pass added (a Cast, a quantized copy) carries the SNR of what
  // it casts or copies.
  // An 8-bit value (a QLinear node's output, compared by no SNR of its own)
  // carries the worst SNR of the DequantizeLinear outputs that read it (as
  // their data, not as a zero point: a Constant node below IR version 4).
  auto dequantizedSnr = [&](const ir::Value* v) -> std::optional<double> {
    std::optional<double> out;
    for (const ir::Use& u : v->uses())
      if (u.node->opType() == "DequantizeLinear" && u.inputIndex == 0 && u.node->output(0))
        if (auto it = snr.find(u.node->output(0)->name()); it != snr.end())
          out = std::min(out.value_or(kCap), it->second);
    return out;
  };
  auto snrOf = [&](const ir::Value* v) -> std::optional<double> {
    for (int hops = 0; v && hops < 4; ++hops) {
      if (auto it = snr.find(v->name()); it != snr.end()) return it->second;
      if (auto s = quantizedCopySnr(v)) return s;
      const ir::Node* p = v->producer();
      // What a QuantizeLinear quantizes: its input's SNR.
      if (p && (p->opType() == "Cast" || p->opType() == "QuantizeLinear")) {
        v = p->input(0);
        continue;
      }
      if (!ir::isFloatingPoint(v->type().elemType())) return dequantizedSnr(v);
      return std::nullopt;
    }
    return std::nullopt;
  };
  // An output the pass renamed (a graph output now behind a Cast back to its
  // type) has the SNR of that Cast's output; an output quantized for its
  // readers, the worse of itself and its quantized copy (the layer owns the
  // noise of its output's quantization).
  auto snrAfter = [&](const ir::Value* v) -> std::optional<double> {
    if (!v) return std::nullopt;
    std::optional<double> out;
    if (auto it = snr.find(v->name()); it != snr.end()) out = it->second;
    if (!out && !ir::isFloatingPoint(v->type().elemType())) out = dequantizedSnr(v);
    for (const ir::Use& u : v->uses()) {
      if (!out && u.node->opType() == "Cast")
        if (auto it = snr.find(u.node->output(0)->name()); it != snr.end()) out = it->second;
      // v quantized, not a scale or zero point (a Constant node below IR 4).
      if (u.node->opType() != "QuantizeLinear" || u.inputIndex != 0) continue;
      for (const ir::Use& d : u.node->output(0)->uses())
        if (d.node->opType() == "DequantizeLinear")
          if (auto s = quantizedCopySnr(d.node->output(0))) out = std::min(out.value_or(kCap), *s);
    }
    return out;
  };
  // A layer's cost is the relative noise power it adds: 10^(-SNR/10) after
  // it minus before (a drop in dB would blame the first lossy layer, whose
  // input is exact, for any loss at all).
  auto noise = [](double snrDb) { return std::pow(10.0, -snrDb / 10); };
  struct Blame {
    const ir::Node* node = nullptr;
    double drop = 0, in = 0, out = 0;
  };
  Blame worst, worstChanged;
  for (const auto& owned : current.graph().nodes()) {
    const ir::Node* n = owned.get();
    // Casts and the quantization pairs carry values; the layers own their noise.
    if (n->opType() == "Cast" || n->opType() == "QuantizeLinear" ||
        n->opType() == "DequantizeLinear")
      continue;
    double in = kCap;
    for (const ir::Value* v : n->inputs())
      if (auto s = snrOf(v)) in = std::min(in, *s);
    const bool isChanged = changed && changed->count(n->id());
    for (const ir::Value* v : n->outputs()) {
      auto out = snrAfter(v);
      if (!out) continue;
      const double drop = noise(*out) - noise(in);
      if (drop > worst.drop) worst = {n, drop, in, *out};
      if (isChanged && drop > worstChanged.drop) worstChanged = {n, drop, in, *out};
    }
  }
  auto describe = [](const Blame& b) {
    return Text::of("%1 (SNR %2 dB in, %3 dB out)", b.node->describe(), str::printed("%.3g", b.in),
                    str::printed("%.3g", b.out));
  };
  if (!worst.node) return "";
  if (!changed || worstChanged.node == worst.node)
    return Text::of("the layer that lost the most: %1", describe(worst));
  // The step's own node first: an unchanged layer after it (a float Sigmoid
  // on small scores) can add more noise than it, amplifying what it left.
  if (worstChanged.node)
    return Text::of("the changed node that lost the most: %1; the loss grew most at %2",
                    describe(worstChanged), describe(worst));
  return Text::of("the layer that lost the most: %1, not a node the step changed", describe(worst));
}

Expected<std::map<std::string, int64_t>> parseDims(const std::vector<std::string>& specs) {
  std::map<std::string, int64_t> out;
  for (const auto& s : specs) {
    size_t eq = s.find('=');
    if (eq == std::string::npos || eq == 0)
      return invalidArgument(Text::of("--dim wants NAME=VALUE, got '%1'", s));
    char* end = nullptr;
    long long v = std::strtoll(s.c_str() + eq + 1, &end, 10);
    if (*end != '\0' || v <= 0)
      return invalidArgument(Text::of("--dim %1: the value must be a positive integer", s));
    out[s.substr(0, eq)] = v;
  }
  return out;
}

}  // namespace passlab::pipeline
