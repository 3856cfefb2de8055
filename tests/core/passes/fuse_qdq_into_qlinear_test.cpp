// fuse_qdq_into_qlinear: QDQ node units into QLinearConv / QLinearMatMul
// (the Relu before a QuantizeLinear with zero point 0 goes too), the outputs
// within the budget (one output step of rounding), convergence, and the units
// it must leave: a Relu the quantization would not reproduce, a bias of
// another scale, an op output read twice. And value-preserving ops (MaxPool,
// Pad with zeros, ...) between a DQ and a Q of the same scale and zero point
// running on the 8-bit tensor, and the ones it must leave. And DQ, DQ ->
// Add|Mul [-> Relu] -> Q into com.microsoft QLinearAdd / QLinearMul. And
// DQ(a), DQ(b), DQ(c) -> Gemm [-> Relu] [-> Q] into com.microsoft QGemm
// (float output without the Q), and the Gemm units it must leave. And a
// Split of one scale on the 8-bit tensor.
#include <gtest/gtest.h>

#include "tests/support/pass_harness.h"

namespace passlab::testing {
namespace {

const char* kPass = "fuse_qdq_into_qlinear";

// A QDQ convolution unit with a Relu, as quantize_static writes it.
std::string convUnit(const std::string& yz = "0", const std::string& bs = "0.0002, 0.0004",
                     const std::string& extraRead = "") {
  return R"(<ir_version: 8, opset_import: ["" : 13]>
main (float[1,1,3,3] x) => (float[1,2,3,3] y)" +
         std::string(extraRead.empty() ? "" : ", float[1,2,3,3] c2") + R"()
    <float xs = {0.02}, uint8 xz = {128}, int8[2,1,1,1] wq = {100, -50},
     float[2] ws = {0.01, 0.02}, int8[2] wz = {0, 0}, int32[2] bq = {500, -250},
     float[2] bs = {)" +
         bs + R"(}, int32[2] bz = {0, 0}, float ys = {0.05}, uint8 yz = {)" + yz + R"(}> {
    q = QuantizeLinear(x, xs, xz)
    d = DequantizeLinear(q, xs, xz)
    w = DequantizeLinear <axis = 0> (wq, ws, wz)
    b = DequantizeLinear <axis = 0> (bq, bs, bz)
    c = Conv(d, w, b)
    r = Relu(c)
    yq = QuantizeLinear(r, ys, yz)
    y = DequantizeLinear(yq, ys, yz))" +
         extraRead + " }";
}

TEST(FuseQdqIntoQlinear, AConvUnitWithItsReluBecomesOneQLinearConv) {
  expectRewrite(kPass, convUnit(), R"(<ir_version: 8, opset_import: ["" : 13]>
main (float[1,1,3,3] x) => (float[1,2,3,3] y)
    <float xs = {0.02}, uint8 xz = {128}, int8[2,1,1,1] wq = {100, -50},
     float[2] ws = {0.01, 0.02}, int8[2] wz = {0, 0}, int32[2] bq = {500, -250},
     float ys = {0.05}, uint8 yz = {0}> {
    q = QuantizeLinear(x, xs, xz)
    yq = QLinearConv(q, xs, xz, wq, ws, wz, ys, yz, bq)
    y = DequantizeLinear(yq, ys, yz) })");
}

// A QDQ MatMul unit, B per column.
std::string matMulUnitText() {
  return R"(<ir_version: 8, opset_import: ["" : 13]>
main (float[2,3] a) => (float[2,2] y)
    <float as = {0.01}, uint8 az = {128}, int8[3,2] bq = {10, -20, 30, 40, -50, 60},
     float[2] bs = {0.01, 0.02}, int8[2] bz = {0, 0}, float ys = {0.1}, uint8 yz = {128}> {
    q = QuantizeLinear(a, as, az)
    d = DequantizeLinear(q, as, az)
    b = DequantizeLinear <axis = 1> (bq, bs, bz)
    m = MatMul(d, b)
    yq = QuantizeLinear(m, ys, yz)
    y = DequantizeLinear(yq, ys, yz) })";
}

TEST(FuseQdqIntoQlinear, AMatMulUnitBecomesOneQLinearMatMul) {
  expectRewrite(kPass, matMulUnitText(), R"(<ir_version: 8, opset_import: ["" : 13]>
main (float[2,3] a) => (float[2,2] y)
    <float as = {0.01}, uint8 az = {128}, int8[3,2] bq = {10, -20, 30, 40, -50, 60},
     float[2] bs = {0.01, 0.02}, int8[2] bz = {0, 0}, float ys = {0.1}, uint8 yz = {128}> {
    q = QuantizeLinear(a, as, az)
    yq = QLinearMatMul(q, as, az, bq, bs, bz, ys, yz)
    y = DequantizeLinear(yq, ys, yz) })");
}

// B dequantized by blocks (opset 21): blocks of 2 along axis 1 give one
// scale per row of K, two values as many as B's columns; QLinearMatMul would
// read them per column (on this model: cosine 0.87 against the QDQ form).
TEST(FuseQdqIntoQlinear, LeavesAMatMulWhoseWeightIsDequantizedByBlocks) {
  const std::string blocked = R"(<ir_version: 10, opset_import: ["" : 21]>
main (float[2,2] a) => (float[2,2] y)
    <float as = {0.01}, uint8 az = {128}, int8[2,2] bq = {10, -20, 30, 40},
     float[2,1] bs = {0.01, 0.05}, int8[2,1] bz = {0, 0}, float ys = {0.1}, uint8 yz = {128}> {
    q = QuantizeLinear(a, as, az)
    d = DequantizeLinear(q, as, az)
    b = DequantizeLinear <axis = 1, block_size = 2> (bq, bs, bz)
    m = MatMul(d, b)
    yq = QuantizeLinear(m, ys, yz)
    y = DequantizeLinear(yq, ys, yz) })";
  expectUnchanged(kPass, blocked, "B is dequantized by blocks");
}

TEST(FuseQdqIntoQlinear, Converges) {
  expectConverges(kPass, convUnit());
}

// The same unit with every scale, zero point and the bias in Constant nodes,
// as quantize_static writes them into a file of IR version 3 (where
// initializers must be graph inputs): winml_squeezenet through
// `raise_opset,quantize_static,fuse_qdq_into_qlinear` had none of its 26
// convolutions fused when the pass read only initializers.
std::string convUnitOfConstants() {
  return R"(<ir_version: 8, opset_import: ["" : 13]>
main (float[1,1,3,3] x) => (float[1,2,3,3] y)
    <int8[2,1,1,1] wq = {100, -50}> {
    xs = Constant <value = float {0.02}> ()
    xz = Constant <value = uint8 {128}> ()
    ws = Constant <value = float[2] {0.01, 0.02}> ()
    wz = Constant <value = int8[2] {0, 0}> ()
    bq = Constant <value = int32[2] {500, -250}> ()
    bs = Constant <value = float[2] {0.0002, 0.0004}> ()
    bz = Constant <value = int32[2] {0, 0}> ()
    ys = Constant <value = float {0.05}> ()
    yz = Constant <value = uint8 {0}> ()
    q = QuantizeLinear(x, xs, xz)
    d = DequantizeLinear(q, xs, xz)
    w = DequantizeLinear <axis = 0> (wq, ws, wz)
    b = DequantizeLinear <axis = 0> (bq, bs, bz)
    c = Conv(d, w, b)
    r = Relu(c)
    yq = QuantizeLinear(r, ys, yz)
    y = DequantizeLinear(yq, ys, yz) })";
}

int countOp(const ir::Model& m, const std::string& op) {
  int n = 0;
  for (const auto& node : m.graph().nodes()) n += node->opType() == op;
  return n;
}

TEST(FuseQdqIntoQlinear, AConvUnitOfConstantNodesBecomesOneQLinearConv) {
  PassOutcome out = runPass(kPass, convUnitOfConstants());
  EXPECT_EQ(countOp(out.model, "QLinearConv"), 1);
  EXPECT_EQ(countOp(out.model, "Conv"), 0);
  EXPECT_EQ(countOp(out.model, "Relu"), 0);
  EXPECT_EQ(countOp(out.model, "QuantizeLinear"), 1);  // x's
}

TEST(FuseQdqIntoQlinear, AConvUnitOfConstantNodesKeepsTheOutputsWithinTheBudget) {
  expectSameOutputs(kPass, convUnitOfConstants());
}

TEST(FuseQdqIntoQlinear, ConvergesOnAConvUnitOfConstantNodes) {
  expectConverges(kPass, convUnitOfConstants());
}

TEST(FuseQdqIntoQlinear, LeavesAReluTheQuantizationWouldNotReproduce) {
  // Zero point 10: codes 0..9 stand for negative values the Relu removed.
  expectUnchanged(kPass, convUnit("10"), "zero point is not the type's lowest value");
}

TEST(FuseQdqIntoQlinear, LeavesABiasOfAnotherScale) {
  expectUnchanged(kPass, convUnit("0", "0.0003, 0.0004"), "not x_scale * w_scale");
}

// One bias scale, x_scale * w_scale of channel 0 only, against per-channel
// weight scales: channel 1's bias would be read at twice its scale.
TEST(FuseQdqIntoQlinear, LeavesABiasOfOneScaleAgainstPerChannelWeightScales) {
  expectUnchanged(kPass, R"(<ir_version: 8, opset_import: ["" : 13]>
main (float[1,1,3,3] x) => (float[1,2,3,3] y)
    <float xs = {0.02}, uint8 xz = {128}, int8[2,1,1,1] wq = {100, -50},
     float[2] ws = {0.01, 0.02}, int8[2] wz = {0, 0}, int32[2] bq = {500, -250},
     float bs = {0.0002}, int32 bz = {0}, float ys = {0.05}, uint8 yz = {0}> {
    q = QuantizeLinear(x, xs, xz)
    d = DequantizeLinear(q, xs, xz)
    w = DequantizeLinear <axis = 0> (wq, ws, wz)
    b = DequantizeLinear(bq, bs, bz)
    c = Conv(d, w, b)
    r = Relu(c)
    yq = QuantizeLinear(r, ys, yz)
    y = DequantizeLinear(yq, ys, yz) })",
                  "not x_scale * w_scale");
}

TEST(FuseQdqIntoQlinear, LeavesAConvWhoseOutputIsReadTwice) {
  expectUnchanged(kPass, convUnit("0", "0.0002, 0.0004", "\n    c2 = Identity(c)"), "Conv output");
}

// DQ -> `op` -> Q with the input's scale and zero point (separate constants
// of equal value, as quantize_static writes them); `extra` more nodes.
std::string valuePreserving(const std::string& op, const std::string& ys = "0.02",
                            const std::string& extra = "", int opset = 13) {
  return "<ir_version: 8, opset_import: [\"\" : " + std::to_string(opset) +
         R"(]>
main (float[1,2,4,4] x) => (float[1,2,3,3] y)" +
         std::string(extra.empty() ? "" : ", float[1,2,3,3] m2") + R"()
    <float xs = {0.02}, uint8 xz = {128}, float ys = {)" +
         ys + R"(}, uint8 yz = {128}> {
    q = QuantizeLinear(x, xs, xz)
    d = DequantizeLinear(q, xs, xz)
    )" + op +
         R"(
    mq = QuantizeLinear(m, ys, yz)
    y = DequantizeLinear(mq, ys, yz))" +
         extra + " }";
}

const char* kMaxPool = "m = MaxPool <kernel_shape = [2, 2], strides = [1, 1]> (d)";

TEST(FuseQdqIntoQlinear, AMaxPoolBetweenPairsOfOneScaleRunsOnTheUint8Tensor) {
  expectRewrite(kPass, valuePreserving(kMaxPool), R"(<ir_version: 8, opset_import: ["" : 13]>
main (float[1,2,4,4] x) => (float[1,2,3,3] y)
    <float xs = {0.02}, uint8 xz = {128}, float ys = {0.02}, uint8 yz = {128}> {
    q = QuantizeLinear(x, xs, xz)
    mq = MaxPool <kernel_shape = [2, 2], strides = [1, 1]> (q)
    y = DequantizeLinear(mq, ys, yz) })");
}

TEST(FuseQdqIntoQlinear, APadWithZerosPadsTheUint8TensorWithTheZeroPoint) {
  const std::string pad = R"(<ir_version: 8, opset_import: ["" : 13]>
main (float[1,2,4,4] x) => (float[1,2,5,4] y)
    <float xs = {0.02}, uint8 xz = {128}, float ys = {0.02}, uint8 yz = {128},
     int64[8] pads = {0, 0, 1, 0, 0, 0, 0, 0}, float pv = {0}> {
    q = QuantizeLinear(x, xs, xz)
    d = DequantizeLinear(q, xs, xz)
    m = Pad(d, pads, pv)
    mq = QuantizeLinear(m, ys, yz)
    y = DequantizeLinear(mq, ys, yz) })";
  expectRewrite(kPass, pad, R"(<ir_version: 8, opset_import: ["" : 13]>
main (float[1,2,4,4] x) => (float[1,2,5,4] y)
    <float xs = {0.02}, uint8 xz = {128}, float ys = {0.02}, uint8 yz = {128},
     int64[8] pads = {0, 0, 1, 0, 0, 0, 0, 0}, uint8 z = {128}> {
    q = QuantizeLinear(x, xs, xz)
    mq = Pad(q, pads, z)
    y = DequantizeLinear(mq, ys, yz) })");
  expectConverges(kPass, pad);
}

TEST(FuseQdqIntoQlinear, ConvergesOnAValuePreservingOp) {
  expectConverges(kPass, valuePreserving(kMaxPool));
}

TEST(FuseQdqIntoQlinear, LeavesAValuePreservingOpBetweenPairsOfTwoScales) {
  expectUnchanged(kPass, valuePreserving(kMaxPool, "0.03"),
                  "not quantized with its input's scale and zero point");
}

TEST(FuseQdqIntoQlinear, LeavesAValuePreservingOpWhoseOutputIsReadTwice) {
  expectUnchanged(kPass, valuePreserving(kMaxPool, "0.02", "\n    m2 = Identity(m)"),
                  "MaxPool output");
}

TEST(FuseQdqIntoQlinear, LeavesAPadWithANonzeroValue) {
  const std::string pad = R"(<ir_version: 8, opset_import: ["" : 13]>
main (float[1,2,4,4] x) => (float[1,2,5,4] y)
    <float xs = {0.02}, uint8 xz = {128}, float ys = {0.02}, uint8 yz = {128},
     int64[8] pads = {0, 0, 1, 0, 0, 0, 0, 0}, float pv = {0.5}> {
    q = QuantizeLinear(x, xs, xz)
    d = DequantizeLinear(q, xs, xz)
    m = Pad(d, pads, pv)
    mq = QuantizeLinear(m, ys, yz)
    y = DequantizeLinear(mq, ys, yz) })";
  expectUnchanged(kPass, pad, "the Pad's value is not a constant 0");
}

TEST(FuseQdqIntoQlinear, LeavesAMaxPoolBeforeOpset12) {
  std::string model = valuePreserving(kMaxPool, "0.02", "", 11);
  expectUnchanged(kPass, model, "MaxPool takes 8-bit tensors from opset 12 (model has 11)");
}

// Two quantized tensors concatenated and quantized again with one scale.
std::string concatUnit(const std::string& bs) {
  return R"(<ir_version: 8, opset_import: ["" : 13]>
main (float[1,2] a, float[1,2] b) => (float[1,4] y)
    <float s = {0.1}, uint8 z = {10}, float s2 = {)" +
         bs + R"(}> {
    qa = QuantizeLinear(a, s, z)
    da = DequantizeLinear(qa, s, z)
    qb = QuantizeLinear(b, s2, z)
    db = DequantizeLinear(qb, s2, z)
    c = Concat <axis = 1> (da, db)
    yq = QuantizeLinear(c, s, z)
    y = DequantizeLinear(yq, s, z) })";
}

TEST(FuseQdqIntoQlinear, AConcatOfOneScaleRunsOnTheEightBitTensors) {
  expectRewrite(kPass, concatUnit("0.1"), R"(<ir_version: 8, opset_import: ["" : 13]>
main (float[1,2] a, float[1,2] b) => (float[1,4] y)
    <float s = {0.1}, uint8 z = {10}, float s2 = {0.1}> {
    qa = QuantizeLinear(a, s, z)
    qb = QuantizeLinear(b, s2, z)
    yq = Concat <axis = 1> (qa, qb)
    y = DequantizeLinear(yq, s, z) })");
  expectConverges(kPass, concatUnit("0.1"));
}

TEST(FuseQdqIntoQlinear, LeavesAConcatOfInputsOfAnotherScale) {
  expectUnchanged(kPass, concatUnit("0.2"), "not quantized with the output's scale");
}

// A quantized tensor split in two, each half quantized again (the second
// with scale `s2`): the Split of a fused Q/K/V projection as quantize_static
// writes it. `extra` more nodes.
std::string splitUnit(const std::string& s2, const std::string& extra = "") {
  return R"(<ir_version: 8, opset_import: ["" : 13]>
main (float[1,4] a) => (float[1,2] y1, float[1,2] y2)
    <float s = {0.1}, uint8 z = {10}, float s2 = {)" +
         s2 + R"(}, int64[2] sp = {2, 2}> {
    qa = QuantizeLinear(a, s, z)
    da = DequantizeLinear(qa, s, z)
    p, r = Split <axis = 1> (da, sp)
    pq = QuantizeLinear(p, s, z)
    y1 = DequantizeLinear(pq, s, z)
    rq = QuantizeLinear(r, s2, z)
    y2 = DequantizeLinear(rq, s2, z))" +
         extra + " }";
}

TEST(FuseQdqIntoQlinear, ASplitOfOneScaleRunsOnTheEightBitTensor) {
  expectRewrite(kPass, splitUnit("0.1"), R"(<ir_version: 8, opset_import: ["" : 13]>
main (float[1,4] a) => (float[1,2] y1, float[1,2] y2)
    <float s = {0.1}, uint8 z = {10}, float s2 = {0.1}, int64[2] sp = {2, 2}> {
    qa = QuantizeLinear(a, s, z)
    pq, rq = Split <axis = 1> (qa, sp)
    y1 = DequantizeLinear(pq, s, z)
    y2 = DequantizeLinear(rq, s2, z) })");
  expectConverges(kPass, splitUnit("0.1"));
}

TEST(FuseQdqIntoQlinear, LeavesASplitWhoseOutputHasAnotherScaleOrIsReadTwice) {
  expectUnchanged(kPass, splitUnit("0.2"), "not quantized with its input's scale and zero point");
  expectUnchanged(kPass, splitUnit("0.1", "\n    r2 = Identity(r)"),
                  "not read by one QuantizeLinear alone");
}

// Two quantized activations added (or multiplied) [then a Relu], the result
// quantized: a residual connection between quantized convolutions as
// quantize_static writes it. `yz` is the output zero point; `bType` the
// second input's 8-bit type; `extra` more nodes.
std::string binaryUnit(const std::string& op, bool relu = false, const std::string& yz = "0",
                       const std::string& bType = "uint8", const std::string& extra = "") {
  return R"(<ir_version: 8, opset_import: ["" : 13]>
main (float[1,2,3,3] a, float[1,2,1,1] b) => (float[1,2,3,3] y)" +
         std::string(extra.empty() ? "" : ", float[1,2,3,3] e") + R"()
    <float as = {0.02}, uint8 az = {128}, float bs = {0.03}, )" +
         bType + R"( bz = {3}, float ys = {0.05}, uint8 yz = {)" + yz + R"(}> {
    qa = QuantizeLinear(a, as, az)
    da = DequantizeLinear(qa, as, az)
    qb = QuantizeLinear(b, bs, bz)
    db = DequantizeLinear(qb, bs, bz)
    c = )" +
         op + "(da, db)\n" +
         (relu ? "    r = Relu(c)\n    yq = QuantizeLinear(r, ys, yz)"
               : "    yq = QuantizeLinear(c, ys, yz)") +
         R"(
    y = DequantizeLinear(yq, ys, yz))" +
         extra + " }";
}

std::string fusedBinary(const std::string& op, const std::string& yz = "0") {
  return R"(<ir_version: 8, opset_import: ["" : 13, "com.microsoft" : 1]>
main (float[1,2,3,3] a, float[1,2,1,1] b) => (float[1,2,3,3] y)
    <float as = {0.02}, uint8 az = {128}, float bs = {0.03}, uint8 bz = {3}, float ys = {0.05},
     uint8 yz = {)" +
         yz + R"(}> {
    qa = QuantizeLinear(a, as, az)
    qb = QuantizeLinear(b, bs, bz)
    yq = com.microsoft.)" +
         op + R"((qa, as, az, qb, bs, bz, ys, yz)
    y = DequantizeLinear(yq, ys, yz) })";
}

TEST(FuseQdqIntoQlinear, AnAddUnitBecomesQLinearAddAndTakesItsRelu) {
  expectRewrite(kPass, binaryUnit("Add", false, "128"), fusedBinary("QLinearAdd", "128"));
  expectRewrite(kPass, binaryUnit("Add", true), fusedBinary("QLinearAdd"));
}

TEST(FuseQdqIntoQlinear, AMulUnitBecomesQLinearMul) {
  expectRewrite(kPass, binaryUnit("Mul", false, "128"), fusedBinary("QLinearMul", "128"));
}

TEST(FuseQdqIntoQlinear, AnAddUnitKeepsTheOutputsWithinTheBudget) {
  expectSameOutputs(kPass, binaryUnit("Add", true));
  expectSameOutputs(kPass, binaryUnit("Mul", false, "128"));
}

TEST(FuseQdqIntoQlinear, ConvergesOnAnAddUnit) {
  expectConverges(kPass, binaryUnit("Add", true));
}

TEST(FuseQdqIntoQlinear, LeavesAnAddOfTwoEightBitTypes) {
  expectUnchanged(kPass, binaryUnit("Add", false, "0", "int8"), "one 8-bit type");
}

TEST(FuseQdqIntoQlinear, LeavesAnAddWhoseReluTheQuantizationWouldNotReproduce) {
  expectUnchanged(kPass, binaryUnit("Add", true, "128"), "zero point is not the type's lowest");
}

TEST(FuseQdqIntoQlinear, LeavesAnAddWhoseOutputIsReadTwice) {
  expectUnchanged(kPass, binaryUnit("Add", false, "0", "uint8", "\n    e = Identity(c)"),
                  "Add output");
}

// `text` with the node whose line starts with `line` named `name`.
std::string named(std::string text, const std::string& line, const std::string& name) {
  const size_t at = text.find(line);
  EXPECT_NE(at, std::string::npos) << line;
  if (at != std::string::npos) text.insert(at, "[" + name + "] ");
  return text;
}

const ir::Node* onlyNode(const ir::Model& m, const std::string& op) {
  const ir::Node* found = nullptr;
  for (const auto& n : m.graph().nodes())
    if (n->opType() == op) {
      EXPECT_EQ(found, nullptr) << "two " << op << " nodes";
      found = n.get();
    }
  EXPECT_NE(found, nullptr) << "no " << op;
  return found;
}

// Profiles name nodes: the fused node keeps the name of the op its unit was
// built around, not a fresh "QLinearConv_N".
TEST(FuseQdqIntoQlinear, TheFusedNodeKeepsTheNameOfItsOp) {
  PassOutcome conv = runPass(kPass, named(convUnit(), "c = Conv", "stage2_conv3"));
  const ir::Node* qconv = onlyNode(conv.model, "QLinearConv");
  ASSERT_NE(qconv, nullptr);
  EXPECT_EQ(qconv->name(), "stage2_conv3");
  PassOutcome mm = runPass(kPass, named(matMulUnitText(), "m = MatMul", "fc1"));
  const ir::Node* qmm = onlyNode(mm.model, "QLinearMatMul");
  ASSERT_NE(qmm, nullptr);
  EXPECT_EQ(qmm->name(), "fc1");
  PassOutcome add = runPass(kPass, named(binaryUnit("Add", true), "c = Add", "residual_add"));
  const ir::Node* qadd = onlyNode(add.model, "QLinearAdd");
  ASSERT_NE(qadd, nullptr);
  EXPECT_EQ(qadd->name(), "residual_add");
  PassOutcome pool = runPass(kPass, named(valuePreserving(kMaxPool), "m = MaxPool", "pool1"));
  const ir::Node* maxPool = onlyNode(pool.model, "MaxPool");
  ASSERT_NE(maxPool, nullptr);
  EXPECT_EQ(maxPool->name(), "pool1");
}

// A name another node of the graph also has (files may repeat names) is not
// taken: the fused node's name stays one no other node has.
TEST(FuseQdqIntoQlinear, TheFusedNodeTakesNoNameAnotherNodeHas) {
  const std::string text = named(named(convUnit(), "c = Conv", "n"), "y = Dequantize", "n");
  PassOutcome out = runPass(kPass, text);
  const ir::Node* qconv = onlyNode(out.model, "QLinearConv");
  ASSERT_NE(qconv, nullptr);
  EXPECT_NE(qconv->name(), "n");
  EXPECT_FALSE(qconv->name().empty());
  for (const auto& n : out.model.graph().nodes()) {
    if (n.get() == qconv) continue;
    EXPECT_NE(n->name(), qconv->name());
  }
}

// A Gemm unit as quantize_static writes it (B [N, K] under transB, per
// column, an int32 bias of scale a_scale * b_scale): `gemm` its Gemm line
// (output g), `tail` what reads g (default: a QuantizeLinear and its DQ),
// `cs` the bias's scales.
std::string gemmUnit(const std::string& gemm = "g = Gemm <transB = 1> (d, b, c)",
                     const std::string& tail =
                         "yq = QuantizeLinear(r, ys, yz)\n"
                         "    y = DequantizeLinear(yq, ys, yz)",
                     const std::string& cs = "0.0001, 0.0002", bool relu = true) {
  return R"(<ir_version: 8, opset_import: ["" : 13]>
main (float[2,3] a) => (float[2,2] y)
    <float as = {0.01}, uint8 az = {128}, int8[2,3] bq = {10, -20, 30, 40, -50, 60},
     float[2] bs = {0.01, 0.02}, int8[2] bz = {0, 0}, int32[2] cq = {500, -250},
     float[2] cs = {)" +
         cs + R"(}, int32[2] cz = {0, 0}, float ys = {0.02}, uint8 yz = {0}> {
    q = QuantizeLinear(a, as, az)
    d = DequantizeLinear(q, as, az)
    b = DequantizeLinear <axis = 0> (bq, bs, bz)
    c = DequantizeLinear <axis = 0> (cq, cs, cz)
    )" + gemm +
         (relu ? "\n    r = Relu(g)\n    " : "\n    ") + tail + " }";
}

std::string fusedGemm(const std::string& qgemm, const std::string& tail) {
  return R"(<ir_version: 8, opset_import: ["" : 13, "com.microsoft" : 1]>
main (float[2,3] a) => (float[2,2] y)
    <float as = {0.01}, uint8 az = {128}, int8[2,3] bq = {10, -20, 30, 40, -50, 60},
     float[2] bs = {0.01, 0.02}, int8[2] bz = {0, 0}, int32[2] cq = {500, -250},
     float ys = {0.02}, uint8 yz = {0}> {
    q = QuantizeLinear(a, as, az)
    )" + qgemm +
         "\n    " + tail + " }";
}

const char* kFloatTail = "y = Identity(g)";

TEST(FuseQdqIntoQlinear, AGemmUnitWithItsReluBecomesOneQGemm) {
  expectRewrite(
      kPass, gemmUnit(),
      fusedGemm("yq = com.microsoft.QGemm <transB = 1> (q, as, az, bq, bs, bz, cq, ys, yz)",
                "y = DequantizeLinear(yq, ys, yz)"));
}

TEST(FuseQdqIntoQlinear, AGemmWhoseOutputStaysFloatBecomesAQGemmWithFloatOutput) {
  expectRewrite(
      kPass, gemmUnit("g = Gemm <transB = 1> (d, b, c)", kFloatTail, "0.0001, 0.0002", false),
      fusedGemm("g = com.microsoft.QGemm <transB = 1> (q, as, az, bq, bs, bz, cq)", kFloatTail));
}

TEST(FuseQdqIntoQlinear, AGemmWithoutBiasKeepsItsAlphaInTheQGemm) {
  const std::string gemm = "g = Gemm <alpha = 0.5, transB = 1> (d, b)";
  // The bias's DequantizeLinear, read by nothing in this model, is not the pass's to remove.
  expectRewrite(kPass, gemmUnit(gemm, kFloatTail, "0.0001, 0.0002", false),
                R"(<ir_version: 8, opset_import: ["" : 13, "com.microsoft" : 1]>
main (float[2,3] a) => (float[2,2] y)
    <float as = {0.01}, uint8 az = {128}, int8[2,3] bq = {10, -20, 30, 40, -50, 60},
     float[2] bs = {0.01, 0.02}, int8[2] bz = {0, 0}, int32[2] cq = {500, -250},
     float[2] cs = {0.0001, 0.0002}, int32[2] cz = {0, 0}, float ys = {0.02}, uint8 yz = {0}> {
    q = QuantizeLinear(a, as, az)
    c = DequantizeLinear <axis = 0> (cq, cs, cz)
    g = com.microsoft.QGemm <alpha = 0.5, transB = 1> (q, as, az, bq, bs, bz)
    y = Identity(g) })");
}

TEST(FuseQdqIntoQlinear, GemmUnitsKeepTheOutputsWithinTheBudget) {
  expectSameOutputs(kPass, gemmUnit());
  expectSameOutputs(
      kPass, gemmUnit("g = Gemm <transB = 1> (d, b, c)", kFloatTail, "0.0001, 0.0002", false));
  expectSameOutputs(kPass, gemmUnit("g = Gemm <alpha = 0.5, transB = 1> (d, b)", kFloatTail,
                                    "0.0001, 0.0002", false));
}

TEST(FuseQdqIntoQlinear, ConvergesOnGemmUnits) {
  expectConverges(kPass, gemmUnit());
  expectConverges(kPass,
                  gemmUnit("g = Gemm <transB = 1> (d, b, c)", kFloatTail, "0.0001, 0.0002", false));
}

TEST(FuseQdqIntoQlinear, LeavesAGemmBiasOfAnotherScale) {
  expectUnchanged(kPass,
                  gemmUnit("g = Gemm <transB = 1> (d, b, c)", kFloatTail, "0.0003, 0.0002", false),
                  "not x_scale * w_scale");
}

TEST(FuseQdqIntoQlinear, LeavesAGemmWithABiasAndAlpha) {
  expectUnchanged(kPass, gemmUnit("g = Gemm <alpha = 2.0, transB = 1> (d, b, c)"),
                  "alpha or beta other than 1");
}

TEST(FuseQdqIntoQlinear, LeavesAGemmWhoseScalesAreNotPerColumn) {
  // Under transB the columns are axis 0 of B [N, K]: scales along axis 1 are per row of K.
  const std::string perK = R"(<ir_version: 8, opset_import: ["" : 13]>
main (float[2,3] a) => (float[2,2] y)
    <float as = {0.01}, uint8 az = {128}, int8[2,3] bq = {10, -20, 30, 40, -50, 60},
     float[3] bs = {0.01, 0.02, 0.03}, int8[3] bz = {0, 0, 0}> {
    q = QuantizeLinear(a, as, az)
    d = DequantizeLinear(q, as, az)
    b = DequantizeLinear <axis = 1> (bq, bs, bz)
    y = Gemm <transB = 1> (d, b) })";
  expectUnchanged(kPass, perK, "B's scales are not per column");
}

TEST(FuseQdqIntoQlinear, LeavesAGemmOfAFloatInput) {
  expectUnchanged(kPass,
                  gemmUnit("g = Gemm <transB = 1> (a, b, c)", kFloatTail, "0.0001, 0.0002", false),
                  "A is not a DequantizeLinear output");
}

// The Gemm's output read by its QuantizeLinear and by another node: the unit
// with the QuantizeLinear cannot go, the Gemm becomes a QGemm of float output.
TEST(FuseQdqIntoQlinear, AGemmReadTwiceBecomesAQGemmOfFloatOutput) {
  const std::string text = gemmUnit("g = Gemm <transB = 1> (d, b, c)",
                                    "yq = QuantizeLinear(g, ys, yz)\n    y = DequantizeLinear(yq, "
                                    "ys, yz)\n    g2 = Identity(g)",
                                    "0.0001, 0.0002", false);
  PassOutcome out = runPass(kPass, text);
  EXPECT_EQ(countOp(out.model, "QGemm"), 1);
  EXPECT_EQ(countOp(out.model, "Gemm"), 0);
  EXPECT_EQ(countOp(out.model, "QuantizeLinear"), 2);  // a's, and the Gemm output's
  const ir::Node* qgemm = onlyNode(out.model, "QGemm");
  ASSERT_NE(qgemm, nullptr);
  EXPECT_EQ(qgemm->inputCount(), 7u) << "no y_scale: float output";
  expectSameOutputs(kPass, text);
}

}  // namespace
}  // namespace passlab::testing
