// A oneDNN (de)convolution primitive with the reorders around it, shared by
// the Conv/ConvTranspose kernels (conv_onednn.cpp) and FusedConv
// (passlab_fused_conv.cpp): built once per input shape, run on plain NCHW
// float32 tensors; each call reorders the input into the layout oneDNN picked
// and the result back; weights that are the same on every run are reordered
// once and kept.
#pragma once

#include <oneapi/dnnl/dnnl.hpp>

#include "core/exec/kernel.h"

namespace passlab::exec::cpu::onednn {

struct ConvPrimitive {
  dnnl::primitive prim;
  // The layouts the primitive chose, the user's plain ones, and the bias.
  dnnl::memory::desc srcDesc, weiDesc, dstDesc, userSrc, userWei, userDst, biasDesc;
  bool reorderSrc = false, reorderWei = false, reorderDst = false;
  // The source reorder is 8-bit [N, C, spatial...] to channels-last, which
  // toChannelsLastBytes (channels_last_bytes.h) does instead of oneDNN's reorder.
  bool transposeSrc = false;
  // The source / result reorder runs on the calling thread alone (built and
  // run so): its bytes are too few to pay for waking the others
  // (fork_join_cost.h).
  bool srcAlone = false, dstAlone = false;
  // The primitive was built without the bias, which execute() adds to the
  // (plain) result on the calling thread alone: oneDNN's GEMM-based
  // convolution adds it in a parallel region of its own, one more wake of
  // the sleeping threads per call (biasAddedAlone).
  bool biasAfter = false;
  dnnl::reorder toSrc, toWei, fromDst;
  dnnl::memory packedWei;    // weights in the primitive's layout
  bool packedValid = false;  // packedWei holds the invariant weights (kept across runs)
  // With packedValid, a plain copy of those weights (userWei) where oneDNN
  // has no reorder out of weiDesc (its Winograd layouts, heldOneWay): what
  // inheritWeights and unpackWeights read then. Empty otherwise.
  dnnl::memory plainWei;
  // The layout of the tensor a binary post-op at index 0 reads (a residual
  // added in the store loop); zero when the primitive has no such post-op.
  dnnl::memory::desc binaryDesc;

  // Whether it holds its own copy of the invariant weights (packedValid), so
  // the kernel may say KernelContext::holdsOwnCopy.
  bool holdsWeights() const { return packedValid; }
  // Whether weiDesc is a layout oneDNN reorders into but not out of (Winograd).
  bool heldOneWay() const;
  // A primitive built for another input shape takes the held weights of the
  // one it replaces (reordered into its layout, which may be the plain one),
  // so the weights' data is not read again; through the plain layout where
  // oneDNN has no reorder between the two (blocked int8 layouts with a
  // compensation).
  void inheritWeights(const ConvPrimitive& old);
  // The held weights (holdsWeights) in the user's plain layout, written to
  // `out` (float32, userWei's size; a reorder, so the same bits as W): for a
  // kernel that reads W as stored on a shape this primitive does not run,
  // once W's own data was freed.
  void unpackWeights(Tensor& out) const;

  // Takes the primitive and the layouts it chose, and builds the reorders
  // from and to the user's layouts (userSrc, userWei and userDst set first).
  void adopt(dnnl::primitive primitive, const dnnl::memory::desc& src,
             const dnnl::memory::desc& wei, const dnnl::memory::desc& dst);

  // y = conv(x, w) + bias (bias may be null), all float32 in the user's
  // layouts. `invariantWeights`: w holds the same values on every run of
  // this node (KernelContext::invariantInput), so its reordered copy may be
  // kept; never keyed by buffer address. Weights that are not invariant (a
  // run that overrides an initializer) are packed per run, and the held copy
  // stays as it was. `binarySrc`: what the binary post-op reads (binaryDesc).
  Status execute(KernelContext& ctx, const Tensor& x, const Tensor& w, const Tensor* bias,
                 Tensor& y, bool invariantWeights, const Tensor* binarySrc = nullptr);
};

// Whether adding the bias to a result of layout `dst` moves too few bytes to
// pay for waking the other threads of `threads` (fork_join_cost.h), so a
// primitive with no post-ops is better built without it (biasAfter). Only
// for results the primitive writes in the user's plain layout.
bool biasAddedAlone(const dnnl::memory::desc& dst, int threads);

}  // namespace passlab::exec::cpu::onednn
