// quantize_static's and quantize_dynamic's reduce_range (core/passes/
// reduce_range_option.h): auto (the default) chooses int8 weights in
// [-64, 64] on a CPU without AVX-512 VNNI or AVX-VNNI and the full range on
// one with either, as capped by PASSLAB_MAX_ISA; the note says which, why and
// how to get the other; true and false (in any of the boolean spellings) do
// what they say on every host; another value is refused naming the option and
// the values it takes; a step over the budget says in its error what it
// chose. The ctests isa_avx2_reduce_range_auto and isa_avx2vnni_reduce_range_
// auto run the ReduceRangeAuto tests again under those caps; what auto must
// choose is worked out here from PASSLAB_MAX_ISA and the CPU's own flags
// (__builtin_cpu_supports, not cpu_isa: the code under test asks cpu_isa).
#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <cstdlib>
#include <random>
#include <sstream>
#include <string>

#include "core/analysis/shape_inference.h"
#include "core/io/text_format.h"
#include "core/passes/registry.h"
#include "core/pipeline/calibration.h"
#include "core/pipeline/numeric_check.h"
#include "core/pipeline/recipe.h"
#include "tests/support/pass_harness.h"

namespace passlab::testing {
namespace {

// Whether auto must choose 7 bits in this process: the cap, else the CPU.
bool expectSevenBits() {
  const char* cap = std::getenv("PASSLAB_MAX_ISA");
  const std::string c = cap ? cap : "";
  if (c == "sse2" || c == "avx2" || c == "avx512core") return true;
#if defined(__x86_64__) || defined(__i386__)
  const bool avxVnni = __builtin_cpu_supports("avx2") && __builtin_cpu_supports("fma") &&
                       __builtin_cpu_supports("avxvnni");
  const bool avx512Vnni = __builtin_cpu_supports("avx512f") && __builtin_cpu_supports("avx512bw") &&
                          __builtin_cpu_supports("avx512vl") &&
                          __builtin_cpu_supports("avx512vnni");
  if (c == "avx2vnni") return !avxVnni;
  return !(avxVnni || avx512Vnni);
#else
  return true;
#endif
}

std::string values(size_t n, unsigned seed) {
  std::mt19937 rng(seed);
  std::uniform_real_distribution<float> d(-1, 1);
  std::ostringstream os;
  for (size_t i = 0; i < n; ++i) os << (i ? ", " : "") << d(rng);
  return os.str();
}

// Two 3x3 convolutions with a Relu between them.
std::string convNet() {
  return "<ir_version: 8, opset_import: [\"\" : 13]>\n"
         "main (float[1,2,6,6] x) => (float[1,2,6,6] y)\n"
         "    <float[3,2,3,3] w1 = {" +
         values(54, 1) + "}, float[3] b1 = {0.1, -0.2, 0.3}, float[2,3,3,3] w2 = {" +
         values(54, 2) +
         "}> {\n"
         "    c = Conv <pads = [1, 1, 1, 1]> (x, w1, b1)\n"
         "    r = Relu(c)\n"
         "    y = Conv <pads = [1, 1, 1, 1]> (r, w2) }";
}

pipeline::CalibratingEvaluator synthesized(int sets = 8) {
  return pipeline::CalibratingEvaluator(
      [sets](const ir::Model& m) {
        return pipeline::synthesizedCalibrationSets(m, pipeline::InputSpec{}, sets);
      },
      static_cast<size_t>(sets));
}

// The largest |value| of the model's int8 initializers, and how many are
// not all zeros (the weights; zero points per channel are 0).
struct Int8Weights {
  int count = 0;
  double maxAbs = 0;
};
Int8Weights int8Weights(const ir::Model& m) {
  Int8Weights w;
  for (const ir::Value* v : m.graph().initializers()) {
    const ir::Tensor* t = v->initializer();
    if (t->dtype() != ir::DataType::kInt8) continue;
    double maxAbs = 0;
    for (int64_t i = 0; i < t->numel(); ++i)
      maxAbs = std::max(maxAbs, std::fabs(t->valueAsDouble(i)));
    if (maxAbs > 0) ++w.count;
    w.maxAbs = std::max(w.maxAbs, maxAbs);
  }
  return w;
}

constexpr const char* kSevenBitsNote = "weights in 7 bits ([-64, 64], reduce_range=auto)";
constexpr const char* kFullRangeNote = "weights in the full int8 range (reduce_range=auto)";

void expectAutoChoice(const PassOutcome& out, const std::string& pass) {
  ASSERT_TRUE(out.step.changed) << out.step.error.str();
  const Int8Weights w = int8Weights(out.model);
  EXPECT_EQ(w.count, 2) << pass;
  const std::string note = out.step.note.str();
  if (expectSevenBits()) {
    EXPECT_EQ(w.maxAbs, 64) << pass;
    EXPECT_NE(note.find(kSevenBitsNote), std::string::npos) << note;
    EXPECT_NE(note.find("no AVX-512 VNNI or AVX-VNNI"), std::string::npos) << note;
    EXPECT_NE(note.find("reduce_range=false for the full range"), std::string::npos) << note;
  } else {
    EXPECT_EQ(w.maxAbs, 127) << pass;
    EXPECT_NE(note.find(kFullRangeNote), std::string::npos) << note;
    EXPECT_NE(note.find("reduce_range=true for 7 bits"), std::string::npos) << note;
  }
  const char* cap = std::getenv("PASSLAB_MAX_ISA");
  if (cap && *cap && std::string(cap) != "avx512") {
    EXPECT_NE(note.find(std::string("PASSLAB_MAX_ISA=") + cap), std::string::npos) << note;
  }
}

TEST(ReduceRangeAuto, QuantizeStaticChoosesByTheCpu) {
  auto eval = synthesized();
  PassOutcome out = runPass("quantize_static", convNet(), {}, &eval);
  expectAutoChoice(out, "quantize_static");
  EXPECT_TRUE(out.step.check.passed) << out.step.check.detail.str();
}

TEST(ReduceRangeAuto, QuantizeDynamicChoosesByTheCpu) {
  PassOutcome out = runPass("quantize_dynamic", convNet(), {{"reduce_range", "AUTO"}});
  expectAutoChoice(out, "quantize_dynamic");
  EXPECT_TRUE(out.step.check.passed) << out.step.check.detail.str();
}

// Over a budget no INT8 file meets (SNR 200 dB): rolled back, and the error
// says which weight range auto chose and names the option.
TEST(ReduceRangeAuto, OverTheBudgetTheErrorSaysWhatAutoChose) {
  auto parsed = io::parseModelText(convNet());
  ASSERT_TRUE(parsed);
  ir::Model m = std::move(*parsed);
  analysis::inferShapes(m);
  pipeline::PipelineOptions po;
  po.budget.minSnrDb = 200;
  pipeline::PassManager pm(m, po);
  auto eval = synthesized();
  pm.setEvaluator(&eval);
  pipeline::NoiseOptions quiet;
  quiet.draws = 0;
  auto checker = pipeline::ExecOutputChecker::create(m, 2, {}, quiet);
  ASSERT_TRUE(checker);
  pm.setChecker(checker->get());
  auto step = pm.run({"quantize_static", {}, {}});
  ASSERT_TRUE(step);
  ASSERT_TRUE((*step)->rolledBack);
  const std::string error = (*step)->error.str();
  EXPECT_NE(error.find("quantize_static is over the accuracy budget: output 'y'"),
            std::string::npos)
      << error;
  EXPECT_NE(error.find(expectSevenBits() ? "reduce_range=false for the full range"
                                         : "reduce_range=true for 7 bits"),
            std::string::npos)
      << error;
  EXPECT_NE(error.find("(the step: 2 ops quantized to int8"), std::string::npos) << error;
  EXPECT_EQ(int8Weights(m).count, 0) << "rolled back";
}

// true and false hold on every host, in any boolean spelling; the note then
// says nothing of auto.
TEST(ReduceRange, GivenTrueOrFalseHoldsOnEveryCpu) {
  for (const char* value : {"true", "YES", "1", "false", "Off", "0"}) {
    const bool seven = std::string("true YES 1").find(value) != std::string::npos;
    auto eval = synthesized();
    PassOutcome out = runPass("quantize_static", convNet(), {{"reduce_range", value}}, &eval);
    ASSERT_TRUE(out.step.changed) << value << ": " << out.step.error.str();
    EXPECT_EQ(int8Weights(out.model).maxAbs, seven ? 64 : 127) << value;
    const std::string note = out.step.note.str();
    EXPECT_EQ(note.find("reduce_range=auto"), std::string::npos) << note;
    EXPECT_EQ(note.find(", 7 bits)") != std::string::npos, seven) << note;
    PassOutcome dyn = runPass("quantize_dynamic", convNet(), {{"reduce_range", value}});
    EXPECT_EQ(int8Weights(dyn.model).maxAbs, seven ? 64 : 127) << value;
    EXPECT_EQ(dyn.step.note.str().find("reduce_range=auto"), std::string::npos)
        << dyn.step.note.str();
  }
}

TEST(ReduceRange, AnotherValueIsRefusedNamingTheOptionAndItsValues) {
  for (const char* pass : {"quantize_static", "quantize_dynamic"}) {
    auto eval = synthesized();
    PassOutcome out = runPassMayFail(pass, convNet(), {{"reduce_range", "maybe"}}, &eval);
    EXPECT_TRUE(out.step.rolledBack) << pass;
    EXPECT_FALSE(out.step.changed) << pass;
    const std::string error = out.step.error.str();
    EXPECT_NE(error.find(std::string(pass) +
                         ": option 'reduce_range' takes auto, true or false, not 'maybe'"),
              std::string::npos)
        << error;
    EXPECT_EQ(int8Weights(out.model).count, 0) << pass;
  }
}

// A saved recipe records what auto chose on this CPU (true: 7 bits), so it
// replays to the same file on another CPU; a given value as given.
TEST(ReduceRangeAuto, ARecipeRecordsWhatAutoChose) {
  const std::string chosen = expectSevenBits() ? "true" : "false";
  pipeline::Recipe r;
  r.passes.push_back({"quantize_static", {{"reduce_range", "auto"}}, {}});
  r.passes.push_back({"quantize_dynamic", {{"reduce_range", "AUTO"}}, {}});
  r.passes.push_back({"quantize_static", {{"reduce_range", "off"}}, {}});
  const std::string json = pipeline::recipeToJson(r);
  auto back = pipeline::recipeFromJson(json);
  ASSERT_TRUE(back) << back.error().message() << "\n" << json;
  ASSERT_EQ(back->passes.size(), 3u);
  const std::vector<std::string> want = {chosen, chosen, "off"};
  for (size_t i = 0; i < want.size(); ++i) {
    ASSERT_EQ(back->passes[i].options.size(), 1u) << i;
    EXPECT_EQ(back->passes[i].options[0].second, want[i]) << i << "\n" << json;
  }
}

// The declared default is auto (what a saved recipe records is what it chose).
TEST(ReduceRange, TheDefaultIsAuto) {
  for (const char* pass : {"quantize_static", "quantize_dynamic"}) {
    auto opts = pipeline::effectiveOptions(*passes::findPass(pass), {});
    ASSERT_TRUE(opts);
    std::string value;
    for (const auto& [k, v] : *opts)
      if (k == "reduce_range") value = v;
    EXPECT_EQ(value, "auto") << pass;
  }
}

}  // namespace
}  // namespace passlab::testing
