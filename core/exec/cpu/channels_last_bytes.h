// 8-bit activations from [N, C, positions] (NCHW-style) to [N, positions, C]
// (channels-last), the source layout oneDNN's int8 convolutions pick. oneDNN's
// own reorder for this takes about 3.6 GB/s here (ultraface's u8 source
// reorders: 1.1 ms a run, more than its int8 convolutions); 16x16 byte blocks
// transposed in SSE2 registers do the same about 2.4x faster (32x120x160:
// 0.069 against 0.168 ms). Channels and positions outside whole blocks go
// one byte at a time.
#pragma once

#include <cstdint>

namespace passlab::exec::cpu {

// dst[n, p, c] = src[n, c, p] for bytes; src and dst must not overlap.
void toChannelsLastBytes(const uint8_t* src, uint8_t* dst, int64_t n, int64_t channels,
                         int64_t positions, int threads);

}  // namespace passlab::exec::cpu
