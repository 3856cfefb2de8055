// Every pass, once. Adding a pass: write core/passes/<id>.cpp exposing its
// factory (its metadata from catalogInfo("<id>")), describe it in
// core/passes/pass_catalog.json, then add one line here (and to a level in
// registry.cpp if it belongs to one). The registry and catalog tests check ids
// are unique, metadata complete, and that every pass has one catalog entry.
#pragma once

#define PASSLAB_PASSES(X)                 \
  X(makeEliminateDeadNodes)               \
  X(makeEliminateIdentityOps)             \
  X(makeEliminateNoopOps)                 \
  X(makeEliminateInversePairs)            \
  X(makeSimplifyOpChains)                 \
  X(makeEliminateCommonSubexpressions)    \
  X(makeDeduplicateInitializers)          \
  X(makeFoldConstants)                    \
  X(makeFreezeInitializerInputs)          \
  X(makeFusePadIntoConvPool)              \
  X(makeFuseConvBatchnorm)                \
  X(makeFuseConvAddMul)                   \
  X(makeFuseBatchnormAddMul)              \
  X(makeFuseGemmBatchnorm)                \
  X(makeFuseMatmulAddIntoGemm)            \
  X(makeFuseTransposeIntoGemm)            \
  X(makeFuseConsecutiveTransposes)        \
  X(makeMergeConsecutiveSlices)           \
  X(makeFuseLogSoftmax)                   \
  X(makeFuseReduceUnsqueeze)              \
  X(makeFuseLayerNormalization)           \
  X(makeFuseGelu)                         \
  X(makeFuseHardSwish)                    \
  X(makeFuseSharedInputMatmuls)           \
  X(makeReplaceWithCheaperOps)            \
  X(makeReplaceDivByConstant)             \
  X(makeReassociateConstantChains)        \
  X(makeReplaceBatchnormWithMulAdd)       \
  X(makeReplaceReduceMeanWithGlobalPool)  \
  X(makeReplaceEinsumWithMatmul)          \
  X(makeReplaceConv1x1AndGemm)            \
  X(makeReplaceAvgpoolAndDepthwiseConv)   \
  X(makeHoistSliceGather)                 \
  X(makeHoistReduceScale)                 \
  X(makePushTransposes)                   \
  X(makeHoistCastReshape)                 \
  X(makeShareSymbolicDimReads)            \
  X(makeReplaceComputedReshapeShapes)     \
  X(makeHoistSelectionThroughShuffle)     \
  X(makeFuseConvActivation)               \
  X(makeFuseConvIntegerEpilogue)          \
  X(makeFuseQdqConvInteger)               \
  X(makeFuseGemmActivation)               \
  X(makeFuseElementwiseChains)            \
  X(makeConvertToBlockedLayout)           \
  X(makeFusePasslabAttention)             \
  X(makeFusePasslabLayerNorm)             \
  X(makeFusePasslabSoftmax)               \
  X(makeFuseOrtLayerNorm)                 \
  X(makeFuseOrtSkipLayerNorm)             \
  X(makeFuseOrtEmbedLayerNorm)            \
  X(makeFuseOrtGelu)                      \
  X(makeFuseOrtAttention)                 \
  X(makeConvertToFloat16)                 \
  X(makeConvertToBfloat16)                \
  X(makeQuantizeDynamic)                  \
  X(makeQuantizeStatic)                   \
  X(makeFuseQdqIntoQlinear)               \
  X(makeFoldQdqUnaryIntoLookup)           \
  X(makeFuseQdqSqueezeExcite)             \
  X(makeFuseQdqSqueezeExciteExact)        \
  X(makeConvertInt8ToChannelsLast)        \
  X(makeConvertDynamicInt8ToChannelsLast) \
  X(makeRaiseOpset)                       \
  X(makeFactorizeLowRank)                 \
  X(makePruneMagnitude)                   \
  X(makeRemoveDeadChannels)               \
  X(makeMergeLinearConvolutions)          \
  X(makeFuseDynamicQuantizeRange)         \
  X(makeFuseDynamicQuantizeIntoConv)
