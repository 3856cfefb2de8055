// The taps of one output's window along one axis of a pool (Window3): those
// inside the input (the first, how many, the step) and how many lie inside
// the padded input (count_include_pad counts these; pads ceil_mode adds do not).
// Shared by the separable NCHW pools (pool_max_float.cpp) and the blocked ones
// (blocked_pool_float.cpp).
#pragma once

#include <cstddef>
#include <cstdint>

#include "core/exec/cpu/window3.h"

namespace passlab::exec::cpu {

struct Taps {
  int64_t first = 0, count = 0, step = 1, padded = 0;
};

inline Taps taps(const Window3& q, size_t a, int64_t o) {
  const int64_t start = o * q.s[a] - q.pb[a];
  Taps t{0, 0, q.d[a], 0};
  for (int64_t j = 0; j < q.k[a]; ++j) {
    const int64_t i = start + j * q.d[a];
    if (i >= -q.pb[a] && i < q.in[a] + q.pe[a]) ++t.padded;
    if (i < 0 || i >= q.in[a]) continue;
    if (t.count == 0) t.first = i;
    ++t.count;
  }
  return t;
}

}  // namespace passlab::exec::cpu
