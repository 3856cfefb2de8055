// The two facts of one ConvInteger or FusedConvInteger node's invariant W
// that decide whether oneDNN's int8 path is exact for it (#25), each worked
// out once from W's values: a later plan may run after W was freed (held
// packed), and a fact not decided by then reads false.
#pragma once

#include <optional>

#include "core/exec/cpu/narrow_signed_weights.h"
#include "core/exec/cpu/qlinear_onednn_requantization.h"
#include "core/exec/tensor.h"

namespace passlab::exec::cpu::qlinear {

class SignedWeightChecks {
 public:
  // Without VNNI: every W' in [-64, 64] (narrowSignedWeights); the caller
  // checks that the activations are uint8.
  bool narrow(const Tensor& w) { return once(narrow_, w, narrowSignedWeights); }

  // Whether oneDNN's int32 sums of X and W' come out exact on this CPU
  // (int8ConvSumsExact: below 2^24 unless AVX-512 VNNI).
  bool sumsExact(const Tensor& w) {
    return once(sumsExact_, w,
                [](const Tensor& t) { return int8ConvSumsExact(largestSignedWeightSum(t)); });
  }

 private:
  template <typename Decide>
  static bool once(std::optional<bool>& fact, const Tensor& w, Decide decide) {
    if (!fact) {
      if (w.dataFreed()) return false;
      fact = decide(w);
    }
    return *fact;
  }

  std::optional<bool> narrow_;
  std::optional<bool> sumsExact_;
};

}  // namespace passlab::exec::cpu::qlinear
