#include "core/pipeline/accuracy.h"

#include <algorithm>
#include <cmath>
#include <cstring>
#include <type_traits>

#include "core/pipeline/accuracy_sums.h"
#include "core/support/strings.h"

namespace passlab::pipeline {

namespace {

// Each row is a probability distribution: no negative value, none above 1,
// the row sums to 1 within `kSumTolerance` (a Softmax output, a ZipMap's
// values; float16 rounding of 1000 classes stays well inside it). A box or a
// regression output does not sum to 1 row by row.
bool rowsAreProbabilities(const ir::Tensor& t, int64_t classes) {
  constexpr double kSumTolerance = 1e-3;
  if (classes <= 0 || t.numel() == 0) return false;
  for (int64_t begin = 0; begin < t.numel(); begin += classes) {
    double sum = 0;
    for (int64_t i = 0; i < classes; ++i) {
      const double v = t.valueAsDouble(begin + i);
      if (!(v >= 0 && v <= 1 + kSumTolerance)) return false;  // NaN too
      sum += v;
    }
    if (std::fabs(sum - 1) > kSumTolerance) return false;
  }
  return true;
}

// A classifier output: float, rank 1 (one row: a ZipMap's values) or 2 (rows
// of classes), and either at least kMinClasses classes (logits) or at least 2
// classes whose rows are probabilities (a 2-class softmax like the OCR
// direction classifier). Rank 3 and up stay out: a detector's per-anchor
// scores [1, N, 2] are softmax rows too, but the share of thousands of
// anchors, nearly all background, that keep their arg-max says nothing about
// the detections a user sees (those come after the box decoding and NMS).
bool isClassifierShape(const ir::Tensor& t) {
  if (!ir::isFloatingPoint(t.dtype()) || (t.rank() != 1 && t.rank() != 2)) return false;
  const int64_t classes = t.dims().back();
  if (classes < 2) return false;
  return classes >= kMinClasses || rowsAreProbabilities(t, classes);
}

// Index of the largest finite value of row [begin, begin + n); -1 when none.
int64_t argMax(const ir::Tensor& t, int64_t begin, int64_t n) {
  int64_t best = -1;
  double top = -std::numeric_limits<double>::infinity();
  for (int64_t i = 0; i < n; ++i) {
    const double v = t.valueAsDouble(begin + i);
    if (std::isfinite(v) && (best < 0 || v > top)) {
      best = i;
      top = v;
    }
  }
  return best;
}

// How many values of the row are larger than the value at `at`; all the
// others when it is not a number (NaN compares below nothing).
int64_t rankOf(const ir::Tensor& t, int64_t begin, int64_t n, int64_t at) {
  const double v = t.valueAsDouble(begin + at);
  if (!std::isfinite(v)) return n;
  int64_t above = 0;
  for (int64_t i = 0; i < n; ++i) above += t.valueAsDouble(begin + i) > v ? 1 : 0;
  return above;
}

// A float32 tensor's bytes, read by addFloatPairs (accuracy_sums.h).
struct FloatBytes {
  const std::byte* bytes;
};

std::string percent(double share) {
  return str::printed("%.4g%%", 100 * share);
}

}  // namespace

void AccuracyMeter::addClassifierRows(const ir::Tensor& got, const ir::Tensor& want) {
  const int64_t classes = want.dims().back();
  const int64_t rows = want.numel() / classes;
  // Top-k says something only with more than k classes (top-5 of 2 classes
  // is always 100%): k_ = 0 marks it as not reported from here on.
  if (classes <= k_) k_ = 0;
  for (int64_t r = 0; r < rows; ++r) {
    const int64_t ref = argMax(want, r * classes, classes);
    if (ref < 0) continue;
    ++rows_;
    const int64_t above = rankOf(got, r * classes, classes, ref);
    top1Hits_ += above == 0 ? 1 : 0;
    topKHits_ += k_ > 0 && above < k_ ? 1 : 0;
  }
}

template <class Got, class Want>
void AccuracyMeter::addValues(const Got& got, const Want& want, int64_t n) {
  AccuracySums sums;
  sums.dot = dot_, sums.gotSq = gotSq_, sums.wantSq = wantSq_, sums.errSq = errSq_;
  sums.maxErr = maxErr_, sums.maxRef = maxRef_;
  sums.nonFinite = nonFinite_, sums.nonFiniteDiffer = nonFiniteDiffer_;
  sums.sameNonFinite = sameNonFinite_, sums.finiteCompared = finiteCompared_;
  if constexpr (std::is_same_v<Got, FloatBytes> && std::is_same_v<Want, FloatBytes>)
    addFloatPairs(got.bytes, want.bytes, n, sums);
  else
    for (int64_t i = 0; i < n; ++i) addPair(got(i), want(i), sums);
  dot_ = sums.dot, gotSq_ = sums.gotSq, wantSq_ = sums.wantSq, errSq_ = sums.errSq;
  maxErr_ = sums.maxErr, maxRef_ = sums.maxRef;
  nonFinite_ = sums.nonFinite, nonFiniteDiffer_ = sums.nonFiniteDiffer;
  sameNonFinite_ = sums.sameNonFinite, finiteCompared_ = sums.finiteCompared;
}

void AccuracyMeter::add(const ir::Tensor& got, const ir::Tensor& want) {
  if (got.dims() != want.dims()) {
    mismatch_ = true;
    detail_ = Text::of("the shape is %1, the original's %2", got.summary(), want.summary());
    return;
  }
  const bool floats = ir::isFloatingPoint(want.dtype()) && ir::isFloatingPoint(got.dtype());
  if (!floats) {
    exact_ = true;
    if (got.dtype() != want.dtype()) {
      mismatch_ = true;
      detail_ = Text::of("the type is %1, the original's %2", got.summary(), want.summary());
      return;
    }
    if (got.bytes().size() != want.bytes().size() ||
        !std::equal(got.bytes().begin(), got.bytes().end(), want.bytes().begin()))
      unequal_ = true;
    return;
  }
  // float32 on both sides (nearly every check) is read in place; other
  // types value by value. The same sums in the same order either way.
  if (got.dtype() == ir::DataType::kFloat && want.dtype() == ir::DataType::kFloat)
    addValues(FloatBytes{got.bytes().data()}, FloatBytes{want.bytes().data()}, want.numel());
  else
    addValues([&](int64_t i) { return got.valueAsDouble(i); },
              [&](int64_t i) { return want.valueAsDouble(i); }, want.numel());
  classifier_ = classifier_ && isClassifierShape(want);
  if (classifier_) addClassifierRows(got, want);
}

OutputAccuracy AccuracyMeter::result() const {
  OutputAccuracy a;
  a.output = output_;
  a.detail = detail_;
  a.exactType = exact_;
  if (mismatch_) return a;
  a.compared = true;
  if (exact_) {
    a.cosine = unequal_ ? 0 : 1;
    a.snrDb = unequal_ ? -std::numeric_limits<double>::infinity()
                       : std::numeric_limits<double>::infinity();
    a.maxRelError = unequal_ ? 1 : 0;
    if (unequal_) a.detail = "the values differ (an exact type)";
    return a;
  }
  const double norms = std::sqrt(gotSq_) * std::sqrt(wantSq_);
  a.cosine = norms > 0 ? dot_ / norms : (gotSq_ == 0 && wantSq_ == 0 ? 1 : 0);
  a.snrDb =
      errSq_ == 0 ? std::numeric_limits<double>::infinity() : 10 * std::log10(wantSq_ / errSq_);
  a.maxRelError = maxErr_ == 0 ? 0 : (maxRef_ > 0 ? maxErr_ / maxRef_ : maxErr_);
  a.nonFinite = nonFinite_;
  a.nonFiniteDiffer = nonFiniteDiffer_;
  a.sameNonFinite = sameNonFinite_;
  a.finiteCompared = finiteCompared_;
  if (nonFinite_ > 0 || nonFiniteDiffer_ > 0) {
    a.cosine = 0;
    a.snrDb = -std::numeric_limits<double>::infinity();
    a.maxRelError = std::numeric_limits<double>::infinity();
  }
  if (classifier_ && rows_ > 0) {
    a.rows = rows_;
    a.k = k_;
    a.top1 = static_cast<double>(top1Hits_) / static_cast<double>(rows_);
    if (k_ > 0) a.topK = static_cast<double>(topKHits_) / static_cast<double>(rows_);
  }
  return a;
}

bool comparedNoFiniteValue(const OutputAccuracy& a) {
  return a.compared && !a.exactType && a.finiteCompared == 0 && a.sameNonFinite > 0;
}

Status validateBudget(const AccuracyBudget& b) {
  auto bad = [](const char* what, double v, const char* range) {
    return invalidArgument(
        Text::of("accuracy budget: %1 %2 is outside %3", what, str::printed("%g", v), range));
  };
  if (!(b.minCosine >= -1 && b.minCosine <= 1)) return bad("cosine", b.minCosine, "[-1, 1]");
  // inf would hold every lossy step over it, -inf would switch the SNR off.
  if (!std::isfinite(b.minSnrDb)) return bad("SNR", b.minSnrDb, "the finite numbers");
  if (!(b.maxRelError >= 0)) return bad("max relative error", b.maxRelError, "[0, inf]");
  if (!(b.minTop1 >= 0 && b.minTop1 <= 1)) return bad("top-1 agreement", b.minTop1, "[0, 1]");
  if (!(b.minTopK >= 0 && b.minTopK <= 1)) return bad("top-k agreement", b.minTopK, "[0, 1]");
  if (b.topK < 1) return bad("top-k", b.topK, "[1, inf)");
  return Status::ok();
}

Text whyOverBudget(const OutputAccuracy& a, const AccuracyBudget& budget) {
  if (!a.compared) return Text::of("output '%1' cannot be compared: %2", a.output, a.detail);
  if (a.exactType && a.maxRelError > 0)
    return Text::of("output '%1' is of an exact type and its values changed", a.output);
  if (a.nonFinite > 0)
    return Text::of("output '%1': %2 values are NaN or infinite where the original's are finite",
                    a.output, std::to_string(a.nonFinite));
  if (a.nonFiniteDiffer > 0)
    return Text::of("output '%1': %2 values differ where the original's are NaN or infinite",
                    a.output, std::to_string(a.nonFiniteDiffer));
  if (comparedNoFiniteValue(a))
    return Text::of(
        "output '%1': no finite value to compare: all %2 values are NaN or infinite in the "
        "original and the same in this model",
        a.output, std::to_string(a.sameNonFinite));
  if (a.cosine < budget.minCosine)
    return Text::of("output '%1': cosine similarity %2 is below %3", a.output,
                    str::printed("%.6g", a.cosine), str::printed("%.6g", budget.minCosine));
  if (a.snrDb < budget.minSnrDb)
    return Text::of("output '%1': SNR %2 dB is below %3 dB", a.output,
                    str::printed("%.3g", a.snrDb), str::printed("%.3g", budget.minSnrDb));
  if (a.maxRelError > budget.maxRelError)
    return Text::of("output '%1': max relative error %2 is above %3", a.output,
                    percent(a.maxRelError), percent(budget.maxRelError));
  if (a.top1 && *a.top1 < budget.minTop1)
    return Text::of("output '%1': top-1 agreement %2 is below %3", a.output, percent(*a.top1),
                    percent(budget.minTop1));
  // Not reported (k_ = 0: no more classes than k) is not limited either.
  if (a.topK && *a.topK < budget.minTopK)
    return Text::of("output '%1': top-%2 agreement %3 is below %4", a.output, std::to_string(a.k),
                    percent(*a.topK), percent(budget.minTopK));
  return "";
}

Text accuracyText(const OutputAccuracy& a) {
  if (!a.compared) return Text::of("not compared: %1", a.detail);
  if (a.exactType) return a.maxRelError > 0 ? Text("values differ") : Text("equal");
  Text t = Text::of("cosine %1, SNR %2 dB, max rel %3", str::printed("%.6g", a.cosine),
                    std::isinf(a.snrDb) ? std::string(a.snrDb > 0 ? "inf" : "-inf")
                                        : str::printed("%.3g", a.snrDb),
                    percent(a.maxRelError));
  if (comparedNoFiniteValue(a))
    return Text::of("no finite value compared: all %1 values NaN or infinite in both",
                    std::to_string(a.sameNonFinite));
  if (a.nonFinite > 0)
    t = Text::of("%1, %2 values NaN or infinite", t, std::to_string(a.nonFinite));
  if (a.nonFiniteDiffer > 0)
    t = Text::of("%1, %2 values differ where the original's are NaN or infinite", t,
                 std::to_string(a.nonFiniteDiffer));
  if (a.sameNonFinite > 0)
    t = Text::of("%1, %2 values NaN or infinite in both", t, std::to_string(a.sameNonFinite));
  if (a.top1 && a.topK)
    t = Text::of("%1, top-1 %2, top-%3 %4 (%5 rows)", t, percent(*a.top1), std::to_string(a.k),
                 percent(*a.topK), std::to_string(a.rows));
  else if (a.top1)
    t = Text::of("%1, top-1 %2 (%3 rows)", t, percent(*a.top1), std::to_string(a.rows));
  return t;
}

const OutputAccuracy* worstOutput(const std::vector<OutputAccuracy>& outputs) {
  const OutputAccuracy* worst = nullptr;
  for (const OutputAccuracy& a : outputs)
    if (!a.compared) return &a;
  for (const OutputAccuracy& a : outputs) {
    if (comparedNoFiniteValue(a)) return &a;
    if (!worst || a.snrDb < worst->snrDb) worst = &a;
  }
  return worst;
}

}  // namespace passlab::pipeline
