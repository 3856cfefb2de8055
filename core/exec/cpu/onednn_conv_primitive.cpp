#include "core/exec/cpu/onednn_conv_primitive.h"

#include <unordered_map>

#include "core/exec/cpu/onednn_util.h"

namespace passlab::exec::cpu::onednn {

using dnnl::memory;

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
  if (reorderSrc) toSrc = dnnl::reorder(dnnl::reorder::primitive_desc(eng, userSrc, eng, srcDesc));
  if (reorderWei) {
    toWei = dnnl::reorder(dnnl::reorder::primitive_desc(eng, userWei, eng, weiDesc));
    packedWei = memory(weiDesc, eng);
  }
  if (reorderDst)
    fromDst = dnnl::reorder(dnnl::reorder::primitive_desc(eng, dstDesc, eng, userDst));
}

void ConvPrimitive::inheritWeights(const ConvPrimitive& old) {
  if (!old.packedValid || old.userWei != userWei) return;
  if (old.packedWei.get_desc() == weiDesc) {
    packedWei = old.packedWei;
  } else {
    packedWei = memory(weiDesc, engine());
    memory from = old.packedWei;
    dnnl::reorder(from, packedWei).execute(stream(), from, packedWei);
    stream().wait();
  }
  packedValid = true;
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
    if (invariantWeights) packedValid = true;
    wei = target;
  }
  memory src = over(userSrc, x);
  Tensor srcScratch, dstScratch;
  if (reorderSrc) {
    PASSLAB_ASSIGN_OR_RETURN(
        srcScratch, ctx.scratch(ir::DataType::kUInt8, {static_cast<int64_t>(srcDesc.get_size())}));
    memory blocked(srcDesc, engine(), srcScratch.mutableRaw());
    toSrc.execute(s, src, blocked);
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
  if (bias) args[DNNL_ARG_BIAS] = over(biasDesc, *bias);
  if (binarySrc)
    args[DNNL_ARG_ATTR_MULTIPLE_POST_OP(0) | DNNL_ARG_SRC_1] = over(binaryDesc, *binarySrc);
  prim.execute(s, args);
  if (reorderDst) fromDst.execute(s, dst, userOut);
  s.wait();
  return Status::ok();
}

}  // namespace passlab::exec::cpu::onednn
