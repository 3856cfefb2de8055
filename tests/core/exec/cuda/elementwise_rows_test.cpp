// The elementwise family's factories without a GPU: what they accept, what
// they decline to the CPU (kUnsupported) and what they reject as invalid; and
// the kernel classes run through a minimal context on a GPU (skipped without
// one): variadic folding in place, Clip's scalar inputs, Where, Cast.
#include <cuda_runtime.h>
#include <gtest/gtest.h>

#include <cmath>
#include <memory>
#include <optional>
#include <string>
#include <vector>

#include "core/exec/cuda/cuda_kernel.h"
#include "core/exec/cuda/device_tensor.h"
#include "core/ir/graph.h"
#include "tests/support/cuda_test_context.h"
#include "tests/support/test_support.h"

namespace passlab::exec::cuda {
namespace {

using ir::DataType;

// A factory's view of the only node of a parsed model.
class FakeBuild final : public CudaBuild {
 public:
  FakeBuild(const std::string& text, int64_t opset, DataType dtype)
      : model_(passlab::testing::parse(text)), opset_(opset), dtype_(dtype) {}
  const ir::Node& node() const override { return *model_.graph().nodes().begin()->get(); }
  int64_t opset() const override { return opset_; }
  DataType dtype() const override { return dtype_; }
  const ir::Tensor* constantInput(size_t) const override { return nullptr; }
  const DeviceProperties& device() const override { return props_; }
  cudaStream_t stream() const override { return nullptr; }

 private:
  ir::Model model_;
  int64_t opset_;
  DataType dtype_;
  DeviceProperties props_;
};

// Builds the node with the cuda.<op> row found for (op, opset, dtype).
Expected<std::unique_ptr<CudaKernel>> build(const std::string& op, const std::string& text,
                                            int64_t opset, DataType dtype) {
  FakeBuild b(text, opset, dtype);
  auto rows = findCudaKernels("", op, opset, dtype);
  for (const CudaKernelDef* def : rows)
    if (def->name == "cuda." + op) return def->create(b);
  return internalError("no cuda." + op + " row");
}

TEST(ElementwiseRows, RowsTakeTheirTypes) {
  EXPECT_FALSE(findCudaKernels("", "Relu", 14, DataType::kFloat16).empty());
  EXPECT_FALSE(findCudaKernels("", "Add", 14, DataType::kInt64).empty());
  EXPECT_TRUE(findCudaKernels("", "Add", 14, DataType::kDouble).empty());
  EXPECT_TRUE(findCudaKernels("", "Add", 6, DataType::kFloat).empty());  // legacy broadcast: CPU
  EXPECT_FALSE(findCudaKernels("", "Where", 16, DataType::kInt64).empty());
  EXPECT_FALSE(findCudaKernels("", "Equal", 13, DataType::kBool).empty());
  EXPECT_TRUE(findCudaKernels("", "Less", 13, DataType::kBool).empty());
  EXPECT_FALSE(findCudaKernels("", "Gelu", 20, DataType::kBFloat16).empty());
  EXPECT_TRUE(findCudaKernels("", "Gelu", 19, DataType::kFloat).empty());
}

TEST(ElementwiseRows, CastDeclinesTargetsItCannotStore) {
  auto ok = build("Cast", "main (float[2] x) => (float16[2] y) { y = Cast<to = 10>(x) }", 19,
                  DataType::kFloat);
  EXPECT_TRUE(ok.isOk()) << ok.error().message();
  auto dbl = build("Cast", "main (float[2] x) => (double[2] y) { y = Cast<to = 11>(x) }", 19,
                   DataType::kFloat);
  ASSERT_FALSE(dbl.isOk());
  EXPECT_EQ(dbl.error().code(), ErrorCode::kUnsupported);
  EXPECT_NE(dbl.error().message().find("double"), std::string::npos) << dbl.error().message();
}

TEST(ElementwiseRows, CastLikeDeclinesADeclaredTargetItCannotStore) {
  auto k =
      build("CastLike", "main (float[2] x, double[1] t) => (double[2] y) { y = CastLike(x, t) }",
            19, DataType::kFloat);
  ASSERT_FALSE(k.isOk());
  EXPECT_EQ(k.error().code(), ErrorCode::kUnsupported);
}

TEST(ElementwiseRows, PowDeclinesADoubleExponent) {
  auto k = build("Pow", "main (float[2] x, double[1] e) => (float[2] y) { y = Pow(x, e) }", 15,
                 DataType::kFloat);
  ASSERT_FALSE(k.isOk());
  EXPECT_EQ(k.error().code(), ErrorCode::kUnsupported);
  auto i = build("Pow", "main (float[2] x, int64[1] e) => (float[2] y) { y = Pow(x, e) }", 15,
                 DataType::kFloat);
  EXPECT_TRUE(i.isOk()) << i.error().message();
}

TEST(ElementwiseRows, GeluChecksApproximate) {
  auto ok =
      build("Gelu", "main (float[2] x) => (float[2] y) { y = Gelu<approximate = \"tanh\">(x) }", 20,
            DataType::kFloat);
  EXPECT_TRUE(ok.isOk()) << ok.error().message();
  auto bad =
      build("Gelu", "main (float[2] x) => (float[2] y) { y = Gelu<approximate = \"fast\">(x) }", 20,
            DataType::kFloat);
  ASSERT_FALSE(bad.isOk());
  EXPECT_EQ(bad.error().code(), ErrorCode::kInvalidArgument);
}

TEST(ElementwiseRows, EveryOtherFactoryBuilds) {
  const char* unary[] = {"Relu", "Sigmoid", "Tanh", "HardSigmoid", "LeakyRelu",
                         "Elu",  "Selu",    "Erf",  "Softplus",    "Identity"};
  for (const char* op : unary) {
    auto k = build(op, std::string("main (float[2] x) => (float[2] y) { y = ") + op + "(x) }", 18,
                   DataType::kFloat);
    EXPECT_TRUE(k.isOk()) << op << ": " << k.error().message();
  }
  auto clip = build("Clip", "main (float[2] x, float lo) => (float[2] y) { y = Clip(x, lo) }", 13,
                    DataType::kFloat);
  EXPECT_TRUE(clip.isOk()) << clip.error().message();
  auto sum =
      build("Sum", "main (float[2] a, float[2] b, float[1] c) => (float[2] y) { y = Sum(a, b, c) }",
            13, DataType::kFloat);
  EXPECT_TRUE(sum.isOk()) << sum.error().message();
  auto where = build(
      "Where", "main (bool[2] c, int64[2] a, int64[1] b) => (int64[2] y) { y = Where(c, a, b) }",
      16, DataType::kInt64);
  EXPECT_TRUE(where.isOk()) << where.error().message();
}

// ---- the kernels on a GPU ----

using ::passlab::exec::cuda::test_support::haveCudaDevice;

#define REQUIRE_DEVICE() \
  if (!haveCudaDevice()) GTEST_SKIP() << "no CUDA device: the kernel tests need a GPU"

// Host inputs (std::nullopt: omitted) uploaded on the default stream; one output.
class FakeContext final : public CudaContext {
 public:
  explicit FakeContext(std::vector<std::optional<Tensor>> ins) : host_(std::move(ins)) {
    for (const auto& t : host_) {
      if (!t) {
        dev_.emplace_back();
        continue;
      }
      auto d = upload(*t, nullptr);
      EXPECT_TRUE(d.isOk()) << (d ? "" : d.error().message());
      dev_.push_back(d ? *d : DeviceTensor());
    }
  }
  size_t inputCount() const override { return host_.size(); }
  bool has(size_t i) const override { return i < host_.size() && host_[i].has_value(); }
  Expected<DeviceTensor> input(size_t i) override {
    if (!has(i)) return invalidArgument("input " + std::to_string(i) + " is required");
    return dev_[i];
  }
  Expected<Tensor> hostInput(size_t i) override {
    if (!has(i)) return invalidArgument("input " + std::to_string(i) + " is required");
    ++hostReads;
    return *host_[i];
  }
  DataType inputType(size_t i) const override {
    return has(i) ? host_[i]->dtype() : DataType::kUndefined;
  }
  const Dims& inputDims(size_t i) const override {
    static const Dims kNone;
    return has(i) ? host_[i]->dims() : kNone;
  }
  bool invariantInput(size_t) const override { return false; }
  size_t outputCount() const override { return 1; }
  bool wantsOutput(size_t) const override { return true; }
  Expected<DeviceTensor> allocate(size_t, DataType dtype, Dims dims) override {
    const auto bytes = ir::dtypeStorageBytes(dtype, static_cast<uint64_t>(numelOf(dims)));
    auto s = DeviceStorage::allocate(static_cast<size_t>(bytes), nullptr);
    if (!s) return s.error();
    out = DeviceTensor(dtype, std::move(dims), std::move(s).value());
    return out;
  }
  void setOutput(size_t, DeviceTensor t) override { out = std::move(t); }
  Expected<DeviceTensor> scratch(size_t) override { return unsupported("no scratch here"); }
  cudaStream_t stream() const override { return nullptr; }
  cublasLtHandle_t cublasLt() override { return nullptr; }
  cudnnHandle_t cudnn() override { return nullptr; }
  const DeviceProperties& device() const override { return props_; }

  // The output on the host.
  Tensor result() {
    auto t = download(out, nullptr);
    EXPECT_TRUE(t.isOk()) << (t ? "" : t.error().message());
    return t ? *t : Tensor();
  }

  DeviceTensor out;
  int hostReads = 0;

 private:
  std::vector<std::optional<Tensor>> host_;
  std::vector<DeviceTensor> dev_;
  DeviceProperties props_;
};

template <class T>
std::vector<T> values(const Tensor& t) {
  const T* p = t.data<T>();
  return std::vector<T>(p, p + t.numel());
}

// Runs `op` of the one-node model `text` on `ins`; the output on the host.
// `keep` receives the context (to look at after the run).
Tensor runOn(const std::string& op, const std::string& text, int64_t opset, DataType dtype,
             std::vector<std::optional<Tensor>> ins, std::unique_ptr<FakeContext>* keep = nullptr) {
  auto k = build(op, text, opset, dtype);
  EXPECT_TRUE(k.isOk()) << op << ": " << (k ? "" : k.error().message());
  if (!k) return Tensor();
  auto ctx = std::make_unique<FakeContext>(std::move(ins));
  Status st = (*k)->run(*ctx);
  EXPECT_TRUE(st.isOk()) << op << ": " << st.message();
  Tensor out = st.isOk() ? ctx->result() : Tensor();
  if (keep) *keep = std::move(ctx);
  return out;
}

TEST(ElementwiseKernels, SumAndMeanFoldInPlaceWithBroadcast) {
  REQUIRE_DEVICE();
  auto a = Tensor::fromVector<float>(DataType::kFloat, {2, 3}, {1, 2, 3, 4, 5, 6});
  auto b = Tensor::fromVector<float>(DataType::kFloat, {3}, {10, 20, 30});
  auto c = Tensor::fromVector<float>(DataType::kFloat, {2, 1}, {100, 200});
  const std::string sum =
      "main (float[2,3] a, float[3] b, float[2,1] c) => (float[2,3] y) { y = Sum(a, b, c) }";
  Tensor y = runOn("Sum", sum, 13, DataType::kFloat, {a, b, c});
  EXPECT_EQ(values<float>(y), (std::vector<float>{111, 122, 133, 214, 225, 236}));
  const std::string mean =
      "main (float[2,3] a, float[3] b, float[2,1] c) => (float[2,3] y) { y = Mean(a, b, c) }";
  Tensor m = runOn("Mean", mean, 13, DataType::kFloat, {a, b, c});
  auto mv = values<float>(m);
  ASSERT_EQ(mv.size(), 6u);
  EXPECT_FLOAT_EQ(mv[0], 111.0f / 3);
  EXPECT_FLOAT_EQ(mv[5], 236.0f / 3);
  auto i = Tensor::fromVector<int64_t>(DataType::kInt64, {2}, {5, -7});
  auto j = Tensor::fromVector<int64_t>(DataType::kInt64, {}, {3});
  Tensor mx = runOn("Max", "main (int64[2] a, int64 b) => (int64[2] y) { y = Max(a, b) }", 13,
                    DataType::kInt64, {i, j});
  EXPECT_EQ(values<int64_t>(mx), (std::vector<int64_t>{5, 3}));
}

TEST(ElementwiseKernels, ClipReadsItsScalarInputsOnTheHost) {
  REQUIRE_DEVICE();
  auto x = Tensor::fromVector<float>(DataType::kFloat, {4}, {-5, 0.5f, 3, 9});
  auto lo = Tensor::fromVector<float>(DataType::kFloat, {}, {0});
  auto hi = Tensor::fromVector<float>(DataType::kFloat, {}, {6});
  const std::string text =
      "main (float[4] x, float lo, float hi) => (float[4] y) { y = Clip(x, lo, hi) }";
  std::unique_ptr<FakeContext> ctx;
  Tensor y = runOn("Clip", text, 13, DataType::kFloat, {x, lo, hi}, &ctx);
  EXPECT_EQ(values<float>(y), (std::vector<float>{0, 0.5f, 3, 6}));
  EXPECT_EQ(ctx->hostReads, 2);
  // max omitted: only the lower bound.
  Tensor z = runOn("Clip", text, 13, DataType::kFloat, {x, lo, std::nullopt});
  EXPECT_EQ(values<float>(z), (std::vector<float>{0, 0.5f, 3, 9}));
}

TEST(ElementwiseKernels, WhereAndComparisons) {
  REQUIRE_DEVICE();
  auto a = Tensor::fromVector<int64_t>(DataType::kInt64, {4}, {1, 5, 3, 7});
  auto b = Tensor::fromVector<int64_t>(DataType::kInt64, {}, {4});
  Tensor less = runOn("Less", "main (int64[4] a, int64 b) => (bool[4] y) { y = Less(a, b) }", 13,
                      DataType::kInt64, {a, b});
  ASSERT_EQ(less.dtype(), DataType::kBool);
  EXPECT_EQ(values<bool>(less), (std::vector<bool>{true, false, true, false}));
  Tensor w =
      runOn("Where", "main (bool[4] c, int64[4] a, int64 b) => (int64[4] y) { y = Where(c, a, b) }",
            16, DataType::kInt64, {less, a, b});
  EXPECT_EQ(values<int64_t>(w), (std::vector<int64_t>{1, 4, 3, 4}));
}

TEST(ElementwiseKernels, CastAndIdentity) {
  REQUIRE_DEVICE();
  auto x = Tensor::fromVector<float>(DataType::kFloat, {4}, {1.9f, -1.9f, NAN, 0});
  Tensor i = runOn("Cast", "main (float[4] x) => (int32[4] y) { y = Cast<to = 6>(x) }", 19,
                   DataType::kFloat, {x});
  ASSERT_EQ(i.dtype(), DataType::kInt32);
  EXPECT_EQ(values<int32_t>(i), (std::vector<int32_t>{1, -1, 0, 0}));
  Tensor same = runOn("Cast", "main (float[4] x) => (float[4] y) { y = Cast<to = 1>(x) }", 19,
                      DataType::kFloat, {x});
  EXPECT_EQ(same.numel(), 4);
  Tensor id = runOn("Identity", "main (float[4] x) => (float[4] y) { y = Identity(x) }", 19,
                    DataType::kFloat, {x});
  EXPECT_EQ(values<float>(id)[0], 1.9f);
}

TEST(ElementwiseKernels, GeluAndPReluPerChannel) {
  REQUIRE_DEVICE();
  auto x = Tensor::fromVector<float>(DataType::kFloat, {1, 2, 2}, {-1, 2, -3, 4});
  auto s = Tensor::fromVector<float>(DataType::kFloat, {2, 1}, {0.5f, 0.25f});
  Tensor p =
      runOn("PRelu", "main (float[1,2,2] x, float[2,1] s) => (float[1,2,2] y) { y = PRelu(x, s) }",
            16, DataType::kFloat, {x, s});
  EXPECT_EQ(values<float>(p), (std::vector<float>{-0.5f, 2, -0.75f, 4}));
  Tensor g = runOn("Gelu", "main (float[1,2,2] x) => (float[1,2,2] y) { y = Gelu(x) }", 20,
                   DataType::kFloat, {x});
  auto gv = values<float>(g);
  ASSERT_EQ(gv.size(), 4u);
  EXPECT_NEAR(gv[1], 0.5 * 2 * (1 + std::erf(2 / std::sqrt(2.0))), 1e-5);
}

}  // namespace
}  // namespace passlab::exec::cuda
