#include "core/exec/cuda/norm_reduce_plan.h"

#include <algorithm>
#include <string>

#include "core/exec/cpu/attention_shape.h"
#include "core/exec/cpu/data_util.h"
#include "core/exec/cpu/reduce_plan.h"
#include "core/exec/kernel.h"

namespace passlab::exec::cuda {

namespace {

std::string dimsText(const Dims& d) {
  std::string s = "[";
  for (size_t i = 0; i < d.size(); ++i) s += (i ? "," : "") + std::to_string(d[i]);
  return s + "]";
}

}  // namespace

Expected<SoftmaxRows> softmaxRows(const Dims& dims, int64_t axis, bool flattened) {
  const auto rank = static_cast<int64_t>(dims.size());
  const int64_t a = axis < 0 ? axis + rank : axis;
  if (rank == 0 || a < 0 || a >= rank)
    return invalidArgument("axis " + std::to_string(axis) + " is out of range for " +
                           dimsText(dims));
  SoftmaxRows r;
  for (int64_t i = 0; i < a; ++i) r.outer *= dims[static_cast<size_t>(i)];
  if (flattened) {
    for (int64_t i = a; i < rank; ++i) r.len *= dims[static_cast<size_t>(i)];
  } else {
    r.len = dims[static_cast<size_t>(a)];
    for (int64_t i = a + 1; i < rank; ++i) r.inner *= dims[static_cast<size_t>(i)];
  }
  return r;
}

Expected<ArgRows> argRows(const Dims& dims, int64_t axis, bool keepDims) {
  const auto rank = static_cast<int64_t>(dims.size());
  PASSLAB_ASSIGN_OR_RETURN(int64_t a, cpu::normalizeAxis(axis, rank));
  ArgRows r;
  for (int64_t d = 0; d < rank; ++d) {
    const int64_t e = dims[static_cast<size_t>(d)];
    if (d < a) r.outer *= e;
    if (d > a) r.inner *= e;
    if (d == a) r.len = e;
    if (d != a)
      r.outDims.push_back(e);
    else if (keepDims)
      r.outDims.push_back(1);
  }
  return r;
}

Expected<NormRows> normRows(const Dims& dims, int64_t axis) {
  const auto rank = static_cast<int64_t>(dims.size());
  if (rank == 0) return invalidArgument("the input must have at least one dim");
  PASSLAB_ASSIGN_OR_RETURN(int64_t a, cpu::normalizeAxis(axis, rank));
  NormRows r;
  r.normDims.assign(dims.begin() + a, dims.end());
  r.cols = 1;
  for (int64_t d : r.normDims) r.cols *= d;
  int64_t total = 1;
  for (int64_t d : dims) total *= d;
  r.rows = r.cols == 0 ? 0 : total / r.cols;
  return r;
}

Expected<int64_t> repeatingParamCount(const Dims& param, const Dims& normDims, const char* what) {
  size_t first = 0;
  while (first < param.size() && param[first] == 1) ++first;
  const size_t n = param.size() - first;
  bool ok = n <= normDims.size();
  int64_t count = 1;
  for (size_t i = 0; ok && i < n; ++i) {
    const int64_t d = param[first + i];
    ok = d == normDims[normDims.size() - n + i];
    count *= d;
  }
  if (!ok)
    return invalidArgument(std::string(what) + " " + dimsText(param) +
                           " does not broadcast to the normalized dims " + dimsText(normDims));
  return count;
}

Expected<std::vector<int64_t>> broadcastStrides(const Dims& maskDims, const Dims& xDims) {
  const size_t R = xDims.size();
  if (maskDims.size() > R)
    return invalidArgument("the mask " + dimsText(maskDims) + " has more dims than X " +
                           dimsText(xDims));
  std::vector<int64_t> s(R, 0);
  int64_t acc = 1;
  for (size_t i = 0; i < maskDims.size(); ++i) {
    const size_t j = maskDims.size() - 1 - i, o = R - 1 - i;
    if (maskDims[j] != 1 && maskDims[j] != xDims[o])
      return invalidArgument("the mask " + dimsText(maskDims) + " does not broadcast into X " +
                             dimsText(xDims));
    s[o] = maskDims[j] == 1 ? 0 : acc;
    acc *= maskDims[j];
  }
  return s;
}

Expected<CudaReducePlan> planCudaReduce(const Dims& dims, const std::vector<int64_t>& axes,
                                        bool keepDims, bool noopWithEmptyAxes) {
  const auto rank = static_cast<int64_t>(dims.size());
  std::vector<bool> flags;
  if (axes.empty()) {
    flags.assign(static_cast<size_t>(rank), !noopWithEmptyAxes);
  } else {
    PASSLAB_ASSIGN_OR_RETURN(flags, cpu::reducedAxes(axes, rank));
  }
  CudaReducePlan p;
  // Input strides, then blocks of adjacent dims with the same flag (dims of
  // extent 1 dropped: they move nothing).
  std::vector<int64_t> strides(dims.size(), 1);
  for (int64_t i = rank - 2; i >= 0; --i)
    strides[static_cast<size_t>(i)] =
        strides[static_cast<size_t>(i) + 1] * dims[static_cast<size_t>(i) + 1];
  std::vector<int64_t> keptD, keptS, redD, redS;
  int lastFlag = -1;
  ReduceGeometry& g = p.geometry;
  g.out_count = 1;
  g.reduced_count = 1;
  for (size_t i = 0; i < dims.size(); ++i) {
    const bool red = flags[i];
    if (red) {
      g.reduced_count *= dims[i];
      if (keepDims) p.outDims.push_back(1);
    } else {
      g.out_count *= dims[i];
      p.outDims.push_back(dims[i]);
    }
    if (dims[i] == 1) continue;
    auto& D = red ? redD : keptD;
    auto& S = red ? redS : keptS;
    if (lastFlag == static_cast<int>(red) && !D.empty()) {
      // Merge with the previous dim of this kind (adjacent in memory).
      D.back() *= dims[i];
      S.back() = strides[i];
    } else {
      D.push_back(dims[i]);
      S.push_back(strides[i]);
    }
    lastFlag = static_cast<int>(red);
  }
  if (keptD.size() > static_cast<size_t>(kMaxReduceRank) ||
      redD.size() > static_cast<size_t>(kMaxReduceRank))
    return unsupported("a reduction of " + dimsText(dims) + " over " + std::to_string(axes.size()) +
                       " axes has more than " + std::to_string(kMaxReduceRank) +
                       " separate blocks of dims");
  g.kept_rank = static_cast<int>(keptD.size());
  for (size_t i = 0; i < keptD.size(); ++i) {
    g.kept_dims[i] = keptD[i];
    g.kept_strides[i] = keptS[i];
  }
  g.reduced_rank = static_cast<int>(redD.size());
  for (size_t i = 0; i < redD.size(); ++i) {
    g.reduced_dims[i] = redD[i];
    g.reduced_strides[i] = redS[i];
  }
  return p;
}

namespace {

// Element strides of `d` seen with `rank` dims; 0 along dims of extent 1.
std::vector<int64_t> paddedStrides(const Dims& d, size_t rank) {
  std::vector<int64_t> s(rank, 0);
  int64_t acc = 1;
  for (size_t i = 0; i < d.size(); ++i) {
    const size_t j = d.size() - 1 - i, o = rank - 1 - i;
    s[o] = d[j] == 1 ? 0 : acc;
    acc *= d[j];
  }
  return s;
}

}  // namespace

Expected<Dims> planAttention(const Dims& q, const Dims& k, const Dims& v, bool kTransposed,
                             const Dims* const masks[3], AttentionArgs& args) {
  const std::string shapes = "Q " + dimsText(q) + ", K " + dimsText(k) +
                             (kTransposed ? " (transposed)" : "") + " and V " + dimsText(v);
  if (q.size() < 2 || k.size() < 2 || v.size() < 2)
    return invalidArgument("FusedAttention needs Q, K and V of rank >= 2 (got " + shapes + ")");
  auto text = [&] { return shapes; };
  PASSLAB_ASSIGN_OR_RETURN(cpu::AttentionShape shape,
                           cpu::attentionShape(q, k, v, kTransposed, text, text));
  const size_t R = shape.rank;
  const int64_t S = shape.S, H = shape.H, T = shape.T, Hv = shape.Hv;
  const Dims& batch = shape.batch;
  if (batch.size() > static_cast<size_t>(kMaxAttentionBatchRank))
    return unsupported("FusedAttention: more than " + std::to_string(kMaxAttentionBatchRank) +
                       " batch dims (" + shapes + ")");
  Dims scoreDims = batch;
  scoreDims.push_back(S);
  scoreDims.push_back(T);
  const auto qs = paddedStrides(q, R), ks = paddedStrides(k, R), vs = paddedStrides(v, R);
  args.batch_rank = static_cast<int>(batch.size());
  args.batches = 1;
  for (size_t i = 0; i < batch.size(); ++i) {
    args.batch_dims[i] = batch[i];
    args.q_strides[i] = qs[i];
    args.k_strides[i] = ks[i];
    args.v_strides[i] = vs[i];
    args.batches *= batch[i];
  }
  for (int m = 0; m < 3; ++m) {
    for (size_t i = 0; i < batch.size(); ++i) args.mask_strides[m][i] = 0;
    args.mask_row_stride[m] = args.mask_col_stride[m] = 0;
    if (!masks[m]) continue;
    const Dims& md = *masks[m];
    auto st = md.size() <= R ? broadcastStrides(md, scoreDims)
                             : Expected<std::vector<int64_t>>(invalidArgument("rank"));
    if (!st)
      return invalidArgument("FusedAttention: a mask " + dimsText(md) +
                             " does not broadcast to the scores " + dimsText(scoreDims));
    for (size_t i = 0; i < batch.size(); ++i) args.mask_strides[m][i] = st.value()[i];
    args.mask_row_stride[m] = st.value()[R - 2];
    args.mask_col_stride[m] = st.value()[R - 1];
  }
  args.S = S;
  args.T = T;
  args.H = H;
  args.Hv = Hv;
  Dims out = batch;
  out.push_back(S);
  out.push_back(Hv);
  return out;
}

}  // namespace passlab::exec::cuda
