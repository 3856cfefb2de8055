// How far a lossy pass (lower precision, pruning, low rank) moved a model's
// outputs, and whether that is within the user's accuracy budget.
//
// Per output, on the check's input sets together:
//   cosine      cosine similarity of the output and the reference (1: the same
//               direction; both all zero: 1)
//   snrDb       signal-to-noise ratio, 10 log10(sum ref^2 / sum (out - ref)^2)
//               (infinite when equal)
//   maxRelError the largest |out - ref| over the largest |ref| (relative to the
//               output's range, so elements near zero do not blow it up)
//   top1, topK  for classifier outputs (float, rank 1 or 2, at least
//               kMinClasses entries on the last axis): the share of rows whose
//               reference arg-max is the output's arg-max, or among its k
//               largest
//   nonFinite   values NaN or infinite where the reference's are finite (a
//               float16 overflow): any makes the cosine 0, the SNR -inf and
//               the error infinite, so no budget holds; a row whose reference
//               arg-max became one does not agree on top-1 or top-k
//   nonFiniteDiffer values where the reference is NaN or infinite and the
//               output is not the same value (finite, or another non-finite
//               one): held like nonFinite
//   sameNonFinite values NaN in both, or the same infinity in both: equal
//               (non_finite_pair.h), not in the figures, reported
//   finiteCompared the value pairs the figures come from; none while some
//               were NaN or infinite is no comparison at all: over any budget
// Outputs of other element types (integers, bool) must be equal.
#pragma once

#include <cstdint>
#include <limits>
#include <optional>
#include <string>
#include <vector>

#include "core/ir/tensor.h"
#include "core/support/error.h"
#include "core/support/text.h"

namespace passlab::pipeline {

// Defaults chosen so that float16 and a good 8-bit quantization pass and a
// broken one (a wrong scale, a clipped range) does not; docs/precision.md.
struct AccuracyBudget {
  double minCosine = 0.99;
  double minSnrDb = 20;
  double maxRelError = std::numeric_limits<double>::infinity();  // reported, not limited
  double minTop1 = 0;                                            // reported, not limited
  double minTopK = 0;  // share of rows in the k largest; reported, not limited
  int topK = 5;        // the k of minTopK and of the top-k reported
};

struct OutputAccuracy {
  std::string output;
  bool compared = false;   // false: types or shapes differ (see `detail`)
  bool exactType = false;  // an integer or bool output, compared for equality
  double cosine = 1, snrDb = std::numeric_limits<double>::infinity(), maxRelError = 0;
  std::optional<double> top1, topK;  // classifier outputs only
  size_t rows = 0;                   // classifier rows compared
  size_t nonFinite = 0;              // NaN or infinite where the reference is finite
  size_t nonFiniteDiffer = 0;        // not the reference's NaN or infinity where it has one
  size_t sameNonFinite = 0;          // NaN in both, or the same infinity in both
  size_t finiteCompared = 0;         // both finite: the values the figures measure
  int k = 5;                         // of topK
  Text detail;
};

// A classifier needs this many classes on its last axis.
inline constexpr int64_t kMinClasses = 10;

// Accumulates one output over the input sets.
class AccuracyMeter {
 public:
  explicit AccuracyMeter(std::string output, int topK = 5) : output_(std::move(output)), k_(topK) {}
  // One input set's output `got` against the reference `want`.
  void add(const ir::Tensor& got, const ir::Tensor& want);
  OutputAccuracy result() const;

 private:
  void addClassifierRows(const ir::Tensor& got, const ir::Tensor& want);
  // The sums over n values got(i) and want(i) (doubles).
  template <class Got, class Want>
  void addValues(const Got& got, const Want& want, int64_t n);
  std::string output_;
  int k_;
  bool mismatch_ = false, exact_ = false, unequal_ = false;
  Text detail_;
  double dot_ = 0, gotSq_ = 0, wantSq_ = 0, errSq_ = 0, maxErr_ = 0, maxRef_ = 0;
  bool classifier_ = true;
  size_t rows_ = 0, top1Hits_ = 0, topKHits_ = 0, nonFinite_ = 0;
  size_t nonFiniteDiffer_ = 0, sameNonFinite_ = 0, finiteCompared_ = 0;
};

// A float output whose values were all NaN or infinite in the reference and
// the same in the output: nothing measured, so no budget can be said to hold.
bool comparedNoFiniteValue(const OutputAccuracy& a);

// An error naming the figure when a budget cannot mean anything: a cosine
// outside [-1, 1], a top-1 or top-k share outside [0, 1], a negative error,
// NaN, k < 1.
Status validateBudget(const AccuracyBudget& budget);

// "" when `a` is within `budget`; else which figure is over it, and by how much.
Text whyOverBudget(const OutputAccuracy& a, const AccuracyBudget& budget);

// "cosine 0.99987, SNR 41.2 dB, max rel 0.31%, top-1 100% (4 rows)".
Text accuracyText(const OutputAccuracy& a);

// The output a lossy step cost most: the first that could not be compared
// (its type or shape changed), else the first with no finite value compared,
// else the one with the lowest SNR; null for none.
const OutputAccuracy* worstOutput(const std::vector<OutputAccuracy>& outputs);

}  // namespace passlab::pipeline
