// ONNX Attention (attention.cpp), NegativeLogLikelihoodLoss and
// SoftmaxCrossEntropyLoss (losses.cpp), BatchNormalization with training_mode
// and Dropout in training (normalization.cpp, shape_ops.cpp) against direct
// computations.
#include <gtest/gtest.h>

#include <cmath>
#include <limits>

#include "tests/core/exec/op_test_util.h"

namespace passlab::exec {
namespace {

using namespace optest;

void expectNear(const std::vector<double>& got, const std::vector<double>& want,
                double tol = 1e-5) {
  ASSERT_EQ(got.size(), want.size());
  for (size_t i = 0; i < got.size(); ++i) EXPECT_NEAR(got[i], want[i], tol) << "element " << i;
}

// ---- losses ----

TEST(Loss, NllWeightedMeanSkipsIgnoredTargets) {
  // X [2, 3], targets {2, 1}; the second is ignored.
  ir::Tensor x = f32({2, 3}, {0.1f, 0.2f, 0.7f, 0.3f, 0.3f, 0.4f});
  ir::Tensor t = i64({2}, {2, 1});
  ir::Tensor w = f32({3}, {1.0f, 2.0f, 3.0f});
  ir::Tensor y = run1({"NegativeLogLikelihoodLoss", {x, t, w}, {attrI("ignore_index", 1)}, 13});
  // Only the first position counts: -0.7 * 3 / 3.
  expectNear(values(y), {-0.7});
  ir::Tensor none = run1({"NegativeLogLikelihoodLoss", {x, t}, {attrS("reduction", "none")}, 13});
  EXPECT_EQ(none.dims(), (std::vector<int64_t>{2}));
  expectNear(values(none), {-0.7, -0.3});
  ir::Tensor sum = run1({"NegativeLogLikelihoodLoss", {x, t}, {attrS("reduction", "sum")}, 13});
  expectNear(values(sum), {-1.0});
}

TEST(Loss, NllTargetOutOfRangeIsAnError) {
  ir::Tensor x = f32({1, 2}, {0.5f, 0.5f});
  std::string e = errorOf({"NegativeLogLikelihoodLoss", {x, i64({1}, {5})}, {}, 13});
  EXPECT_NE(e.find("target 5 at position 0 is out of range [0, 2)"), std::string::npos) << e;
}

TEST(Loss, SoftmaxCrossEntropyWithLogProbOverSpatialDims) {
  // X [1, 2, 2]: two classes at two positions.
  ir::Tensor x = f32({1, 2, 2}, {1.0f, 0.0f, 2.0f, 0.0f});
  ir::Tensor t = i64({1, 2}, {1, 0});
  auto r = runAll({"SoftmaxCrossEntropyLoss", {x, t}, {}, 13, 2});
  ASSERT_EQ(r.size(), 2u);
  // Position 0: logits (1, 2) -> log p(1) = 2 - log(e + e^2); position 1: (0, 0).
  double lp0 = 2 - std::log(std::exp(1.0) + std::exp(2.0));
  double lp1 = -std::log(2.0);
  expectNear(values(r[0]), {-(lp0 + lp1) / 2});
  EXPECT_EQ(r[1].dims(), x.dims());
  expectNear(values(r[1]), {1 - std::log(std::exp(1.0) + std::exp(2.0)), lp1, lp0, lp1});
}

// ---- Attention ----

// Naive attention over [B, H, S, D] with kvH key/value heads, an additive bias
// per (q, kv) and causal masking.
std::vector<double> naiveAttention(const std::vector<double>& q, const std::vector<double>& k,
                                   const std::vector<double>& v, int64_t B, int64_t H, int64_t kvH,
                                   int64_t S, int64_t T, int64_t D, bool causal, double scale) {
  std::vector<double> out(static_cast<size_t>(B * H * S * D));
  for (int64_t b = 0; b < B; ++b)
    for (int64_t h = 0; h < H; ++h)
      for (int64_t i = 0; i < S; ++i) {
        const int64_t kh = h / (H / kvH);
        std::vector<double> s(static_cast<size_t>(T));
        double mx = -INFINITY;
        for (int64_t j = 0; j < T; ++j) {
          double dot = 0;
          for (int64_t d = 0; d < D; ++d)
            dot += q[static_cast<size_t>(((b * H + h) * S + i) * D + d)] *
                   k[static_cast<size_t>(((b * kvH + kh) * T + j) * D + d)];
          s[static_cast<size_t>(j)] = causal && j > i + (T - S) ? -INFINITY : dot * scale;
          mx = std::max(mx, s[static_cast<size_t>(j)]);
        }
        double sum = 0;
        for (double& x : s) sum += (x = std::exp(x - mx));
        for (int64_t d = 0; d < D; ++d) {
          double acc = 0;
          for (int64_t j = 0; j < T; ++j)
            acc += s[static_cast<size_t>(j)] / sum *
                   v[static_cast<size_t>(((b * kvH + kh) * T + j) * D + d)];
          out[static_cast<size_t>(((b * H + h) * S + i) * D + d)] = acc;
        }
      }
  return out;
}

ir::Tensor f32From(std::vector<int64_t> dims, const std::vector<double>& v) {
  return f32(std::move(dims), std::vector<float>(v.begin(), v.end()));
}

TEST(OnnxAttention, FourDimensionalGroupedQueryCausal) {
  const int64_t B = 2, H = 4, kvH = 2, S = 3, D = 4;
  std::vector<double> q = ramp(B * H * S * D, -1, 1), k = ramp(B * kvH * S * D, 1, -0.5),
                      v = ramp(B * kvH * S * D, -2, 2);
  auto r =
      runAll({"Attention",
              {f32From({B, H, S, D}, q), f32From({B, kvH, S, D}, k), f32From({B, kvH, S, D}, v)},
              {attrI("is_causal", 1)},
              23,
              1});
  ASSERT_EQ(r.size(), 1u);
  EXPECT_EQ(r[0].dims(), (std::vector<int64_t>{B, H, S, D}));
  // Default scale 1 / sqrt(head size).
  expectNear(values(r[0]), naiveAttention(q, k, v, B, H, kvH, S, S, D, true, 0.5), 1e-5);
}

TEST(OnnxAttention, ThreeDimensionalWithPastGivesPresent) {
  // Q [1, 2, 2 heads * 2], K/V [1, 2, 2 * 2], past [1, 2, 1, 2].
  const int64_t H = 2, S = 2, D = 2, P = 1;
  std::vector<double> q = ramp(S * H * D, -1, 1), k = ramp(S * H * D, 0.5, -0.5),
                      v = ramp(S * H * D, 1, 2), pk = ramp(H * P * D, 0.2, 0.3),
                      pv = ramp(H * P * D, -1, -2);
  auto r = runAll({"Attention",
                   {f32From({1, S, H * D}, q), f32From({1, S, H * D}, k), f32From({1, S, H * D}, v),
                    std::nullopt, f32From({1, H, P, D}, pk), f32From({1, H, P, D}, pv)},
                   {attrI("q_num_heads", H), attrI("kv_num_heads", H), attrF("scale", 0.5f)},
                   23,
                   3});
  ASSERT_EQ(r.size(), 3u);
  EXPECT_EQ(r[0].dims(), (std::vector<int64_t>{1, S, H * D}));
  EXPECT_EQ(r[1].dims(), (std::vector<int64_t>{1, H, P + S, D}));
  // Rearrange to [1, H, S, D] and prepend the past for the naive version.
  auto heads = [&](const std::vector<double>& x, const std::vector<double>& past, int64_t p) {
    std::vector<double> out;
    for (int64_t h = 0; h < H; ++h) {
      for (int64_t s = 0; s < p; ++s)
        for (int64_t d = 0; d < D; ++d)
          out.push_back(past[static_cast<size_t>((h * p + s) * D + d)]);
      for (int64_t s = 0; s < S; ++s)
        for (int64_t d = 0; d < D; ++d) out.push_back(x[static_cast<size_t>((s * H + h) * D + d)]);
    }
    return out;
  };
  std::vector<double> K = heads(k, pk, P), V = heads(v, pv, P), Q = heads(q, {}, 0);
  expectNear(values(r[1]), K);
  std::vector<double> y = naiveAttention(Q, K, V, 1, H, H, S, S + P, D, false, 0.5);
  std::vector<double> y3;  // back to [1, S, H * D]
  for (int64_t s = 0; s < S; ++s)
    for (int64_t h = 0; h < H; ++h)
      for (int64_t d = 0; d < D; ++d) y3.push_back(y[static_cast<size_t>((h * S + s) * D + d)]);
  expectNear(values(r[0]), y3, 1e-5);
}

TEST(OnnxAttention, FullyMaskedRowGivesZerosAndModeThreeProbabilities) {
  // One query row may see nothing: a bool mask of false everywhere in that row.
  ir::Tensor q = f32({1, 1, 2, 2}, {1, 0, 0, 1});
  ir::Tensor k = f32({1, 1, 2, 2}, {1, 0, 0, 1});
  ir::Tensor v = f32({1, 1, 2, 2}, {1, 2, 3, 4});
  ir::Tensor mask = boolean({2, 2}, {true, true, false, false});
  auto r = runAll({"Attention", {q, k, v, mask}, {attrI("qk_matmul_output_mode", 3)}, 23, 4});
  ASSERT_EQ(r.size(), 4u);
  std::vector<double> y = values(r[0]);
  EXPECT_EQ(y[2], 0.0);
  EXPECT_EQ(y[3], 0.0);
  std::vector<double> p = values(r[3]);
  EXPECT_NEAR(p[0] + p[1], 1.0, 1e-6);
  EXPECT_EQ(p[2], 0.0);
  EXPECT_EQ(p[3], 0.0);
}

TEST(OnnxAttention, MismatchedHeadsAreNamed) {
  ir::Tensor q = f32({1, 3, 1, 2}, std::vector<float>(6, 1.0f));
  ir::Tensor kv = f32({1, 2, 1, 2}, std::vector<float>(4, 1.0f));
  std::string e = errorOf({"Attention", {q, kv, kv}, {}, 23});
  EXPECT_NE(e.find("3 query heads are not a multiple of 2 key/value heads"), std::string::npos)
      << e;
}

// ---- training-mode BatchNormalization and Dropout ----

TEST(BatchNormTraining, UsesBatchStatisticsAndUpdatesRunningOnes) {
  // X [2, 1, 2]: channel values 1, 3, 5, 7 (mean 4, variance 5).
  ir::Tensor x = f32({2, 1, 2}, {1, 3, 5, 7});
  ir::Tensor one = f32({1}, {1}), zero = f32({1}, {0});
  auto r = runAll({"BatchNormalization",
                   {x, one, zero, f32({1}, {2}), f32({1}, {1})},
                   {attrI("training_mode", 1), attrF("momentum", 0.5f), attrF("epsilon", 0)},
                   15,
                   3});
  ASSERT_EQ(r.size(), 3u);
  double s = 1 / std::sqrt(5.0);
  expectNear(values(r[0]), {-3 * s, -1 * s, 1 * s, 3 * s});
  expectNear(values(r[1]), {3.0});  // 2 * 0.5 + 4 * 0.5
  expectNear(values(r[2]), {3.0});  // 1 * 0.5 + 5 * 0.5
}

TEST(DropoutTraining, SeededMaskIsNumpys) {
  // numpy.random.RandomState(0).uniform(0, 1, 8) >= 0.5
  const std::vector<double> keep = {1, 1, 1, 1, 0, 1, 0, 1};
  ir::Tensor x = f32({8}, std::vector<float>(8, 1.0f));
  auto r =
      runAll({"Dropout", {x, f32({}, {0.5f}), boolean({}, {true})}, {attrI("seed", 0)}, 13, 2});
  ASSERT_EQ(r.size(), 2u);
  std::vector<double> want;
  for (double k : keep) want.push_back(2 * k);
  expectNear(values(r[0]), want);
  expectNear(values(r[1]), keep);
  // Ratio 0 in training keeps everything.
  auto same = runAll({"Dropout", {x, f32({}, {0.0f}), boolean({}, {true})}, {}, 13, 2});
  ASSERT_EQ(same.size(), 2u);
  expectNear(values(same[0]), values(x));
}

}  // namespace
}  // namespace passlab::exec
