// fold_qdq_unary_into_lookup's chain rule (qdq_chain_lookup) at the edges
// (review of 8bd08c6): chains whose float values reach NaN (Log or Sqrt of a
// negative, 0 / 0), +-inf (Reciprocal of 0, Exp overflowing) and both
// saturation ends, on an 8-bit input of 1 x 3 x 37 x 41 = 4551 elements (not
// a multiple of 16 or 64: the vector loops' tails, the lookup's included;
// more than 4096: QuantizeLinear's runs) holding the 256 byte values at
// every position mod 16 (the values shifted by 0 and by 13). The lookup gives
// the QDQ form's bytes on 1 and 2 threads, uint8 and int8. The tests beside
// the pass run [1, 1, 16, 16] (no tail) and chains of finite values.
#include <gtest/gtest.h>

#include <string>
#include <vector>

#include "core/exec/executor.h"
#include "tests/support/pass_harness.h"
#include "tests/support/test_support.h"

namespace passlab::testing {
namespace {

const char* kPass = "fold_qdq_unary_into_lookup";
constexpr int64_t kElements = 3 * 37 * 41;

struct Ends {
  std::string xType, zx, yType, zy;
};

// x [1,3,37,41] -> DQ(0.05, zx) -> `body` (reads d, defines h) -> Q(0.03, zy) -> y.
std::string edgeUnit(const std::string& body, const std::string& consts, const Ends& e) {
  return "<ir_version: 8, opset_import: [\"\" : 14]>\nmain (" + e.xType + "[1,3,37,41] x) => (" +
         e.yType + "[1,3,37,41] y)\n    <float sx = {0.05}, " + e.xType + " zx = {" + e.zx +
         "}, float sy = {0.03}, " + e.yType + " zy = {" + e.zy + "}" + consts +
         "> {\n    d = DequantizeLinear(x, sx, zx)\n" + body +
         "\n    y = QuantizeLinear(h, sy, zy) }";
}

// y's bytes for x[i] = the byte (i + shift) % 256.
std::vector<uint8_t> outputBytes(const ir::Model& m, ir::DataType xType, int shift, int threads) {
  std::vector<uint8_t> x(static_cast<size_t>(kElements));
  for (int64_t i = 0; i < kElements; ++i) x[static_cast<size_t>(i)] = (i + shift) % 256;
  ir::Tensor in = ir::Tensor::fromVector<uint8_t>(xType, {1, 3, 37, 41}, x);
  auto ex = exec::Executor::create(m, {});
  EXPECT_TRUE(ex) << (ex ? "" : ex.error().message());
  if (!ex) return {};
  exec::RunOptions options;
  options.threads = threads;
  auto r = (*ex)->run({{"x", exec::Value(std::move(in))}}, options);
  EXPECT_TRUE(r) << (r ? "" : r.error().message());
  if (!r) return {};
  auto p = r->outputs[0].data<uint8_t>();
  return {p.begin(), p.end()};
}

TEST(FoldQdqChainLookupEdges, NanInfinityAndSaturationGiveTheQdqBytesInEveryPosition) {
  struct Chain {
    const char* body;
    std::string consts;
  };
  const Chain chains[] = {
      {"    h = Log(d)", ""},                                         // NaN below 0, -inf at 0
      {"    h = Reciprocal(d)", ""},                                  // +inf at 0
      {"    h = Div(d, zero)", ", float zero = {0}"},                 // NaN at 0, +-inf elsewhere
      {"    a = Mul(d, k)\n    h = Exp(a)", ", float k = {40}"},      // +inf above ~2.2
      {"    h = Mul(d, k)", ", float k = {1000}"},                    // both saturation ends
      {"    s = Sqrt(d)\n    h = Add(s, one)", ", float one = {1}"},  // NaN below 0
  };
  const Ends ends[] = {
      {"uint8", "128", "uint8", "0"}, {"int8", "-5", "int8", "3"}, {"uint8", "97", "int8", "-11"}};
  for (const Chain& c : chains)
    for (const Ends& e : ends) {
      const std::string text = edgeUnit(c.body, c.consts, e);
      SCOPED_TRACE(text);
      const ir::Model before = parse(text);
      PassOutcome after = runPass(kPass, text);
      ASSERT_EQ(after.model.graph().nodes().size(), 1u);
      ASSERT_EQ(countOps(after.model, "QLinearLookup"), 1);
      const ir::DataType xType = e.xType == "int8" ? ir::DataType::kInt8 : ir::DataType::kUInt8;
      for (int shift : {0, 13})
        for (int threads : {1, 2}) {
          const std::vector<uint8_t> want = outputBytes(before, xType, shift, threads);
          ASSERT_EQ(want.size(), static_cast<size_t>(kElements));
          EXPECT_EQ(outputBytes(after.model, xType, shift, threads), want)
              << "shift " << shift << ", " << threads << " thread(s)";
        }
    }
}

}  // namespace
}  // namespace passlab::testing
