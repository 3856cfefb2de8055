#include "tests/support/pass_harness.h"

#include <gtest/gtest.h>

#include <algorithm>
#include <unordered_map>

#include "core/analysis/shape_inference.h"
#include "core/io/text_format.h"
#include "core/passes/registry.h"
#include "core/pipeline/numeric_check.h"
#include "tests/support/test_support.h"

namespace passlab::testing {

namespace {

// The graph as text with the names a pass may choose replaced: node outputs are
// numbered in definition order, initializers are named by their data. Model
// inputs, model outputs and outer-scope values keep their names. Node names
// are left out. Two graphs that differ only in such names print the same.
class Canonical {
 public:
  std::string graph(const ir::Graph& g, const std::string& indent) {
    std::string out;
    for (const ir::Value* v : g.inputs()) out += indent + "input " + define(v, v->name()) + "\n";
    std::vector<std::string> inits;
    for (const ir::Value* v : g.initializers()) {
      if (v->isGraphInput()) continue;
      const ir::Tensor& t = *v->initializer();
      inits.push_back(
          define(v, "const(" + t.summary() + " #" + std::to_string(t.contentHash()) + ")"));
    }
    std::sort(inits.begin(), inits.end());
    for (const auto& i : inits) out += indent + "initializer " + i + "\n";
    for (const auto& n : g.nodes()) {
      std::string line = indent;
      for (const ir::Value* o : n->outputs())
        line += (o ? define(o, "%" + std::to_string(next_++)) : "_") + " ";
      line += "= " + n->qualifiedOpType() + "(";
      for (const ir::Value* in : n->inputs()) line += (in ? use(in) : "_") + ", ";
      line += ")";
      std::vector<const ir::Attribute*> attrs;
      for (const auto& a : n->attributes()) attrs.push_back(&a);
      std::sort(attrs.begin(), attrs.end(), [](const ir::Attribute* a, const ir::Attribute* b) {
        return a->name() < b->name();
      });
      for (const ir::Attribute* a : attrs) {
        if (a->g || !a->graphs.empty()) {
          line += " " + a->name() + "={\n";
          if (a->g) line += graph(*a->g, indent + "  ");
          for (const auto& sub : a->graphs) line += graph(*sub, indent + "  ") + indent + "  ;\n";
          line += indent + "}";
        } else {
          line += " " + a->name() + "=" + a->valueToString();
        }
      }
      out += line + "\n";
    }
    for (const ir::Value* v : g.outputs()) out += indent + "output " + use(v) + "\n";
    return out;
  }

 private:
  std::string define(const ir::Value* v, std::string name) {
    // Model outputs keep their names: they are the interface.
    if (v->isGraphOutput() && !v->owner()->parentNode()) name += "<" + v->name() + ">";
    names_[v] = name;
    return name;
  }
  std::string use(const ir::Value* v) {
    auto it = names_.find(v);
    return it == names_.end() ? v->name() : it->second;
  }

  std::unordered_map<const ir::Value*, std::string> names_;
  size_t next_ = 0;
};

}  // namespace

std::string canonicalForm(const ir::Graph& g) {
  return Canonical().graph(g, "");
}

rewrite::Evaluator* cpuEvaluator() {
  static pipeline::ExecEvaluator e;
  return &e;
}

NumericResult compareOutputs(const ir::Model& before, const ir::Model& after, int sets,
                             uint64_t seed) {
  NumericResult r;
  pipeline::InputSpec spec;
  spec.seed = seed;
  auto checker = pipeline::ExecOutputChecker::create(before, sets, spec);
  if (!checker) {
    r.detail = checker.error().message();  // the executor cannot run the original
    return r;
  }
  pipeline::NumericCheck c = (*checker)->check(after);
  r.ran = c.ran;
  r.equal = c.passed;
  r.detail = c.detail.str();
  return r;
}

NumericResult compareWithinBudget(const ir::Model& before, const ir::Model& after,
                                  const pipeline::AccuracyBudget& budget, int sets) {
  NumericResult r;
  pipeline::NoiseOptions quiet;
  quiet.draws = 0;  // no noise floor: the budget decides
  auto checker = pipeline::ExecOutputChecker::create(before, sets, {}, quiet);
  if (!checker) {
    r.detail = checker.error().message();
    return r;
  }
  pipeline::NumericCheck c = (*checker)->checkWithinBudget(after, budget);
  r.ran = c.ran;
  r.equal = c.passed;
  r.detail = c.detail.str();
  return r;
}

namespace {
// A lossy pass, or one exact per node unit (its outputs move by the units'
// roundings): judged against the accuracy budget.
bool isLossy(const std::string& passId) {
  const passes::Pass* p = passes::findPass(passId);
  return p && (p->info().lossy || p->info().exactPerUnit);
}
}  // namespace

namespace {
PassOutcome runOnce(const std::string& passId, ir::Model model, const passes::Options& options,
                    rewrite::Evaluator* evaluator, bool mayFail) {
  analysis::inferShapes(model);
  pipeline::PipelineOptions po;
  po.keepSnapshots = false;
  // A pass that emits non-standard ops (ai.passlab, com.microsoft) is tested with them allowed.
  const passes::Pass* pass = passes::findPass(passId);
  po.standardOnly = !(pass && pass->info().mayEmitNonStandard);
  pipeline::PassManager pm(model, po);
  pm.setEvaluator(evaluator);
  // A lossy pass runs as in the pipeline: checked against the default budget.
  std::unique_ptr<pipeline::ExecOutputChecker> checker;
  if (isLossy(passId)) {
    pipeline::NoiseOptions quiet;
    quiet.draws = 0;
    if (auto c = pipeline::ExecOutputChecker::create(model, 2, {}, quiet)) {
      checker = std::move(*c);
      pm.setChecker(checker.get());
    }
  }
  auto step = pm.run({passId, options, {}});
  PassOutcome out;
  if (!step) {
    ADD_FAILURE() << step.error().message();
    out.model = std::move(model);
    return out;
  }
  if (!mayFail) {
    EXPECT_FALSE((*step)->rolledBack) << (*step)->error;
  }
  out.step = std::move(const_cast<pipeline::Step&>(**step));
  out.model = std::move(model);
  return out;
}
}  // namespace

PassOutcome runPass(const std::string& passId, ir::Model model, const passes::Options& options,
                    rewrite::Evaluator* evaluator) {
  return runOnce(passId, std::move(model), options, evaluator, false);
}

PassOutcome runPassMayFail(const std::string& passId, const std::string& text,
                           const passes::Options& options, rewrite::Evaluator* evaluator) {
  return runOnce(passId, parse(text), options, evaluator, true);
}

PassOutcome runPass(const std::string& passId, const std::string& text,
                    const passes::Options& options, rewrite::Evaluator* evaluator) {
  return runPass(passId, parse(text), options, evaluator);
}

void expectRewrite(const std::string& passId, const std::string& input, const std::string& expected,
                   const passes::Options& options) {
  PassOutcome out = runPass(passId, input, options);
  EXPECT_TRUE(out.step.changed) << passId << " changed nothing";
  ir::Model want = parse(expected);
  analysis::inferShapes(want);
  EXPECT_EQ(canonicalForm(out.model.graph()), canonicalForm(want.graph()))
      << "--- got:\n"
      << io::printModelText(out.model) << "--- expected:\n"
      << io::printModelText(want);
  // Where the executor has every kernel, the outputs must not change either.
  NumericResult num = isLossy(passId) ? compareWithinBudget(parse(input), out.model)
                                      : compareOutputs(parse(input), out.model);
  EXPECT_TRUE(!num.ran || num.equal) << passId << " changed the outputs: " << num.detail;
}

void expectConverges(const std::string& passId, const std::string& input,
                     const passes::Options& options) {
  PassOutcome first = runPass(passId, input, options);
  PassOutcome second = runPass(passId, std::move(first.model), options);
  EXPECT_FALSE(second.step.changed)
      << passId << " changed the graph again: " << second.step.summary.toString();
}

void expectUnchanged(const std::string& passId, const std::string& input, const std::string& reason,
                     const passes::Options& options) {
  PassOutcome out = runPass(passId, input, options);
  EXPECT_FALSE(out.step.changed) << passId << " changed the graph: " << out.step.summary.toString()
                                 << "\n"
                                 << io::printModelText(out.model);
  if (reason.empty()) return;
  std::string all;
  for (const auto& [node, reasons] : out.step.explain.all())
    for (const auto& [pattern, why] : *reasons) all += pattern + ": " + why.str() + "\n";
  EXPECT_NE(all.find(reason), std::string::npos)
      << "no explanation mentions '" << reason << "'; got:\n"
      << all;
}

void expectSameOutputs(const std::string& passId, const std::string& input,
                       const passes::Options& options) {
  PassOutcome out = runPass(passId, input, options);
  EXPECT_TRUE(out.step.changed) << passId << " changed nothing";
  NumericResult num = isLossy(passId) ? compareWithinBudget(parse(input), out.model)
                                      : compareOutputs(parse(input), out.model);
  EXPECT_TRUE(num.ran) << "the executor could not run the models: " << num.detail;
  EXPECT_TRUE(num.equal) << passId << " changed the outputs: " << num.detail;
}

std::string explainNotes(const PassOutcome& out) {
  std::string all;
  for (const auto& [node, reasons] : out.step.explain.all())
    for (const auto& [pattern, why] : *reasons) all += why.str() + "\n";
  return all;
}

const ir::Tensor* initializerInput(const ir::Model& m, const std::string& output, size_t index) {
  for (const auto& n : m.graph().nodes())
    if (n->output(0)->name() == output && n->inputs().size() > index && n->input(index))
      return n->input(index)->initializer();
  return nullptr;
}

}  // namespace passlab::testing
