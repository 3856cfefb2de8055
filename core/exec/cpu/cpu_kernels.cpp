// The CPU kernel table: every family, listed once.
#include "core/exec/cpu/cpu_backend.h"
#include "core/exec/cpu/families.h"

namespace passlab::exec::cpu {

const KernelRegistry& kernelRegistry() {
  static const KernelRegistry registry({
      unaryKernels(),        binaryKernels(),        clipKernels(),       matmulRefKernels(),
      matmulOneDnnKernels(), convRefKernels(),       convOneDnnKernels(), poolRefKernels(),
      poolOneDnnKernels(),   normalizationKernels(), softmaxKernels(),    shapeKernels(),
      generatorKernels(),    indexingKernels(),      transposeKernels(),  padKernels(),
      upsampleKernels(),     argMinMaxKernels(),     mlKernels(),         controlFlowKernels(),
      gatherScatterKernels(), blockCopyKernels(), indexKernels(), resizeKernels(),
      sequenceKernels(), optionalKernels(), rnnKernels(), quantizeKernels(), qlinearKernels(),
      contribGeluKernels(), contribLayerNormKernels(), contribAttentionKernels(),
      signalKernels(), stringKernels(), tfidfKernels(), labelEncoderKernels(), imageKernels(),
      roiKernels(), scan8Kernels(), beamSearchKernels(),
      unaryMathKernels(), activationKernels(), compareKernels(), logicalKernels(), powModKernels(),
      whereKernels(), reduceKernels(), castKernels(), expandKernels(), rangeKernels(),
      cumulativeKernels(), topKKernels(), eyeLikeKernels(), detKernels(), layerNormKernels(),
      groupNormKernels(), featureNormKernels(), einsumKernels(), randomKernels(),
      legacyArithKernels(),
  });
  return registry;
}

}  // namespace passlab::exec::cpu
