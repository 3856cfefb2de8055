// The two scans TensorStats::add makes over a calibration tensor, without a
// division per element: the finite range, and each finite value's bin in the
// streaming histogram. The bins are those the division gives: k =
// min(floor(|x| / width), bins - 1) with |x| / width computed in double. A
// multiplication by the reciprocal (1 / width, computed once) is within
// 1e-12 of that quotient (quotients stay below ~2 * bins), so its floor is
// the same except where it lies within 1e-9 of an integer: those values are
// divided as before. AVX-512 where the CPU has it (cpu_isa), else scalar.
#pragma once

#include <cstddef>
#include <cstdint>

namespace passlab::passes::calibration_bins {

// The smallest and largest finite value and how many are finite. Where the
// smallest (largest) is a zero, its sign is that of the first zero: a scan
// keeping the first of equal values gives the same bits.
struct FiniteRange {
  float lo = 0, hi = 0;
  size_t finite = 0;
};
FiniteRange finiteRange(const float* x, size_t n);

// Counts every finite x[i] in pos[k] (x >= 0, -0 included) or neg[k] (x <
// 0), k as above; width 0: every finite value in bin 0 (only zeros are
// added then). NaN and infinities are skipped.
void addToBins(const float* x, size_t n, double width, size_t bins, uint64_t* pos, uint64_t* neg);

// The same without AVX-512, for the tests and CPUs without it.
FiniteRange finiteRangePortable(const float* x, size_t n);
void addToBinsPortable(const float* x, size_t n, double width, size_t bins, uint64_t* pos,
                       uint64_t* neg);

}  // namespace passlab::passes::calibration_bins
