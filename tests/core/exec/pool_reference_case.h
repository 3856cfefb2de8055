// One pooling case and what the reference kernel gives on it: shared by the
// tests of the fast pooling kernels (pool_max_float_test.cpp,
// blocked_pool_float_test.cpp), which compare against it.
#pragma once

#include <gtest/gtest.h>

#include <optional>
#include <string>
#include <vector>

#include "core/exec/cpu/pool_geometry.h"
#include "tests/core/exec/exec_test_util.h"

namespace passlab::exec::pooltest {

struct Case {
  const char* name;
  Dims x, kernel, strides, dilations, pads;
  bool ceil = false;
};

inline std::string ints(const Dims& v) {
  std::string s = "[";
  for (size_t i = 0; i < v.size(); ++i) s += (i ? ", " : "") + std::to_string(v[i]);
  return s + "]";
}

// The pooling node; `extra` adds AveragePool's count_include_pad (opset 19
// has dilations for it).
inline std::string modelText(const Case& c, const Dims& out, const std::string& op,
                             const std::string& extra = "") {
  return "<ir_version: 9, opset_import: [\"\" : 19]>\nmain (float" + ints(c.x) + " x) => (float" +
         ints(out) + " y) {\n y = " + op + " <kernel_shape = " + ints(c.kernel) +
         ", strides = " + ints(c.strides) + ", dilations = " + ints(c.dilations) +
         ", pads = " + ints(c.pads) + ", ceil_mode = " + std::to_string(c.ceil ? 1 : 0) + extra +
         "> (x) }";
}

// The case's geometry, its input (NCHW: distinct, unordered, both signs) and
// the reference kernel's output for `op`.
struct Setup {
  cpu::PoolGeometry g;
  std::vector<float> x, want;
};
inline std::optional<Setup> setUp(const Case& c, const std::string& op,
                                  const std::string& extra = "") {
  cpu::PoolAttrs a;
  a.window.kernel = c.kernel;
  a.window.strides = c.strides;
  a.window.dilations = c.dilations;
  a.window.pads = c.pads;
  a.window.ceilMode = c.ceil;
  auto g = cpu::poolGeometry(a, c.x);
  EXPECT_TRUE(g) << g.error().message();
  if (!g) return std::nullopt;
  Setup s{*g, {}, {}};
  int64_t n = 1;
  for (int64_t d : c.x) n *= d;
  s.x.resize(static_cast<size_t>(n));
  for (int64_t i = 0; i < n; ++i)
    s.x[static_cast<size_t>(i)] = static_cast<float>((i * 7919) % 1009) - 504.5f;
  ExecutorOptions ref;
  ref.referenceKernels = true;
  RunResult r = testutil::runText(modelText(c, g->outDims, op, extra),
                                  {{"x", testutil::floats(c.x, s.x)}}, ref);
  EXPECT_EQ(r.outputs.size(), 1u);
  if (r.outputs.size() != 1) return std::nullopt;
  EXPECT_EQ(r.outputs[0].dims(), g->outDims);
  s.want = testutil::toFloats(r.outputs[0]);
  return s;
}

}  // namespace passlab::exec::pooltest
