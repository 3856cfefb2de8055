// Helpers for the tests of the channel passes on shuffles, grouped Convs and
// residual streams (remove_dead_channels_grouped_test,
// remove_dead_channels_shuffle_test, prune_magnitude_shuffle_test,
// prune_magnitude_stream_test): a layer's constant inputs, its group count,
// the channels its weights zeroed, a variant of a model's text, and the
// outputs of a pass that must keep them exactly.
#pragma once

#include <gtest/gtest.h>

#include <cstdint>
#include <string>
#include <vector>

#include "core/io/text_format.h"
#include "tests/support/pass_harness.h"
#include "tests/support/test_support.h"

namespace passlab::testing::channels {

// The dims and the values of the initializer read as input `index` by the
// node whose first output is `output`; empty when there is none.
inline std::vector<int64_t> inputDims(const ir::Model& m, const std::string& output, size_t index) {
  const ir::Tensor* t = initializerInput(m, output, index);
  return t ? t->dims() : std::vector<int64_t>{};
}
inline std::vector<double> inputValues(const ir::Model& m, const std::string& output,
                                       size_t index) {
  const ir::Tensor* t = initializerInput(m, output, index);
  return t ? t->toDoubleVector() : std::vector<double>{};
}

// The `group` of the node whose first output is `output` (0: no such node).
inline int64_t groupOf(const ir::Model& m, const std::string& output) {
  for (const auto& n : m.graph().nodes())
    if (n->output(0)->name() == output) return n->attrInt("group", 1);
  return 0;
}

// The output channels (rows of `per` weights) that are all zero.
inline std::vector<int64_t> zeroRows(const std::vector<double>& w, size_t per) {
  std::vector<int64_t> out;
  for (size_t c = 0; c * per < w.size(); ++c) {
    bool zero = true;
    for (size_t r = 0; r < per; ++r) zero = zero && w[c * per + r] == 0;
    if (zero) out.push_back(static_cast<int64_t>(c));
  }
  return out;
}

// `text` with `from` (found once) replaced by `to`.
inline std::string replaced(std::string text, const std::string& from, const std::string& to) {
  const size_t at = text.find(from);
  EXPECT_NE(at, std::string::npos) << from;
  return at == std::string::npos ? text : text.replace(at, from.size(), to);
}

// The pass's model gives the outputs of `text` exactly (3 random input sets).
inline void expectEqualOutputs(const std::string& text, const PassOutcome& out) {
  NumericResult num = compareOutputs(parse(text), out.model, 3);
  ASSERT_TRUE(num.ran) << num.detail;
  EXPECT_TRUE(num.equal) << num.detail << "\n" << io::printModelText(out.model);
}

}  // namespace passlab::testing::channels
