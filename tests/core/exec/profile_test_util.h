// Helpers for the executor tests that tell which kernel ran a step (the kept
// values and shape values tests: a reused step's profile row names
// kKeptKernel or kShapeKernel): a profiled run, and the kernel of the profile
// row of the node that writes a value.
#pragma once

#include <gtest/gtest.h>

#include <string>

#include "core/exec/compiled_graph.h"
#include "core/exec/executor.h"

namespace passlab::exec::testutil {

// One run of `ex` on `in` with the per-node profile on.
inline RunResult profiled(Executor& ex, const NamedInputs& in) {
  RunOptions ro;
  ro.profile = true;
  auto r = ex.run(in, ro);
  EXPECT_TRUE(r) << (r ? "" : r.error().message());
  return r ? std::move(r).value() : RunResult{};
}

// The kernel of the profile row of the node that writes `out`.
inline std::string kernelOf(const RunResult& r, const Executor& ex, const std::string& out) {
  for (const Step& s : ex.compiled().steps)
    if (s.node->output(0)->name() == out)
      for (const NodeProfile& p : r.profile)
        if (p.nodeId == s.node->id()) return p.kernel;
  ADD_FAILURE() << "no profile row for the node that writes " << out;
  return {};
}

}  // namespace passlab::exec::testutil
