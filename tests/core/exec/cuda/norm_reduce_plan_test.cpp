// Host-side geometry of the CUDA normalization, softmax and reduce kernels.
#include "core/exec/cuda/norm_reduce_plan.h"

#include <gtest/gtest.h>

#include "core/exec/cuda/cuda_kernel.h"
#include "core/ir/graph.h"
#include "core/ir/passlab_ops.h"

namespace passlab::exec::cuda {
namespace {

TEST(CudaSoftmaxRows, OneAxisFromOpset13) {
  auto r = softmaxRows({2, 3, 4, 5}, 1, false);
  ASSERT_TRUE(r.isOk());
  EXPECT_EQ(r.value().outer, 2);
  EXPECT_EQ(r.value().len, 3);
  EXPECT_EQ(r.value().inner, 20);
  auto last = softmaxRows({2, 3, 4, 5}, -1, false);
  ASSERT_TRUE(last.isOk());
  EXPECT_EQ(last.value().outer, 24);
  EXPECT_EQ(last.value().len, 5);
  EXPECT_EQ(last.value().inner, 1);
}

TEST(CudaSoftmaxRows, FlattenedBeforeOpset13) {
  auto r = softmaxRows({2, 3, 4, 5}, 1, true);
  ASSERT_TRUE(r.isOk());
  EXPECT_EQ(r.value().outer, 2);
  EXPECT_EQ(r.value().len, 60);
  EXPECT_EQ(r.value().inner, 1);
}

TEST(CudaSoftmaxRows, AxisOutOfRangeNamed) {
  auto r = softmaxRows({2, 3}, 2, false);
  ASSERT_FALSE(r.isOk());
  EXPECT_NE(r.error().message().find("axis 2"), std::string::npos) << r.error().message();
  EXPECT_FALSE(softmaxRows({}, 0, false).isOk());
  EXPECT_FALSE(softmaxRows({2, 3}, -3, true).isOk());
}

TEST(CudaArgRows, AxisAndKeepDims) {
  auto r = argRows({2, 3, 4}, 1, true);
  ASSERT_TRUE(r.isOk());
  EXPECT_EQ(r.value().outer, 2);
  EXPECT_EQ(r.value().len, 3);
  EXPECT_EQ(r.value().inner, 4);
  EXPECT_EQ(r.value().outDims, (Dims{2, 1, 4}));
  auto d = argRows({2, 3, 4}, -1, false);
  ASSERT_TRUE(d.isOk());
  EXPECT_EQ(d.value().outer, 6);
  EXPECT_EQ(d.value().len, 4);
  EXPECT_EQ(d.value().inner, 1);
  EXPECT_EQ(d.value().outDims, (Dims{2, 3}));
  EXPECT_FALSE(argRows({2, 3}, 2, true).isOk());
}

TEST(CudaNormRows, FromAxisOn) {
  auto r = normRows({2, 3, 4}, -1);
  ASSERT_TRUE(r.isOk());
  EXPECT_EQ(r.value().rows, 6);
  EXPECT_EQ(r.value().cols, 4);
  auto r1 = normRows({2, 3, 4}, 1);
  ASSERT_TRUE(r1.isOk());
  EXPECT_EQ(r1.value().rows, 2);
  EXPECT_EQ(r1.value().cols, 12);
  EXPECT_EQ(r1.value().normDims, (Dims{3, 4}));
  auto empty = normRows({0, 4}, -1);
  ASSERT_TRUE(empty.isOk());
  EXPECT_EQ(empty.value().rows, 0);
  EXPECT_FALSE(normRows({2, 3}, 2).isOk());
  EXPECT_FALSE(normRows({}, 0).isOk());
}

TEST(CudaNormRows, RepeatingParams) {
  auto full = repeatingParamCount({3, 4}, {3, 4}, "scale");
  ASSERT_TRUE(full.isOk());
  EXPECT_EQ(full.value(), 12);
  auto last = repeatingParamCount({1, 4}, {3, 4}, "scale");
  ASSERT_TRUE(last.isOk());
  EXPECT_EQ(last.value(), 4);
  auto scalar = repeatingParamCount({}, {3, 4}, "bias");
  ASSERT_TRUE(scalar.isOk());
  EXPECT_EQ(scalar.value(), 1);
  auto bad = repeatingParamCount({3, 1}, {3, 4}, "bias");
  ASSERT_FALSE(bad.isOk());
  EXPECT_NE(bad.error().message().find("bias [3,1]"), std::string::npos) << bad.error().message();
  EXPECT_FALSE(repeatingParamCount({2, 3, 4}, {3, 4}, "scale").isOk());
}

TEST(CudaMaskStrides, BroadcastInto) {
  auto s = broadcastStrides({1, 1, 5, 7}, {2, 4, 5, 7});
  ASSERT_TRUE(s.isOk());
  EXPECT_EQ(s.value(), (std::vector<int64_t>{0, 0, 7, 1}));
  auto b = broadcastStrides({2, 1, 1, 7}, {2, 4, 5, 7});
  ASSERT_TRUE(b.isOk());
  EXPECT_EQ(b.value(), (std::vector<int64_t>{7, 0, 0, 1}));
  auto shortMask = broadcastStrides({7}, {2, 4, 5, 7});
  ASSERT_TRUE(shortMask.isOk());
  EXPECT_EQ(shortMask.value(), (std::vector<int64_t>{0, 0, 0, 1}));
  EXPECT_FALSE(broadcastStrides({3, 7}, {2, 4, 5, 7}).isOk());
  EXPECT_FALSE(broadcastStrides({1, 2, 4, 5, 7}, {2, 4, 5, 7}).isOk());
}

TEST(CudaReducePlan, LastAxis) {
  auto p = planCudaReduce({2, 3, 4}, {-1}, true, false);
  ASSERT_TRUE(p.isOk());
  const auto& g = p.value().geometry;
  EXPECT_EQ(p.value().outDims, (Dims{2, 3, 1}));
  EXPECT_EQ(g.out_count, 6);
  EXPECT_EQ(g.reduced_count, 4);
  ASSERT_EQ(g.kept_rank, 1);  // [2,3] merged
  EXPECT_EQ(g.kept_dims[0], 6);
  EXPECT_EQ(g.kept_strides[0], 4);
  ASSERT_EQ(g.reduced_rank, 1);
  EXPECT_EQ(g.reduced_dims[0], 4);
  EXPECT_EQ(g.reduced_strides[0], 1);
}

TEST(CudaReducePlan, SeparatedAxesNoKeepDims) {
  auto p = planCudaReduce({2, 3, 4, 5}, {0, 2}, false, false);
  ASSERT_TRUE(p.isOk());
  const auto& g = p.value().geometry;
  EXPECT_EQ(p.value().outDims, (Dims{3, 5}));
  EXPECT_EQ(g.out_count, 15);
  EXPECT_EQ(g.reduced_count, 8);
  ASSERT_EQ(g.kept_rank, 2);
  EXPECT_EQ(g.kept_dims[0], 3);
  EXPECT_EQ(g.kept_strides[0], 20);
  EXPECT_EQ(g.kept_dims[1], 5);
  EXPECT_EQ(g.kept_strides[1], 1);
  ASSERT_EQ(g.reduced_rank, 2);
  EXPECT_EQ(g.reduced_dims[0], 2);
  EXPECT_EQ(g.reduced_strides[0], 60);
  EXPECT_EQ(g.reduced_dims[1], 4);
  EXPECT_EQ(g.reduced_strides[1], 5);
}

TEST(CudaReducePlan, OnesSkippedAndMerged) {
  // [2,1,3] over axes 0 and 2: dim 1 has extent 1, so the reduced dims are
  // adjacent in memory and merge into one block of 6.
  auto p = planCudaReduce({2, 1, 3}, {0, 2}, true, false);
  ASSERT_TRUE(p.isOk());
  const auto& g = p.value().geometry;
  EXPECT_EQ(p.value().outDims, (Dims{1, 1, 1}));
  EXPECT_EQ(g.out_count, 1);
  EXPECT_EQ(g.kept_rank, 0);
  ASSERT_EQ(g.reduced_rank, 1);
  EXPECT_EQ(g.reduced_dims[0], 6);
  EXPECT_EQ(g.reduced_strides[0], 1);
}

TEST(CudaReducePlan, EmptyAxes) {
  auto all = planCudaReduce({2, 3}, {}, false, false);
  ASSERT_TRUE(all.isOk());
  EXPECT_EQ(all.value().outDims, Dims{});
  EXPECT_EQ(all.value().geometry.out_count, 1);
  EXPECT_EQ(all.value().geometry.reduced_count, 6);
  auto none = planCudaReduce({2, 3}, {}, true, true);
  ASSERT_TRUE(none.isOk());
  EXPECT_EQ(none.value().outDims, (Dims{2, 3}));
  EXPECT_EQ(none.value().geometry.out_count, 6);
  EXPECT_EQ(none.value().geometry.reduced_count, 1);
  EXPECT_EQ(none.value().geometry.reduced_rank, 0);
}

TEST(CudaReducePlan, ZeroExtents) {
  auto p = planCudaReduce({2, 0}, {1}, true, false);
  ASSERT_TRUE(p.isOk());
  EXPECT_EQ(p.value().outDims, (Dims{2, 1}));
  EXPECT_EQ(p.value().geometry.out_count, 2);
  EXPECT_EQ(p.value().geometry.reduced_count, 0);
}

TEST(CudaReducePlan, BadAxesNamed) {
  auto p = planCudaReduce({2, 3}, {5}, true, false);
  ASSERT_FALSE(p.isOk());
  EXPECT_NE(p.error().message().find("5"), std::string::npos) << p.error().message();
  EXPECT_FALSE(planCudaReduce({2, 3}, {1, -1}, true, false).isOk());
}

TEST(CudaReducePlan, TooManyBlocksUnsupported) {
  // 18 dims alternating kept and reduced: 9 separate blocks of each.
  Dims d(18, 2);
  std::vector<int64_t> axes;
  for (int64_t i = 1; i < 18; i += 2) axes.push_back(i);
  auto p = planCudaReduce(d, axes, true, false);
  ASSERT_FALSE(p.isOk());
  EXPECT_EQ(p.error().code(), ErrorCode::kUnsupported);
}

TEST(CudaAttentionPlan, BatchBroadcastAndMasks) {
  AttentionArgs a;
  const Dims mAdd{1, 1, 1, 7};  // padding mask: one value per key
  const Dims mBool{1, 1, 5, 7};
  const Dims* masks[3] = {nullptr, &mAdd, &mBool};
  auto out = planAttention({2, 4, 5, 16}, {2, 4, 16, 7}, {1, 4, 7, 8}, true, masks, a);
  ASSERT_TRUE(out.isOk()) << out.error().message();
  EXPECT_EQ(out.value(), (Dims{2, 4, 5, 8}));
  EXPECT_EQ(a.batch_rank, 2);
  EXPECT_EQ(a.batches, 8);
  EXPECT_EQ(a.S, 5);
  EXPECT_EQ(a.T, 7);
  EXPECT_EQ(a.H, 16);
  EXPECT_EQ(a.Hv, 8);
  EXPECT_EQ(a.q_strides[0], 4 * 5 * 16);
  EXPECT_EQ(a.q_strides[1], 5 * 16);
  EXPECT_EQ(a.k_strides[1], 16 * 7);
  EXPECT_EQ(a.v_strides[0], 0);  // V broadcast over the batch
  EXPECT_EQ(a.v_strides[1], 7 * 8);
  EXPECT_EQ(a.mask_row_stride[1], 0);
  EXPECT_EQ(a.mask_col_stride[1], 1);
  EXPECT_EQ(a.mask_strides[1][0], 0);
  EXPECT_EQ(a.mask_row_stride[2], 7);
  EXPECT_EQ(a.mask_col_stride[2], 1);
}

TEST(CudaAttentionPlan, ShapeErrorsNamed) {
  AttentionArgs a;
  const Dims* none[3] = {nullptr, nullptr, nullptr};
  auto chain = planAttention({2, 5, 16}, {2, 7, 8}, {2, 7, 8}, false, none, a);
  ASSERT_FALSE(chain.isOk());
  EXPECT_NE(chain.error().message().find("do not chain"), std::string::npos);
  auto batch = planAttention({2, 5, 16}, {3, 7, 16}, {3, 7, 8}, false, none, a);
  ASSERT_FALSE(batch.isOk());
  EXPECT_NE(batch.error().message().find("do not broadcast"), std::string::npos);
  const Dims bad{3, 7};
  const Dims* masks[3] = {&bad, nullptr, nullptr};
  auto mask = planAttention({2, 5, 16}, {2, 7, 16}, {2, 7, 8}, false, masks, a);
  ASSERT_FALSE(mask.isOk());
  EXPECT_NE(mask.error().message().find("mask [3,7]"), std::string::npos) << mask.error().message();
}

// ---- the rows and their factories' declines (no GPU: factories only read the node) ----

class FakeBuild final : public CudaBuild {
 public:
  FakeBuild(const ir::Node& n, ir::DataType t) : node_(n), type_(t) {}
  const ir::Node& node() const override { return node_; }
  int64_t opset() const override { return 17; }
  ir::DataType dtype() const override { return type_; }
  const ir::Tensor* constantInput(size_t) const override { return nullptr; }
  const DeviceProperties& device() const override { return props_; }
  cudaStream_t stream() const override { return nullptr; }

 private:
  const ir::Node& node_;
  ir::DataType type_;
  DeviceProperties props_;
};

const CudaKernelDef* rowFor(std::string_view domain, std::string_view op, ir::DataType t,
                            int64_t opset = 17) {
  auto rows = findCudaKernels(domain, op, opset, t);
  return rows.empty() ? nullptr : rows.front();
}

TEST(CudaNormReduceRows, Registered) {
  using ir::DataType;
  struct Want {
    std::string_view domain, op, name;
  };
  const std::string_view pl = ir::passlab_ops::kDomain;
  for (const Want& w :
       {Want{"", "Softmax", "cuda.Softmax"}, Want{"", "LogSoftmax", "cuda.LogSoftmax"},
        Want{"", "Hardmax", "cuda.Hardmax"},
        Want{"", "LayerNormalization", "cuda.LayerNormalization"},
        Want{"", "InstanceNormalization", "cuda.InstanceNormalization"},
        Want{"", "ReduceMean", "cuda.ReduceMean"},
        Want{"", "ReduceLogSumExp", "cuda.ReduceLogSumExp"}, Want{"", "ArgMax", "cuda.ArgMax"},
        Want{"com.microsoft", "SkipLayerNormalization", "cuda.ms.SkipLayerNormalization"},
        Want{"com.microsoft", "FastGelu", "cuda.ms.FastGelu"},
        Want{"com.microsoft", "BiasGelu", "cuda.ms.BiasGelu"},
        Want{pl, "FusedLayerNorm", "cuda.passlab.FusedLayerNorm"},
        Want{pl, "FusedSoftmax", "cuda.passlab.FusedSoftmax"},
        Want{pl, "FusedAttention", "cuda.passlab.FusedAttention"}}) {
    for (DataType t : {DataType::kFloat, DataType::kFloat16, DataType::kBFloat16}) {
      const CudaKernelDef* r = rowFor(w.domain, w.op, t);
      ASSERT_NE(r, nullptr) << w.op;
      EXPECT_EQ(r->name, w.name);
    }
  }
  EXPECT_EQ(rowFor("", "ReduceSum", DataType::kInt64), nullptr);  // integers stay on the CPU
  EXPECT_EQ(rowFor("", "Softmax", DataType::kDouble), nullptr);
}

TEST(CudaNormReduceRows, LayerNormStatsNeedFloatStash) {
  ir::Graph g;
  auto f16 = ir::Type::tensor(ir::DataType::kFloat16, ir::Shape::fromValues({2, 8}));
  auto f16s = ir::Type::tensor(ir::DataType::kFloat16, ir::Shape::fromValues({8}));
  std::vector<ir::Value*> in = {g.addInput("x", f16), g.addInput("s", f16s)};
  ir::Node* plain = g.addNode("LayerNormalization", "", in, std::vector<std::string>{"y"});
  plain->setAttr(ir::Attribute::makeInt("stash_type", 10));
  const CudaKernelDef* r = rowFor("", "LayerNormalization", ir::DataType::kFloat16);
  ASSERT_NE(r, nullptr);
  EXPECT_TRUE(r->create(FakeBuild(*plain, ir::DataType::kFloat16)).isOk());
  ir::Node* stats =
      g.addNode("LayerNormalization", "", in, std::vector<std::string>{"y2", "mean", ""});
  stats->setAttr(ir::Attribute::makeInt("stash_type", 10));
  auto k = r->create(FakeBuild(*stats, ir::DataType::kFloat16));
  ASSERT_FALSE(k.isOk());
  EXPECT_EQ(k.error().code(), ErrorCode::kUnsupported);
  ir::Node* floatStash =
      g.addNode("LayerNormalization", "", in, std::vector<std::string>{"y3", "mean3", ""});
  EXPECT_TRUE(r->create(FakeBuild(*floatStash, ir::DataType::kFloat16)).isOk());
}

TEST(CudaNormReduceRows, LayerNormDeclinesNonRepeatingScale) {
  ir::Graph g;
  auto t = [](Dims d) { return ir::Type::tensor(ir::DataType::kFloat, ir::Shape::fromValues(d)); };
  ir::Value* x = g.addInput("x", t({2, 3, 4}));
  const CudaKernelDef* r = rowFor("", "LayerNormalization", ir::DataType::kFloat);
  ASSERT_NE(r, nullptr);
  ir::Node* bad = g.addNode("LayerNormalization", "", {x, g.addInput("s", t({3, 1}))},
                            std::vector<std::string>{"y"});
  bad->setAttr(ir::Attribute::makeInt("axis", 1));
  auto k = r->create(FakeBuild(*bad, ir::DataType::kFloat));
  ASSERT_FALSE(k.isOk());
  EXPECT_EQ(k.error().code(), ErrorCode::kUnsupported);
  ir::Node* good = g.addNode("LayerNormalization", "", {x, g.addInput("s2", t({1, 4}))},
                             std::vector<std::string>{"y2"});
  good->setAttr(ir::Attribute::makeInt("axis", 1));
  EXPECT_TRUE(r->create(FakeBuild(*good, ir::DataType::kFloat)).isOk());
}

TEST(CudaNormReduceRows, FusedAttentionDeclinesOtherMaskTypes) {
  ir::Graph g;
  auto t = [](ir::DataType d, Dims dims) {
    return ir::Type::tensor(d, ir::Shape::fromValues(dims));
  };
  const auto h = ir::DataType::kFloat16;
  std::vector<ir::Value*> in = {g.addInput("q", t(h, {1, 2, 4, 8})),
                                g.addInput("k", t(h, {1, 2, 4, 8})),
                                g.addInput("v", t(h, {1, 2, 4, 8})), g.addInput("mm", t(h, {4, 4})),
                                g.addInput("ma", t(h, {4, 4}))};
  const CudaKernelDef* r = rowFor(ir::passlab_ops::kDomain, "FusedAttention", h);
  ASSERT_NE(r, nullptr);
  ir::Node* plain = g.addNode("FusedAttention", ir::passlab_ops::kDomain, {in[0], in[1], in[2]},
                              std::vector<std::string>{"y"});
  EXPECT_TRUE(r->create(FakeBuild(*plain, h)).isOk());
  ir::Node* masked =
      g.addNode("FusedAttention", ir::passlab_ops::kDomain, in, std::vector<std::string>{"y2"});
  auto k = r->create(FakeBuild(*masked, h));
  ASSERT_FALSE(k.isOk());
  EXPECT_EQ(k.error().code(), ErrorCode::kUnsupported);
  EXPECT_NE(k.error().message().find("mask_mul"), std::string::npos) << k.error().message();
}

}  // namespace
}  // namespace passlab::exec::cuda
