// SymInt: numbers, symbols and polynomials, read back from dim names.
#include "core/analysis/sym_int.h"

#include <gtest/gtest.h>

namespace passlab::analysis {
namespace {

TEST(SymInt, ArithmeticOnNumbers) {
  EXPECT_EQ((SymInt(6) + SymInt(-2)).constant(), 4);
  EXPECT_EQ((SymInt(6) * SymInt(7)).constant(), 42);
  EXPECT_EQ(SymInt(-7).floorDiv(SymInt(2)).constant(), -4);
  EXPECT_EQ(SymInt(7).ceilDiv(SymInt(2)).constant(), 4);
  EXPECT_FALSE(SymInt(7).floorDiv(SymInt(0)).isKnown());
  EXPECT_FALSE((SymInt(INT64_MAX) + SymInt(1)).isKnown());  // overflow is unknown, not wrong
}

TEST(SymInt, PolynomialsCancelAndPrintCanonically) {
  SymInt past = SymInt::symbol("past_seq_len"), seq = SymInt::symbol("seq_len");
  SymInt total = past + seq;
  EXPECT_EQ(total.toString(), "past_seq_len + seq_len");
  EXPECT_EQ((total - seq).toString(), "past_seq_len");
  EXPECT_TRUE((total - seq).sameAs(past));
  EXPECT_EQ((SymInt(2) * seq - SymInt(1)).toString(), "2*seq_len - 1");
  EXPECT_EQ((seq * SymInt::symbol("N")).toString(), "N*seq_len");
}

TEST(SymInt, ExactDivision) {
  SymInt n = SymInt::symbol("N");
  SymInt x = SymInt(768) * n * SymInt::symbol("S");
  EXPECT_EQ(x.exactDiv(SymInt(768)).toString(), "N*S");
  EXPECT_EQ(x.exactDiv(SymInt(64) * n).toString(), "12*S");
  EXPECT_FALSE(n.exactDiv(SymInt(2)).isKnown());  // N/2 is not a polynomial
  EXPECT_FALSE(SymInt(7).exactDiv(SymInt(2)).isKnown());
  EXPECT_EQ(n.exactDiv(n).constant(), 1);
}

TEST(SymInt, FloorOfAPolynomialIsANamedSymbolThatReadsBack) {
  SymInt h = SymInt::symbol("H");
  // A stride-2 convolution: floor((H - 1)/2) + 1, twice the same name for the same input.
  SymInt out = (h - SymInt(1)).floorDiv(SymInt(2)) + SymInt(1);
  EXPECT_EQ(out.toString(), "floor((H - 1)/2) + 1");
  EXPECT_TRUE(out.sameAs((h - SymInt(1)).floorDiv(SymInt(2)) + SymInt(1)));
  SymInt back = SymInt::fromDim(out.toDim());
  EXPECT_TRUE(back.sameAs(out));
  EXPECT_EQ((back - SymInt(1)).toString(), "floor((H - 1)/2)");
  EXPECT_EQ(h.ceilDiv(SymInt(2)).toString(), "floor((H + 1)/2)");
  EXPECT_EQ((SymInt(2) * h).floorDiv(SymInt(2)).toString(), "H");  // exact when it can be
  EXPECT_EQ(SymInt(-7).floorDiv(SymInt(2)).constant(), -4);
}

TEST(SymInt, DimsRoundTrip) {
  EXPECT_EQ(SymInt::fromDim(ir::Dim(5)).constant(), 5);
  EXPECT_FALSE(SymInt::fromDim(ir::Dim()).isKnown());
  EXPECT_EQ(SymInt::fromDim(ir::Dim::symbol("batch")).toDim().param(), "batch");
  // ONNX Runtime writes sums like this one; it is read as the sum.
  SymInt s = SymInt::fromDim(ir::Dim::symbol("past_seq_len+seq_len"));
  EXPECT_EQ((s - SymInt::symbol("seq_len")).toString(), "past_seq_len");
  // A name that is not a polynomial stays one opaque symbol.
  EXPECT_EQ(SymInt::fromDim(ir::Dim::symbol("p2o.Dim(0)")).toString(), "p2o.Dim(0)");
  EXPECT_TRUE(SymInt(-1).toDim().isUnknown());  // never a negative dim
}

}  // namespace
}  // namespace passlab::analysis
