// The float32 GRU path (core/exec/cpu/gru_cell_float.h, used by rnn.cpp for
// the default activations and batches of up to 4): whole GRU nodes in float
// against the same node in double (rnn.cpp's scalar loop, computed in double):
// forward, reverse and bidirectional, linear_before_reset 0 and 1,
// sequence_lens, initial_h, clip, layout 1, a batch above the packed limit
// and non-default activations (the scalar loop in float).
#include <gtest/gtest.h>

#include <cmath>
#include <string>
#include <vector>

#include "tests/core/exec/exec_test_util.h"

namespace passlab::exec {
namespace {

struct GruCase {
  std::string name;
  int64_t S, N, I, H;
  std::string direction = "forward";
  int linearBeforeReset = 0;
  std::vector<int32_t> lens = {};  // empty: no sequence_lens
  bool initial = false;
  float clip = 0;
  int layout = 0;
  std::string activations = {};
};

std::string dimsText(const std::vector<int64_t>& d) {
  std::string s = "[";
  for (size_t i = 0; i < d.size(); ++i) s += (i ? "," : "") + std::to_string(d[i]);
  return s + "]";
}

// Seeded values in [-scale, scale], multiples of scale / 1024 (exact in float and double).
std::vector<double> pattern(int64_t n, uint32_t seed, double scale) {
  std::vector<double> v(static_cast<size_t>(n));
  uint32_t s = seed * 2654435761u + 1u;
  for (double& x : v) {
    s = s * 1664525u + 1013904223u;
    x = scale * (static_cast<double>((s >> 8) % 2049) - 1024.0) / 1024.0;
  }
  return v;
}

struct Shapes {
  std::vector<int64_t> X, W, R, B, state, Y;
};

Shapes shapesOf(const GruCase& c) {
  const int64_t D = c.direction == "bidirectional" ? 2 : 1;
  const bool l0 = c.layout == 0;
  return {l0 ? std::vector<int64_t>{c.S, c.N, c.I} : std::vector<int64_t>{c.N, c.S, c.I},
          {D, 3 * c.H, c.I},
          {D, 3 * c.H, c.H},
          {D, 6 * c.H},
          l0 ? std::vector<int64_t>{D, c.N, c.H} : std::vector<int64_t>{c.N, D, c.H},
          l0 ? std::vector<int64_t>{c.S, D, c.N, c.H} : std::vector<int64_t>{c.N, c.S, D, c.H}};
}

std::string gruText(const GruCase& c, const std::string& t) {
  const Shapes s = shapesOf(c);
  std::string attrs = "hidden_size = " + std::to_string(c.H) + ", direction = \"" + c.direction +
                      "\", layout = " + std::to_string(c.layout) +
                      ", linear_before_reset = " + std::to_string(c.linearBeforeReset);
  if (c.clip > 0) attrs += ", clip = " + std::to_string(c.clip);
  if (!c.activations.empty()) attrs += ", activations = " + c.activations;
  std::string in = t + dimsText(s.X) + " X, " + t + dimsText(s.W) + " W, " + t + dimsText(s.R) +
                   " R, " + t + dimsText(s.B) + " B";
  std::string args = "X, W, R, B, ";
  if (!c.lens.empty()) in += ", int32[" + std::to_string(c.N) + "] L";
  args += c.lens.empty() ? ", " : "L, ";
  if (c.initial) in += ", " + t + dimsText(s.state) + " H0";
  args += c.initial ? "H0" : "";
  while (args.back() == ' ' || args.back() == ',') args.pop_back();
  return std::string(R"(<ir_version: 8, opset_import: ["" : 22]>)") + "\nmain (" + in + ") => (" +
         t + dimsText(s.Y) + " Y, " + t + dimsText(s.state) + " Y_h) {\n  Y, Y_h = GRU <" + attrs +
         "> (" + args + ")\n}";
}

NamedInputs inputs(const GruCase& c, bool asDouble, uint32_t seed) {
  const Shapes s = shapesOf(c);
  auto tensor = [&](const std::vector<int64_t>& dims, double scale, uint32_t k) {
    int64_t n = 1;
    for (int64_t d : dims) n *= d;
    std::vector<double> v = pattern(n, seed + k, scale);
    return asDouble ? ir::Tensor::fromVector<double>(ir::DataType::kDouble, dims, v)
                    : ir::Tensor::fromVector<float>(ir::DataType::kFloat, dims,
                                                    std::vector<float>(v.begin(), v.end()));
  };
  NamedInputs in = {{"X", tensor(s.X, 1.0, 1)},
                    {"W", tensor(s.W, 0.5, 2)},
                    {"R", tensor(s.R, 0.5, 3)},
                    {"B", tensor(s.B, 0.5, 4)}};
  if (!c.lens.empty())
    in.emplace_back("L", ir::Tensor::fromVector<int32_t>(ir::DataType::kInt32, {c.N}, c.lens));
  if (c.initial) in.emplace_back("H0", tensor(s.state, 1.0, 5));
  return in;
}

void expectFloatMatchesDouble(const GruCase& c, uint32_t seed) {
  RunResult f = testutil::runText(gruText(c, "float"), inputs(c, false, seed));
  RunResult d = testutil::runText(gruText(c, "double"), inputs(c, true, seed));
  ASSERT_EQ(f.outputs.size(), 2u) << c.name;
  ASSERT_EQ(d.outputs.size(), 2u) << c.name;
  for (size_t o = 0; o < 2; ++o) {
    ASSERT_EQ(f.outputs[o].dims(), d.outputs[o].dims()) << c.name;
    auto got = f.outputs[o].data<float>();
    auto want = d.outputs[o].data<double>();
    for (size_t i = 0; i < got.size(); ++i)
      ASSERT_NEAR(got[i], want[i], 2e-5 * (1.0 + std::fabs(want[i])))
          << c.name << " output " << o << " at " << i;
  }
}

TEST(GruFloatNode, MatchesTheNodeInDouble) {
  std::vector<GruCase> cases = {
      {.name = "forward H=17 (a lane tail)", .S = 6, .N = 1, .I = 5, .H = 17},
      {.name = "forward linear_before_reset",
       .S = 6,
       .N = 2,
       .I = 5,
       .H = 33,
       .linearBeforeReset = 1,
       .initial = true},
      {.name = "bidirectional, lengths, states, clip",
       .S = 7,
       .N = 3,
       .I = 6,
       .H = 20,
       .direction = "bidirectional",
       .lens = {7, 3, 0},
       .initial = true,
       .clip = 1.5f},
      {.name = "reverse linear_before_reset, lengths, clip",
       .S = 5,
       .N = 4,
       .I = 4,
       .H = 16,
       .direction = "reverse",
       .linearBeforeReset = 1,
       .lens = {5, 1, 4, 2},
       .clip = 0.7f},
      {.name = "bidirectional layout 1, states",
       .S = 4,
       .N = 2,
       .I = 3,
       .H = 64,
       .direction = "bidirectional",
       .initial = true,
       .layout = 1},
      {.name = "batch 6 (the scalar loop)", .S = 4, .N = 6, .I = 3, .H = 8, .initial = true},
      {.name = "non-default activations (the scalar loop)",
       .S = 4,
       .N = 2,
       .I = 3,
       .H = 5,
       .initial = true,
       .activations = R"(["HardSigmoid", "Relu"])"},
      {.name = "the cliff's shape, shorter", .S = 3, .N = 1, .I = 256, .H = 256},
  };
  uint32_t seed = 10;
  for (const GruCase& c : cases) expectFloatMatchesDouble(c, seed += 10);
}

}  // namespace
}  // namespace passlab::exec
