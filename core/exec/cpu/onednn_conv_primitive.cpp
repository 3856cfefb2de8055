#include "core/exec/cpu/onednn_conv_primitive.h"

#include <cstring>

#include <omp.h>

#include <optional>
#include <unordered_map>

#include "core/analysis/work_micros.h"
#include "core/exec/cpu/channels_last_bytes.h"
#include "core/exec/cpu/onednn_util.h"
#include "core/exec/fork_join_cost.h"

namespace passlab::exec::cpu::onednn {

using dnnl::memory;

namespace {

// Whether `to` is `from` (plain [N, C, spatial...], 8-bit, C >= 16) in
// channels-last. Below 16 channels (an image's 3) toChannelsLastBytes goes
// byte by byte, no faster than oneDNN's reorder (0.11 against 0.09 ms for
// ultraface's 3x240x320).
bool isByteChannelsLast(const memory::desc& from, const memory::desc& to) {
  using tag = memory::format_tag;
  const memory::data_type t = from.data_type();
  if (t != memory::data_type::u8 && t != memory::data_type::s8) return false;
  const memory::dims d = from.dims();
  const size_t spatial = d.size() < 3 ? 0 : d.size() - 2;
  if (spatial == 0 || spatial > 3 || d[1] < 16) return false;
  const tag plain = spatial == 1 ? tag::ncw : spatial == 2 ? tag::nchw : tag::ncdhw;
  const tag last = spatial == 1 ? tag::nwc : spatial == 2 ? tag::nhwc : tag::ndhwc;
  return from == memory::desc(d, t, plain) && to == memory::desc(d, t, last);
}

// The calling thread's OpenMP thread count is 1 while it lives: oneDNN
// primitives built then run on that thread alone (a reorder's thread count is
// fixed when it is built), and ones run then open no parallel region.
class OneOmpThread {
 public:
  OneOmpThread() : previous_(omp_get_max_threads()) { omp_set_num_threads(1); }
  ~OneOmpThread() { omp_set_num_threads(previous_); }
  OneOmpThread(const OneOmpThread&) = delete;
  OneOmpThread& operator=(const OneOmpThread&) = delete;

 private:
  int previous_;
};

// Whether reordering `user` (into another layout of the same size) moves too
// few bytes to pay for waking the other threads of `threads`
// (fork_join_cost.h): with idle threads sleeping each of oneDNN's reorders
// is one more wake per convolution on each side.
bool reorderAlone(const memory::desc& user, int threads) {
  if (threads <= 1) return false;
  const uint64_t bytes = user.get_size();
  return analysis::copyMicros(bytes) < splitLimitMicros(threads);
}

// Whether oneDNN has a reorder from `from` to `to`: not between two blocked
// int8 weight layouts that carry a compensation (the 1x1 brgconv's blocks
// differ with the thread count: AcdB48a4b on one thread, AcdB64a4b on two).
bool reorderExists(const memory::desc& from, const memory::desc& to) {
  auto& eng = engine();
  const dnnl::reorder::primitive_desc pd(eng, from, eng, to, dnnl::primitive_attr(), true);
  return pd.get(true) != nullptr;
}

dnnl::reorder makeReorder(const memory::desc& from, const memory::desc& to, bool alone) {
  std::optional<OneOmpThread> one;
  if (alone) one.emplace();
  auto& eng = engine();
  return dnnl::reorder(dnnl::reorder::primitive_desc(eng, from, eng, to));
}

void runReorder(dnnl::reorder& reorder, dnnl::stream& s, memory& from, memory& to, bool alone) {
  std::optional<OneOmpThread> one;
  if (alone) one.emplace();
  reorder.execute(s, from, to);
}

// y[n, c, ...] += bias[c] on plain [N, C, spatial...] float32, as oneDNN's
// GEMM-based convolution adds it (one float addition per element), so the
// result is the same bit for bit.
void addBias(const memory::desc& plain, const float* bias, float* y) {
  const memory::dims d = plain.dims();
  int64_t positions = 1;
  for (size_t i = 2; i < d.size(); ++i) positions *= d[i];
  for (int64_t n = 0; n < d[0]; ++n)
    for (int64_t c = 0; c < d[1]; ++c) {
      const float b = bias[c];
      float* row = y + (n * d[1] + c) * positions;
      for (int64_t i = 0; i < positions; ++i) row[i] += b;
    }
}

}  // namespace

bool biasAddedAlone(const memory::desc& dst, int threads) {
  return reorderAlone(dst, threads);
}

void ConvPrimitive::adopt(dnnl::primitive primitive, const memory::desc& src,
                          const memory::desc& wei, const memory::desc& dst) {
  prim = std::move(primitive);
  srcDesc = src;
  weiDesc = wei;
  dstDesc = dst;
  auto& eng = engine();
  reorderSrc = srcDesc != userSrc;
  reorderWei = weiDesc != userWei;
  reorderDst = dstDesc != userDst;
  transposeSrc = reorderSrc && isByteChannelsLast(userSrc, srcDesc);
  // Built while the OpenMP thread count is the kernel's (conv_onednn.cpp).
  const int threads = omp_get_max_threads();
  srcAlone = reorderSrc && !transposeSrc && reorderAlone(userSrc, threads);
  dstAlone = reorderDst && reorderAlone(userDst, threads);
  if (reorderSrc && !transposeSrc) toSrc = makeReorder(userSrc, srcDesc, srcAlone);
  if (reorderWei) {
    toWei = dnnl::reorder(dnnl::reorder::primitive_desc(eng, userWei, eng, weiDesc));
    packedWei = memory(weiDesc, eng);
  }
  if (reorderDst) fromDst = makeReorder(dstDesc, userDst, dstAlone);
}

bool ConvPrimitive::heldOneWay() const {
  return weiDesc.data.format_kind == dnnl_format_kind_wino;
}

void ConvPrimitive::inheritWeights(const ConvPrimitive& old) {
  if (!old.packedValid || old.userWei != userWei) return;
  if (old.packedWei.get_desc() == weiDesc) {
    packedWei = old.packedWei;
    plainWei = old.plainWei;
    packedValid = true;
    return;
  }
  packedWei = memory(weiDesc, engine());
  memory from = old.plainWei.get(true) ? old.plainWei : old.packedWei;
  if (heldOneWay()) {
    // Into a Winograd layout: through the plain one, which is kept.
    plainWei = memory(userWei, engine());
    dnnl::reorder(from, plainWei).execute(stream(), from, plainWei);
    dnnl::reorder(plainWei, packedWei).execute(stream(), plainWei, packedWei);
  } else if (reorderExists(from.get_desc(), weiDesc)) {
    dnnl::reorder(from, packedWei).execute(stream(), from, packedWei);
  } else {
    // Two layouts with a compensation (a source zero point's, or s8
    // sources'): oneDNN reorders them only to and from the user's plain
    // one, so through it (the values copied, the compensation made again
    // from them: the bytes a reorder from W writes).
    memory plain(userWei, engine());
    dnnl::reorder(from, plain).execute(stream(), from, plain);
    dnnl::reorder(plain, packedWei).execute(stream(), plain, packedWei);
  }
  stream().wait();
  packedValid = true;
}

void ConvPrimitive::unpackWeights(Tensor& out) const {
  memory from = plainWei.get(true) ? plainWei : packedWei;
  memory to(userWei, engine(), out.mutableRaw());
  dnnl::reorder(from, to).execute(stream(), from, to);
  stream().wait();
}

Status ConvPrimitive::execute(KernelContext& ctx, const Tensor& x, const Tensor& w,
                              const Tensor* bias, Tensor& y, bool invariantWeights,
                              const Tensor* binarySrc) {
  if (binarySrc && binaryDesc.is_zero())
    return internalError("a binary post-op input for a primitive without one");
  if (!binarySrc && !binaryDesc.is_zero())
    return internalError("the primitive's binary post-op has no input");
  dnnl::stream& s = stream();
  memory wei;
  if (invariantWeights && packedValid) {
    wei = packedWei;
  } else if (w.dataFreed()) {
    return internalError("the weights were freed and the primitive holds no copy of them");
  } else if (!reorderWei) {
    wei = over(userWei, w);
  } else {
    // The held copy is never overwritten by weights that change.
    memory target = packedValid ? memory(weiDesc, engine()) : packedWei;
    memory user = over(userWei, w);
    toWei.execute(s, user, target);
    if (invariantWeights && !packedValid && heldOneWay()) {
      plainWei = memory(userWei, engine());
      std::memcpy(plainWei.get_data_handle(), w.raw(), userWei.get_size());
    }
    if (invariantWeights) packedValid = true;
    wei = target;
  }
  memory src = over(userSrc, x);
  Tensor srcScratch, dstScratch;
  if (reorderSrc) {
    PASSLAB_ASSIGN_OR_RETURN(
        srcScratch, ctx.scratch(ir::DataType::kUInt8, {static_cast<int64_t>(srcDesc.get_size())}));
    memory blocked(srcDesc, engine(), srcScratch.mutableRaw());
    if (transposeSrc) {
      const memory::dims d = userSrc.dims();
      int64_t positions = 1;
      for (size_t i = 2; i < d.size(); ++i) positions *= d[i];
      toChannelsLastBytes(static_cast<const uint8_t*>(x.raw()), srcScratch.mutableData<uint8_t>(),
                          d[0], d[1], positions, ctx.threads());
    } else {
      runReorder(toSrc, s, src, blocked, srcAlone);
    }
    src = blocked;
  }
  memory userOut = over(userDst, y);
  memory dst = userOut;
  if (reorderDst) {
    PASSLAB_ASSIGN_OR_RETURN(
        dstScratch, ctx.scratch(ir::DataType::kUInt8, {static_cast<int64_t>(dstDesc.get_size())}));
    dst = memory(dstDesc, engine(), dstScratch.mutableRaw());
  }
  std::unordered_map<int, memory> args = {
      {DNNL_ARG_SRC, src}, {DNNL_ARG_WEIGHTS, wei}, {DNNL_ARG_DST, dst}};
  if (bias && !biasAfter) args[DNNL_ARG_BIAS] = over(biasDesc, *bias);
  if (binarySrc)
    args[DNNL_ARG_ATTR_MULTIPLE_POST_OP(0) | DNNL_ARG_SRC_1] = over(binaryDesc, *binarySrc);
  prim.execute(s, args);
  if (reorderDst) runReorder(fromDst, s, dst, userOut, dstAlone);
  s.wait();
  if (bias && biasAfter) addBias(userDst, bias->data<float>(), y.mutableData<float>());
  return Status::ok();
}

}  // namespace passlab::exec::cpu::onednn
