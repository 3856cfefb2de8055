// The one rule every output check applies to NaN and infinity (the exact
// check's allClose, the accuracy budget's AccuracyMeter): a value pair where
// either side is not finite is equal only when both are the same non-finite
// value (NaN and NaN, +inf and +inf); any other such pair differs (a finite
// value against NaN, +inf against -inf or NaN). Equal non-finite pairs carry
// no error to measure, so the checks count them and say so; a check that saw
// only such pairs compared nothing (docs/numeric-check.md).
#pragma once

#include <cmath>

namespace passlab::pipeline {

enum class ValuePair {
  kFinite,          // both finite: compared by the check's figures
  kSameNonFinite,   // both NaN, or both the same infinity: equal
  kNonFiniteDiffer  // one or both not finite, and not the same value
};

inline ValuePair classifyPair(double got, double want) {
  if (std::isfinite(got) && std::isfinite(want)) return ValuePair::kFinite;
  if ((std::isnan(got) && std::isnan(want)) || got == want) return ValuePair::kSameNonFinite;
  return ValuePair::kNonFiniteDiffer;
}

}  // namespace passlab::pipeline
