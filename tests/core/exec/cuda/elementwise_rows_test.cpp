// The elementwise family's factories without a GPU: what they accept, what
// they decline to the CPU (kUnsupported) and what they reject as invalid.
#include <gtest/gtest.h>

#include <string>

#include "core/exec/cuda/cuda_kernel.h"
#include "core/ir/graph.h"
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

}  // namespace
}  // namespace passlab::exec::cuda
