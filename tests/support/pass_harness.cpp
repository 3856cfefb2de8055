#include "tests/support/pass_harness.h"

#include <gtest/gtest.h>

#include <cmath>
#include <random>

#include "core/analysis/shape_inference.h"
#include "core/exec/evaluate.h"
#include "core/exec/executor.h"
#include "core/io/text_format.h"
#include "core/ir/graph_compare.h"
#include "core/support/float16.h"
#include "tests/support/test_support.h"

namespace passlab::testing {

namespace {

class CpuEvaluator final : public rewrite::Evaluator {
 public:
  Expected<std::vector<ir::Tensor>> evaluate(const ir::Node& node,
                                             const std::vector<const ir::Tensor*>& inputs,
                                             int64_t opsetVersion) override {
    return exec::evaluateNode(node, inputs, opsetVersion);
  }
};

// A seeded random tensor of `type` (symbolic or unknown dims are 3), or nullopt.
std::optional<ir::Tensor> randomTensor(const ir::Type& type, std::mt19937_64& rng) {
  if (!type.isTensor() || !type.hasShape()) return std::nullopt;
  std::vector<int64_t> dims;
  for (const ir::Dim& d : type.shape()->dims()) dims.push_back(d.isStatic() ? d.value() : 3);
  auto numel = ir::checkedProduct(dims);
  if (!numel) return std::nullopt;
  auto n = static_cast<size_t>(*numel);
  std::uniform_real_distribution<double> real(-2.0, 2.0);
  std::uniform_int_distribution<int64_t> small(0, 3);
  switch (type.elemType()) {
    case ir::DataType::kFloat: {
      std::vector<float> v(n);
      for (auto& x : v) x = static_cast<float>(real(rng));
      return ir::Tensor::fromVector(ir::DataType::kFloat, dims, v);
    }
    case ir::DataType::kDouble: {
      std::vector<double> v(n);
      for (auto& x : v) x = real(rng);
      return ir::Tensor::fromVector(ir::DataType::kDouble, dims, v);
    }
    case ir::DataType::kFloat16: {
      std::vector<uint16_t> v(n);
      for (auto& x : v) x = floatToHalf(static_cast<float>(real(rng)));
      return ir::Tensor::fromVector(ir::DataType::kFloat16, dims, v);
    }
    case ir::DataType::kInt64: {
      std::vector<int64_t> v(n);
      for (auto& x : v) x = small(rng);
      return ir::Tensor::fromVector(ir::DataType::kInt64, dims, v);
    }
    case ir::DataType::kInt32: {
      std::vector<int32_t> v(n);
      for (auto& x : v) x = static_cast<int32_t>(small(rng));
      return ir::Tensor::fromVector(ir::DataType::kInt32, dims, v);
    }
    case ir::DataType::kBool: {
      std::vector<uint8_t> v(n);
      for (auto& x : v) x = static_cast<uint8_t>(small(rng) & 1);
      return ir::Tensor::fromVector(ir::DataType::kBool, dims, v);
    }
    default:
      return std::nullopt;
  }
}

// "" when the tensors agree within the tolerance, else the first difference.
std::string tensorDifference(const ir::Tensor& a, const ir::Tensor& b) {
  if (a.dtype() != b.dtype())
    return std::string("dtype ") + std::string(ir::dtypeName(a.dtype())) + " vs " +
           std::string(ir::dtypeName(b.dtype()));
  if (a.dims() != b.dims()) return "dims " + a.summary() + " vs " + b.summary();
  if (a.dtype() == ir::DataType::kString) return a.strings() == b.strings() ? "" : "strings differ";
  bool fp = ir::isFloatingPoint(a.dtype());
  for (int64_t i = 0; i < a.numel(); ++i) {
    double x = a.valueAsDouble(i), y = b.valueAsDouble(i);
    if (std::isnan(x) && std::isnan(y)) continue;
    bool ok = fp ? std::fabs(x - y) <= 1e-5 + 1e-4 * std::fabs(y) : x == y;
    if (!ok)
      return "element " + std::to_string(i) + ": " + std::to_string(x) + " vs " + std::to_string(y);
  }
  return "";
}

}  // namespace

rewrite::Evaluator* cpuEvaluator() {
  static CpuEvaluator e;
  return &e;
}

NumericResult compareOutputs(const ir::Model& before, const ir::Model& after, int sets,
                             uint64_t seed) {
  NumericResult r;
  auto exA = exec::Executor::create(before);
  if (!exA) {
    r.detail = "before: " + exA.error().message();
    return r;
  }
  auto exB = exec::Executor::create(after);
  if (!exB) {
    r.detail = "after: " + exB.error().message();
    return r;
  }
  std::mt19937_64 rng(seed);
  for (int s = 0; s < sets; ++s) {
    exec::NamedInputs inputs;
    for (const auto& in : (*exA)->inputs()) {
      if (in.optional) continue;
      auto t = randomTensor(in.type, rng);
      if (!t) {
        r.detail = "no random data for input '" + in.name + "' of type " + in.type.toString();
        return r;
      }
      inputs.emplace_back(in.name, exec::Value(*t));
    }
    auto ra = (*exA)->run(inputs);
    if (!ra) {
      r.detail = "running before: " + ra.error().message();
      return r;
    }
    auto rb = (*exB)->run(inputs);
    if (!rb) {
      r.detail = "running after: " + rb.error().message();
      return r;
    }
    r.ran = true;
    if (ra->outputs.size() != rb->outputs.size()) {
      r.detail = "output counts differ";
      return r;
    }
    for (size_t i = 0; i < ra->outputs.size(); ++i) {
      if (ra->outputNames[i] != rb->outputNames[i]) {
        r.detail = "output " + std::to_string(i) + " is named '" + ra->outputNames[i] +
                   "' before, '" + rb->outputNames[i] + "' after";
        return r;
      }
      if (std::string d = tensorDifference(rb->outputs[i], ra->outputs[i]); !d.empty()) {
        r.detail =
            "output '" + ra->outputNames[i] + "' (input set " + std::to_string(s) + "): " + d;
        return r;
      }
    }
  }
  r.equal = true;
  return r;
}

PassOutcome runPass(const std::string& passId, ir::Model model, const passes::Options& options,
                    rewrite::Evaluator* evaluator) {
  analysis::inferShapes(model);
  pipeline::PipelineOptions po;
  po.keepSnapshots = false;
  pipeline::PassManager pm(model, po);
  pm.setEvaluator(evaluator);
  auto step = pm.run({passId, options, {}});
  PassOutcome out;
  if (!step) {
    ADD_FAILURE() << step.error().message();
    out.model = std::move(model);
    return out;
  }
  EXPECT_FALSE((*step)->rolledBack) << (*step)->error;
  out.step = std::move(const_cast<pipeline::Step&>(**step));
  out.model = std::move(model);
  return out;
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
  ir::GraphCompareOptions o;
  o.compareNodeNames = false;
  o.compareValueNames = false;
  o.compareTypes = false;
  auto diff = ir::firstDifference(out.model.graph(), want.graph(), o);
  EXPECT_FALSE(diff.has_value()) << *diff << "\n--- got:\n"
                                 << io::printModelText(out.model) << "--- expected:\n"
                                 << io::printModelText(want);
  // Where the executor has every kernel, the outputs must not change either.
  NumericResult num = compareOutputs(parse(input), out.model);
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
    for (const auto& [pattern, why] : reasons) all += pattern + ": " + why + "\n";
  EXPECT_NE(all.find(reason), std::string::npos)
      << "no explanation mentions '" << reason << "'; got:\n"
      << all;
}

void expectSameOutputs(const std::string& passId, const std::string& input,
                       const passes::Options& options) {
  PassOutcome out = runPass(passId, input, options);
  EXPECT_TRUE(out.step.changed) << passId << " changed nothing";
  NumericResult num = compareOutputs(parse(input), out.model);
  EXPECT_TRUE(num.ran) << "the executor could not run the models: " << num.detail;
  EXPECT_TRUE(num.equal) << passId << " changed the outputs: " << num.detail;
}

}  // namespace passlab::testing
