// The fused level runs fuse_dynamic_quantize_into_conv (issue #25, session
// 35): on a dynamic INT8 chain (ConvInteger as quantize_dynamic writes it)
// the quantization of a convolution's output is done by that convolution's
// epilogue, with every step checked and the outputs the unfused file's bytes;
// a float model and a static INT8 one (QDQ: QLinearConv after
// fuse_qdq_into_qlinear, its output quantized by a QuantizeLinear the pass
// does not match) are left as the level left them before.
// Structural: where the pass sits in the level (after the range pass that
// writes the form it matches, before the cleanup) and that the GPU level
// leaves it out (channels-last FusedConvInteger has no GPU kernel).
#include <gtest/gtest.h>

#include <algorithm>
#include <string>
#include <vector>

#include "core/analysis/shape_inference.h"
#include "core/passes/registry.h"
#include "core/pipeline/numeric_check.h"
#include "core/pipeline/pass_manager.h"
#include "tests/core/pipeline/fused_level_test_util.h"
#include "tests/support/pass_harness.h"
#include "tests/support/test_support.h"

namespace passlab::pipeline {
namespace {

const char* kPass = "fuse_dynamic_quantize_into_conv";

std::ptrdiff_t at(const std::vector<std::string>& ids, const char* id) {
  return std::find(ids.begin(), ids.end(), id) - ids.begin();
}

TEST(FusedLevelDynamicQuantize, TheFusedLevelRunsItAfterTheRangePass) {
  auto fused = passes::passesForLevel("fused");
  ASSERT_TRUE(fused);
  const auto n = static_cast<std::ptrdiff_t>(fused->size());
  ASSERT_LT(at(*fused, kPass), n);
  EXPECT_EQ(std::count(fused->begin(), fused->end(), kPass), 1);
  EXPECT_EQ(at(*fused, "fuse_dynamic_quantize_range") + 1, at(*fused, kPass));
  EXPECT_LT(at(*fused, kPass), at(*fused, "convert_int8_to_channels_last"));
  for (const char* level : {"basic", "default", "ort", "fused_gpu"}) {
    auto ids = passes::passesForLevel(level);
    ASSERT_TRUE(ids);
    EXPECT_EQ(std::count(ids->begin(), ids->end(), kPass), 0) << level;
  }
}

// x -> DynamicQuantizeLinear -> ConvInteger 3x3 -> Cast -> Mul -> Add -> Relu
// -> DynamicQuantizeLinear -> ConvInteger 1x1 -> Cast -> Mul -> y: the form
// quantize_dynamic writes, 20 channels (a block of 16 and a tail of 4).
std::string dynamicChain() {
  std::string w1, w2;
  for (int i = 0; i < 20 * 3 * 9; ++i) w1 += (i ? ", " : "") + std::to_string((i * 37) % 255 - 127);
  for (int i = 0; i < 4 * 20; ++i) w2 += (i ? ", " : "") + std::to_string((i * 53) % 255 - 127);
  std::string s1, b1;
  for (int i = 0; i < 20; ++i) {
    s1 += (i ? ", " : "") + std::to_string(0.001 + 0.0005 * i);
    b1 += (i ? ", " : "") + std::to_string(0.05 * (i % 7) - 0.15);
  }
  return R"(<ir_version: 8, opset_import: ["" : 13]>
main (float[1,3,12,13] x) => (float[1,4,12,13] y)
    <int8[20,3,3,3] w1 = {)" +
         w1 + R"(}, float[20,1,1] ws1 = {)" + s1 + R"(}, float[20,1,1] b1 = {)" + b1 +
         R"(}, int8[4,20,1,1] w2 = {)" + w2 +
         R"(}, float[4,1,1] ws2 = {0.002, 0.003, 0.001, 0.004}> {
    q1, s1, z1 = DynamicQuantizeLinear(x)
    c1 = ConvInteger <pads = [1, 1, 1, 1]> (q1, w1, z1)
    f1 = Cast <to = 1> (c1)
    k1 = Mul(s1, ws1)
    m1 = Mul(f1, k1)
    a1 = Add(m1, b1)
    r1 = Relu(a1)
    q2, s2, z2 = DynamicQuantizeLinear(r1)
    c2 = ConvInteger(q2, w2, z2)
    f2 = Cast <to = 1> (c2)
    k2 = Mul(s2, ws2)
    y = Mul(f2, k2) })";
}

TEST(FusedLevelDynamicQuantize, TheConvolutionQuantizesItsOutputWithTheSameOutputs) {
  const ir::Model dyn = testing::parse(dynamicChain());
  std::vector<std::string> changed;
  const ir::Model out = runFusedLevel(dyn, &changed);
  EXPECT_NE(std::find(changed.begin(), changed.end(), kPass), changed.end());
  int quantizing = 0, convs = 0;
  for (const auto& n : out.graph().nodes()) {
    EXPECT_NE(n->opType(), "RangedDynamicQuantizeLinear");
    if (n->opType() != "FusedConvInteger") continue;
    ++convs;
    quantizing += n->attrInt("quantize_output", 0) == 1;
  }
  EXPECT_EQ(convs, 2);
  EXPECT_EQ(quantizing, 1);  // the first; the second's output is y, float
  EXPECT_EQ(testing::countOps(out, "DynamicQuantizeLinear"), 1);  // x's
  const testing::NumericResult r = testing::compareOutputs(dyn, out, 3);
  EXPECT_TRUE(r.ran) << r.detail;
  EXPECT_TRUE(r.equal) << r.detail;
}

TEST(FusedLevelDynamicQuantize, AFloatModelIsLeftAsBefore) {
  const ir::Model f = testing::parse(R"(<ir_version: 8, opset_import: ["" : 13]>
main (float[1,2,6,6] x) => (float[1,2,6,6] y)
<float[2,2,3,3] w = {0.1, -0.2, 0.3, 0.05, 0.4, -0.1, 0.2, 0.1, -0.3, 0.25, -0.15, 0.05, 0.3,
   -0.2, 0.1, 0.15, -0.05, 0.2, -0.1, 0.3, 0.2, -0.25, 0.1, 0.05, 0.15, -0.3, 0.2, 0.1, 0.05,
   -0.1, 0.2, 0.3, -0.2, 0.1, 0.25, -0.15}, float[2,2,1,1] w2 = {0.5, -0.25, 0.125, 1}>
{
  c = Conv <pads = [1, 1, 1, 1]> (x, w)
  r = Relu(c)
  y = Conv(r, w2)
})");
  std::vector<std::string> changed;
  runFusedLevel(f, &changed);
  EXPECT_EQ(std::find(changed.begin(), changed.end(), kPass), changed.end());
}

TEST(FusedLevelDynamicQuantize, AStaticInt8ModelIsLeftAsBefore) {
  const ir::Model qdq = testing::parse(kStaticQdqConvChain);
  std::vector<std::string> changed;
  const ir::Model out = runFusedLevel(qdq, &changed);
  EXPECT_EQ(std::find(changed.begin(), changed.end(), kPass), changed.end());
  // The level did run on it: the static chain became integer convolutions.
  EXPECT_NE(std::find(changed.begin(), changed.end(), "fuse_qdq_into_qlinear"), changed.end());
  EXPECT_EQ(testing::countOps(out, "QLinearConv"), 2);
  EXPECT_EQ(testing::countOps(out, "FusedConvInteger"), 0);
  EXPECT_EQ(testing::countOps(out, "RangedDynamicQuantizeLinear"), 0);
  EXPECT_EQ(testing::countOps(out, "DynamicQuantizeLinear"), 0);
  for (const auto& n : out.graph().nodes())
    EXPECT_EQ(n->attrInt("quantize_output", 0), 0) << n->opType();
  const testing::NumericResult r = testing::compareOutputs(qdq, out, 3);
  EXPECT_TRUE(r.ran) << r.detail;
  EXPECT_TRUE(r.equal) << r.detail;
}

}  // namespace
}  // namespace passlab::pipeline
