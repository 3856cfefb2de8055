#include "core/exec/cpu/gru_cell_float.h"

#include <algorithm>

#include "core/exec/cpu/lstm_cell_float.h"
#include "core/exec/cpu/sigmoid_rows.h"

namespace passlab::exec::cpu {

namespace {

void clipRow(float* x, int64_t n, float clip) {
  if (clip <= 0) return;
  for (int64_t i = 0; i < n; ++i) x[i] = std::clamp(x[i], -clip, clip);
}

}  // namespace

void gruCell(float* gates, const float* packedRh, const GruCellOptions& options, float* h,
             int64_t H, float* scratch) {
  float* z = gates;
  float* r = gates + H;
  float* n = gates + 2 * H;
  clipRow(z, 2 * H, options.clip);
  sigmoidRow(z, z, 2 * H);
  if (options.linearBeforeReset) {
    float* hh = scratch;  // h·Rh^T + Rbh
    std::copy_n(options.Rbh, H, hh);
    addRowTimesPacked(h, packedRh, H, H, hh);
    for (int64_t j = 0; j < H; ++j) n[j] += r[j] * hh[j];
  } else {
    float* rh = scratch;  // r ⊙ h, then (r ⊙ h)·Rh^T
    for (int64_t j = 0; j < H; ++j) rh[j] = r[j] * h[j];
    addRowTimesPacked(rh, packedRh, H, H, n);
  }
  clipRow(n, H, options.clip);
  tanhRow(n, n, H);
  for (int64_t j = 0; j < H; ++j) h[j] = (1.0f - z[j]) * n[j] + z[j] * h[j];
}

}  // namespace passlab::exec::cpu
