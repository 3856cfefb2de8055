// Inference rules, one function per op (or per group of ops with one shape
// law), grouped by family. All of them are registered in one place:
// core/analysis/infer/rule_list.cpp.
#pragma once

#include <string_view>

#include "core/analysis/infer/context.h"

namespace passlab::analysis::infer {

using Rule = void (*)(InferContext&);

// The rule for (domain, op), or nullptr. "ai.onnx" and "" are the same domain.
Rule findRule(std::string_view domain, std::string_view op);
// The same for a node, by its interned op type (no string built per node).
Rule findRule(const ir::Node& n);
// Number of (domain, op) pairs with a rule.
size_t ruleCount();

// Element types every op gets from its schema (run before the op's rule).
void inferTypesFromSchema(InferContext& ctx);
// Checks input/output counts and required inputs against the schema; fails the
// context (and returns false) when the node cannot be an instance of its op.
bool checkArity(InferContext& ctx);

// ---- elementwise.cpp ----
void inferCrop(InferContext& ctx);  // legacy.cpp: experimental ops
void inferGivenTensorFill(InferContext& ctx);
void inferSameShape(InferContext& ctx);  // Relu, Sigmoid, Softmax, ...: output 0 like input 0
void inferIdentity(InferContext& ctx);   // whole type and tracked value pass through
void inferBroadcast(InferContext& ctx);  // Add, Equal, And, ...: multidirectional broadcast
void inferVariadic(InferContext& ctx);   // Sum, Max, Min, Mean
void inferWhere(InferContext& ctx);
void inferCast(InferContext& ctx);
void inferCastLike(InferContext& ctx);
void inferDropout(InferContext& ctx);
void inferNeg(InferContext& ctx);  // same shape; tracked values negate

// ---- reduction.cpp ----
void inferReduce(InferContext& ctx);     // Reduce* (axes attribute or input by opset)
void inferArgReduce(InferContext& ctx);  // ArgMax, ArgMin

// ---- conv_pool.cpp ----
void inferConv(InferContext& ctx);  // Conv, ConvInteger, FusedConv, DeformConv
void inferConvTranspose(InferContext& ctx);
void inferPool(InferContext& ctx);  // MaxPool, AveragePool, LpPool
void inferGlobalPool(InferContext& ctx);
void inferRoiPool(InferContext& ctx);  // MaxRoiPool, RoiAlign
void inferMaxUnpool(InferContext& ctx);
void inferCol2Im(InferContext& ctx);
void inferCausalConvWithState(InferContext& ctx);

// ---- passlab_fused.cpp (ai.passlab, no schema: the rules set the element type too) ----
void inferPasslabFusedConv(InferContext& ctx);
void inferPasslabFusedConvInteger(InferContext& ctx);
void inferPasslabFusedGemm(InferContext& ctx);
void inferPasslabFusedElementwise(InferContext& ctx);
void inferPasslabFusedAttention(InferContext& ctx);
void inferPasslabFusedLayerNorm(InferContext& ctx);
void inferPasslabFusedSoftmax(InferContext& ctx);
// ---- passlab_blocked.cpp (the blocked layout; FusedConv with `block` too) ----
void inferPasslabReorderToBlocked(InferContext& ctx);
void inferPasslabReorderFromBlocked(InferContext& ctx);
void inferPasslabBlockedConv(InferContext& ctx);
void inferPasslabBlockedPool(InferContext& ctx);
// ---- passlab_lookup.cpp (QLinearLookup: Y of X's shape, the table's type) ----
void inferPasslabQLinearLookup(InferContext& ctx);
// QLinearSqueezeExcite: Y of X's shape, y_zero_point's type.
void inferPasslabQLinearSqueezeExcite(InferContext& ctx);

// ---- matmul.cpp ----
void inferMatMul(InferContext& ctx);
void inferGemm(InferContext& ctx);  // Gemm, FusedGemm
// com.microsoft QGemm: Gemm's shape of A and B (input 3), y_zero_point's type, float without it.
void inferQGemm(InferContext& ctx);
void inferFusedMatMul(InferContext& ctx);  // com.microsoft FusedMatMul / TransposeMatMul
void inferEinsum(InferContext& ctx);

// ---- shape_ops.cpp (Shape, Size, Reshape, Flatten, Squeeze, Unsqueeze, Transpose) ----
void inferShape(InferContext& ctx);
void inferSize(InferContext& ctx);
void inferReshape(InferContext& ctx);
void inferFlatten(InferContext& ctx);
void inferSqueeze(InferContext& ctx);
void inferUnsqueeze(InferContext& ctx);
void inferTranspose(InferContext& ctx);
void inferDepthToSpace(InferContext& ctx);  // DepthToSpace, SpaceToDepth

// ---- generate.cpp (ops that make tensors from shapes or values) ----
void inferConstant(InferContext& ctx);
void inferConstantOfShape(InferContext& ctx);
void inferExpand(InferContext& ctx);
void inferTile(InferContext& ctx);
void inferRange(InferContext& ctx);
void inferEyeLike(InferContext& ctx);
void inferRandom(InferContext& ctx);      // RandomNormal, RandomUniform (shape attribute)
void inferRandomLike(InferContext& ctx);  // RandomNormalLike, RandomUniformLike, Bernoulli
void inferOneHot(InferContext& ctx);
void inferWindow(InferContext& ctx);  // HannWindow, HammingWindow, BlackmanWindow

// ---- slice_concat.cpp ----
void inferConcat(InferContext& ctx);
void inferQLinearConcat(InferContext& ctx);  // com.microsoft: the data inputs concatenated
void inferSplit(InferContext& ctx);
void inferSlice(InferContext& ctx);

// ---- gather_pad.cpp (Gather and friends, Pad, TopK, data-dependent sizes) ----
void inferGather(InferContext& ctx);
void inferGatherElements(InferContext& ctx);
void inferGatherND(InferContext& ctx);
void inferPad(InferContext& ctx);
void inferTopK(InferContext& ctx);
void inferNonZero(InferContext& ctx);
void inferCompress(InferContext& ctx);
void inferUnique(InferContext& ctx);
void inferNonMaxSuppression(InferContext& ctx);
void inferCenterCropPad(InferContext& ctx);

// ---- resize.cpp ----
void inferResize(InferContext& ctx);  // Resize, Upsample (scales or sizes, by opset)
void inferGridSample(InferContext& ctx);
void inferAffineGrid(InferContext& ctx);

// ---- control_flow.cpp ----
void inferIf(InferContext& ctx);
void inferLoop(InferContext& ctx);
void inferScan(InferContext& ctx);

// ---- sequence.cpp (sequences and optionals) ----
void inferSequenceConstruct(InferContext& ctx);
void inferSequenceEmpty(InferContext& ctx);
void inferSequenceAt(InferContext& ctx);
void inferSequenceInsert(InferContext& ctx);  // SequenceInsert, SequenceErase
void inferSequenceLength(InferContext& ctx);
void inferSplitToSequence(InferContext& ctx);
void inferConcatFromSequence(InferContext& ctx);
void inferSequenceMap(InferContext& ctx);
void inferOptional(InferContext& ctx);
void inferOptionalGetElement(InferContext& ctx);
void inferOptionalHasElement(InferContext& ctx);

// ---- rnn.cpp ----
void inferRnn(InferContext& ctx);  // RNN, GRU, LSTM

// ---- quantization.cpp ----
void inferQuantizeLinear(InferContext& ctx);
void inferDequantizeLinear(InferContext& ctx);
void inferDynamicQuantizeLinear(InferContext& ctx);
void inferQLinearConv(InferContext& ctx);
void inferQLinearMatMul(InferContext& ctx);
// com.microsoft QLinearAdd / QLinearMul: A and B broadcast, A's type.
void inferQLinearBinary(InferContext& ctx);
// com.microsoft QLinearAveragePool, QLinearGlobalAveragePool (channels_last:
// [N, spatial..., C]) and QLinearReduceMean (axes and keepdims attributes): X's type.
void inferQLinearAveragePool(InferContext& ctx);
void inferNhwcMaxPool(InferContext& ctx);  // com.microsoft, [N, spatial..., C]
void inferQLinearGlobalAveragePool(InferContext& ctx);
void inferQLinearReduceMean(InferContext& ctx);
// com.microsoft QLinearSoftmax: X's type and shape; its opset attribute required.
void inferQLinearSoftmax(InferContext& ctx);
void inferMatMulInteger(InferContext& ctx);

// ---- normalization.cpp ----
void inferBatchNorm(InferContext& ctx);
void inferLayerNorm(InferContext& ctx);  // LayerNormalization, RMSNormalization
void inferSkipLayerNorm(
    InferContext& ctx);  // com.microsoft SkipLayerNormalization, SkipSimplified...

// ---- contrib.cpp (com.microsoft ops found in exported transformer models) ----
void inferMsAttention(InferContext& ctx);
void inferEmbedLayerNorm(InferContext& ctx);
void inferBeamSearch(InferContext& ctx);  // BeamSearch, GreedySearch

// ---- attention.cpp (ai.onnx Attention, LinearAttention, preview FlexAttention) ----
void inferAttention(InferContext& ctx);
void inferLinearAttention(InferContext& ctx);
void inferFlexAttention(InferContext& ctx);

// ---- misc.cpp (signal, losses, strings, and other single ops) ----
void inferLoss(InferContext& ctx);  // NegativeLogLikelihoodLoss, SoftmaxCrossEntropyLoss
void inferDft(InferContext& ctx);
void inferStft(InferContext& ctx);
void inferMelWeightMatrix(InferContext& ctx);
void inferDet(InferContext& ctx);
void inferStringSplit(InferContext& ctx);
void inferStringNormalizer(InferContext& ctx);
void inferTfIdfVectorizer(InferContext& ctx);
void inferImageDecoder(InferContext& ctx);
void inferBitCast(InferContext& ctx);
void inferMultinomial(InferContext& ctx);
void inferOptimizer(InferContext& ctx);  // preview.training Adagrad, Momentum, Adam

// ---- ml.cpp (ai.onnx.ml) ----
void inferZipMap(InferContext& ctx);
void inferArrayFeatureExtractor(InferContext& ctx);
void inferClassifier(InferContext& ctx);  // LinearClassifier, SVMClassifier, TreeEnsembleClassifier
void inferRegressor(InferContext& ctx);   // LinearRegressor, SVMRegressor, TreeEnsembleRegressor
void inferTreeEnsemble(InferContext& ctx);
void inferMlSameShape(InferContext& ctx);  // Binarizer, Scaler, Normalizer, LabelEncoder, ...

}  // namespace passlab::analysis::infer
