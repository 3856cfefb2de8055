// The checker runs a model on all its input sets with one Executor (#25: a
// mixed-precision search compiled and memory-planned each candidate once per
// set, which was most of its time). The figures must be those of a fresh
// Executor per set: every set's outputs its own (not an earlier run's
// buffers, not a kept value of another set), in both check() and
// checkWithinBudget(), on a model with a constant-only step (kept across
// runs) and two outputs, one written in place of an input.
#include <gtest/gtest.h>

#include <map>
#include <string>
#include <vector>

#include "core/analysis/shape_inference.h"
#include "core/exec/executor.h"
#include "core/io/text_format.h"
#include "core/pipeline/accuracy.h"
#include "core/pipeline/numeric_check.h"

namespace passlab::pipeline {
namespace {

// `scale` multiplies the second layer's weight: 1 is the original, others
// a "converted" model with an error that differs per input set.
std::string net(const char* scale) {
  return std::string(R"(<ir_version: 8, opset_import: ["" : 13]>
main (float[2,4] x) => (float[2,4] y, float[2,4] z)
    <float[4,4] w = {0.5, 0.25, 0, 0, 0, 0.5, 0.25, 0, 0, 0, 0.5, 0.25, 0.25, 0, 0, 0.5},
     float[1] s = {)") +
         scale + R"(}, float[1] two = {2}> {
    s2 = Mul(s, two)
    h = MatMul(x, w)
    r = Relu(h)
    y = Mul(r, s2)
    z = Add(h, x) })";
}

ir::Model parse(const std::string& text) {
  auto m = io::parseModelText(text);
  EXPECT_TRUE(m) << m.error().message();
  ir::Model model = std::move(*m);
  analysis::inferShapes(model);
  return model;
}

std::vector<exec::NamedInputs> sets(size_t n) {
  std::vector<exec::NamedInputs> out;
  for (size_t s = 0; s < n; ++s) {
    std::vector<float> v(8);
    for (size_t i = 0; i < v.size(); ++i)
      v[i] = static_cast<float>((static_cast<double>(i) - 3.5) * (1.0 + static_cast<double>(s)) +
                                0.25 * static_cast<double>(s * s));
    out.push_back(
        {{"x", exec::Value(ir::Tensor::fromVector<float>(ir::DataType::kFloat, {2, 4}, v))}});
  }
  return out;
}

// One fresh Executor per run, as the checker ran before.
std::map<std::string, ir::Tensor> runFresh(const ir::Model& m, const exec::NamedInputs& in) {
  std::map<std::string, ir::Tensor> out;
  auto ex = exec::Executor::create(m);
  EXPECT_TRUE(ex) << ex.error().message();
  if (!ex) return out;
  auto r = (*ex)->run(in);
  EXPECT_TRUE(r) << r.error().message();
  if (!r) return out;
  for (size_t i = 0; i < r->outputNames.size(); ++i) out[r->outputNames[i]] = r->outputs[i];
  return out;
}

AccuracyBudget reportOnly() {
  AccuracyBudget b;
  b.minCosine = -1;
  b.minSnrDb = -std::numeric_limits<double>::infinity();
  return b;
}

TEST(CheckRuns, WithinBudgetFiguresAreThoseOfAFreshExecutorPerSet) {
  const ir::Model original = parse(net("1"));
  const ir::Model changed = parse(net("1.01"));
  NoiseOptions quiet;
  quiet.draws = 0;
  auto checker = ExecOutputChecker::create(original, sets(5), quiet);
  ASSERT_TRUE(checker) << checker.error().message();
  NumericCheck c = (*checker)->checkWithinBudget(changed, reportOnly());
  ASSERT_TRUE(c.ran);
  EXPECT_TRUE(c.passed) << c.detail;
  ASSERT_EQ(c.accuracy.size(), 2u);

  std::map<std::string, AccuracyMeter> meters;
  for (const exec::NamedInputs& in : sets(5)) {
    auto want = runFresh(original, in);
    auto got = runFresh(changed, in);
    for (const auto& [name, w] : want)
      meters.try_emplace(name, name).first->second.add(got[name], w);
  }
  for (const OutputAccuracy& a : c.accuracy) {
    SCOPED_TRACE(a.output);
    ASSERT_TRUE(meters.count(a.output));
    const OutputAccuracy fresh = meters.at(a.output).result();
    EXPECT_EQ(a.snrDb, fresh.snrDb);  // bit for bit: the same runs
    EXPECT_EQ(a.cosine, fresh.cosine);
    EXPECT_EQ(a.maxRelError, fresh.maxRelError);
  }
  // y moved by the scale (a finite SNR), z not at all (equal: infinite).
  const OutputAccuracy* y = nullptr;
  for (const OutputAccuracy& a : c.accuracy)
    if (a.output == "y") y = &a;
  ASSERT_NE(y, nullptr);
  EXPECT_LT(y->snrDb, 60);
  EXPECT_GT(y->snrDb, 20);
}

// check(): a model equal on every set passes; one that differs on the last
// set only fails naming that set (each set's outputs compared with its own
// reference, not the first set's).
TEST(CheckRuns, CheckComparesEachSetWithItsOwnReference) {
  const ir::Model original = parse(net("1"));
  NoiseOptions quiet;
  quiet.draws = 0;
  auto checker = ExecOutputChecker::create(original, sets(4), quiet);
  ASSERT_TRUE(checker) << checker.error().message();
  NumericCheck same = (*checker)->check(parse(net("1")));
  EXPECT_TRUE(same.passed) << same.detail;
  // Relu(h) * 2: changing the scale moves y wherever h > 0; Max(r, 0) with
  // a cap only the last set (the largest inputs) reaches.
  const ir::Model lastOnly = parse(R"(<ir_version: 8, opset_import: ["" : 13]>
main (float[2,4] x) => (float[2,4] y, float[2,4] z)
    <float[4,4] w = {0.5, 0.25, 0, 0, 0, 0.5, 0.25, 0, 0, 0, 0.5, 0.25, 0.25, 0, 0, 0.5},
     float[1] two = {2}, float[1] cap = {20}> {
    h = MatMul(x, w)
    r = Relu(h)
    y0 = Mul(r, two)
    y = Min(y0, cap)
    z = Add(h, x) })");
  NumericCheck last = (*checker)->check(lastOnly);
  EXPECT_FALSE(last.passed);
  EXPECT_NE(last.detail.str().find("input set 3"), std::string::npos) << last.detail.str();
}

}  // namespace
}  // namespace passlab::pipeline
