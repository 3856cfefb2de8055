// The CPU kernel families: each file under core/exec/cpu/ holds one family's
// kernels and its table of rows. cpu_kernels.cpp lists every family once.
#pragma once

#include <span>

#include "core/exec/kernel.h"

namespace passlab::exec::cpu {

std::span<const KernelDef> unaryKernels();            // unary_ops.cpp
std::span<const KernelDef> binaryKernels();           // binary_ops.cpp
std::span<const KernelDef> clipKernels();             // clip.cpp
std::span<const KernelDef> matmulRefKernels();        // matmul_ref.cpp
std::span<const KernelDef> matmulOneDnnKernels();     // matmul_onednn.cpp
std::span<const KernelDef> convRefKernels();          // conv_ref.cpp
std::span<const KernelDef> deformConvKernels();       // deform_conv.cpp
std::span<const KernelDef> causalConvKernels();       // causal_conv.cpp
std::span<const KernelDef> linearAttentionKernels();  // linear_attention.cpp
std::span<const KernelDef> convOneDnnKernels();       // conv_onednn.cpp
std::span<const KernelDef> poolRefKernels();          // pool_ref.cpp
std::span<const KernelDef> poolOneDnnKernels();       // pool_onednn.cpp
std::span<const KernelDef> normalizationKernels();    // normalization.cpp
std::span<const KernelDef> softmaxKernels();          // softmax.cpp
std::span<const KernelDef> shapeKernels();            // shape_ops.cpp
std::span<const KernelDef> generatorKernels();        // generators.cpp
std::span<const KernelDef> indexingKernels();         // indexing.cpp
std::span<const KernelDef> transposeKernels();        // transpose.cpp
std::span<const KernelDef> padKernels();              // pad.cpp
std::span<const KernelDef> upsampleKernels();         // upsample.cpp
std::span<const KernelDef> argMinMaxKernels();        // argminmax.cpp
std::span<const KernelDef> mlKernels();               // ml_ops.cpp
std::span<const KernelDef> controlFlowKernels();      // control_flow.cpp
// Operator breadth: elementwise math, comparisons, casts, reductions, norms, ...
std::span<const KernelDef> unaryMathKernels();    // unary_math.cpp
std::span<const KernelDef> activationKernels();   // activations.cpp
std::span<const KernelDef> compareKernels();      // compare_ops.cpp
std::span<const KernelDef> logicalKernels();      // logical_ops.cpp
std::span<const KernelDef> powModKernels();       // pow_mod.cpp
std::span<const KernelDef> whereKernels();        // where.cpp
std::span<const KernelDef> reduceKernels();       // reduce.cpp
std::span<const KernelDef> castKernels();         // cast.cpp
std::span<const KernelDef> expandKernels();       // expand.cpp
std::span<const KernelDef> rangeKernels();        // range.cpp
std::span<const KernelDef> cumulativeKernels();   // cumulative.cpp
std::span<const KernelDef> topKKernels();         // topk.cpp
std::span<const KernelDef> eyeLikeKernels();      // eye_like.cpp
std::span<const KernelDef> detKernels();          // det.cpp
std::span<const KernelDef> layerNormKernels();    // layer_norm.cpp
std::span<const KernelDef> groupNormKernels();    // group_norm.cpp
std::span<const KernelDef> featureNormKernels();  // feature_norm.cpp
std::span<const KernelDef> einsumKernels();       // einsum.cpp
std::span<const KernelDef> randomKernels();       // random_ops.cpp
std::span<const KernelDef> legacyArithKernels();  // legacy_arith.cpp
std::span<const KernelDef> legacyOpKernels();     // legacy_ops.cpp
std::span<const KernelDef> qonnxKernels();        // qonnx_ops.cpp
// Data movement, sequences, recurrent, quantized, contrib and signal ops.
std::span<const KernelDef> gatherScatterKernels();      // gather_scatter.cpp
std::span<const KernelDef> blockCopyKernels();          // block_copy.cpp
std::span<const KernelDef> indexKernels();              // index_ops.cpp
std::span<const KernelDef> resizeKernels();             // resize.cpp
std::span<const KernelDef> sequenceKernels();           // sequence_ops.cpp
std::span<const KernelDef> optionalKernels();           // optional_ops.cpp
std::span<const KernelDef> rnnKernels();                // rnn.cpp
std::span<const KernelDef> quantizeKernels();           // quantize.cpp
std::span<const KernelDef> qlinearKernels();            // qlinear.cpp
std::span<const KernelDef> qlinearOneDnnKernels();      // qlinear_conv_onednn.cpp
std::span<const KernelDef> convIntegerOneDnnKernels();  // conv_integer_onednn.cpp
std::span<const KernelDef> contribGeluKernels();        // contrib_gelu.cpp
std::span<const KernelDef> contribLayerNormKernels();   // contrib_layer_norm.cpp
std::span<const KernelDef> contribAttentionKernels();   // contrib_attention.cpp
std::span<const KernelDef> contribQLinearKernels();     // contrib_qlinear.cpp
std::span<const KernelDef> passlabFusedKernels();       // passlab_fused_*.cpp (ai.passlab)
std::span<const KernelDef> signalKernels();             // signal_ops.cpp
std::span<const KernelDef> stringKernels();             // string_ops.cpp
std::span<const KernelDef> tfidfKernels();              // tfidf.cpp
std::span<const KernelDef> labelEncoderKernels();       // label_encoder.cpp
std::span<const KernelDef> imageKernels();              // image_ops.cpp
std::span<const KernelDef> roiKernels();                // roi_ops.cpp
std::span<const KernelDef> scan8Kernels();              // scan8.cpp
std::span<const KernelDef> beamSearchKernels();         // beam_search.cpp
std::span<const KernelDef> lossKernels();               // losses.cpp
std::span<const KernelDef> attentionKernels();          // attention.cpp
std::span<const KernelDef> recentOpKernels();           // recent_ops.cpp

}  // namespace passlab::exec::cpu
