// Concat parts (memory_plan.h): a Concat's inputs written at their offsets
// inside its output, so the Concat copies nothing. The plan does it only
// where it may (structural and negative cases), the checker accepts exactly
// a part inside its own Concat's output, and runs on the plan give the same
// bytes as runs without it (PASSLAB_CONCAT_PARTS=0) and without any plan.
#include <gtest/gtest.h>

#include <cstdlib>
#include <random>

#include "core/analysis/shape_inference.h"
#include "core/exec/executor.h"
#include "core/exec/memory/input_shapes.h"
#include "core/exec/memory/memory_plan.h"
#include "core/exec/memory/plan_check.h"
#include "tests/core/exec/exec_test_util.h"

namespace passlab::exec::memory {
namespace {

std::unique_ptr<Executor> executorFor(const std::string& text, bool memoryPlan = true) {
  ir::Model model = testutil::parseModel(text);
  analysis::inferShapes(model);
  ExecutorOptions o;
  o.memoryPlan = memoryPlan;
  auto ex = Executor::create(model, o);
  EXPECT_TRUE(ex) << (ex ? "" : ex.error().message());
  return ex ? std::move(ex).value() : nullptr;
}

// The plan the executor runs on, checked.
MemoryPlan executionPlanOf(const std::string& text) {
  auto ex = executorFor(text);
  if (!ex) return {};
  auto plan = planMemory(ex->compiled(), nullptr, PlanOptions::forExecution());
  EXPECT_TRUE(plan) << (plan ? "" : plan.error().message());
  if (!plan) return {};
  Status st = checkPlan(*plan);
  EXPECT_TRUE(st) << (st ? "" : st.error().message());
  return std::move(plan).value();
}

const PlannedTensor& tensorNamed(const MemoryPlan& plan, const std::string& name) {
  for (const PlannedTensor& t : plan.tensors)
    if (t.name == name) return t;
  ADD_FAILURE() << "no planned tensor '" << name << "'";
  static PlannedTensor none;
  return none;
}

// Turns concat parts off while alive.
class ConcatPartsOff {
 public:
  ConcatPartsOff() { setenv("PASSLAB_CONCAT_PARTS", "0", 1); }
  ~ConcatPartsOff() { unsetenv("PASSLAB_CONCAT_PARTS"); }
};

// a and b (16 x 4 floats: 256 bytes each) along axis 1 of batch 1.
const char* kTwoParts = R"(
  main (float[1,16,4] x) => (float[1,32,4] y) {
    a = Relu(x)
    b = Sigmoid(x)
    c = Concat <axis = 1> (a, b)
    y = Neg(c)
  })";

// "v, v, ..." n times: a Constant's values.
std::string filled(int n, const std::string& v) {
  std::string s;
  for (int i = 0; i < n; ++i) s += (i ? ", " : "") + v;
  return s;
}

// ---- structure -----------------------------------------------------------

TEST(ConcatParts, InputsAreWrittenInsideTheConcatsOutput) {
  MemoryPlan p = executionPlanOf(kTwoParts);
  const PlannedTensor& a = tensorNamed(p, "a");
  const PlannedTensor& b = tensorNamed(p, "b");
  const PlannedTensor& c = tensorNamed(p, "c");
  EXPECT_EQ(a.reuse, Reuse::kConcatPart);
  EXPECT_EQ(b.reuse, Reuse::kConcatPart);
  EXPECT_EQ(a.offset, c.offset);
  EXPECT_EQ(b.offset, c.offset + 256);
  EXPECT_EQ(p.concatPartCount, 2);
  // c's buffer (512 bytes) is the whole plan: y takes it in place.
  EXPECT_EQ(p.peak, 512u);
}

TEST(ConcatParts, PeakWithoutThemIsNotLower) {
  MemoryPlan on = executionPlanOf(kTwoParts);
  ConcatPartsOff off;
  MemoryPlan without = executionPlanOf(kTwoParts);
  EXPECT_EQ(without.concatPartCount, 0);
  EXPECT_EQ(tensorNamed(without, "a").reuse, Reuse::kNone);
  EXPECT_LE(on.peak, without.peak);
  EXPECT_LT(on.peak, without.peak);  // 512 against a + b + c live at the Concat
}

TEST(ConcatParts, AnyAxisAfterLeadingOnes) {
  MemoryPlan p = executionPlanOf(R"(
    main (float[1,1,8,8] x) => (float[1,1,16,8] y) {
      a = Relu(x)
      b = Neg(x)
      y = Concat <axis = -2> (a, b)
    })");
  EXPECT_EQ(tensorNamed(p, "a").reuse, Reuse::kConcatPart);
  EXPECT_EQ(tensorNamed(p, "b").reuse, Reuse::kConcatPart);  // y is a graph output: fine
}

TEST(ConcatParts, APartOtherNodesReadBeforeTheConcat) {
  MemoryPlan p = executionPlanOf(R"(
    main (float[1,16,4] x) => (float[1,32,4] y, float[1,16,4] z) {
      a = Relu(x)
      z = Neg(a)
      b = Sigmoid(a)
      c = Concat <axis = 1> (a, b)
      y = Neg(c)
    })");
  EXPECT_EQ(tensorNamed(p, "a").reuse, Reuse::kConcatPart);  // read by z and b first
  EXPECT_EQ(tensorNamed(p, "b").reuse, Reuse::kConcatPart);
  EXPECT_EQ(tensorNamed(p, "a").offset, tensorNamed(p, "c").offset);
}

// A dense block (densenet): each layer reads the block so far (c1, c2) and
// its output is appended to it by the next Concat; 16 x 2 x 2 floats
// (256 bytes) a layer.
std::string denseBlock(const std::string& extraOutput = "", const std::string& extraNode = "") {
  return R"(
    main (float[1,16,2,2] x) => (float[1,16,2,2] y)" +
         extraOutput + R"() {
      w1 = Constant <value = float[16,16,1,1] {)" +
         filled(256, "0.25") + R"(}> ()
      w2 = Constant <value = float[16,32,1,1] {)" +
         filled(512, "-0.125") + R"(}> ()
      w3 = Constant <value = float[16,48,1,1] {)" +
         filled(768, "0.0625") + R"(}> ()
      w4 = Constant <value = float[16,64,1,1] {)" +
         filled(1024, "0.5") + R"(}> ()
      p = Relu(x)
      n1 = Sigmoid(p)
      x1 = Conv(n1, w1)
      c1 = Concat <axis = 1> (p, x1)
      n2 = Relu(c1)
      x2 = Conv(n2, w2)
      c2 = Concat <axis = 1> (c1, x2)
      n3 = Tanh(c2)
      x3 = Conv(n3, w3)
      c3 = Concat <axis = 1> (c2, x3)
)" + extraNode +
         R"(
      y = Conv(c3, w4)
    })";
}

TEST(ConcatParts, AGrowingConcatIsAPrefixOfTheNext) {
  MemoryPlan p = executionPlanOf(denseBlock());
  const PlannedTensor& c3 = tensorNamed(p, "c3");
  for (const char* name : {"p", "x1", "c1", "x2", "c2", "x3"})
    EXPECT_EQ(tensorNamed(p, name).reuse, Reuse::kConcatPart) << name;
  EXPECT_EQ(p.concatPartCount, 6);
  // One buffer for the block: every layer's output at its final offset.
  EXPECT_EQ(tensorNamed(p, "p").offset, c3.offset);
  EXPECT_EQ(tensorNamed(p, "x1").offset, c3.offset + 256);
  EXPECT_EQ(tensorNamed(p, "x2").offset, c3.offset + 512);
  EXPECT_EQ(tensorNamed(p, "x3").offset, c3.offset + 768);
  EXPECT_EQ(tensorNamed(p, "c1").offset, c3.offset);
  EXPECT_EQ(tensorNamed(p, "c2").offset, c3.offset);
  // partOffset: inside the Concat output the part went to first.
  EXPECT_EQ(tensorNamed(p, "x1").partOffset, 256u);
  EXPECT_EQ(tensorNamed(p, "x1").sharesWith,
            static_cast<int32_t>(&tensorNamed(p, "c1") - &p.tensors[0]));
  EXPECT_EQ(tensorNamed(p, "x2").partOffset, 512u);
  EXPECT_EQ(tensorNamed(p, "c2").partOffset, 0u);
}

TEST(ConcatParts, AConcatOutputAfterAnotherPartCarriesItsPartsAlong) {
  // c1 goes to c2 at 256 (after x2): p and x1 are at 256 + their place in c1.
  MemoryPlan p = executionPlanOf(R"(
    main (float[1,16,4] x) => (float[1,48,4] y) {
      a = Relu(x)
      b = Sigmoid(x)
      c1 = Concat <axis = 1> (a, b)
      x2 = ReduceMean <axes = [1], keepdims = 1> (c1)
      x3 = Tile(x2, r)
      r = Constant <value = int64[3] {1, 16, 1}> ()
      c2 = Concat <axis = 1> (x3, c1)
      y = Neg(c2)
    })");
  const PlannedTensor& c2 = tensorNamed(p, "c2");
  EXPECT_EQ(tensorNamed(p, "c1").reuse, Reuse::kConcatPart);
  EXPECT_EQ(tensorNamed(p, "c1").partOffset, 256u);
  EXPECT_EQ(tensorNamed(p, "c1").offset, c2.offset + 256);
  EXPECT_EQ(tensorNamed(p, "a").partOffset, 0u);
  EXPECT_EQ(tensorNamed(p, "a").offset, c2.offset + 256);
  EXPECT_EQ(tensorNamed(p, "b").partOffset, 256u);
  EXPECT_EQ(tensorNamed(p, "b").offset, c2.offset + 512);
  EXPECT_EQ(p.concatPartCount, 4);
}

TEST(ConcatParts, ASmallDenseBlockPeaksLowerWithThem) {
  MemoryPlan on = executionPlanOf(denseBlock());
  ConcatPartsOff off;
  MemoryPlan without = executionPlanOf(denseBlock());
  EXPECT_EQ(without.concatPartCount, 0);
  // At c3: c2 (768 B), x3 and c3 (1024 B) live without parts; with them the
  // block's 1024 bytes and what the layers read.
  EXPECT_LT(on.peak, without.peak);
}

// A two-layer block whose first layer is wide: n1 (1024 bytes) lives while
// x1 is written, before x2's bytes of the block are.
std::string denseBlockWithAWideLayer() {
  return R"(
    main (float[1,16,2,2] x) => (float[1,16,2,2] y) {
      wa = Constant <value = float[64,16,1,1] {)" +
         filled(1024, "0.25") + R"(}> ()
      w1 = Constant <value = float[16,64,1,1] {)" +
         filled(1024, "-0.125") + R"(}> ()
      w2 = Constant <value = float[16,32,1,1] {)" +
         filled(512, "0.0625") + R"(}> ()
      w3 = Constant <value = float[16,48,1,1] {)" +
         filled(768, "0.5") + R"(}> ()
      p = Relu(x)
      n1 = Conv(p, wa)
      x1 = Conv(n1, w1)
      c1 = Concat <axis = 1> (p, x1)
      n2 = Sigmoid(c1)
      x2 = Conv(n2, w2)
      c2 = Concat <axis = 1> (c1, x2)
      y = Conv(c2, w3)
    })";
}

TEST(ConcatParts, ABlocksBytesAreFreeToOthersUntilTheirLayerWritesThem) {
  MemoryPlan on = executionPlanOf(denseBlockWithAWideLayer());
  EXPECT_EQ(on.concatPartCount, 4);
  // At x1: p, n1 and x1 (256 + 1024 + 256 bytes). The block's last 256
  // bytes (x2's) hold nothing yet: n1 may be there. As one rectangle the
  // block (768 bytes) would be live beside n1: 1792.
  EXPECT_EQ(on.lowerBound, 1536u);
  EXPECT_EQ(on.peak, 1536u);
  const PlannedTensor& n1 = tensorNamed(on, "n1");
  const PlannedTensor& x2 = tensorNamed(on, "x2");
  EXPECT_TRUE(n1.offset < x2.offset + x2.size && x2.offset < n1.offset + n1.size)
      << "n1 at " << n1.offset << ", x2 at " << x2.offset;
  ConcatPartsOff off;
  MemoryPlan without = executionPlanOf(denseBlockWithAWideLayer());
  EXPECT_LE(on.peak, without.peak);
  EXPECT_LE(on.lowerBound, without.lowerBound);
}

// ---- where it must not happen ----------------------------------------------

void expectNoParts(const std::string& text, const std::string& why) {
  SCOPED_TRACE(why);
  MemoryPlan p = executionPlanOf(text);
  EXPECT_EQ(p.concatPartCount, 0);
  for (const PlannedTensor& t : p.tensors) EXPECT_NE(t.reuse, Reuse::kConcatPart) << t.name;
}

TEST(ConcatParts, NotForAPartAnotherNodeReads) {
  expectNoParts(R"(
    main (float[1,16,4] x) => (float[1,32,4] y, float[1,16,4] z) {
      a = Relu(x)
      b = Sigmoid(x)
      c = Concat <axis = 1> (a, b)
      z = Neg(a)
      y = Neg(c)
    })",
                "a read by another node");
}

TEST(ConcatParts, NotForAConcatOutputReadAfterTheNextConcat) {
  MemoryPlan p = executionPlanOf(denseBlock(", float[1,32,2,2] z", "z = Neg(c1)"));
  // c1 lives past c2: c2 copies c1 and x2; c1's own parts stay, and so do c3's.
  EXPECT_EQ(tensorNamed(p, "c1").reuse, Reuse::kNone);
  EXPECT_EQ(tensorNamed(p, "x2").reuse, Reuse::kNone);
  EXPECT_EQ(tensorNamed(p, "p").reuse, Reuse::kConcatPart);
  EXPECT_EQ(tensorNamed(p, "x1").reuse, Reuse::kConcatPart);
  EXPECT_EQ(tensorNamed(p, "c2").reuse, Reuse::kConcatPart);
  EXPECT_EQ(p.concatPartCount, 4);
}

TEST(ConcatParts, NotForAGraphOutputOrAGraphInputOrAnInitializer) {
  expectNoParts(R"(
    main (float[1,16,4] x) => (float[1,32,4] y, float[1,16,4] a) {
      a = Relu(x)
      b = Sigmoid(x)
      y = Concat <axis = 1> (a, b)
    })",
                "a is a graph output");
  expectNoParts(R"(
    main (float[1,16,4] x) => (float[1,32,4] y) {
      b = Sigmoid(x)
      y = Concat <axis = 1> (x, b)
    })",
                "x is a graph input");
  expectNoParts(R"(
    main (float[1,16,4] x) => (float[1,32,4] y) {
      w = Constant <value = float[1,16,4] {)" +
                    filled(64, "1.0") + R"(}> ()
      b = Sigmoid(x)
      y = Concat <axis = 1> (w, b)
    })",
                "w is a Constant");
}

TEST(ConcatParts, APartWrittenInPlaceMovesWithTheBufferItWasWrittenOver) {
  MemoryPlan p = executionPlanOf(R"(
    main (float[1,16,4] x) => (float[1,32,4] y) {
      a = Relu(x)
      a2 = Sigmoid(a)
      b = Neg(x)
      y = Concat <axis = 1> (b, a2)
    })");
  const PlannedTensor& a = tensorNamed(p, "a");
  const PlannedTensor& a2 = tensorNamed(p, "a2");
  ASSERT_EQ(a2.reuse, Reuse::kInPlace);
  EXPECT_EQ(a.reuse, Reuse::kConcatPart);  // the buffer's first tensor
  EXPECT_EQ(a.offset, tensorNamed(p, "y").offset + 256);
  EXPECT_EQ(a2.offset, a.offset);
  EXPECT_EQ(p.concatPartCount, 2);
}

TEST(ConcatParts, NotForABufferAViewKeepsAlivePastTheConcat) {
  expectNoParts(R"(
    main (float[1,16,4] x) => (float[1,32,4] y, float[1,64] z) {
      a = Relu(x)
      f = Flatten <axis = 0> (a)
      b = Sigmoid(x)
      y = Concat <axis = 1> (a, b)
      z = Neg(f)
    })",
                "f, a view of a, read after the Concat");
}

TEST(ConcatParts, NotAlongAnInnerAxisWithOuterSizeAboveOne) {
  expectNoParts(R"(
    main (float[2,16,4] x) => (float[2,32,4] y) {
      a = Relu(x)
      b = Sigmoid(x)
      y = Concat <axis = 1> (a, b)
    })",
                "batch 2 along axis 1");
}

TEST(ConcatParts, NotForTheSameValueTwice) {
  expectNoParts(R"(
    main (float[1,16,4] x) => (float[1,32,4] y) {
      a = Relu(x)
      y = Concat <axis = 1> (a, a)
    })",
                "a twice");
}

TEST(ConcatParts, NotForAPartASubgraphNodeWrites) {
  expectNoParts(R"(
    main (bool k, float[1,16,4] x) => (float[1,32,4] y) {
      a = If <then_branch = g1 () => (float[1,16,4] t) { t = Neg(x) },
              else_branch = g2 () => (float[1,16,4] e) { e = Relu(x) }> (k)
      b = Sigmoid(x)
      y = Concat <axis = 1> (a, b)
    })",
                "a written by an If");
}

TEST(ConcatParts, NotWhereAPartWouldStartOffTheArenasAlignment) {
  expectNoParts(R"(
    main (float[1,3,1] x) => (float[1,6,1] y) {
      a = Relu(x)
      b = Sigmoid(x)
      y = Concat <axis = 1> (a, b)
    })",
                "12-byte parts");
}

// ---- the checker -------------------------------------------------------------

// A 128-byte part p of c at partOffset 128, and a tensor q.
MemoryPlan partPlan(uint64_t partOffset, uint64_t qOffset) {
  MemoryPlan p;
  p.stepCount = 4;
  PlannedTensor part{.name = "p", .bytes = 128, .size = 128, .first = 0, .last = 2};
  part.reuse = Reuse::kConcatPart;
  part.sharesWith = 2;
  part.partOffset = partOffset;
  part.offset = partOffset;
  p.tensors.push_back(part);
  p.tensors.push_back(
      {.name = "q", .bytes = 64, .size = 64, .first = 1, .last = 1, .offset = qOffset});
  p.tensors.push_back({.name = "c", .bytes = 256, .size = 256, .first = 2, .last = 4});
  p.peak = 320;
  return p;
}

TEST(ConcatPartsCheck, AcceptsAPartInsideItsConcatsOutput) {
  Status st = checkPlan(partPlan(128, 256));
  EXPECT_TRUE(st) << (st ? "" : st.error().message());
  // q may use the bytes of c that no part holds while c is not written.
  EXPECT_TRUE(checkPlan(partPlan(128, 0)));
}

TEST(ConcatPartsCheck, RejectsAPartOutsideItsConcatOrOverlappingAnotherTensor) {
  EXPECT_FALSE(checkPlan(partPlan(192, 256)));  // past c's end
  Status st = checkPlan(partPlan(128, 128));    // q inside the live part
  ASSERT_FALSE(st);
  EXPECT_NE(st.error().message().find("'q'"), std::string::npos) << st.error().message();
  MemoryPlan p = partPlan(128, 256);
  p.tensors[0].last = 3;  // read after the Concat
  EXPECT_FALSE(checkPlan(p));
  p = partPlan(128, 256);
  p.tensors[0].sharesWith = 1;  // not a Concat's output
  EXPECT_FALSE(checkPlan(p));
}

// p (0) and q (1) parts of c0 (2), itself a part of c1 (4) with r (3); all
// 128 bytes a part, c1 at 0.
MemoryPlan nestedPlan() {
  MemoryPlan p;
  p.stepCount = 6;
  auto part = [](const char* name, uint64_t bytes, int32_t first, int32_t last, int32_t of,
                 uint64_t at, uint64_t offset) {
    PlannedTensor t{.name = name, .bytes = bytes, .size = bytes, .first = first, .last = last};
    t.reuse = Reuse::kConcatPart;
    t.sharesWith = of;
    t.partOffset = at;
    t.offset = offset;
    return t;
  };
  p.tensors.push_back(part("p", 128, 0, 2, 2, 0, 0));
  p.tensors.push_back(part("q", 128, 1, 2, 2, 128, 128));
  p.tensors.push_back(part("c0", 256, 2, 4, 4, 0, 0));
  p.tensors.push_back(part("r", 128, 3, 4, 4, 256, 256));
  p.tensors.push_back({.name = "c1", .bytes = 384, .size = 384, .first = 4, .last = 6});
  p.peak = 384;
  return p;
}

TEST(ConcatPartsCheck, AcceptsPartsOfAConcatThatIsItselfAPart) {
  Status st = checkPlan(nestedPlan());
  EXPECT_TRUE(st) << (st ? "" : st.error().message());
}

TEST(ConcatPartsCheck, RejectsANestedPartOffItsPlace) {
  MemoryPlan p = nestedPlan();
  p.tensors[1].offset = 256;  // q where r goes, not inside c0 at 128
  EXPECT_FALSE(checkPlan(p));
  p = nestedPlan();
  p.tensors[2].partOffset = 128;  // c0 said to sit at 128 of c1, but placed at 0
  EXPECT_FALSE(checkPlan(p));
  p = nestedPlan();
  p.tensors[0].last = 3;  // p read after c0 is written
  EXPECT_FALSE(checkPlan(p));
}

// ---- runs --------------------------------------------------------------------

std::vector<std::byte> bytesOf(const ir::Tensor& t) {
  return {t.bytes().begin(), t.bytes().end()};
}

Tensor ramp(Dims dims) {
  Tensor t = Tensor::zeros(ir::DataType::kFloat, std::move(dims));
  for (int64_t i = 0; i < t.numel(); ++i)
    t.mutableData<float>()[i] = -3.0f + 0.37f * static_cast<float>(i % 23);
  return t;
}

// Runs `text` three ways (on the plan, on the plan without concat parts,
// without a plan) twice each and expects the same bytes; returns the plan's
// concat parts.
int expectSameOutputs(const std::string& text, const NamedInputs& inputs) {
  auto on = executorFor(text);
  std::unique_ptr<Executor> noParts;
  {
    ConcatPartsOff off;
    noParts = executorFor(text);
    if (noParts) (void)noParts->run(inputs);  // its plan is made now, without parts
  }
  auto noPlan = executorFor(text, false);
  if (!on || !noParts || !noPlan) return -1;
  for (int run = 0; run < 2; ++run) {
    auto a = on->run(inputs);
    auto b = noParts->run(inputs);
    auto c = noPlan->run(inputs);
    EXPECT_TRUE(a && b && c);
    if (!a || !b || !c) return -1;
    EXPECT_EQ(a->memory.counts.fellBack, 0);
    for (size_t i = 0; i < a->outputs.size(); ++i) {
      EXPECT_EQ(bytesOf(a->outputs[i]), bytesOf(b->outputs[i])) << a->outputNames[i];
      EXPECT_EQ(bytesOf(a->outputs[i]), bytesOf(c->outputs[i])) << a->outputNames[i];
    }
  }
  auto plan = planMemory(on->compiled(), nullptr, PlanOptions::forExecution());
  return plan ? plan->concatPartCount : -1;
}

TEST(ConcatPartsRun, SameBytesWithAndWithoutThem) {
  EXPECT_EQ(expectSameOutputs(kTwoParts, {{"x", ramp({1, 16, 4})}}), 2);
  // Three parts, one of them from a Conv; the Concat output read twice.
  EXPECT_EQ(expectSameOutputs(R"(
    main (float[1,16,4,4] x) => (float[1,48,4,4] y, float[1,48,4,4] z) {
      w = Constant <value = float[16,16,1,1] {)" +
                                  filled(256, "0.5") + R"(}> ()
      a = Conv(x, w)
      b = Relu(x)
      d = Sigmoid(x)
      c = Concat <axis = 1> (a, b, d)
      y = Neg(c)
      z = Relu(c)
    })",
                              {{"x", ramp({1, 16, 4, 4})}}),
            3);
  // Not parts (batch 2): the Concat copies as before.
  EXPECT_EQ(expectSameOutputs(R"(
    main (float[2,16,4] x) => (float[2,32,4] y) {
      a = Relu(x)
      b = Sigmoid(x)
      y = Concat <axis = 1> (a, b)
    })",
                              {{"x", ramp({2, 16, 4})}}),
            0);
}

TEST(ConcatPartsRun, SameBytesOnADenseBlock) {
  NamedInputs in = {{"x", ramp({1, 16, 2, 2})}};
  EXPECT_EQ(expectSameOutputs(denseBlock(), in), 6);
  EXPECT_EQ(expectSameOutputs(denseBlockWithAWideLayer(), in), 4);
  EXPECT_EQ(expectSameOutputs(denseBlock(", float[1,32,2,2] z", "z = Neg(c1)"), in), 4);
}

// Random chains of unary ops and Concats along axis 0 of [rows, 16] floats
// (64 bytes a row): plans valid, outputs the same three ways.
std::string randomConcatGraph(std::mt19937& rng) {
  std::vector<std::pair<std::string, int>> values = {{"x", 1}};
  std::string body;
  int n = std::uniform_int_distribution<int>(3, 14)(rng);
  static const char* kUnary[] = {"Relu", "Sigmoid", "Neg", "Identity"};
  for (int i = 0; i < n; ++i) {
    std::string out = "v" + std::to_string(i);
    auto pick = [&] { return values[rng() % values.size()]; };
    auto a = pick();
    if (rng() % 2 == 0 || a.second > 8) {
      body += out + " = " + kUnary[rng() % 4] + "(" + a.first + ")\n";
      values.push_back({out, a.second});
    } else {
      auto b = pick();
      body += out + " = Concat <axis = 0> (" + a.first + ", " + b.first + ")\n";
      values.push_back({out, a.second + b.second});
    }
  }
  const auto& last = values.back();
  return "main (float[1,16] x) => (float[" + std::to_string(last.second) + ",16] " + last.first +
         ") {\n" + body + "}";
}

TEST(ConcatPartsRun, RandomGraphsGiveValidPlansAndTheSameBytes) {
  std::mt19937 rng(27);
  int parts = 0;
  for (int g = 0; g < 60; ++g) {
    std::string text = randomConcatGraph(rng);
    SCOPED_TRACE(text);
    executionPlanOf(text);  // checks the plan
    int n = expectSameOutputs(text, {{"x", ramp({1, 16})}});
    ASSERT_GE(n, 0);
    parts += n;
  }
  EXPECT_GT(parts, 0);  // the generator exercises concat parts
}

// Random dense blocks along axis 0 of [rows, 16] floats: each layer reads
// the block so far and its one-row output joins it, before or after it;
// sometimes a node reads a block after the next Concat, or a block is an
// output (no part then).
std::string randomDenseGraph(std::mt19937& rng) {
  static const char* kUnary[] = {"Relu", "Sigmoid", "Neg", "Tanh"};
  std::string body = "p = Relu(x)\n";
  std::pair<std::string, int> block = {"p", 1};  // a value and its rows
  int layers = std::uniform_int_distribution<int>(2, 7)(rng);
  std::vector<std::pair<std::string, int>> readAfter, outputs;
  for (int k = 1; k <= layers; ++k) {
    std::string n = "n" + std::to_string(k), xk = "x" + std::to_string(k),
                c = "c" + std::to_string(k);
    body += n + " = " + kUnary[rng() % 4] + "(" + block.first + ")\n";
    body += xk + " = ReduceMean <axes = [0], keepdims = 1> (" + n + ")\n";
    bool before = rng() % 4 == 0;
    body += c + " = Concat <axis = 0> (" +
            (before ? xk + ", " + block.first : block.first + ", " + xk) + ")\n";
    if (rng() % 5 == 0) readAfter.push_back(block);  // read after this Concat
    if (rng() % 8 == 0) outputs.push_back(block);
    block = {c, block.second + 1};
  }
  auto type = [](int rows) { return "float[" + std::to_string(rows) + ",16] "; };
  std::string outs = type(block.second) + block.first;
  for (size_t i = 0; i < readAfter.size(); ++i) {
    body += "z" + std::to_string(i) + " = Neg(" + readAfter[i].first + ")\n";
    outs += ", " + type(readAfter[i].second) + "z" + std::to_string(i);
  }
  for (const auto& [name, rows] : outputs) outs += ", " + type(rows) + name;
  return "main (float[1,16] x) => (" + outs + ") {\n" + body + "}";
}

TEST(ConcatPartsRun, RandomDenseBlocksGiveValidPlansAndTheSameBytes) {
  std::mt19937 rng(28);
  int parts = 0, nested = 0;
  for (int g = 0; g < 80; ++g) {
    std::string text = randomDenseGraph(rng);
    SCOPED_TRACE(text);
    MemoryPlan p = executionPlanOf(text);  // checks the plan
    for (const PlannedTensor& t : p.tensors)
      if (t.reuse == Reuse::kConcatPart && t.name[0] == 'c') ++nested;
    {
      ConcatPartsOff off;
      MemoryPlan without = executionPlanOf(text);
      EXPECT_LE(p.lowerBound, without.lowerBound);  // each part counted from its own step
      EXPECT_LE(p.peak, without.peak);
    }
    int n = expectSameOutputs(text, {{"x", ramp({1, 16})}});
    ASSERT_GE(n, 0);
    parts += n;
  }
  EXPECT_GT(nested, 0);  // Concat outputs that are parts of the next
  EXPECT_GT(parts, nested);
}

// A batch dim N: the types give no dims before the axis, the dims inferred
// for each run's input shapes do.
const char* kBatchN = R"(
  main (float[N,16,4] x) => (float[N,32,4] y) {
    a = Relu(x)
    b = Sigmoid(x)
    c = Concat <axis = 1> (a, b)
    y = Neg(c)
  })";

TEST(ConcatPartsRun, PlansFromInputShapesUseTheInferredDims) {
  ir::Model model = testutil::parseModel(kBatchN);
  auto ex = Executor::create(model);  // no inference: the types hold N
  ASSERT_TRUE(ex);
  const CompiledGraph& g = (*ex)->compiled();
  for (int64_t n : {1, 2}) {
    SCOPED_TRACE(n);
    InputShapes shapes = shapesForInputs(model, g, {{"x", Value(ramp({n, 16, 4}))}});
    auto withDims = planMemory(g, &shapes.bytes, PlanOptions::forExecution(), &shapes.dims);
    auto without = planMemory(g, &shapes.bytes, PlanOptions::forExecution());
    ASSERT_TRUE(withDims && without);
    EXPECT_TRUE(checkPlan(*withDims));
    EXPECT_EQ(withDims->concatPartCount, n == 1 ? 2 : 0);
    EXPECT_EQ(without->concatPartCount, 0);
  }
}

TEST(ConcatPartsRun, SameBytesWhenTheBatchChangesBetweenRuns) {
  auto on = executorFor(kBatchN);
  auto noPlan = executorFor(kBatchN, false);
  ASSERT_TRUE(on && noPlan);
  for (int64_t n : {1, 2, 1, 3, 1}) {
    SCOPED_TRACE(n);
    NamedInputs in = {{"x", ramp({n, 16, 4})}};
    auto a = on->run(in);
    auto b = noPlan->run(in);
    ASSERT_TRUE(a && b);
    EXPECT_EQ(a->memory.source, PlanSource::kInputShapes);
    EXPECT_EQ(bytesOf(a->outputs[0]), bytesOf(b->outputs[0]));
  }
}

}  // namespace
}  // namespace passlab::exec::memory
