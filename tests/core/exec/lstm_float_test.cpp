// The float32 LSTM path (core/exec/cpu/lstm_cell_float.h, used by rnn.cpp):
// the cell (on sigmoid_rows.h, whose own test covers its instruction sets)
// and the packed h·R^T on every instruction-set path against double-precision
// formulas, and whole LSTM nodes in float against the same
// node in double (rnn.cpp's scalar loop, computed in double): forward,
// reverse and bidirectional, sequence_lens, initial states, peepholes, clip,
// input_forget, layout 1, batches on both sides of the packed / sgemm split,
// non-default activations (the scalar loop in float), and a packed R kept
// over runs only while R is invariant.
#include <gtest/gtest.h>

#include <omp.h>

#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <string>
#include <vector>

#include "core/exec/cpu/lstm_cell_float.h"
#include "tests/core/exec/exec_test_util.h"

namespace passlab::exec {
namespace {

using cpu::LstmCellOptions;

// Seeded values in [-scale, scale], multiples of scale / 1024 (exact in
// float and double).
std::vector<double> pattern(size_t n, uint32_t seed, double scale = 1.0) {
  std::vector<double> v(n);
  uint32_t s = seed * 2654435761u + 1u;
  for (double& x : v) {
    s = s * 1664525u + 1013904223u;
    x = scale * (static_cast<double>((s >> 8) % 2049) - 1024.0) / 1024.0;
  }
  return v;
}

std::vector<float> toFloat(const std::vector<double>& v) {
  return std::vector<float>(v.begin(), v.end());
}

double sigmoid(double x) {
  return 1.0 / (1.0 + std::exp(-x));
}

// ---- the cell ----

void expectCellMatchesFormula(int64_t H, bool peepholes, float clip, bool inputForget) {
  const std::string what = "H=" + std::to_string(H) + (peepholes ? " peepholes" : "") +
                           " clip=" + std::to_string(clip) + (inputForget ? " input_forget" : "");
  // Pre-activations up to +-12: saturated and small values both occur.
  auto gates = toFloat(pattern(static_cast<size_t>(4 * H), 11 + static_cast<uint32_t>(H), 12.0));
  auto P = toFloat(pattern(static_cast<size_t>(3 * H), 5, 0.5));
  auto c = toFloat(pattern(static_cast<size_t>(H), 3, 2.0));
  const std::vector<float> cPrev = c;
  std::vector<float> h(static_cast<size_t>(H), -99.0f);
  LstmCellOptions o{peepholes ? P.data() : nullptr, clip, inputForget};
  const std::vector<float> pre = gates;
  cpu::lstmCell(gates.data(), o, c.data(), h.data(), H);
  gates = pre;
  auto cl = [&](double v) { return clip > 0 ? std::fmax(-clip, std::fmin(clip, v)) : v; };
  for (int64_t j = 0; j < H; ++j) {
    const double cp = cPrev[j];
    const double i = sigmoid(cl(gates[j] + (peepholes ? P[j] * cp : 0.0)));
    const double f = inputForget
                         ? 1.0 - i
                         : sigmoid(cl(gates[2 * H + j] + (peepholes ? P[2 * H + j] * cp : 0.0)));
    const double g = std::tanh(cl(gates[3 * H + j]));
    const double cNew = f * cp + i * g;
    const double o2 = sigmoid(cl(gates[H + j] + (peepholes ? P[H + j] * cNew : 0.0)));
    const double hNew = o2 * std::tanh(cNew);
    ASSERT_NEAR(c[j], cNew, 1e-6 + 1e-6 * std::fabs(cNew)) << what << " unit " << j;
    ASSERT_NEAR(h[j], hNew, 1e-6 + 1e-6 * std::fabs(hNew)) << what << " unit " << j;
  }
}

TEST(LstmCellFloat, MatchesTheFormulaInDouble) {
  for (int64_t H : {1, 3, 4, 5, 15, 16, 17, 33, 64, 128})
    for (bool peepholes : {false, true})
      for (float clip : {0.0f, 1.5f})
        for (bool inputForget : {false, true})
          expectCellMatchesFormula(H, peepholes, clip, inputForget);
}

// ---- h·R^T on packed R ----

TEST(AddRowTimesPacked, EveryPathMatchesDoubleProducts) {
  int pathsRun = 0;
  for (const char* isa : {"vec4", "avx512"}) {
    bool available = true;
    for (int64_t N : {1, 5, 31, 32, 63, 64, 65, 100, 128, 512}) {
      for (int64_t K : {1, 7, 16, 64, 129}) {
        auto M = toFloat(pattern(static_cast<size_t>(N * K), 7 + static_cast<uint32_t>(N)));
        auto v = toFloat(pattern(static_cast<size_t>(K), 1 + static_cast<uint32_t>(K)));
        auto out = toFloat(pattern(static_cast<size_t>(N), 2));
        const std::vector<float> before = out;
        std::vector<float> packed = cpu::packForRowTimes(M.data(), N, K);
        ASSERT_EQ(static_cast<int64_t>(packed.size()) % (K * cpu::kPackedColumns), 0);
        if (!cpu::addRowTimesPackedOn(isa, v.data(), packed.data(), K, N, out.data())) {
          available = false;
          break;
        }
        for (int64_t n = 0; n < N; ++n) {
          double want = before[n];
          for (int64_t k = 0; k < K; ++k) want += double(v[k]) * double(M[n * K + k]);
          ASSERT_NEAR(out[n], want, 1e-5 * (1.0 + std::fabs(want)) * std::sqrt(double(K)))
              << isa << " N=" << N << " K=" << K << " output " << n;
        }
      }
      if (!available) break;
    }
    pathsRun += available;
  }
  EXPECT_GE(pathsRun, 1);
}

// ---- whole nodes: float against double ----

struct LstmCase {
  std::string name;
  int64_t S, N, I, H;
  std::string direction = "forward";
  std::vector<int32_t> lens = {};  // empty: no sequence_lens
  bool initial = false, peepholes = false, inputForget = false;
  float clip = 0;
  int layout = 0;
  std::string activations = {};  // e.g. R"(["HardSigmoid", "Tanh", "Tanh"])", empty: defaults
};

int64_t dirsOf(const LstmCase& c) {
  return c.direction == "bidirectional" ? 2 : 1;
}

std::string dimsText(const std::vector<int64_t>& d) {
  std::string s = "[";
  for (size_t i = 0; i < d.size(); ++i) s += (i ? "," : "") + std::to_string(d[i]);
  return s + "]";
}

struct LstmShapes {
  std::vector<int64_t> X, W, R, B, L, state, P, Y;
};

LstmShapes shapesOf(const LstmCase& c) {
  const int64_t D = dirsOf(c), G = 4 * c.H;
  LstmShapes s;
  s.X = c.layout == 0 ? std::vector<int64_t>{c.S, c.N, c.I} : std::vector<int64_t>{c.N, c.S, c.I};
  s.W = {D, G, c.I};
  s.R = {D, G, c.H};
  s.B = {D, 2 * G};
  s.L = {c.N};
  s.state = c.layout == 0 ? std::vector<int64_t>{D, c.N, c.H} : std::vector<int64_t>{c.N, D, c.H};
  s.P = {D, 3 * c.H};
  s.Y = c.layout == 0 ? std::vector<int64_t>{c.S, D, c.N, c.H}
                      : std::vector<int64_t>{c.N, c.S, D, c.H};
  return s;
}

// The node in `type` (float or double); R an overridable initializer when
// rInit is given.
std::string lstmText(const LstmCase& c, const std::string& type, const std::string& rInit = "") {
  const LstmShapes s = shapesOf(c);
  std::string attrs = "hidden_size = " + std::to_string(c.H) + ", direction = \"" + c.direction +
                      "\", layout = " + std::to_string(c.layout);
  if (c.clip > 0) attrs += ", clip = " + std::to_string(c.clip);
  if (c.inputForget) attrs += ", input_forget = 1";
  if (!c.activations.empty()) attrs += ", activations = " + c.activations;
  std::string in = type + dimsText(s.X) + " X, " + type + dimsText(s.W) + " W, " + type +
                   dimsText(s.R) + " R" + rInit + ", " + type + dimsText(s.B) + " B";
  std::string args = "X, W, R, B";
  args += c.lens.empty() ? ", " : ", L";
  if (!c.lens.empty()) in += ", int32" + dimsText(s.L) + " L";
  if (c.initial || c.peepholes) {
    in += ", " + type + dimsText(s.state) + " H0, " + type + dimsText(s.state) + " C0";
    args += ", H0, C0";
  }
  if (c.peepholes) {
    in += ", " + type + dimsText(s.P) + " P";
    args += ", P";
  }
  return "<ir_version: 8, opset_import: [\"\" : 14]>\nmain (" + in + ") => (" + type +
         dimsText(s.Y) + " Y, " + type + dimsText(s.state) + " Yh, " + type + dimsText(s.state) +
         " Yc) {\n  Y, Yh, Yc = LSTM <" + attrs + "> (" + args + ")\n}";
}

size_t count(const std::vector<int64_t>& d) {
  int64_t n = 1;
  for (int64_t x : d) n *= x;
  return static_cast<size_t>(n);
}

// The inputs, as double values; made into float or double tensors.
std::vector<std::pair<std::string, std::vector<double>>> inputValues(const LstmCase& c,
                                                                     uint32_t seed) {
  const LstmShapes s = shapesOf(c);
  std::vector<std::pair<std::string, std::vector<double>>> v = {
      {"X", pattern(count(s.X), seed + 1)},
      {"W", pattern(count(s.W), seed + 2, 0.5)},
      {"R", pattern(count(s.R), seed + 3, 0.5)},
      {"B", pattern(count(s.B), seed + 4, 0.5)}};
  if (c.initial || c.peepholes) {
    v.push_back({"H0", c.initial ? pattern(count(s.state), seed + 5)
                                 : std::vector<double>(count(s.state), 0.0)});
    v.push_back({"C0", c.initial ? pattern(count(s.state), seed + 6)
                                 : std::vector<double>(count(s.state), 0.0)});
  }
  if (c.peepholes) v.push_back({"P", pattern(count(s.P), seed + 7, 0.5)});
  return v;
}

NamedInputs tensors(const LstmCase& c,
                    const std::vector<std::pair<std::string, std::vector<double>>>& values,
                    bool asDouble, const std::string& skip = "") {
  const LstmShapes s = shapesOf(c);
  auto dimsOf = [&](const std::string& n) {
    return n == "X"   ? s.X
           : n == "W" ? s.W
           : n == "R" ? s.R
           : n == "B" ? s.B
           : n == "P" ? s.P
                      : s.state;
  };
  NamedInputs in;
  for (const auto& [name, v] : values) {
    if (name == skip) continue;
    in.emplace_back(
        name, asDouble
                  ? ir::Tensor::fromVector<double>(ir::DataType::kDouble, dimsOf(name), v)
                  : ir::Tensor::fromVector<float>(ir::DataType::kFloat, dimsOf(name), toFloat(v)));
  }
  if (!c.lens.empty())
    in.emplace_back("L", ir::Tensor::fromVector<int32_t>(ir::DataType::kInt32, s.L, c.lens));
  return in;
}

// Every output of the float run within tol of the double run's.
void expectFloatMatchesDouble(const std::string& what, const RunResult& f, const RunResult& d,
                              double tol = 2e-5) {
  ASSERT_EQ(f.outputs.size(), 3u) << what;
  ASSERT_EQ(d.outputs.size(), 3u) << what;
  const char* names[] = {"Y", "Y_h", "Y_c"};
  for (size_t o = 0; o < 3; ++o) {
    ASSERT_EQ(f.outputs[o].dims(), d.outputs[o].dims()) << what << " " << names[o];
    auto got = f.outputs[o].data<float>();
    auto want = d.outputs[o].data<double>();
    ASSERT_EQ(got.size(), want.size());
    int bad = 0;
    for (size_t i = 0; i < got.size() && bad < 5; ++i)
      if (!(std::fabs(got[i] - want[i]) <= tol * (1.0 + std::fabs(want[i])))) {
        ADD_FAILURE() << what << " " << names[o] << "[" << i << "] = " << got[i] << ", in double "
                      << want[i];
        ++bad;
      }
  }
}

const std::vector<LstmCase>& cases() {
  static const std::vector<LstmCase> all = [] {
    std::vector<LstmCase> v;
    v.push_back({.name = "forward H=17 (a lane tail)", .S = 6, .N = 1, .I = 5, .H = 17});
    v.push_back({.name = "bidirectional, lengths, states, peepholes, clip",
                 .S = 7,
                 .N = 3,
                 .I = 6,
                 .H = 20,
                 .direction = "bidirectional",
                 .lens = {7, 3, 0},
                 .initial = true,
                 .peepholes = true,
                 .clip = 1.5f});
    v.push_back({.name = "reverse batch 6 (sgemm), lengths, input_forget",
                 .S = 5,
                 .N = 6,
                 .I = 4,
                 .H = 16,
                 .direction = "reverse",
                 .lens = {5, 1, 4, 2, 5, 3},
                 .initial = true,
                 .inputForget = true});
    v.push_back({.name = "bidirectional layout 1, states",
                 .S = 4,
                 .N = 2,
                 .I = 3,
                 .H = 8,
                 .direction = "bidirectional",
                 .initial = true,
                 .layout = 1});
    v.push_back({.name = "bidirectional H=128 batch 1 (the nnsplit shape)",
                 .S = 5,
                 .N = 1,
                 .I = 32,
                 .H = 128,
                 .direction = "bidirectional"});
    v.push_back({.name = "non-default activations (the scalar loop)",
                 .S = 4,
                 .N = 2,
                 .I = 3,
                 .H = 5,
                 .direction = "bidirectional",
                 .initial = true,
                 .activations = R"(["HardSigmoid", "Tanh", "Relu"])"});
    return v;
  }();
  return all;
}

TEST(LstmFloatNode, MatchesTheNodeInDouble) {
  uint32_t seed = 100;
  for (const LstmCase& c : cases()) {
    auto values = inputValues(c, seed += 10);
    RunResult f = testutil::runText(lstmText(c, "float"), tensors(c, values, false));
    RunResult d = testutil::runText(lstmText(c, "double"), tensors(c, values, true));
    expectFloatMatchesDouble(c.name, f, d);
  }
}

// " = {v0, v1, ...}", every value exactly.
std::string literal(const std::vector<double>& v) {
  std::string s = " = {";
  char buf[32];
  for (size_t i = 0; i < v.size(); ++i) {
    std::snprintf(buf, sizeof buf, "%.17g", v[i]);
    s += (i ? ", " : "") + std::string(buf);
  }
  return s + "}";
}

// R as an overridable initializer: the packed copy is kept over runs on the
// initializer, and a run that overrides R uses the given R, not the kept copy
// (nor keeps the given one for the next run).
TEST(LstmFloatNode, PackedRKeptOnlyWhileRIsInvariant) {
  LstmCase c{.name = "R kept", .S = 4, .N = 2, .I = 3, .H = 18, .direction = "bidirectional"};
  auto values = inputValues(c, 7);
  const std::vector<double> rInit = values[2].second;  // multiples of 1/2048: exact in text
  auto other = pattern(rInit.size(), 99, 0.5);
  auto fExec = Executor::create(testutil::parseModel(lstmText(c, "float", literal(rInit))), {});
  auto dExec = Executor::create(testutil::parseModel(lstmText(c, "double", literal(rInit))), {});
  ASSERT_TRUE(fExec && dExec);
  for (int round = 0; round < 2; ++round) {
    for (bool override : {false, true, false}) {
      auto v = values;
      v[2].second = other;
      const std::string skip = override ? "" : "R";
      auto f = (*fExec)->run(tensors(c, v, false, skip));
      auto d = (*dExec)->run(tensors(c, v, true, skip));
      ASSERT_TRUE(f && d);
      expectFloatMatchesDouble(
          "round " + std::to_string(round) + (override ? " R given" : " R kept"), *f, *d);
    }
  }
}

// At two threads a bidirectional layer runs one direction per thread, each
// on one thread: the outputs equal the one-thread run's bit for bit, match
// the node in double, and the caller's OpenMP thread count is unchanged.
TEST(LstmFloatNode, DirectionsOnTwoThreadsEqualOneThread) {
  ::setenv("PASSLAB_SMALL_STEP_MICROS", "0", 1);  // these nodes are small: every thread
  const int ompBefore = omp_get_max_threads();
  uint32_t seed = 300;
  for (const LstmCase& c : cases()) {
    if (c.direction != "bidirectional") continue;
    auto values = inputValues(c, seed += 10);
    for (const char* type : {"float", "double"}) {
      const bool isDouble = std::string(type) == "double";
      RunOptions one, two;
      one.threads = 1;
      two.threads = 2;
      RunResult r1 = testutil::runText(lstmText(c, type), tensors(c, values, isDouble), {}, one);
      RunResult r2 = testutil::runText(lstmText(c, type), tensors(c, values, isDouble), {}, two);
      ASSERT_EQ(r1.outputs.size(), 3u) << c.name;
      ASSERT_EQ(r2.outputs.size(), 3u) << c.name;
      for (size_t o = 0; o < 3; ++o) {
        ASSERT_EQ(r1.outputs[o].dims(), r2.outputs[o].dims()) << c.name << " " << o;
        EXPECT_TRUE(r1.outputs[o].sameData(r2.outputs[o]))
            << c.name << " " << type << " output " << o;
      }
      if (isDouble) continue;
      RunResult d = testutil::runText(lstmText(c, "double"), tensors(c, values, true), {}, two);
      expectFloatMatchesDouble(c.name + " at 2 threads", r2, d);
    }
  }
  EXPECT_EQ(omp_get_max_threads(), ompBefore);
  ::unsetenv("PASSLAB_SMALL_STEP_MICROS");
}

}  // namespace
}  // namespace passlab::exec
