// The float32 GRU step with the gate functions ONNX defaults to (sigmoid for
// z and r, tanh for the hidden gate) on sigmoid_rows.h's vectorized rows, the
// recurrent product of the hidden gate on R packed once (lstm_cell_float.h's
// addRowTimesPacked). The Recurrent kernel (rnn.cpp) runs float GRUs with the
// default activations through it; other activations stay on its scalar loop.
#pragma once

#include <cstdint>

namespace passlab::exec::cpu {

struct GruCellOptions {
  float clip = 0.0f;               // pre-activations clamped to [-clip, clip]; 0: none
  bool linearBeforeReset = false;  // n = g(xh + Wbh + r ⊙ (h·Rh^T + Rbh))
  const float* Rbh = nullptr;      // H values: Rb's hidden gate (linear_before_reset only)
};

// One batch entry's step. `gates` holds 3H values in ONNX's order z, r, h: z
// and r are x·W^T + h·R^T + Wb + Rb; the hidden gate is xh·Wh^T + Wbh, plus
// Rbh without linear_before_reset. `packedRh` is packForRowTimes(Rh, H, H).
// h (H values) is updated in place; `gates` and `scratch` (H values) are
// used as scratch.
void gruCell(float* gates, const float* packedRh, const GruCellOptions& options, float* h,
             int64_t H, float* scratch);

}  // namespace passlab::exec::cpu
