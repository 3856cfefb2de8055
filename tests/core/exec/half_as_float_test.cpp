// float16 / bfloat16 MatMul and Gemm on the float32 kernels
// (core/exec/cpu/half_as_float.h): the optimized rows are the widened ones,
// and their results are the exact products rounded once to the half type
// (within one rounding of the half type plus float32 summation error),
// for plain, batched and transposed operands and Gemm's alpha, beta and C.
#include <gtest/gtest.h>

#include <cmath>

#include "core/exec/cpu/cpu_backend.h"
#include "core/exec/kernel_registry.h"
#include "tests/core/exec/exec_test_util.h"
#include "tests/core/exec/op_test_util.h"

namespace passlab::exec {
namespace {

using namespace optest;

// The values of `v` as the half type holds them.
std::vector<double> roundedTo(DataType dt, std::vector<int64_t> dims,
                              const std::vector<double>& v) {
  return values(typed(dt, std::move(dims), v));
}

double halfEpsilon(DataType dt) {
  return dt == DataType::kFloat16 ? std::ldexp(1.0, -10) : std::ldexp(1.0, -7);
}

// y[b, m, n] = alpha * sum_k a[b, m, k] b[k, n] (+ beta * c[n]) in double, and
// the sum of the magnitudes of the terms (the scale of the summation error).
struct Expected2 {
  std::vector<double> y, scale;
};
Expected2 product(const std::vector<double>& a, const std::vector<double>& b, int64_t batch,
                  int64_t M, int64_t K, int64_t N, bool transB, double alpha = 1,
                  const std::vector<double>* c = nullptr, double beta = 0) {
  Expected2 e;
  for (int64_t p = 0; p < batch; ++p)
    for (int64_t m = 0; m < M; ++m)
      for (int64_t n = 0; n < N; ++n) {
        double s = 0, mag = 0;
        for (int64_t k = 0; k < K; ++k) {
          const double x = a[static_cast<size_t>((p * M + m) * K + k)];
          const double w = b[static_cast<size_t>(transB ? n * K + k : k * N + n)];
          s += x * w;
          mag += std::fabs(x * w);
        }
        s *= alpha;
        mag *= std::fabs(alpha);
        if (c) {
          s += beta * (*c)[static_cast<size_t>(n)];
          mag += std::fabs(beta * (*c)[static_cast<size_t>(n)]);
        }
        e.y.push_back(s);
        e.scale.push_back(mag);
      }
  return e;
}

void expectOneRounding(const ir::Tensor& y, DataType dt, const Expected2& want) {
  ASSERT_EQ(y.dtype(), dt);
  const std::vector<double> got = values(y);
  ASSERT_EQ(got.size(), want.y.size());
  for (size_t i = 0; i < got.size(); ++i)
    EXPECT_NEAR(got[i], want.y[i],
                halfEpsilon(dt) / 2 * std::fabs(want.y[i]) + 1e-5 * want.scale[i])
        << "element " << i;
}

class HalfAsFloat : public ::testing::TestWithParam<DataType> {};

TEST_P(HalfAsFloat, TheOptimizedRowsAreTheWidenedOnes) {
  const auto& reg = cpu::kernelRegistry();
  for (const char* op : {"MatMul", "Gemm"}) {
    auto rows = KernelRegistry::forType(reg.find("", op, 17), GetParam(), false);
    ASSERT_FALSE(rows.empty()) << op;
    EXPECT_EQ(rows.front()->name, std::string("onednn.") + op + ".widened");
  }
}

TEST_P(HalfAsFloat, MatMulIsTheProductRoundedOnce) {
  const DataType dt = GetParam();
  struct Case {
    int64_t batch, M, K, N;
  };
  for (Case s : {Case{1, 37, 65, 29}, Case{1, 1, 300, 17}, Case{3, 5, 7, 4}}) {
    std::vector<int64_t> aDims = {s.M, s.K}, bDims = {s.K, s.N};
    if (s.batch > 1) aDims.insert(aDims.begin(), s.batch);
    const std::vector<double> a = roundedTo(dt, aDims, ramp(s.batch * s.M * s.K, -2, 2, 3));
    const std::vector<double> b = roundedTo(dt, bDims, ramp(s.K * s.N, -2, 2, 4));
    const ir::Tensor y = run1({"MatMul", {typed(dt, aDims, a), typed(dt, bDims, b)}, {}, 17});
    expectOneRounding(y, dt, product(a, b, s.batch, s.M, s.K, s.N, false));
  }
}

TEST_P(HalfAsFloat, GemmWithAlphaBetaTransposedBAndBroadcastC) {
  const DataType dt = GetParam();
  const int64_t M = 9, K = 33, N = 12;
  const std::vector<double> a = roundedTo(dt, {M, K}, ramp(M * K, -2, 2, 5));
  const std::vector<double> c = roundedTo(dt, {N}, ramp(N, -2, 2, 6));
  for (bool transB : {false, true}) {
    const std::vector<int64_t> bDims =
        transB ? std::vector<int64_t>{N, K} : std::vector<int64_t>{K, N};
    const std::vector<double> b = roundedTo(dt, bDims, ramp(K * N, -2, 2, 7));
    const ir::Tensor y = run1({"Gemm",
                               {typed(dt, {M, K}, a), typed(dt, bDims, b), typed(dt, {N}, c)},
                               {attrF("alpha", 0.5f), attrF("beta", 2.0f), attrI("transB", transB)},
                               13});
    expectOneRounding(y, dt, product(a, b, 1, M, K, N, transB, 0.5, &c, 2.0));
  }
}

// The narrowing rounds ties to even. y = s (1 + k u) + s u / 2 (u the half
// type's step in [1, 2), s = +-1; every term and the float32 sum exact) lies
// halfway between s (1 + k u) and s (1 + (k + 1) u): to even, that is
// s (1 + k u) for even k and s (1 + (k + 1) u) for odd k. The tests above
// allow half a step either way, so rounding half up or away from zero would
// pass them; here truncation fails on odd k and rounding half away on even k.
// MatMul and Gemm (widened, narrowFromFloat) and Add (the reference loop).
TEST_P(HalfAsFloat, NarrowingRoundsTiesToEven) {
  const DataType dt = GetParam();
  const double u = std::ldexp(1.0, dt == DataType::kFloat16 ? -10 : -7);
  const int64_t n = 40;
  std::vector<double> ab, a, c, want;  // ab: rows [a, u / 2] for MatMul
  for (int64_t k = 0; k < n; ++k) {
    const double s = k % 4 < 2 ? 1.0 : -1.0;
    a.push_back(s * (1 + static_cast<double>(k) * u));
    c.push_back(s * u / 2);
    ab.insert(ab.end(), {a.back(), c.back()});
    want.push_back(s * (1 + static_cast<double>(k + k % 2) * u));
  }
  const std::vector<double> ones = {1.0, 1.0};
  const ir::Tensor byMatMul =
      run1({"MatMul", {typed(dt, {n, 2}, ab), typed(dt, {2, 1}, ones)}, {}, 17});
  const ir::Tensor byGemm = run1(
      {"Gemm", {typed(dt, {n, 1}, a), typed(dt, {1, 1}, {1.0}), typed(dt, {n, 1}, c)}, {}, 13});
  const ir::Tensor byAdd = run1({"Add", {typed(dt, {n}, a), typed(dt, {n}, c)}, {}, 14});
  for (const auto& [name, y] : {std::pair<const char*, const ir::Tensor*>{"MatMul", &byMatMul},
                                {"Gemm", &byGemm},
                                {"Add", &byAdd}}) {
    ASSERT_EQ(y->dtype(), dt) << name;
    EXPECT_EQ(values(*y), want) << name;
  }
}

TEST_P(HalfAsFloat, AMismatchedInnerDimensionIsStillAnError) {
  const DataType dt = GetParam();
  const std::string err =
      errorOf({"MatMul", {typed(dt, {2, 3}, ramp(6)), typed(dt, {4, 2}, ramp(8))}, {}, 17});
  EXPECT_FALSE(err.empty());
}

// The rows of halfOnFloat32Kernels(): the node on half-type inputs is the
// same node on float32 inputs of the same values, rounded once to the half
// type: bit for bit, attributes and extra outputs (MaxPool's indices)
// included.
TEST_P(HalfAsFloat, WidenedRowsAreTheFloat32NodeRoundedOnce) {
  const DataType dt = GetParam();
  const std::vector<int64_t> dims = {2, 5, 6, 7};
  const std::vector<double> x = roundedTo(dt, dims, ramp(2 * 5 * 6 * 7, -6, 6, 9));
  std::vector<Call> calls = {
      {"Sigmoid", {}, {}, 13},
      {"Tanh", {}, {}, 13},
      {"Erf", {}, {}, 13},
      {"Exp", {}, {}, 13},
      {"Softmax", {}, {attrI("axis", -1)}, 13},
      {"Softmax", {}, {attrI("axis", 1)}, 13},
      {"LogSoftmax", {}, {attrI("axis", 2)}, 13},
      {"MaxPool", {}, {attrInts("kernel_shape", {3, 3}), attrInts("strides", {2, 2})}, 12, 2},
      {"AveragePool", {}, {attrInts("kernel_shape", {2, 3}), attrInts("pads", {1, 1, 1, 1})}, 19},
      {"GlobalAveragePool", {}, {}, 1},
      {"BatchNormalization",
       {std::nullopt, f32({5}, {1, 2, 0.5f, -1, 3}), f32({5}, {0, 1, -1, 0.5f, 2}),
        f32({5}, {0.1f, -0.2f, 0, 1, 2}), f32({5}, {1, 0.5f, 2, 0.25f, 4})},
       {},
       15},
      {"ReduceMean", {std::nullopt, i64({2}, {1, 3})}, {}, 18},
      {"ReduceSum", {std::nullopt, i64({1}, {-1})}, {attrI("keepdims", 0)}, 13},
      {"ReduceMax", {std::nullopt, i64({1}, {2})}, {}, 18},
  };
  for (Call c : calls) {
    Call wide = c;
    if (c.inputs.empty()) c.inputs.resize(1), wide.inputs.resize(1);
    c.inputs[0] = typed(dt, dims, x);
    wide.inputs[0] = f32(dims, std::vector<float>(x.begin(), x.end()));
    const std::vector<ir::Tensor> got = runAll(c), want = runAll(wide);
    ASSERT_EQ(got.size(), want.size()) << c.op;
    for (size_t i = 0; i < got.size(); ++i) {
      if (want[i].dtype() != DataType::kFloat) {
        EXPECT_EQ(values(got[i]), values(want[i])) << c.op << " output " << i;
        continue;
      }
      EXPECT_EQ(got[i].dtype(), dt) << c.op << " output " << i;
      EXPECT_EQ(got[i].dims(), want[i].dims()) << c.op;
      EXPECT_EQ(values(got[i]), roundedTo(dt, want[i].dims(), values(want[i])))
          << c.op << " output " << i;
    }
  }
}

TEST_P(HalfAsFloat, LayerNormalizationIsWithinOneRoundingOfTheFloat32Node) {
  const DataType dt = GetParam();
  const std::vector<double> x = roundedTo(dt, {3, 64}, ramp(3 * 64, -3, 3, 11));
  const std::vector<double> g = roundedTo(dt, {64}, ramp(64, 0.5, 1.5, 12));
  const std::vector<double> b = roundedTo(dt, {64}, ramp(64, -1, 1, 13));
  auto as = [](DataType t, std::vector<int64_t> d, const std::vector<double>& v) {
    return typed(t, std::move(d), v);
  };
  const ir::Tensor got =
      run1({"LayerNormalization", {as(dt, {3, 64}, x), as(dt, {64}, g), as(dt, {64}, b)}, {}, 17});
  const ir::Tensor want = run1({"LayerNormalization",
                                {as(DataType::kFloat, {3, 64}, x), as(DataType::kFloat, {64}, g),
                                 as(DataType::kFloat, {64}, b)},
                                {},
                                17});
  ASSERT_EQ(got.dtype(), dt);
  const std::vector<double> gv = values(got), wv = values(want);
  for (size_t i = 0; i < gv.size(); ++i)
    EXPECT_NEAR(gv[i], wv[i], halfEpsilon(dt) * std::fabs(wv[i]) + 1e-6) << i;
}

// A LayerNormalization declared of the half type runs on the optimized
// float32 row (FusedLayerNorm's vector statistics), not on the float32
// reference loop: that row takes the node, whose three inputs are declared
// of the half type, and declines mixed types. Its outputs are the float32
// node's rounded once, bit for bit, on rows long enough for the vector
// blocks (768 and 1030: a 1024-element block and a tail).
TEST_P(HalfAsFloat, LayerNormalizationRunsOnTheOptimizedFloat32Row) {
  const DataType dt = GetParam();
  const std::string type = dt == DataType::kFloat16 ? "float16" : "bfloat16";
  const auto& reg = cpu::kernelRegistry();
  auto rows =
      KernelRegistry::forType(reg.find("", "LayerNormalization", 17), DataType::kFloat, false);
  ASSERT_FALSE(rows.empty());
  ASSERT_EQ(rows.front()->name, std::string("cpu.LayerNormalization.f32"));
  auto accepts = [&](const std::string& gType, const std::string& outs) {
    const ir::Model m = testutil::parseModel(R"(
      <ir_version: 8, opset_import: ["" : 17]>
      main ()" + type + R"([2,8] x, )" + gType +
                                             R"([8] g, )" + type + R"([8] b) => ()" + outs + R"() {
        y = LayerNormalization <axis = -1> (x, g, b)
      })");
    KernelBuild build(*m.graph().nodes().front(), 17, DataType::kFloat);
    return static_cast<bool>(rows.front()->create(build));
  };
  EXPECT_TRUE(accepts(type, type + " y"));
  EXPECT_FALSE(accepts("float", type + " y"));
  auto runNorm = [](const std::string& t, int64_t cols, const ir::Tensor& x, const ir::Tensor& g,
                    const ir::Tensor& b) {
    const std::string n = std::to_string(cols);
    RunResult r = testutil::runText(R"(
      <ir_version: 8, opset_import: ["" : 17]>
      main ()" + t + "[3," + n + "] x, " +
                                        t + "[" + n + "] g, " + t + "[" + n + R"(] b) => ()" + t +
                                        R"( y) {
        y = LayerNormalization <axis = -1> (x, g, b)
      })",
                                    {{"x", x}, {"g", g}, {"b", b}});
    EXPECT_EQ(r.outputs.size(), 1u);
    return r.outputs.empty() ? ir::Tensor() : r.outputs[0];
  };
  for (int64_t cols : {768, 1030}) {
    const auto n = static_cast<size_t>(cols);
    const std::vector<double> x = roundedTo(dt, {3, cols}, ramp(3 * n, -3, 3, 17));
    const std::vector<double> g = roundedTo(dt, {cols}, ramp(n, 0.5, 1.5, 18));
    const std::vector<double> b = roundedTo(dt, {cols}, ramp(n, -1, 1, 19));
    const ir::Tensor got =
        runNorm(type, cols, typed(dt, {3, cols}, x), typed(dt, {cols}, g), typed(dt, {cols}, b));
    const ir::Tensor want =
        runNorm("float", cols, typed(DataType::kFloat, {3, cols}, x),
                typed(DataType::kFloat, {cols}, g), typed(DataType::kFloat, {cols}, b));
    ASSERT_EQ(got.dtype(), dt);
    EXPECT_EQ(values(got), roundedTo(dt, {3, cols}, values(want))) << cols;
  }
}

// Y is narrowed when its own type is not declared, whatever the node's other
// outputs declare: an intermediate MaxPool Y next to Indices that are a graph
// output (int64), an intermediate LayerNormalization Y next to a float32
// Mean that is one. Y stayed float32 there, and so did the Relu after it and
// the graph output z declared of the half type.
TEST_P(HalfAsFloat, UndeclaredYIsNarrowedNextToDeclaredOutputs) {
  const DataType dt = GetParam();
  const std::string type = dt == DataType::kFloat16 ? "float16" : "bfloat16";
  const std::vector<int64_t> dims = {1, 2, 4, 4};
  const ir::Tensor x = typed(dt, dims, ramp(32, -3, 3, 5));
  const std::string pool = R"(
    <ir_version: 8, opset_import: ["" : 13]>
    main ()" + type + R"([1,2,4,4] x) => ()" +
                           type + R"( z, int64[1,2,2,2] i) {
      y, i = MaxPool <kernel_shape = [2, 2], strides = [2, 2]> (x)
      z = Relu(y)
    })";
  RunResult p = testutil::runText(pool, {{"x", x}});
  ASSERT_EQ(p.outputs.size(), 2u);
  EXPECT_EQ(p.outputs[0].dtype(), dt);
  EXPECT_EQ(p.outputs[1].dtype(), DataType::kInt64);
  const std::string norm = R"(
    <ir_version: 8, opset_import: ["" : 17]>
    main ()" + type + R"([1,2,4,4] x, )" +
                           type + R"([4] g) => ()" + type + R"( z, float mean) {
      y, mean = LayerNormalization <axis = -1> (x, g)
      z = Relu(y)
    })";
  RunResult n = testutil::runText(norm, {{"x", x}, {"g", typed(dt, {4}, {1, 2, 0.5, 1})}});
  ASSERT_EQ(n.outputs.size(), 2u);
  EXPECT_EQ(n.outputs[0].dtype(), dt);
  EXPECT_EQ(n.outputs[1].dtype(), DataType::kFloat);
}

INSTANTIATE_TEST_SUITE_P(Types, HalfAsFloat,
                         ::testing::Values(DataType::kFloat16, DataType::kBFloat16),
                         [](const auto& info) {
                           return info.param == DataType::kFloat16 ? "Float16" : "BFloat16";
                         });

}  // namespace
}  // namespace passlab::exec
