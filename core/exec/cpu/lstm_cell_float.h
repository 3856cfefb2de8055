// The float32 LSTM step with the gate functions ONNX defaults to (sigmoid for
// i, o and f; tanh for the cell input and the output) on sigmoid_rows.h's
// vectorized rows, and the recurrent product h·R^T for one batch entry on R
// packed once, so that the lanes run along the gates instead of reducing
// along H (16 lanes on AVX-512, 4 lanes on the SSE2 baseline, chosen at run
// time). The Recurrent kernel (rnn.cpp) runs float LSTMs with the default
// activations through these; other activations stay on its scalar loop.
#pragma once

#include <cstdint>
#include <string_view>
#include <vector>

namespace passlab::exec::cpu {

// What an LSTM direction adds to the plain cell.
struct LstmCellOptions {
  const float* peepholes = nullptr;  // P for i, o, f (H values each), or none
  float clip = 0.0f;                 // pre-activations clamped to [-clip, clip]; 0: none
  bool inputForget = false;          // f = 1 - i
};

// One batch entry's step. `gates` holds the 4H pre-activations in ONNX's
// order i, o, f, c (x·W^T + h·R^T + Wb + Rb) and is used as scratch; c and h
// (H each) are the state, updated in place: c = f*c + i*g, h = o*tanh(c).
void lstmCell(float* gates, const LstmCellOptions& options, float* c, float* h, int64_t H);

// h·R^T for one batch entry reads R (N = 4H rows of K = H) packed once:
// column blocks of kPackedColumns outputs, block b holding R[b * kPackedColumns
// + i][k] at (b * K + k) * kPackedColumns + i, the last block zero-padded, so
// the product streams through memory with the lanes along the outputs.
inline constexpr int64_t kPackedColumns = 64;
std::vector<float> packForRowTimes(const float* M, int64_t N, int64_t K);
// M [N][K] back from packForRowTimes's layout, appended to `out`.
void unpackRowTimes(const float* packed, int64_t N, int64_t K, std::vector<float>& out);

// out[n] += sum_k v[k] * M[n][k] for n in [0, N), M given packed.
void addRowTimesPacked(const float* v, const float* packed, int64_t K, int64_t N, float* out);

// The instruction set addRowTimesPacked uses on this machine: "avx512" or "vec4".
const char* rowTimesPackedIsa();

// Test hook: one path ("avx512", "vec4"); false where this machine lacks it.
bool addRowTimesPackedOn(std::string_view isa, const float* v, const float* packed, int64_t K,
                         int64_t N, float* out);

}  // namespace passlab::exec::cpu
