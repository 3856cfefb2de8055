// Einsum (einsum.cpp, einsum_equation.cpp) against direct loops, and the
// random generators (random_ops.cpp): shapes, types, seeds and edge
// probabilities.
#include <gtest/gtest.h>

#include <map>
#include <string>

#include "tests/core/exec/op_test_util.h"

namespace passlab::exec {
namespace {

using namespace optest;

ir::Tensor seq(std::vector<int64_t> dims) {
  int64_t n = 1;
  for (int64_t d : dims) n *= d;
  std::vector<float> v;
  for (int64_t i = 0; i < n; ++i) v.push_back(static_cast<float>(i % 7) - 3);
  return f32(std::move(dims), v);
}

ir::Tensor einsum(const std::string& eq, std::vector<std::optional<ir::Tensor>> ins) {
  return run1({"Einsum", std::move(ins), {attrS("equation", eq)}, 12});
}

TEST(Einsum, MatMulAndBatchMatMul) {
  ir::Tensor a = seq({2, 3}), b = seq({3, 4});
  std::vector<double> av = values(a), bv = values(b), want;
  for (int i = 0; i < 2; ++i)
    for (int k = 0; k < 4; ++k) {
      double s = 0;
      for (int j = 0; j < 3; ++j)
        s += av[static_cast<size_t>(i * 3 + j)] * bv[static_cast<size_t>(j * 4 + k)];
      want.push_back(s);
    }
  expectTensor(einsum("ij,jk->ik", {a, b}), DataType::kFloat, {2, 4}, want);
  expectTensor(einsum("ij,jk", {a, b}), DataType::kFloat, {2, 4}, want);  // implicit output
  // Transposed result.
  std::vector<double> wantT(8);
  for (int i = 0; i < 2; ++i)
    for (int k = 0; k < 4; ++k)
      wantT[static_cast<size_t>(k * 2 + i)] = want[static_cast<size_t>(i * 4 + k)];
  expectTensor(einsum("ij,jk->ki", {a, b}), DataType::kFloat, {4, 2}, wantT);
  // Batched, with broadcasting ellipsis: [2,2,3] x [3,4] per batch.
  ir::Tensor ba = seq({2, 2, 3});
  ir::Tensor y = einsum("...ij,jk->...ik", {ba, b});
  EXPECT_EQ(y.dims(), (std::vector<int64_t>{2, 2, 4}));
  std::vector<double> bav = values(ba);
  std::vector<double> yv = values(y);
  for (int n = 0; n < 2; ++n)
    for (int i = 0; i < 2; ++i)
      for (int k = 0; k < 4; ++k) {
        double s = 0;
        for (int j = 0; j < 3; ++j)
          s += bav[static_cast<size_t>(n * 6 + i * 3 + j)] * bv[static_cast<size_t>(j * 4 + k)];
        EXPECT_NEAR(yv[static_cast<size_t>(n * 8 + i * 4 + k)], s, 1e-5);
      }
}

// Two operands with distinct letters each, "ab..,cd..->ef..", by loops in double.
std::vector<double> einsumLoops(const std::string& eq, const ir::Tensor& x, const ir::Tensor& y,
                                std::vector<int64_t>* outDims) {
  const size_t comma = eq.find(','), arrow = eq.find("->");
  const std::string la = eq.substr(0, comma), lb = eq.substr(comma + 1, arrow - comma - 1),
                    lo = eq.substr(arrow + 2);
  std::map<char, int64_t> size;
  for (size_t i = 0; i < la.size(); ++i) size[la[i]] = x.dims()[i];
  for (size_t i = 0; i < lb.size(); ++i) size[lb[i]] = y.dims()[i];
  std::string letters;
  for (auto& [c, n] : size) letters += c;
  outDims->clear();
  for (char c : lo) outDims->push_back(size[c]);
  auto flat = [&](const std::string& ls, std::map<char, int64_t>& at) {
    int64_t f = 0;
    for (char c : ls) f = f * size[c] + at[c];
    return static_cast<size_t>(f);
  };
  int64_t outN = 1, total = 1;
  for (int64_t d : *outDims) outN *= d;
  for (char c : letters) total *= size[c];
  std::vector<double> out(static_cast<size_t>(outN), 0.0);
  const std::vector<double> xv = values(x), yv = values(y);
  std::map<char, int64_t> at;
  for (int64_t i = 0; i < total; ++i) {
    int64_t r = i;
    for (size_t j = letters.size(); j-- > 0;) {
      at[letters[j]] = r % size[letters[j]];
      r /= size[letters[j]];
    }
    out[flat(lo, at)] += xv[flat(la, at)] * yv[flat(lb, at)];
  }
  return out;
}

TEST(Einsum, BatchedMatrixProductsInEveryOperandLayout) {
  // Attention's products (the gemm path), a and b transposed, and a layout
  // that needs a relayout (batch letter not leading).
  struct Case {
    std::string eq;
    std::vector<int64_t> a, b;
  };
  const std::vector<Case> cases = {
      {"bhqd,bhkd->bhqk", {2, 3, 17, 33}, {2, 3, 19, 33}},
      {"bhqk,bhkd->bhqd", {2, 3, 17, 19}, {2, 3, 19, 33}},
      {"bkm,bkn->bmn", {4, 21, 9}, {4, 21, 13}},
      {"bmk,bnk->bnm", {4, 9, 21}, {4, 13, 21}},
      {"ij,jk->ik", {31, 65}, {65, 7}},
      {"qbd,kbd->bqk", {17, 3, 33}, {19, 3, 33}},
  };
  uint32_t seed = 3;
  for (const Case& c : cases) {
    auto tensorOf = [&](const std::vector<int64_t>& dims) {
      int64_t n = 1;
      for (int64_t d : dims) n *= d;
      const std::vector<double> r = ramp(static_cast<size_t>(n), -1, 1, seed++);
      return f32(dims, std::vector<float>(r.begin(), r.end()));
    };
    const ir::Tensor a = tensorOf(c.a), b = tensorOf(c.b);
    std::vector<int64_t> dims;
    const std::vector<double> want = einsumLoops(c.eq, a, b, &dims);
    SCOPED_TRACE(c.eq);
    expectTensor(einsum(c.eq, {a, b}), DataType::kFloat, dims, want, 1e-5, 1e-5);
  }
}

TEST(Einsum, TraceDiagonalSumsAndOuterProducts) {
  ir::Tensor m = seq({3, 3});
  std::vector<double> mv = values(m);
  expectTensor(einsum("ii", {m}), DataType::kFloat, {}, {mv[0] + mv[4] + mv[8]});
  expectTensor(einsum("ii->i", {m}), DataType::kFloat, {3}, {mv[0], mv[4], mv[8]});
  expectTensor(einsum("ij->i", {m}), DataType::kFloat, {3},
               {mv[0] + mv[1] + mv[2], mv[3] + mv[4] + mv[5], mv[6] + mv[7] + mv[8]});
  expectTensor(einsum("ij->", {m}), DataType::kFloat, {},
               {mv[0] + mv[1] + mv[2] + mv[3] + mv[4] + mv[5] + mv[6] + mv[7] + mv[8]});
  expectTensor(einsum("ij->ji", {seq({2, 3})}), DataType::kFloat, {3, 2}, {-3, 0, -2, 1, -1, 2});
  expectTensor(einsum("i,j->ij", {f32({2}, {1, 2}), f32({3}, {1, 10, 100})}), DataType::kFloat,
               {2, 3}, {1, 10, 100, 2, 20, 200});
  expectTensor(einsum("i,i", {f32({3}, {1, 2, 3}), f32({3}, {4, 5, 6})}), DataType::kFloat, {},
               {32});
}

TEST(Einsum, ThreeOperandsAndIntegers) {
  // (a b) c chain: x_i = sum_jk A_ij B_jk C_k.
  ir::Tensor a = f32({2, 2}, {1, 2, 3, 4});
  ir::Tensor b = f32({2, 2}, {1, 0, 0, 1});
  ir::Tensor c = f32({2}, {1, 1});
  expectTensor(einsum("ij,jk,k->i", {a, b, c}), DataType::kFloat, {2}, {3, 7});
  expectTensor(einsum("ij,jk->ik", {i64({2, 2}, {1, 2, 3, 4}), i64({2, 2}, {1, 1, 1, 1})}),
               DataType::kInt64, {2, 2}, {3, 3, 7, 7});
  // A letter used only by the first operand and dropped is summed before the product.
  expectTensor(einsum("ij,j->", {a, f32({2}, {1, 2})}), DataType::kFloat, {}, {1 + 4 + 3 + 8});
}

TEST(Einsum, BadEquationsAreErrors) {
  ir::Tensor a = seq({2, 3});
  std::string err = errorOf({"Einsum", {a}, {attrS("equation", "ijk->i")}, 12});
  EXPECT_NE(err.find("does not fit"), std::string::npos) << err;
  err = errorOf({"Einsum", {a, seq({4, 3})}, {attrS("equation", "ij,jk->ik")}, 12});
  EXPECT_NE(err.find("disagree"), std::string::npos) << err;
  err = errorOf({"Einsum", {a}, {attrS("equation", "ij->iz")}, 12});
  EXPECT_NE(err.find("no input"), std::string::npos) << err;
  err = errorOf({"Einsum", {a}, {attrS("equation", "i$->i")}, 12});
  EXPECT_NE(err.find("bad character"), std::string::npos) << err;
  err = errorOf({"Einsum", {a}, {attrS("equation", "ij,jk->ik")}, 12});
  EXPECT_NE(err.find("operand terms"), std::string::npos) << err;
}

TEST(Random, ShapesTypesAndSeeds) {
  ir::Tensor n = run1({"RandomNormal", {}, {attrInts("shape", {3, 4}), attrF("seed", 5.0f)}, 22});
  EXPECT_EQ(n.dtype(), DataType::kFloat);
  EXPECT_EQ(n.dims(), (std::vector<int64_t>{3, 4}));
  // Same seed, same values; values differ from each other.
  ir::Tensor n2 = run1({"RandomNormal", {}, {attrInts("shape", {3, 4}), attrF("seed", 5.0f)}, 22});
  EXPECT_EQ(values(n), values(n2));
  EXPECT_NE(values(n)[0], values(n)[1]);
  ir::Tensor u =
      run1({"RandomUniform",
            {},
            {attrInts("shape", {1000}), attrF("low", 2), attrF("high", 3), attrI("dtype", 11)},
            22});
  EXPECT_EQ(u.dtype(), DataType::kDouble);
  for (double v : values(u)) {
    EXPECT_GE(v, 2);
    EXPECT_LT(v, 3);
  }
  ir::Tensor like = run1({"RandomUniformLike", {f16({2, 5}, std::vector<float>(10, 0))}, {}, 22});
  EXPECT_EQ(like.dtype(), DataType::kFloat16);
  EXPECT_EQ(like.dims(), (std::vector<int64_t>{2, 5}));
  ir::Tensor nl = run1({"RandomNormalLike", {i32({2}, {0, 0})}, {attrI("dtype", 1)}, 22});
  EXPECT_EQ(nl.dtype(), DataType::kFloat);
  EXPECT_FALSE(errorOf({"RandomNormalLike", {i32({2}, {0, 0})}, {}, 22}).empty());
  EXPECT_FALSE(errorOf({"RandomNormal", {}, {attrI("dtype", 1)}, 22}).empty());
}

TEST(Random, BernoulliAndMultinomial) {
  ir::Tensor p = f32({6}, {0, 1, 0, 1, 1, 0});
  expectTensor(run1({"Bernoulli", {p}, {}, 22}), DataType::kFloat, {6}, {0, 1, 0, 1, 1, 0});
  expectTensor(run1({"Bernoulli", {p}, {attrI("dtype", 9)}, 22}), DataType::kBool, {6},
               {0, 1, 0, 1, 1, 0});
  EXPECT_FALSE(errorOf({"Bernoulli", {f32({1}, {1.5f})}, {}, 22}).empty());
  // Logits that put all the mass on one class.
  ir::Tensor logits = f32({2, 3}, {0, 1000, 0, -1000, -1000, 0});
  ir::Tensor s = run1({"Multinomial", {logits}, {attrI("sample_size", 4)}, 22});
  EXPECT_EQ(s.dtype(), DataType::kInt32);
  expectTensor(s, DataType::kInt32, {2, 4}, {1, 1, 1, 1, 2, 2, 2, 2});
  ir::Tensor s64 = run1({"Multinomial", {logits}, {attrI("dtype", 7), attrF("seed", 1)}, 22});
  EXPECT_EQ(s64.dtype(), DataType::kInt64);
  EXPECT_EQ(s64.dims(), (std::vector<int64_t>{2, 1}));
}

}  // namespace
}  // namespace passlab::exec
