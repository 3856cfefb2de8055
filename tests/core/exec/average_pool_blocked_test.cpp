// onednn.AveragePool without AVX-512 on rows of 2-15 outputs, channels whole
// blocks of 8 (pool_onednn.cpp, blockedIsFaster): X reordered to nChw8c, the
// blocked kernel (blocked_pool_float.h), Y reordered back; the results equal
// the reference kernel's (3x3 strides 1 and 2, padding counted or not,
// ceil_mode, batch 2, 1 and 2 threads). oneDNN's log shows the two reorders
// there, none where the separable NCHW kernel keeps the pool (rows of 28,
// channels not whole blocks). Skipped with AVX-512 (unchanged there).
#include <gtest/gtest.h>

#include <string>
#include <vector>

#include "core/exec/executor.h"
#include "core/support/cpu_isa.h"
#include "tests/core/exec/kernel_test_util.h"
#include "tests/core/exec/onednn_verbose_log.h"

namespace passlab::exec {
namespace {

struct PoolCase {
  kt::Dims x, y;
  const char* attrs;
  bool blocked;  // expected to take the blocked path
};

std::string model(const PoolCase& c) {
  return std::string(R"(<ir_version: 8, opset_import: ["" : 20]>)") + "main (float[" +
         kt::dimsText(c.x) + "] x) => (float[" + kt::dimsText(c.y) + "] y) {\n y = AveragePool <" +
         c.attrs + "> (x) }";
}

TEST(AveragePoolBlocked, ShortRowsRunBlockedWithoutAvx512WithTheReferenceResults) {
  if (cpu_isa::hasAvx512f()) GTEST_SKIP() << "AVX-512: the NCHW kernels (unchanged)";
  const PoolCase cases[] = {
      // shufflenet's
      {{1, 136, 28, 28},
       {1, 136, 14, 14},
       "kernel_shape = [3, 3], strides = [2, 2], pads = [1, 1, 1, 1]",
       true},
      {{1, 272, 14, 14},
       {1, 272, 7, 7},
       "kernel_shape = [3, 3], strides = [2, 2], pads = [1, 1, 1, 1]",
       true},
      {{2, 16, 14, 14},
       {2, 16, 14, 14},
       "kernel_shape = [3, 3], pads = [1, 1, 1, 1], count_include_pad = 1",
       true},
      {{1, 24, 15, 13},
       {1, 24, 7, 6},
       "kernel_shape = [3, 3], strides = [2, 2], ceil_mode = 1",
       true},
      {{1, 32, 16, 16},
       {1, 32, 8, 8},
       "kernel_shape = [3, 3], strides = [2, 2], ceil_mode = 1, count_include_pad = 1",
       true},
      // the separable NCHW kernel: rows of 28, channels not whole blocks of 8
      {{1, 24, 56, 56},
       {1, 24, 28, 28},
       "kernel_shape = [3, 3], strides = [2, 2], pads = [1, 1, 1, 1]",
       false},
      {{1, 20, 14, 14},
       {1, 20, 7, 7},
       "kernel_shape = [3, 3], strides = [2, 2], pads = [1, 1, 1, 1]",
       false},
  };
  for (const PoolCase& c : cases)
    for (int threads : {1, 2}) {
      SCOPED_TRACE(kt::dimsText(c.x) + " " + c.attrs + ", " + std::to_string(threads) + " threads");
      NamedInputs in = {{"x", kt::uniformF32(c.x, 7, 2.0f)}};
      auto ex = Executor::create(testutil::parseModel(model(c)), ExecutorOptions{});
      ASSERT_TRUE(ex) << ex.error().message();
      RunOptions options;
      options.threads = threads;
      ASSERT_TRUE((*ex)->run(in, options));
      Expected<RunResult> out = RunResult{};
      std::vector<std::string> execs =
          testutil::onednnExecs([&] { out = (*ex)->run(in, options); });
      ASSERT_TRUE(out) << out.error().message();
      std::string all;
      int toBlocked = 0, fromBlocked = 0;
      for (const std::string& l : execs) {
        all += l + "\n";
        if (l.find(",reorder,") == std::string::npos) continue;
        if (l.find("src_f32::blocked:abcd:") != std::string::npos &&
            l.find("dst_f32::blocked:aBcd8b:") != std::string::npos)
          ++toBlocked;
        if (l.find("src_f32::blocked:aBcd8b:") != std::string::npos &&
            l.find("dst_f32::blocked:abcd:") != std::string::npos)
          ++fromBlocked;
      }
      EXPECT_EQ(toBlocked, c.blocked ? 1 : 0) << all;
      EXPECT_EQ(fromBlocked, c.blocked ? 1 : 0) << all;
      ir::Tensor want = kt::runOneOutput(model(c), in, true);
      kt::expectClose(out->outputs.at(0), want, "against the reference", 1e-5f);
    }
}

}  // namespace
}  // namespace passlab::exec
