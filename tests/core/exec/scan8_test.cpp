// Scan as opset 8 defines it: a batch dim in front, per-entry sequence
// lengths, reversed scan inputs.
#include <gtest/gtest.h>

#include "tests/core/exec/kernel_test_util.h"

namespace passlab::exec {
namespace {

using kt::f32;
using kt::i64;

const char* kCumulativeSum = R"(<ir_version: 8, opset_import: ["" : 8]>
    main (int64[2] lens, float[2,2] init, float[2,3,2] x) => (float[2,2] sum, float[2,3,2] partial) {
      sum, partial = Scan <num_scan_inputs = 1, directions = [DIRECTION],
          body = g (float[2] s, float[2] v) => (float[2] so, float[2] po) {
            so = Add(s, v)
            po = Identity(so)
          }> (lens, init, x)
    })";

std::string withDirection(int d) {
  std::string t = kCumulativeSum;
  t.replace(t.find("DIRECTION"), 9, std::to_string(d));
  return t;
}

TEST(Scan8, BatchesWithTheirOwnLengths) {
  auto r = testutil::runText(withDirection(0),
                             {{"lens", i64({2}, {3, 2})},
                              {"init", f32({2, 2}, {0, 0, 10, 10})},
                              {"x", f32({2, 3, 2}, {1, 2, 3, 4, 5, 6, 1, 1, 2, 2, 100, 100})}});
  kt::expectNear(r.outputs[0], {9, 12, 13, 13});
  // Entry 1 stops after two steps: its third scan output is zero.
  kt::expectNear(r.outputs[1], {1, 2, 4, 6, 9, 12, 11, 11, 13, 13, 0, 0});
}

TEST(Scan8, ReverseDirection) {
  auto r = testutil::runText(withDirection(1),
                             {{"lens", i64({2}, {3, 3})},
                              {"init", f32({2, 2}, {0, 0, 0, 0})},
                              {"x", f32({2, 3, 2}, {1, 2, 3, 4, 5, 6, 1, 1, 1, 1, 1, 1})}});
  kt::expectNear(r.outputs[1], {5, 6, 8, 10, 9, 12, 1, 1, 2, 2, 3, 3});
  kt::expectError(withDirection(0),
                  {{"lens", i64({2}, {3, 4})},
                   {"init", f32({2, 2}, {0, 0, 0, 0})},
                   {"x", f32({2, 3, 2}, {1, 2, 3, 4, 5, 6, 1, 1, 1, 1, 1, 1})}},
                  {"sequence length 4 is out of range [0, 3]"});
}

}  // namespace
}  // namespace passlab::exec
