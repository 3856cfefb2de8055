// com.microsoft NhwcMaxPool (pool_max_nhwc8.h, kernel cpu.ms.NhwcMaxPool) on
// uint8 and int8 channels-last tensors against the reference MaxPool on the
// channels-first tensor, exactly: every geometry branch (pads, ceil_mode,
// dilations, strides 1-3, auto_pad, windows wholly in the padding, channel
// counts that are not a multiple of the vector width, 1-D and 3-D, batch 2),
// 1 and 2 threads; and the errors for a bad input.
#include <gtest/gtest.h>

#include <string>
#include <vector>

#include "core/exec/cpu/pool_geometry.h"
#include "core/exec/cpu/pool_max_nhwc8.h"
#include "tests/core/exec/exec_test_util.h"

namespace passlab::exec {
namespace {

struct Case {
  const char* name;
  Dims x, kernel, strides, dilations, pads;  // x channels first [N, C, spatial...]
  bool ceil = false;
  const char* autoPad = nullptr;  // instead of pads
};

std::string ints(const Dims& v) {
  std::string s = "[";
  for (size_t i = 0; i < v.size(); ++i) s += (i ? ", " : "") + std::to_string(v[i]);
  return s + "]";
}

Dims toLastDims(const Dims& d) {
  Dims out{d[0]};
  out.insert(out.end(), d.begin() + 2, d.end());
  out.push_back(d[1]);
  return out;
}

// [N, C, S...] -> [N, S..., C], elements of any one-byte type.
template <class T>
std::vector<T> toLast(const std::vector<T>& x, const Dims& d) {
  int64_t S = 1;
  for (size_t i = 2; i < d.size(); ++i) S *= d[i];
  std::vector<T> y(x.size());
  for (int64_t n = 0; n < d[0]; ++n)
    for (int64_t c = 0; c < d[1]; ++c)
      for (int64_t s = 0; s < S; ++s)
        y[static_cast<size_t>((n * S + s) * d[1] + c)] =
            x[static_cast<size_t>((n * d[1] + c) * S + s)];
  return y;
}

std::string attrs(const Case& c) {
  std::string a = "kernel_shape = " + ints(c.kernel) + ", strides = " + ints(c.strides) +
                  ", dilations = " + ints(c.dilations) +
                  ", ceil_mode = " + std::to_string(c.ceil ? 1 : 0);
  if (c.autoPad) return a + ", auto_pad = \"" + c.autoPad + "\"";
  return a + ", pads = " + ints(c.pads);
}

template <class T>
void checkCase(const Case& c, ir::DataType dt, const char* type) {
  cpu::PoolAttrs pa;
  pa.window.kernel = c.kernel;
  pa.window.strides = c.strides;
  pa.window.dilations = c.dilations;
  if (c.autoPad) {
    auto ap = ir::parseAutoPad(c.autoPad);
    ASSERT_TRUE(ap);
    pa.window.autoPad = *ap;
  } else {
    pa.window.pads = c.pads;
  }
  pa.window.ceilMode = c.ceil;
  auto g = cpu::poolGeometry(pa, c.x);
  ASSERT_TRUE(g) << g.error().message();
  int64_t n = 1;
  for (int64_t d : c.x) n *= d;
  std::vector<T> x(static_cast<size_t>(n));
  for (int64_t i = 0; i < n; ++i)  // unordered, the type's whole range
    x[static_cast<size_t>(i)] =
        static_cast<T>((i * 7919 + 13) % 251 - (dt == ir::DataType::kInt8 ? 125 : 0));
  // The reference MaxPool, channels first.
  ExecutorOptions ref;
  ref.referenceKernels = true;
  const std::string first = "<ir_version: 9, opset_import: [\"\" : 19]>\nmain (" +
                            std::string(type) + ints(c.x) + " x) => (" + type + ints(g->outDims) +
                            " y) {\n y = MaxPool <" + attrs(c) + "> (x) }";
  RunResult r = testutil::runText(first, {{"x", ir::Tensor::fromVector<T>(dt, c.x, x)}}, ref);
  ASSERT_EQ(r.outputs.size(), 1u);
  auto wantFirst = r.outputs[0].data<T>();
  const std::vector<T> want =
      toLast(std::vector<T>(wantFirst.begin(), wantFirst.end()), g->outDims);
  const std::vector<T> xl = toLast(x, c.x);
  // The kernel itself, 1 and 2 threads.
  for (int threads : {1, 2}) {
    std::vector<T> got(want.size(), T{42});
    cpu::maxPoolNhwc<T>(*g, xl.data(), got.data(), threads);
    for (size_t i = 0; i < want.size(); ++i)
      ASSERT_EQ(int{got[i]}, int{want[i]}) << "element " << i << ", " << threads << " threads";
  }
  // The node, with its shape inferred from the channels-last input.
  const std::string last =
      "<ir_version: 9, opset_import: [\"\" : 19, \"com.microsoft\" : 1]>\nmain (" +
      std::string(type) + ints(toLastDims(c.x)) + " x) => (" + type + ints(toLastDims(g->outDims)) +
      " y) {\n y = com.microsoft.NhwcMaxPool <" + attrs(c) + "> (x) }";
  RunResult l =
      testutil::runText(last, {{"x", ir::Tensor::fromVector<T>(dt, toLastDims(c.x), xl)}});
  ASSERT_EQ(l.outputs.size(), 1u);
  EXPECT_EQ(l.outputs[0].dims(), toLastDims(g->outDims));
  auto got = l.outputs[0].data<T>();
  ASSERT_EQ(got.size(), want.size());
  for (size_t i = 0; i < want.size(); ++i) ASSERT_EQ(int{got[i]}, int{want[i]}) << "element " << i;
}

class NhwcMaxPool8 : public ::testing::TestWithParam<Case> {};

TEST_P(NhwcMaxPool8, Uint8EqualsTheReferenceMaxPool) {
  checkCase<uint8_t>(GetParam(), ir::DataType::kUInt8, "uint8");
}

TEST_P(NhwcMaxPool8, Int8EqualsTheReferenceMaxPool) {
  checkCase<int8_t>(GetParam(), ir::DataType::kInt8, "int8");
}

const Case kCases[] = {
    {"squeezenet_3x3_s2", {1, 96, 15, 15}, {3, 3}, {2, 2}, {1, 1}, {0, 0, 0, 0}},
    {"squeezenet_ceil", {1, 64, 13, 13}, {3, 3}, {2, 2}, {1, 1}, {0, 0, 0, 0}, true},
    {"stem_3x3_s2_pad1_odd_channels", {1, 5, 16, 17}, {3, 3}, {2, 2}, {1, 1}, {1, 1, 1, 1}},
    {"stride1_batch2", {2, 19, 9, 13}, {3, 3}, {1, 1}, {1, 1}, {1, 1, 1, 1}},
    {"dilated_ceil", {1, 33, 9, 9}, {2, 2}, {2, 2}, {2, 2}, {0, 0, 0, 0}, true},
    {"dilated_stride1", {1, 3, 12, 15}, {3, 2}, {1, 1}, {2, 3}, {2, 1, 2, 3}},
    {"stride3_asymmetric_pads", {1, 4, 14, 19}, {2, 3}, {3, 3}, {1, 1}, {0, 2, 1, 1}},
    {"window_in_the_padding", {1, 2, 3, 3}, {2, 2}, {1, 1}, {1, 1}, {2, 2, 2, 2}},
    {"same_upper", {1, 17, 7, 10}, {3, 3}, {2, 2}, {1, 1}, {}, false, "SAME_UPPER"},
    {"same_lower", {1, 17, 7, 10}, {2, 3}, {2, 1}, {1, 1}, {}, false, "SAME_LOWER"},
    {"1d", {2, 3, 31}, {5}, {2}, {1}, {2, 2}},
    {"3d", {1, 20, 5, 6, 7}, {2, 3, 3}, {2, 1, 2}, {1, 1, 1}, {0, 1, 1, 1, 1, 1}, true},
};

INSTANTIATE_TEST_SUITE_P(Geometries, NhwcMaxPool8, ::testing::ValuesIn(kCases),
                         [](const auto& info) { return std::string(info.param.name); });

TEST(NhwcMaxPool8Errors, BadInputsAreClearErrors) {
  // A float input: no kernel for it (the op is 8-bit only).
  const std::string floatIn = R"(<ir_version: 9, opset_import: ["" : 19, "com.microsoft" : 1]>
main (float[1,4,4,3] x) => (float[1,2,2,3] y) {
 y = com.microsoft.NhwcMaxPool <kernel_shape = [2, 2], strides = [2, 2]> (x) })";
  EXPECT_FALSE(testutil::errorOf(
                   floatIn, {{"x", testutil::floats({1, 4, 4, 3}, std::vector<float>(48, 1.0f))}})
                   .empty());
  // kernel_shape of the wrong rank for the input.
  const std::string rank = R"(<ir_version: 9, opset_import: ["" : 19, "com.microsoft" : 1]>
main (uint8[1,4,4,3] x) => (uint8[1,2,2,3] y) {
 y = com.microsoft.NhwcMaxPool <kernel_shape = [2], strides = [2]> (x) })";
  const std::string err = testutil::errorOf(
      rank, {{"x", ir::Tensor::fromVector<uint8_t>(ir::DataType::kUInt8, {1, 4, 4, 3},
                                                   std::vector<uint8_t>(48, 7))}});
  EXPECT_NE(err.find("kernel_shape"), std::string::npos) << err;
}

}  // namespace
}  // namespace passlab::exec
