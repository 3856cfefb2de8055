// The data-movement rows (cuda.Transpose, cuda.Slice, cuda.Resize, ...) on a
// GPU through a minimal CudaContext, against the CPU kernels on the same node
// (evaluateNode): copies must give the same bytes, Resize linear within float
// rounding. Skipped without a CUDA device.
#include <cuda_runtime.h>
#include <gtest/gtest.h>

#include <cmath>
#include <cstring>
#include <optional>
#include <string>
#include <vector>

#include "core/exec/cuda/cuda_kernel.h"
#include "core/exec/cuda/device_tensor.h"
#include "core/exec/evaluate.h"
#include "core/ir/graph.h"
#include "tests/support/cuda_test_context.h"

namespace passlab::exec::cuda {
namespace {

using test_support::TestBuild;
using test_support::TestContext;

using ::passlab::exec::cuda::test_support::haveCudaDevice;

struct A {
  std::string name;
  int kind;  // 0 int, 1 ints, 2 string, 3 float
  int64_t i = 0;
  std::vector<int64_t> is = {};
  std::string s = {};
  float f = 0;
  std::vector<float> fs = {};
};
A aInt(std::string n, int64_t v) {
  return {std::move(n), 0, v};
}
A aInts(std::string n, std::vector<int64_t> v) {
  return {std::move(n), 1, 0, std::move(v)};
}
A aStr(std::string n, std::string v) {
  return {std::move(n), 2, 0, {}, std::move(v)};
}

ir::Tensor floats(Dims d) {
  std::vector<float> v(static_cast<size_t>(numelOf(d)));
  for (size_t i = 0; i < v.size(); ++i) v[i] = static_cast<float>((i * 37) % 101) * 0.25f - 7.0f;
  return ir::Tensor::fromVector(ir::DataType::kFloat, std::move(d), v);
}
ir::Tensor ints(std::vector<int64_t> v) {
  return ir::Tensor::fromInt64s(v);
}
ir::Tensor scalesT(std::vector<float> v) {
  Dims d{static_cast<int64_t>(v.size())};
  return ir::Tensor::fromVector(ir::DataType::kFloat, d, v);
}

class DataMovementKernels : public ::testing::Test {
 protected:
  void SetUp() override {
    if (!haveCudaDevice()) GTEST_SKIP() << "no CUDA device: the GPU checks run on a GPU machine";
    ASSERT_EQ(cudaStreamCreate(&stream_), cudaSuccess);
  }
  void TearDown() override {
    if (stream_) cudaStreamDestroy(stream_);
  }

  // Runs `op` (opset) on the GPU and the CPU; outputs must match (bytes, or
  // within `tol` for float32 when tol > 0).
  void check(const std::string& op, int64_t opset, const std::vector<A>& attrs,
             const std::vector<std::optional<ir::Tensor>>& ins, size_t outputs,
             const std::string& what, float tol = 0) {
    ir::Graph g;
    std::vector<ir::Value*> vin;
    for (size_t i = 0; i < ins.size(); ++i) {
      if (!ins[i]) {
        vin.push_back(nullptr);
        continue;
      }
      vin.push_back(
          g.addInput("in" + std::to_string(i),
                     ir::Type::tensor(ins[i]->dtype(), ir::Shape::fromValues(ins[i]->dims()))));
    }
    ir::Node* n = g.addNode(op, "", vin, outputs, nullptr, "n");
    for (const A& a : attrs) {
      if (a.kind == 0) n->setAttr(ir::Attribute::makeInt(a.name, a.i));
      if (a.kind == 1) n->setAttr(ir::Attribute::makeInts(a.name, a.is));
      if (a.kind == 2) n->setAttr(ir::Attribute::makeString(a.name, a.s));
      if (a.kind == 3) n->setAttr(ir::Attribute::makeFloat(a.name, a.f));
      if (a.kind == 4) n->setAttr(ir::Attribute::makeFloats(a.name, a.fs));
    }
    std::vector<const ir::Tensor*> cpuIn;
    std::vector<std::optional<Tensor>> gpuIn;
    for (const auto& t : ins) {
      cpuIn.push_back(t ? &*t : nullptr);
      gpuIn.push_back(t ? std::optional<Tensor>(Tensor::fromIr(*t)) : std::nullopt);
    }
    auto want = evaluateNode(*n, cpuIn, opset);
    ASSERT_TRUE(want.isOk()) << what << ": " << want.error().message();
    const ir::DataType dt = ins[0]->dtype();
    auto rows = findCudaKernels("", op, opset, dt);
    ASSERT_FALSE(rows.empty()) << what;
    TestBuild b(*n, opset, dt, stream_);
    auto k = rows[0]->create(b);
    ASSERT_TRUE(k.isOk()) << what << ": " << k.error().message();
    TestContext ctx(gpuIn, outputs, stream_);
    ctx.withInvariantInputs();
    Status st = (*k)->run(ctx);
    ASSERT_TRUE(st.isOk()) << what << ": " << st.error().message();
    ASSERT_EQ(cudaStreamSynchronize(stream_), cudaSuccess) << what;
    for (size_t o = 0; o < outputs; ++o) {
      auto got = download(ctx.output(o), stream_);
      ASSERT_TRUE(got.isOk()) << what;
      const ir::Tensor& w = (*want)[o];
      ASSERT_EQ(got->dims(), w.dims()) << what << " output " << o;
      ASSERT_EQ(got->dtype(), w.dtype()) << what;
      const auto* gb = static_cast<const std::byte*>(got->raw());
      if (tol > 0) {
        auto wf = w.data<float>();
        for (size_t i = 0; i < wf.size(); ++i) {
          float gv;
          std::memcpy(&gv, gb + i * 4, 4);
          ASSERT_NEAR(gv, wf[i], tol * (1 + std::fabs(wf[i]))) << what << " element " << i;
        }
      } else {
        ASSERT_EQ(0, std::memcmp(gb, w.bytes().data(), w.bytes().size()))
            << what << " output " << o;
      }
    }
  }

  cudaStream_t stream_ = nullptr;
};

TEST_F(DataMovementKernels, ViewsAndCopies) {
  check("Reshape", 14, {}, {floats({2, 3, 4}), ints({0, -1})}, 1, "Reshape 0,-1");
  check("Flatten", 13, {aInt("axis", 2)}, {floats({2, 3, 4})}, 1, "Flatten");
  check("Unsqueeze", 13, {}, {floats({2, 3}), ints({0, -1})}, 1, "Unsqueeze");
  check("Squeeze", 11, {aInts("axes", {1})}, {floats({2, 1, 3})}, 1, "Squeeze-11");
  check("Transpose", 13, {aInts("perm", {0, 2, 3, 1})}, {floats({2, 3, 5, 7})}, 1, "NCHW->NHWC");
  check("Transpose", 13, {aInts("perm", {0, 1, 3, 2})}, {floats({2, 3, 37, 41})}, 1, "swap");
  check("Transpose", 13, {}, {floats({2, 3, 4})}, 1, "reverse");
  check("DepthToSpace", 13, {aInt("blocksize", 2), aStr("mode", "CRD")}, {floats({1, 8, 3, 3})}, 1,
        "DepthToSpace CRD");
  check("DepthToSpace", 13, {aInt("blocksize", 2)}, {floats({2, 8, 3, 2})}, 1, "DepthToSpace DCR");
  check("SpaceToDepth", 13, {aInt("blocksize", 2)}, {floats({1, 2, 4, 6})}, 1, "SpaceToDepth");
  check("Concat", 13, {aInt("axis", 1)}, {floats({2, 3, 4}), floats({2, 1, 4}), floats({2, 5, 4})},
        1, "Concat axis 1");
  check("Concat", 13, {aInt("axis", -1)}, {floats({2, 3}), floats({2, 0}), floats({2, 4})}, 1,
        "Concat last, an empty input");
  check("Split", 13, {aInt("axis", 1)}, {floats({2, 7, 3}), ints({2, 4, 1})}, 3, "Split sizes");
  check("Split", 18, {aInt("axis", -1), aInt("num_outputs", 3)}, {floats({2, 8})}, 3,
        "Split num_outputs");
  check(
      "Slice", 13, {},
      {floats({4, 5, 6}), ints({1, -1, 0}), ints({3, -100, 6}), ints({0, 1, 2}), ints({1, -2, 2})},
      1, "Slice negative steps");
  check("Slice", 9, {aInts("starts", {1}), aInts("ends", {100}), aInts("axes", {1})},
        {floats({3, 4})}, 1, "Slice-9");
  check("Gather", 13, {aInt("axis", 1)}, {floats({2, 5, 3}), ints({4, -1, 0, 2})}, 1, "Gather");
  check("Gather", 13, {aInt("axis", 0)},
        {floats({6, 2}),
         ir::Tensor::fromVector<int32_t>(ir::DataType::kInt32, {2, 2}, {5, -6, 1, 1})},
        1, "Gather int32 2-D indices");
  check("Expand", 13, {}, {floats({3, 1}), ints({2, 1, 4})}, 1, "Expand");
  check("Tile", 13, {}, {floats({2, 3}), ints({2, 3})}, 1, "Tile");
  check("Pad", 13, {aStr("mode", "reflect")}, {floats({2, 4}), ints({1, 2, 1, 3})}, 1, "reflect");
  check("Pad", 13, {aStr("mode", "edge")}, {floats({2, 4}), ints({0, 2, 1, 0})}, 1, "edge");
  check("Pad", 13, {},
        {floats({2, 4}), ints({1, -1, 0, 2}),
         ir::Tensor::fromVector<float>(ir::DataType::kFloat, {}, {2.5f})},
        1, "constant, cropping");
  check("Pad", 2, {aInts("pads", {0, 1, 0, 1}), A{"value", 3, 0, {}, {}, -1.0f}}, {floats({2, 2})},
        1, "Pad-2 value");
  // int64 and uint8 elements move by size.
  check("Transpose", 13, {aInts("perm", {1, 0})},
        {ir::Tensor::fromVector<int64_t>(ir::DataType::kInt64, {2, 3}, {1, 2, 3, 4, 5, 6})}, 1,
        "int64");
  check("Transpose", 13, {aInts("perm", {1, 0})},
        {ir::Tensor::fromVector<uint8_t>(ir::DataType::kUInt8, {3, 2}, {1, 2, 3, 4, 5, 6})}, 1,
        "uint8");
}

TEST_F(DataMovementKernels, Resize) {
  const std::optional<ir::Tensor> none;
  for (const char* coord : {"half_pixel", "asymmetric", "align_corners", "pytorch_half_pixel"}) {
    for (const char* nm : {"round_prefer_floor", "round_prefer_ceil", "floor", "ceil"})
      check("Resize", 13,
            {aStr("mode", "nearest"), aStr("coordinate_transformation_mode", coord),
             aStr("nearest_mode", nm)},
            {floats({1, 2, 5, 7}), none, scalesT({1, 1, 2.5f, 0.6f})}, 1,
            std::string("nearest ") + coord + " " + nm);
    check("Resize", 13, {aStr("mode", "linear"), aStr("coordinate_transformation_mode", coord)},
          {floats({2, 3, 5, 7}), none, scalesT({1, 1, 1.7f, 0.5f})}, 1,
          std::string("linear ") + coord, 1e-5f);
  }
  check("Resize", 13, {aStr("mode", "linear")},
        {floats({1, 2, 4, 4}), none, none, ints({1, 2, 7, 9})}, 1, "linear sizes", 1e-5f);
  check("Resize", 10, {aStr("mode", "nearest")}, {floats({1, 1, 3, 3}), scalesT({1, 1, 2, 3})}, 1,
        "Resize-10 nearest");
  check("Resize", 13, {aStr("mode", "nearest")}, {floats({3, 5}), none, scalesT({2, 0.5f})}, 1,
        "2-D nearest");
  check("Resize", 13,
        {aStr("mode", "linear"), aStr("coordinate_transformation_mode", "tf_crop_and_resize")},
        {floats({1, 1, 4, 4}), scalesT({0, 0, 0.2f, -0.1f, 1, 1, 1.3f, 0.9f}),
         scalesT({1, 1, 1.5f, 1.5f})},
        1, "tf_crop_and_resize", 1e-5f);
  // Upsample: scales from the input (9) or the attribute (7).
  check("Upsample", 9, {aStr("mode", "nearest")}, {floats({1, 2, 3, 4}), scalesT({1, 1, 2, 1.5f})},
        1, "Upsample-9 nearest");
  check("Upsample", 9, {aStr("mode", "linear")}, {floats({1, 2, 3, 4}), scalesT({1, 1, 2, 2.5f})},
        1, "Upsample-9 linear", 1e-5f);
  check("Upsample", 7, {aStr("mode", "nearest"), A{"scales", 4, 0, {}, {}, 0, {1, 1, 3, 2}}},
        {floats({2, 1, 2, 3})}, 1, "Upsample-7 nearest");
}

}  // namespace
}  // namespace passlab::exec::cuda
