// Issue #25: the exact check on NaN and infinity (core/pipeline/
// non_finite_pair.h, the rule the accuracy budget follows too). A model
// whose outputs are NaN on the check's inputs (0 / 0): an exact step that
// keeps them NaN is accepted and the check counts the NaN in both, with no
// finite value compared; a step that makes them finite is rejected.
#include <gtest/gtest.h>

#include <limits>

#include "core/analysis/shape_inference.h"
#include "core/pipeline/numeric_check.h"
#include "core/pipeline/pass_manager.h"
#include "tests/support/test_support.h"

namespace passlab::pipeline {
namespace {

using testing::parse;

const char* kNanModel = R"(main (float[2,3] x) => (float[2,3] y) {
  z = Sub(x, x)
  n = Div(z, z)
  a = Identity(n)
  y = Abs(a)
})";

class ReplaceDivBySub : public passes::Pass {
 public:
  ReplaceDivBySub() {
    info_.id = "test_pass";
    info_.kind = "test";
    info_.summaryEn = info_.summaryZh = "test";
  }
  const passes::PassInfo& info() const override { return info_; }
  // 0 / 0 (NaN) becomes 0 - 0 (0): the outputs turn finite.
  Status run(passes::PassContext& ctx) const override {
    ir::Graph& g = ctx.model().graph();
    ir::Node* div = g.findValue("n")->producer();
    ir::Node* sub =
        ctx.rewriter.addNode(g, "Sub", "", {div->input(0), div->input(1)}, 1, div, "sub", {div});
    ctx.rewriter.replaceAllUsesWith(div->output(0), sub->output(0));
    ctx.rewriter.removeNode(div);
    return Status::ok();
  }

 private:
  passes::PassInfo info_;
};

TEST(NonFiniteCheck, AnExactStepKeepingNanOutputsIsAcceptedAndSaysSo) {
  ir::Model m = parse(kNanModel);
  analysis::inferShapes(m);
  auto checker = ExecOutputChecker::create(m, 2, {});
  ASSERT_TRUE(checker) << checker.error().message();
  PassManager pm(m);
  pm.setChecker(checker->get());
  auto step = pm.run({"eliminate_identity_ops", {}, {}});
  ASSERT_TRUE(step);
  ASSERT_TRUE((*step)->changed);
  const NumericCheck& c = (*step)->check;
  EXPECT_TRUE(c.ran);
  EXPECT_TRUE(c.passed) << c.detail;
  EXPECT_EQ(c.sameNonFinite, 12u) << "2 input sets of 6 NaN values";
  EXPECT_EQ(c.finiteCompared, 0u);
}

TEST(NonFiniteCheck, AStepMakingNanOutputsFiniteIsRejected) {
  ir::Model m = parse(kNanModel);
  analysis::inferShapes(m);
  auto checker = ExecOutputChecker::create(m, 2, {});
  ASSERT_TRUE(checker) << checker.error().message();
  PassManager pm(m);
  pm.setChecker(checker->get());
  auto step = pm.run(ReplaceDivBySub(), {"test_pass", {}, {}});
  ASSERT_TRUE(step);
  const NumericCheck& c = (*step)->check;
  EXPECT_TRUE(c.ran);
  EXPECT_FALSE(c.passed);
  EXPECT_NE(c.detail.str().find("NaN at element 0"), std::string::npos) << c.detail;
  EXPECT_EQ(c.firstDivergingTensor, "sub_out") << c.detail;
}

ir::Tensor floats(const std::vector<float>& v) {
  return ir::Tensor::fromVector<float>(ir::DataType::kFloat, {static_cast<int64_t>(v.size())}, v);
}

// allClose: the same non-finite value on both sides is equal and counted;
// +inf against -inf, NaN against a number or an infinity differ.
TEST(NonFiniteCheck, AllCloseCountsEqualNonFinitePairsAndRejectsOthers) {
  const float nan = std::numeric_limits<float>::quiet_NaN();
  const float inf = std::numeric_limits<float>::infinity();
  double ma = 0, mr = 0;
  Text why;
  size_t same = 0;
  EXPECT_TRUE(
      allClose(floats({nan, inf, -inf, 1}), floats({nan, inf, -inf, 1}), ma, mr, why, 0, &same));
  EXPECT_EQ(same, 3u);
  EXPECT_TRUE(allClose(floats({nan}), floats({nan}), ma, mr, why));  // no count asked
  for (auto [got, want] : {std::pair{inf, -inf}, std::pair{nan, 1.0f}, std::pair{1.0f, nan},
                           std::pair{nan, inf}, std::pair{inf, 1.0f}}) {
    same = 0;
    why = Text();
    EXPECT_FALSE(allClose(floats({2, got}), floats({2, want}), ma, mr, why, 0, &same))
        << got << " vs " << want;
    EXPECT_NE(why.str().find("element 1"), std::string::npos) << why;
    EXPECT_EQ(same, 0u);
  }
}

}  // namespace
}  // namespace passlab::pipeline
