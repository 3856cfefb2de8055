// The CPU kernel table: every family, listed once.
#include "core/exec/cpu/cpu_backend.h"
#include "core/exec/cpu/families.h"

namespace passlab::exec::cpu {

// Families declared here rather than in families.h (every family includes
// that header; editing it rebuilds them all): deform_conv.cpp, causal_conv.cpp,
// linear_attention.cpp.
std::span<const KernelDef> deformConvKernels();
std::span<const KernelDef> causalConvKernels();
std::span<const KernelDef> linearAttentionKernels();

const KernelRegistry& kernelRegistry() {
  static const KernelRegistry registry({
      unaryKernels(),
      binaryKernels(),
      clipKernels(),
      matmulRefKernels(),
      matmulOneDnnKernels(),
      convRefKernels(),
      deformConvKernels(),
      causalConvKernels(),
      convOneDnnKernels(),
      poolRefKernels(),
      poolOneDnnKernels(),
      normalizationKernels(),
      softmaxKernels(),
      shapeKernels(),
      generatorKernels(),
      indexingKernels(),
      transposeKernels(),
      padKernels(),
      upsampleKernels(),
      argMinMaxKernels(),
      mlKernels(),
      controlFlowKernels(),
      gatherScatterKernels(),
      blockCopyKernels(),
      indexKernels(),
      resizeKernels(),
      sequenceKernels(),
      optionalKernels(),
      rnnKernels(),
      quantizeKernels(),
      qlinearKernels(),
      qlinearOneDnnKernels(),
      convIntegerOneDnnKernels(),
      contribGeluKernels(),
      contribLayerNormKernels(),
      contribAttentionKernels(),
      contribQLinearKernels(),
      passlabFusedKernels(),
      signalKernels(),
      stringKernels(),
      tfidfKernels(),
      labelEncoderKernels(),
      imageKernels(),
      roiKernels(),
      scan8Kernels(),
      beamSearchKernels(),
      unaryMathKernels(),
      activationKernels(),
      compareKernels(),
      logicalKernels(),
      powModKernels(),
      whereKernels(),
      reduceKernels(),
      castKernels(),
      expandKernels(),
      rangeKernels(),
      cumulativeKernels(),
      topKKernels(),
      eyeLikeKernels(),
      detKernels(),
      layerNormKernels(),
      groupNormKernels(),
      featureNormKernels(),
      einsumKernels(),
      randomKernels(),
      legacyArithKernels(),
      legacyOpKernels(),
      qonnxKernels(),
      lossKernels(),
      recentOpKernels(),
      attentionKernels(),
      linearAttentionKernels(),
  });
  return registry;
}

}  // namespace passlab::exec::cpu
