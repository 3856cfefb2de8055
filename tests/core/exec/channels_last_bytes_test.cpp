// toChannelsLastBytes (core/exec/cpu/channels_last_bytes.h) against the
// index formula dst[n, p, c] = src[n, c, p]: channel counts below, at and
// between multiples of 16, position counts with and without a partial tile,
// batches, one and two threads.
#include "core/exec/cpu/channels_last_bytes.h"

#include <gtest/gtest.h>

#include <cstdint>
#include <random>
#include <vector>

namespace passlab::exec::cpu {
namespace {

struct Shape {
  int64_t n, channels, positions;
};

class ChannelsLastBytes : public ::testing::TestWithParam<Shape> {};

TEST_P(ChannelsLastBytes, EqualsTheIndexFormula) {
  const Shape s = GetParam();
  const int64_t total = s.n * s.channels * s.positions;
  std::mt19937 rng(static_cast<uint32_t>(total));
  std::vector<uint8_t> src(static_cast<size_t>(total));
  for (uint8_t& v : src) v = static_cast<uint8_t>(rng());
  for (int threads : {1, 2}) {
    std::vector<uint8_t> dst(src.size(), 0);
    toChannelsLastBytes(src.data(), dst.data(), s.n, s.channels, s.positions, threads);
    int bad = 0;
    for (int64_t b = 0; b < s.n && bad < 5; ++b)
      for (int64_t c = 0; c < s.channels && bad < 5; ++c)
        for (int64_t p = 0; p < s.positions && bad < 5; ++p) {
          const int64_t base = b * s.channels * s.positions;
          const uint8_t want = src[static_cast<size_t>(base + c * s.positions + p)];
          const uint8_t got = dst[static_cast<size_t>(base + p * s.channels + c)];
          if (got != want) {
            ADD_FAILURE() << "threads " << threads << " n " << b << " c " << c << " p " << p << ": "
                          << int{got} << ", want " << int{want};
            ++bad;
          }
        }
  }
}

INSTANTIATE_TEST_SUITE_P(Shapes, ChannelsLastBytes,
                         ::testing::Values(Shape{1, 16, 16}, Shape{1, 3, 100}, Shape{1, 16, 77},
                                           Shape{2, 40, 63}, Shape{1, 64, 19200}, Shape{3, 33, 5},
                                           Shape{1, 1, 1}, Shape{2, 128, 48}));

}  // namespace
}  // namespace passlab::exec::cpu
