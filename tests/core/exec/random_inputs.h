// Seeded random values for every input an Executor needs (its optional
// inputs left out): the inputs of tests that run one model on two executors
// and compare their outputs (output_buffers_test.cpp,
// quick_memory_plan_test.cpp).
#pragma once

#include <gtest/gtest.h>

#include <cstdint>

#include "core/exec/executor.h"
#include "core/exec/input_fill.h"

namespace passlab::exec::testutil {

inline NamedInputs randomInputs(const Executor& ex, uint64_t seed) {
  NamedInputs inputs;
  FillOptions fo;
  fo.fill = Fill::kRandom;
  fo.seed = seed;
  for (const InputInfo& in : ex.inputs()) {
    if (in.optional) continue;
    auto t = makeInput(in, fo);
    EXPECT_TRUE(t) << t.error().message();
    if (t) inputs.emplace_back(in.name, *t);
  }
  return inputs;
}

}  // namespace passlab::exec::testutil
