// The one list of inference rules: (domain, op) -> rule. An op missing here
// still gets element types from its schema and is reported in
// ShapeInferenceReport::opsWithoutRule.
#include <absl/container/flat_hash_map.h>

#include <string>
#include <unordered_map>

#include "core/analysis/infer/rules.h"
#include "core/ir/node.h"
#include "core/ir/op_schema.h"
#include "core/ir/passlab_ops.h"

namespace passlab::analysis::infer {

namespace {

struct Entry {
  const char* domain;
  const char* op;
  Rule rule;
};

constexpr const char* kOnnx = "";
constexpr const char* kMs = "com.microsoft";
constexpr const char* kMl = "ai.onnx.ml";
constexpr const char* kTraining = "ai.onnx.preview.training";
constexpr const char* kPassLab = ir::passlab_ops::kDomain;
constexpr const char* kQonnx = "qonnx.custom_op.general";
constexpr const char* kBrevitas = "onnx.brevitas";

// clang-format off
const Entry kRules[] = {
  // ---- element-wise, unary: output 0 has input 0's shape ----
  {kOnnx, "Abs", inferSameShape}, {kOnnx, "Acos", inferSameShape}, {kOnnx, "Acosh", inferSameShape},
  {kOnnx, "Asin", inferSameShape}, {kOnnx, "Asinh", inferSameShape}, {kOnnx, "Atan", inferSameShape},
  {kOnnx, "Atanh", inferSameShape}, {kOnnx, "Ceil", inferSameShape}, {kOnnx, "Cos", inferSameShape},
  {kOnnx, "Cosh", inferSameShape}, {kOnnx, "Erf", inferSameShape}, {kOnnx, "Exp", inferSameShape},
  {kOnnx, "Floor", inferSameShape}, {kOnnx, "Log", inferSameShape},
  {kOnnx, "Reciprocal", inferSameShape}, {kOnnx, "Relu", inferSameShape},
  {kOnnx, "Round", inferSameShape}, {kOnnx, "Sigmoid", inferSameShape},
  {kOnnx, "Sign", inferSameShape}, {kOnnx, "Sin", inferSameShape}, {kOnnx, "Sinh", inferSameShape},
  {kOnnx, "Softplus", inferSameShape}, {kOnnx, "Softsign", inferSameShape},
  {kOnnx, "Sqrt", inferSameShape}, {kOnnx, "Tan", inferSameShape}, {kOnnx, "Tanh", inferSameShape},
  {kOnnx, "Elu", inferSameShape}, {kOnnx, "Celu", inferSameShape}, {kOnnx, "Selu", inferSameShape},
  {kOnnx, "LeakyRelu", inferSameShape}, {kOnnx, "HardSigmoid", inferSameShape},
  {kOnnx, "HardSwish", inferSameShape}, {kOnnx, "ThresholdedRelu", inferSameShape},
  {kOnnx, "Shrink", inferSameShape}, {kOnnx, "Mish", inferSameShape},
  {kOnnx, "Gelu", inferSameShape}, {kOnnx, "Swish", inferSameShape},
  {kOnnx, "Softmax", inferSameShape}, {kOnnx, "LogSoftmax", inferSameShape},
  {kOnnx, "Hardmax", inferSameShape}, {kOnnx, "Not", inferSameShape},
  {kOnnx, "BitwiseNot", inferSameShape}, {kOnnx, "IsNaN", inferSameShape},
  {kOnnx, "IsInf", inferSameShape}, {kOnnx, "Clip", inferSameShape},
  {kOnnx, "CumSum", inferSameShape}, {kOnnx, "CumProd", inferSameShape},
  {kOnnx, "Trilu", inferSameShape}, {kOnnx, "ReverseSequence", inferSameShape},
  {kOnnx, "Scatter", inferSameShape}, {kOnnx, "ScatterElements", inferSameShape},
  {kOnnx, "ScatterND", inferSameShape}, {kOnnx, "TensorScatter", inferSameShape},
  {kOnnx, "RotaryEmbedding", inferSameShape}, {kOnnx, "ImageScaler", inferSameShape},
  {kOnnx, "Identity", inferIdentity}, {kOnnx, "Neg", inferNeg},
  {kOnnx, "Cast", inferCast}, {kOnnx, "CastLike", inferCastLike},
  {kOnnx, "Dropout", inferDropout},
  // ---- element-wise, broadcasting ----
  {kOnnx, "Add", inferBroadcast}, {kOnnx, "Sub", inferBroadcast}, {kOnnx, "Mul", inferBroadcast},
  {kOnnx, "Div", inferBroadcast}, {kOnnx, "Pow", inferBroadcast}, {kOnnx, "Mod", inferBroadcast},
  {kOnnx, "PRelu", inferBroadcast}, {kOnnx, "BitShift", inferBroadcast},
  {kOnnx, "And", inferBroadcast}, {kOnnx, "Or", inferBroadcast}, {kOnnx, "Xor", inferBroadcast},
  {kOnnx, "BitwiseAnd", inferBroadcast}, {kOnnx, "BitwiseOr", inferBroadcast},
  {kOnnx, "BitwiseXor", inferBroadcast}, {kOnnx, "Equal", inferBroadcast},
  {kOnnx, "Greater", inferBroadcast}, {kOnnx, "GreaterOrEqual", inferBroadcast},
  {kOnnx, "Less", inferBroadcast}, {kOnnx, "LessOrEqual", inferBroadcast},
  {kOnnx, "SwiGLU", inferBroadcast},
  {kOnnx, "Sum", inferVariadic}, {kOnnx, "Max", inferVariadic}, {kOnnx, "Min", inferVariadic},
  {kOnnx, "Mean", inferVariadic}, {kOnnx, "Where", inferWhere},
  // ---- reductions ----
  {kOnnx, "ReduceSum", inferReduce}, {kOnnx, "ReduceMean", inferReduce},
  {kOnnx, "ReduceMax", inferReduce}, {kOnnx, "ReduceMin", inferReduce},
  {kOnnx, "ReduceProd", inferReduce}, {kOnnx, "ReduceL1", inferReduce},
  {kOnnx, "ReduceL2", inferReduce}, {kOnnx, "ReduceLogSum", inferReduce},
  {kOnnx, "ReduceLogSumExp", inferReduce}, {kOnnx, "ReduceSumSquare", inferReduce},
  {kOnnx, "ArgMax", inferArgReduce}, {kOnnx, "ArgMin", inferArgReduce},
  // ---- convolution and pooling ----
  {kOnnx, "Conv", inferConv}, {kOnnx, "ConvInteger", inferConv}, {kOnnx, "DeformConv", inferConv},
  {kOnnx, "ConvTranspose", inferConvTranspose},
  {kOnnx, "MaxPool", inferPool}, {kOnnx, "AveragePool", inferPool}, {kOnnx, "LpPool", inferPool},
  {kOnnx, "GlobalAveragePool", inferGlobalPool}, {kOnnx, "GlobalMaxPool", inferGlobalPool},
  {kOnnx, "GlobalLpPool", inferGlobalPool},
  {kOnnx, "MaxRoiPool", inferRoiPool}, {kOnnx, "RoiAlign", inferRoiPool},
  {kOnnx, "MaxUnpool", inferMaxUnpool}, {kOnnx, "Col2Im", inferCol2Im},
  {kOnnx, "CausalConvWithState", inferCausalConvWithState},
  // ---- matrix products ----
  {kOnnx, "MatMul", inferMatMul}, {kOnnx, "Gemm", inferGemm}, {kOnnx, "Einsum", inferEinsum},
  // ---- shapes ----
  {kOnnx, "Shape", inferShape}, {kOnnx, "Size", inferSize}, {kOnnx, "Reshape", inferReshape},
  {kOnnx, "Flatten", inferFlatten}, {kOnnx, "Squeeze", inferSqueeze},
  {kOnnx, "Unsqueeze", inferUnsqueeze}, {kOnnx, "Transpose", inferTranspose},
  {kOnnx, "DepthToSpace", inferDepthToSpace}, {kOnnx, "SpaceToDepth", inferDepthToSpace},
  // ---- tensors from shapes and values ----
  {kOnnx, "Constant", inferConstant}, {kOnnx, "ConstantOfShape", inferConstantOfShape},
  {kOnnx, "Expand", inferExpand}, {kOnnx, "Tile", inferTile}, {kOnnx, "Range", inferRange},
  {kOnnx, "EyeLike", inferEyeLike}, {kOnnx, "RandomNormal", inferRandom},
  {kOnnx, "RandomUniform", inferRandom}, {kOnnx, "RandomNormalLike", inferRandomLike},
  {kOnnx, "RandomUniformLike", inferRandomLike}, {kOnnx, "Bernoulli", inferRandomLike},
  {kOnnx, "OneHot", inferOneHot}, {kOnnx, "HannWindow", inferWindow},
  {kOnnx, "HammingWindow", inferWindow}, {kOnnx, "BlackmanWindow", inferWindow},
  // ---- indexing ----
  {kOnnx, "Concat", inferConcat}, {kOnnx, "Split", inferSplit}, {kOnnx, "Slice", inferSlice},
  {kOnnx, "Gather", inferGather}, {kOnnx, "GatherElements", inferGatherElements},
  {kOnnx, "GatherND", inferGatherND}, {kOnnx, "Pad", inferPad}, {kOnnx, "TopK", inferTopK},
  {kOnnx, "NonZero", inferNonZero}, {kOnnx, "Compress", inferCompress},
  {kOnnx, "Unique", inferUnique}, {kOnnx, "NonMaxSuppression", inferNonMaxSuppression},
  {kOnnx, "CenterCropPad", inferCenterCropPad},
  // ---- resampling ----
  {kOnnx, "Resize", inferResize}, {kOnnx, "Upsample", inferResize},
  {kOnnx, "GridSample", inferGridSample}, {kOnnx, "AffineGrid", inferAffineGrid},
  // ---- control flow, sequences, optionals ----
  {kOnnx, "If", inferIf}, {kOnnx, "Loop", inferLoop}, {kOnnx, "Scan", inferScan},
  {kOnnx, "SequenceConstruct", inferSequenceConstruct},
  {kOnnx, "SequenceEmpty", inferSequenceEmpty}, {kOnnx, "SequenceAt", inferSequenceAt},
  {kOnnx, "SequenceInsert", inferSequenceInsert}, {kOnnx, "SequenceErase", inferSequenceInsert},
  {kOnnx, "SequenceLength", inferSequenceLength},
  {kOnnx, "SplitToSequence", inferSplitToSequence},
  {kOnnx, "ConcatFromSequence", inferConcatFromSequence},
  {kOnnx, "SequenceMap", inferSequenceMap}, {kOnnx, "Optional", inferOptional},
  {kOnnx, "OptionalGetElement", inferOptionalGetElement},
  {kOnnx, "OptionalHasElement", inferOptionalHasElement},
  // ---- recurrent ----
  {kOnnx, "RNN", inferRnn}, {kOnnx, "GRU", inferRnn}, {kOnnx, "LSTM", inferRnn},
  // ---- quantization ----
  {kOnnx, "QuantizeLinear", inferQuantizeLinear},
  {kOnnx, "DequantizeLinear", inferDequantizeLinear},
  {kOnnx, "DynamicQuantizeLinear", inferDynamicQuantizeLinear},
  {kOnnx, "QLinearConv", inferQLinearConv}, {kOnnx, "QLinearMatMul", inferQLinearMatMul},
  {kOnnx, "MatMulInteger", inferMatMulInteger},
  // ---- normalization ----
  {kOnnx, "BatchNormalization", inferBatchNorm},
  {kOnnx, "InstanceNormalization", inferSameShape},
  {kOnnx, "LayerNormalization", inferLayerNorm}, {kOnnx, "RMSNormalization", inferLayerNorm},
  {kOnnx, "GroupNormalization", inferSameShape},
  {kOnnx, "MeanVarianceNormalization", inferSameShape},
  {kOnnx, "LpNormalization", inferSameShape}, {kOnnx, "LRN", inferSameShape},
  // ---- attention ----
  {kOnnx, "Attention", inferAttention}, {kOnnx, "LinearAttention", inferLinearAttention},
  {"ai.onnx.preview", "FlexAttention", inferFlexAttention},
  // ---- losses, signal, strings, others ----
  {kOnnx, "NegativeLogLikelihoodLoss", inferLoss}, {kOnnx, "SoftmaxCrossEntropyLoss", inferLoss},
  {kOnnx, "DFT", inferDft}, {kOnnx, "STFT", inferStft},
  {kOnnx, "MelWeightMatrix", inferMelWeightMatrix}, {kOnnx, "Det", inferDet},
  {kOnnx, "StringSplit", inferStringSplit}, {kOnnx, "StringNormalizer", inferStringNormalizer},
  {kOnnx, "StringConcat", inferBroadcast}, {kOnnx, "RegexFullMatch", inferSameShape},
  {kOnnx, "TfIdfVectorizer", inferTfIdfVectorizer}, {kOnnx, "ImageDecoder", inferImageDecoder},
  {kOnnx, "BitCast", inferBitCast}, {kOnnx, "Multinomial", inferMultinomial},
  {kTraining, "Adagrad", inferOptimizer}, {kTraining, "Momentum", inferOptimizer},
  {kTraining, "Adam", inferOptimizer},
  // ---- experimental ONNX ops removed from the standard (kernels: exec/cpu/legacy_ops.cpp) ----
  {kOnnx, "Affine", inferSameShape}, {kOnnx, "Scale", inferSameShape},
  {kOnnx, "ScaledTanh", inferSameShape}, {kOnnx, "ParametricSoftplus", inferSameShape},
  {kOnnx, "Crop", inferCrop}, {kOnnx, "GivenTensorFill", inferGivenTensorFill},
  {kOnnx, "DynamicSlice", inferSlice},
  {kOnnx, "SimplifiedLayerNormalization", inferLayerNorm},  // onnxruntime's, in ai.onnx
  // ---- QONNX quantizers, and the same under Brevitas' domain ----
  {kQonnx, "Quant", inferSameShape}, {kQonnx, "BipolarQuant", inferSameShape},
  {kQonnx, "Trunc", inferSameShape},
  {kBrevitas, "Quant", inferSameShape}, {kBrevitas, "BipolarQuant", inferSameShape},
  {kBrevitas, "Trunc", inferSameShape},
  // ---- com.microsoft ----
  {kMs, "Attention", inferMsAttention},
  {kMs, "EmbedLayerNormalization", inferEmbedLayerNorm},
  {kMs, "SkipLayerNormalization", inferSkipLayerNorm},
  {kMs, "SkipSimplifiedLayerNormalization", inferSkipLayerNorm},
  {kMs, "FastGelu", inferSameShape}, {kMs, "BiasGelu", inferSameShape},
  {kMs, "Gelu", inferSameShape}, {kMs, "QuickGelu", inferSameShape},
  {kMs, "BiasAdd", inferSameShape}, {kMs, "BeamSearch", inferBeamSearch},
  {kMs, "GreedySearch", inferBeamSearch}, {kMs, "FusedConv", inferConv},
  {kMs, "FusedGemm", inferGemm}, {kMs, "FusedMatMul", inferFusedMatMul},
  {kMs, "QGemm", inferQGemm},
  {kMs, "TransposeMatMul", inferFusedMatMul},
  {kMs, "QuantizeLinear", inferQuantizeLinear}, {kMs, "DequantizeLinear", inferDequantizeLinear},
  {kMs, "QLinearConv", inferQLinearConv}, {kMs, "Trilu", inferSameShape},
  {kMs, "QLinearAdd", inferQLinearBinary}, {kMs, "QLinearMul", inferQLinearBinary},
  {kMs, "QLinearSigmoid", inferSameShape}, {kMs, "QLinearLeakyRelu", inferSameShape},
  {kMs, "QLinearConcat", inferQLinearConcat},
  {kMs, "QLinearAveragePool", inferQLinearAveragePool},
  {kMs, "NhwcMaxPool", inferNhwcMaxPool},
  {kMs, "QLinearGlobalAveragePool", inferQLinearGlobalAveragePool},
  {kMs, "QLinearReduceMean", inferQLinearReduceMean},
  {kMs, "QLinearSoftmax", inferQLinearSoftmax},
  {kMs, "GatherND", inferGatherND}, {kMs, "Range", inferRange},
  // ---- ai.passlab (PassLab's fused kernels) ----
  {kPassLab, ir::passlab_ops::kFusedConv, inferPasslabFusedConv}, {kPassLab, ir::passlab_ops::kFusedGemm, inferPasslabFusedGemm},
  {kPassLab, ir::passlab_ops::kFusedElementwise, inferPasslabFusedElementwise},
  {kPassLab, ir::passlab_ops::kFusedAttention, inferPasslabFusedAttention},
  {kPassLab, ir::passlab_ops::kFusedLayerNorm, inferPasslabFusedLayerNorm},
  {kPassLab, ir::passlab_ops::kFusedSoftmax, inferPasslabFusedSoftmax},
  {kPassLab, ir::passlab_ops::kReorderToBlocked, inferPasslabReorderToBlocked},
  {kPassLab, ir::passlab_ops::kReorderFromBlocked, inferPasslabReorderFromBlocked},
  {kPassLab, ir::passlab_ops::kBlockedPool, inferPasslabBlockedPool},
  {kPassLab, ir::passlab_ops::kQLinearLookup, inferPasslabQLinearLookup},
  {kPassLab, ir::passlab_ops::kFusedConvInteger, inferPasslabFusedConvInteger},
  {kPassLab, ir::passlab_ops::kRangedDynamicQuantizeLinear, inferDynamicQuantizeLinear},
  {kPassLab, ir::passlab_ops::kQLinearSqueezeExcite, inferPasslabQLinearSqueezeExcite},
  // ---- ai.onnx.ml ----
  {kMl, "ZipMap", inferZipMap}, {kMl, "ArrayFeatureExtractor", inferArrayFeatureExtractor},
  {kMl, "LinearClassifier", inferClassifier}, {kMl, "SVMClassifier", inferClassifier},
  {kMl, "TreeEnsembleClassifier", inferClassifier},
  {kMl, "LinearRegressor", inferRegressor}, {kMl, "SVMRegressor", inferRegressor},
  {kMl, "TreeEnsembleRegressor", inferRegressor}, {kMl, "TreeEnsemble", inferTreeEnsemble},
  {kMl, "Binarizer", inferMlSameShape}, {kMl, "Scaler", inferMlSameShape},
  {kMl, "Normalizer", inferMlSameShape}, {kMl, "LabelEncoder", inferMlSameShape},
  {kMl, "Imputer", inferMlSameShape}, {kMl, "CategoryMapper", inferMlSameShape},
};
// clang-format on

const std::unordered_map<std::string, Rule>& table() {
  static const std::unordered_map<std::string, Rule> t = [] {
    std::unordered_map<std::string, Rule> m;
    for (const Entry& e : kRules) m.emplace(std::string(e.domain) + ':' + e.op, e.rule);
    return m;
  }();
  return t;
}

}  // namespace

Rule findRule(std::string_view domain, std::string_view op) {
  std::string key(ir::OpRegistry::canonicalDomain(domain));
  key += ':';
  key += op;
  auto it = table().find(key);
  return it == table().end() ? nullptr : it->second;
}

Rule findRule(const ir::Node& n) {
  // (interned domain, interned op) -> rule: no string built per node.
  static const auto* byInterned = [] {
    auto* m = new absl::flat_hash_map<std::pair<const std::string*, const std::string*>, Rule>();
    for (const Entry& e : kRules)
      m->emplace(std::make_pair(&ir::internOpName(e.domain), &ir::internOpName(e.op)), e.rule);
    return m;
  }();
  auto it = byInterned->find({n.domainKey(), n.opTypeKey()});
  if (it != byInterned->end()) return it->second;
  return n.domain() == "ai.onnx" ? findRule(n.domain(), n.opType()) : nullptr;
}

size_t ruleCount() {
  return table().size();
}

}  // namespace passlab::analysis::infer
