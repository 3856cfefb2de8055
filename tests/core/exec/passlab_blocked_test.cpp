// The blocked layout's kernels (ai.passlab ReorderToBlocked, ReorderFromBlocked,
// BlockedPool, FusedConv with `block`; core/ir/passlab_ops.h) against the NCHW
// ops they stand for, on both the oneDNN kernels and the reference kernels
// (unblock, NCHW kernel, block), at blocks 8 and 16: channel counts with
// padding (12 and 5 channels), a residual, a depthwise convolution, an NCHW
// first-layer input, and the three pools. Bad input is refused by name.
#include <gtest/gtest.h>

#include <cstring>
#include <random>

#include "core/exec/cpu/passlab_blocked.h"
#include "tests/core/exec/kernel_test_util.h"

namespace passlab::exec {
namespace {

ir::Tensor rnd(kt::Dims dims, unsigned seed) {
  return kt::uniformF32(std::move(dims), seed, 1.0f);
}

const char* kSignature = R"(main (float[2,12,7,7] x, float[2,12,7,7] z, float[12,12,3,3] w,
      float[12] b, float[12,1,3,3] wd, float[5,12,1,1] w5)
      => (float[2,12,4,4] ya, float[2,12,1,1] yg, float[2,5,7,7] y5))";

// Conv + residual + Relu, depthwise Conv, MaxPool, AveragePool, GlobalAveragePool.
std::string plainModel() {
  return std::string(R"(<ir_version: 8, opset_import: ["" : 13]>)") + kSignature + R"( {
      c0 = Conv <kernel_shape = [3, 3], pads = [1, 1, 1, 1]> (x, w, b)
      c1 = Add(c0, z)
      c = Relu(c1)
      d = Conv <kernel_shape = [3, 3], pads = [1, 1, 1, 1], group = 12> (c, wd)
      p = MaxPool <kernel_shape = [3, 3], strides = [2, 2], pads = [1, 1, 1, 1]> (d)
      ya = AveragePool <kernel_shape = [2, 2], strides = [1, 1], pads = [0, 0, 1, 1]> (p)
      yg = GlobalAveragePool(ya)
      y5 = Conv <kernel_shape = [1, 1]> (x, w5) })";
}

std::string blockedModel(int b) {
  const std::string B = std::to_string(b);
  return std::string(R"(<ir_version: 8, opset_import: ["" : 13, "ai.passlab" : 1]>)") + kSignature +
         R"( {
      xb = ai.passlab.ReorderToBlocked <block = )" +
         B + R"(> (x)
      zb = ai.passlab.ReorderToBlocked <block = )" +
         B + R"(> (z)
      c = ai.passlab.FusedConv <kernel_shape = [3, 3], pads = [1, 1, 1, 1], activation = "Relu", block = )" +
         B + R"(> (xb, w, b, zb)
      d = ai.passlab.FusedConv <kernel_shape = [3, 3], pads = [1, 1, 1, 1], group = 12, block = )" +
         B +
         R"(> (c, wd)
      p = ai.passlab.BlockedPool <pool = "MaxPool", kernel_shape = [3, 3], strides = [2, 2], pads = [1, 1, 1, 1], block = )" +
         B + R"(> (d)
      ab = ai.passlab.BlockedPool <pool = "AveragePool", kernel_shape = [2, 2], strides = [1, 1], pads = [0, 0, 1, 1], block = )" +
         B + R"(> (p)
      gb = ai.passlab.BlockedPool <pool = "GlobalAveragePool", block = )" +
         B + R"(> (ab)
      ya = ai.passlab.ReorderFromBlocked <block = )" +
         B + R"(, channels = 12> (ab)
      yg = ai.passlab.ReorderFromBlocked <block = )" +
         B + R"(, channels = 12> (gb)
      c5 = ai.passlab.FusedConv <kernel_shape = [1, 1], block = )" +
         B + R"(> (x, w5)
      y5 = ai.passlab.ReorderFromBlocked <block = )" +
         B + R"(, channels = 5> (c5) })";
}

NamedInputs inputs() {
  return {{"x", rnd({2, 12, 7, 7}, 1)},  {"z", rnd({2, 12, 7, 7}, 2)},
          {"w", rnd({12, 12, 3, 3}, 3)}, {"b", rnd({12}, 4)},
          {"wd", rnd({12, 1, 3, 3}, 5)}, {"w5", rnd({5, 12, 1, 1}, 6)}};
}

void expectSameAsNchw(int block, bool reference) {
  SCOPED_TRACE("block " + std::to_string(block) + (reference ? ", reference" : ", oneDNN"));
  ExecutorOptions o;
  o.referenceKernels = reference;
  auto want = testutil::runText(plainModel(), inputs(), o);
  auto got = testutil::runText(blockedModel(block), inputs(), o);
  ASSERT_EQ(want.outputs.size(), 3u);
  ASSERT_EQ(got.outputs.size(), 3u);
  for (size_t i = 0; i < 3; ++i) {
    SCOPED_TRACE("output " + std::to_string(i));
    EXPECT_EQ(got.outputs[i].dims(), want.outputs[i].dims());
    testutil::expectNear(testutil::toFloats(got.outputs[i]), testutil::toFloats(want.outputs[i]),
                         1e-4f);
  }
}

TEST(PasslabBlocked, KernelsEqualTheNchwOpsAtBothBlockSizes) {
  for (int block : {8, 16})
    for (bool reference : {false, true}) expectSameAsNchw(block, reference);
}

TEST(PasslabBlocked, ABlockedInputOfTheWrongShapeIsRefusedByName) {
  const std::string text = R"(<ir_version: 8, opset_import: ["" : 13, "ai.passlab" : 1]>
    main (float[1,2,4,4,16] x) => (float[1,40,4,4] y) {
      y = ai.passlab.ReorderFromBlocked <block = 16, channels = 40> (x) })";
  EXPECT_NE(testutil::errorOf(text, {{"x", rnd({1, 2, 4, 4, 16}, 7)}}).find("40"),
            std::string::npos);
  const std::string wrongBlock = R"(<ir_version: 8, opset_import: ["" : 13, "ai.passlab" : 1]>
    main (float[1,2,4,4,8] x) => (float[1,2,4,4,8] y) {
      y = ai.passlab.BlockedPool <pool = "MaxPool", kernel_shape = [2, 2], block = 16> (x) })";
  const std::string error = testutil::errorOf(wrongBlock, {{"x", rnd({1, 2, 4, 4, 8}, 8)}});
  EXPECT_NE(error.find("block"), std::string::npos) << error;
}

// The executor's side of runUnblocked: every input invariant, recording
// which ones the kernel says it holds (KernelContext::holdsOwnCopy).
class RecordingContext final : public KernelContext {
 public:
  explicit RecordingContext(std::vector<Value> in) : in_(std::move(in)) {}
  std::vector<size_t> held;
  Tensor out;

  size_t inputCount() const override { return in_.size(); }
  const Value* value(size_t i) const override { return i < in_.size() ? &in_[i] : nullptr; }
  bool invariantInput(size_t) const override { return true; }
  void holdsOwnCopy(size_t i) override { held.push_back(i); }
  size_t outputCount() const override { return 1; }
  bool wantsOutput(size_t) const override { return true; }
  Expected<Tensor*> allocate(size_t, ir::DataType dtype, Dims dims) override {
    out = Tensor::zeros(dtype, std::move(dims));
    return &out;
  }
  void setOutput(size_t, Value) override {}
  Expected<Tensor> scratch(ir::DataType dtype, Dims dims) override {
    return Tensor::zeros(dtype, std::move(dims));
  }
  int threads() const override { return 1; }
  bool cancelled() const override { return false; }
  int64_t maxLoopIterations() const override { return 1; }

 private:
  std::vector<Value> in_;
};

// An NCHW kernel that says it holds a copy of every input and copies X to Y.
class HoldsEveryInput final : public Kernel {
 public:
  Status run(KernelContext& ctx) override {
    for (size_t i = 0; i < ctx.inputCount(); ++i) ctx.holdsOwnCopy(i);
    const Tensor& x = ctx.input(0);
    PASSLAB_ASSIGN_OR_RETURN(Tensor * y, ctx.allocate(0, x.dtype(), x.dims()));
    std::memcpy(y->mutableRaw(), x.raw(), x.byteSize());
    return Status::ok();
  }
};

// The blocked fallback passes holdsOwnCopy on for the inputs it gives the
// kernel as they are (the weights), not for those it unblocks into scratch:
// it reads the blocked original on every run, so the executor must keep it.
TEST(PasslabBlocked, UnblockedPassesHoldsOwnCopyOnOnlyForInputsGivenAsTheyAre) {
  const int64_t b = 8;
  std::vector<float> xs(2 * 2 * 2 * 8);
  for (size_t i = 0; i < xs.size(); ++i) xs[i] = static_cast<float>(i);
  Tensor x = Tensor::fromVector<float>(ir::DataType::kFloat, {1, 2, 2, 2, b}, xs);
  Tensor w = Tensor::fromVector<float>(ir::DataType::kFloat, {3}, {1.0f, 2.0f, 3.0f});
  RecordingContext ctx({Value(x), Value(w)});
  HoldsEveryInput plain;
  ASSERT_TRUE(cpu::blocked::runUnblocked(plain, ctx, b, {{0, 16}}).isOk());
  EXPECT_EQ(ctx.held, (std::vector<size_t>{1}));
  // Y = X through unblock and block again.
  ASSERT_EQ(ctx.out.dims(), x.dims());
  EXPECT_EQ(std::memcmp(ctx.out.raw(), x.raw(), x.byteSize()), 0);
}

}  // namespace
}  // namespace passlab::exec
