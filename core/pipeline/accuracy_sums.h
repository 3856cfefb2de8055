// The running sums of AccuracyMeter (core/pipeline/accuracy.h) over value
// pairs, and the loop that adds float32 pairs to them. Each sum is a sequence
// of double additions in the order the values come, and the figures (cosine,
// SNR, the search's ranking built on them) depend on that order to the last
// bit: every path here adds in that order, so they all give the same bytes.
#pragma once

#include <algorithm>
#include <cmath>
#include <cstddef>
#include <cstdint>

#include "core/pipeline/non_finite_pair.h"

namespace passlab::pipeline {

struct AccuracySums {
  double dot = 0, gotSq = 0, wantSq = 0, errSq = 0, maxErr = 0, maxRef = 0;
  size_t nonFinite = 0;        // NaN or infinite where the reference is finite
  size_t nonFiniteDiffer = 0;  // not the reference's NaN or infinity where it has one
  size_t sameNonFinite = 0;    // NaN in both, or the same infinity in both
  size_t finiteCompared = 0;   // both finite: in the sums
};

// One pair: the rule every path follows (non_finite_pair.h for the pairs
// that are not both finite). Inline, so that the loops keep the sums in
// registers.
inline void addPair(double got, double want, AccuracySums& s) {
  // Not in the sums (they stay numbers); the meter reports the counts.
  const ValuePair pair = classifyPair(got, want);
  if (pair == ValuePair::kSameNonFinite) {
    ++s.sameNonFinite;
    return;
  }
  if (pair == ValuePair::kNonFiniteDiffer) {
    ++(std::isfinite(want) ? s.nonFinite : s.nonFiniteDiffer);
    return;
  }
  ++s.finiteCompared;
  const double e = got - want;
  s.dot += got * want;
  s.gotSq += got * got;
  s.wantSq += want * want;
  s.errSq += e * e;
  s.maxErr = std::max(s.maxErr, std::fabs(e));
  s.maxRef = std::max(s.maxRef, std::fabs(want));
}

// n float32 pairs at `got` and `want` (any alignment). With AVX2 (asked of
// core/support/cpu_isa.h) four pairs at a time, the four sums in the lanes
// of one register, else one pair at a time; the same sums either way.
void addFloatPairs(const std::byte* got, const std::byte* want, int64_t n, AccuracySums& s);

// The one-pair-at-a-time loop, whatever the CPU (the tests compare with it).
void addFloatPairsScalar(const std::byte* got, const std::byte* want, int64_t n, AccuracySums& s);

}  // namespace passlab::pipeline
