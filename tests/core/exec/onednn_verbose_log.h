// oneDNN's verbose log of what ran: the tests that check which
// implementation and layouts a kernel's primitives take (a name mismatch or a
// reorder that should not happen fails them, not only a slowdown).
#pragma once

#include <gtest/gtest.h>
#include <oneapi/dnnl/dnnl.h>

#include <sstream>
#include <string>
#include <vector>

#include "core/exec/cpu/onednn_util.h"

namespace passlab::exec::testutil {

// True when oneDNN runs its AVX-512 kernels here. The implementations and
// layouts some tests expect are those; a CPU without AVX-512 (or
// PASSLAB_MAX_ISA=avx2 / sse2, the isa_ ctests) gets others, which those
// tests skip (docs/exec-backends.md, "Instruction sets").
inline bool onednnRunsAvx512() {
  cpu::onednn::engine();  // capped at PASSLAB_MAX_ISA first
  return (dnnl_get_effective_cpu_isa() & dnnl_cpu_isa_avx512_core) == dnnl_cpu_isa_avx512_core;
}

// The executions oneDNN logs while `f` runs (its `,exec,` lines).
template <class F>
std::vector<std::string> onednnExecs(F f) {
  ::testing::internal::CaptureStdout();
  const bool verbose = dnnl_set_verbose(1) == dnnl_success;
  f();
  dnnl_set_verbose(0);
  const std::string log = ::testing::internal::GetCapturedStdout();
  EXPECT_TRUE(verbose) << "this oneDNN build has no verbose mode";
  std::vector<std::string> execs;
  std::istringstream lines(log);
  for (std::string line; std::getline(lines, line);)
    if (line.find(",exec,") != std::string::npos) execs.push_back(line);
  return execs;
}

}  // namespace passlab::exec::testutil
