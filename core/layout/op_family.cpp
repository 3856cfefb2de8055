#include "core/layout/op_family.h"

#include <array>
#include <string>
#include <unordered_map>

namespace passlab::layout {

namespace {

struct FamilyInfo {
  std::string_view name;
  uint32_t color;
};

// Indexed by OpFamily; the static_assert keeps it complete.
constexpr std::array<FamilyInfo, kOpFamilyCount> kFamilies = {{
    {"Convolution", 0x8ab4f8},
    {"Linear", 0x9fc5e8},
    {"Activation", 0xf6b26b},
    {"Normalization", 0xb6d7a8},
    {"Pooling", 0xa2c4c9},
    {"Elementwise", 0xd9d2e9},
    {"Reduction", 0xc9daf8},
    {"Shape", 0xe6e6e6},
    {"Constant", 0xfff2cc},
    {"Control flow", 0xf4cccc},
    {"Recurrent", 0xd5a6bd},
    {"Quantization", 0xb4a7d6},
    {"Attention", 0xffd966},
    {"Other", 0xf3f3f3},
}};
static_assert(kFamilies.size() == static_cast<size_t>(OpFamily::kOther) + 1);

const std::unordered_map<std::string_view, OpFamily>& table() {
  static const auto* t = [] {
    auto* m = new std::unordered_map<std::string_view, OpFamily>;
    auto add = [&](OpFamily f, std::initializer_list<std::string_view> ops) {
      for (auto op : ops) m->emplace(op, f);
    };
    add(OpFamily::kConvolution, {"Conv", "ConvTranspose", "ConvInteger", "QLinearConv",
                                 "DeformConv", "FusedConv", "NhwcConv", "Col2Im", "Im2Col"});
    add(OpFamily::kLinear, {"MatMul", "Gemm", "MatMulInteger", "QLinearMatMul", "Einsum",
                            "FusedMatMul", "FusedGemm", "MatMulNBits", "GemmFastGelu"});
    add(OpFamily::kActivation, {"Relu",        "LeakyRelu",
                                "PRelu",       "Sigmoid",
                                "HardSigmoid", "Tanh",
                                "Elu",         "Selu",
                                "Celu",        "Gelu",
                                "FastGelu",    "BiasGelu",
                                "Erf",         "Softmax",
                                "LogSoftmax",  "Softplus",
                                "Softsign",    "HardSwish",
                                "Mish",        "ThresholdedRelu",
                                "QuickGelu",   "Hardmax",
                                "Clip",        "Shrink",
                                "ScaledTanh",  "ParametricSoftplus"});
    add(OpFamily::kNormalization,
        {"BatchNormalization", "LayerNormalization", "InstanceNormalization", "GroupNormalization",
         "LpNormalization", "MeanVarianceNormalization", "LRN", "SkipLayerNormalization",
         "SimplifiedLayerNormalization", "RMSNormalization", "SkipSimplifiedLayerNormalization",
         "EmbedLayerNormalization"});
    add(OpFamily::kPooling,
        {"MaxPool", "AveragePool", "GlobalMaxPool", "GlobalAveragePool", "LpPool", "GlobalLpPool",
         "MaxRoiPool", "RoiAlign", "MaxUnpool", "QLinearAveragePool", "QLinearGlobalAveragePool"});
    add(OpFamily::kElementwise,
        {"Add",         "Sub",        "Mul",        "Div",        "Pow",
         "Sqrt",        "Exp",        "Log",        "Sin",        "Cos",
         "Tan",         "Asin",       "Acos",       "Atan",       "Sinh",
         "Cosh",        "Asinh",      "Acosh",      "Atanh",      "Abs",
         "Neg",         "Reciprocal", "Floor",      "Ceil",       "Round",
         "Sign",        "Min",        "Max",        "Mean",       "Sum",
         "Mod",         "BitShift",   "And",        "Or",         "Xor",
         "Not",         "Equal",      "Greater",    "Less",       "GreaterOrEqual",
         "LessOrEqual", "Where",      "Cast",       "CastLike",   "IsNaN",
         "IsInf",       "BitwiseAnd", "BitwiseOr",  "BitwiseXor", "BitwiseNot",
         "Dropout",     "Identity",   "QLinearAdd", "QLinearMul", "ImageScaler",
         "Affine",      "Scale"});
    add(OpFamily::kReduction,
        {"ReduceMean", "ReduceSum", "ReduceMax", "ReduceMin", "ReduceProd", "ReduceL1", "ReduceL2",
         "ReduceLogSum", "ReduceLogSumExp", "ReduceSumSquare", "ArgMax", "ArgMin", "TopK", "CumSum",
         "NonMaxSuppression"});
    add(OpFamily::kShape, {"Reshape",
                           "Transpose",
                           "Flatten",
                           "Squeeze",
                           "Unsqueeze",
                           "Concat",
                           "Split",
                           "Slice",
                           "DynamicSlice",
                           "Crop",
                           "Gather",
                           "GatherElements",
                           "GatherND",
                           "Scatter",
                           "ScatterElements",
                           "ScatterND",
                           "Shape",
                           "Size",
                           "Expand",
                           "Tile",
                           "Pad",
                           "Resize",
                           "Upsample",
                           "DepthToSpace",
                           "SpaceToDepth",
                           "NonZero",
                           "Compress",
                           "ReverseSequence",
                           "Trilu",
                           "OneHot",
                           "SplitToSequence",
                           "ConcatFromSequence",
                           "SequenceAt",
                           "SequenceConstruct",
                           "SequenceInsert",
                           "SequenceLength",
                           "SequenceEmpty",
                           "SequenceErase",
                           "CenterCropPad",
                           "Unique"});
    add(OpFamily::kConstant,
        {"Constant", "ConstantOfShape", "Range", "EyeLike", "RandomNormal", "RandomUniform",
         "RandomNormalLike", "RandomUniformLike", "Multinomial", "Bernoulli"});
    add(OpFamily::kControlFlow, {"If", "Loop", "Scan"});
    add(OpFamily::kRecurrent, {"LSTM", "GRU", "RNN", "DynamicQuantizeLSTM"});
    add(OpFamily::kQuantization, {"QuantizeLinear", "DequantizeLinear", "DynamicQuantizeLinear",
                                  "QGemm", "DynamicQuantizeMatMul", "QAttention", "QOrderedMatMul",
                                  // QONNX (qonnx.custom_op.general, onnx.brevitas)
                                  "Quant", "BipolarQuant", "Trunc"});
    add(OpFamily::kAttention,
        {"Attention", "MultiHeadAttention", "GroupQueryAttention", "PackedAttention",
         "DecoderAttention", "LongformerAttention", "RotaryEmbedding", "BeamSearch", "GreedySearch",
         "Sampling", "WhisperBeamSearch"});
    return m;
  }();
  return *t;
}

}  // namespace

OpFamily familyOf(std::string_view domain, std::string_view opType) {
  (void)domain;  // the same names mean the same kind of work in every domain we know
  auto it = table().find(opType);
  return it == table().end() ? OpFamily::kOther : it->second;
}

std::string_view familyName(OpFamily f) {
  return kFamilies[static_cast<size_t>(f)].name;
}

uint32_t familyColor(OpFamily f) {
  return kFamilies[static_cast<size_t>(f)].color;
}

}  // namespace passlab::layout
