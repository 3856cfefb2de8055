#include "core/analysis/cost_model.h"

#include <algorithm>
#include <optional>
#include <string_view>
#include <unordered_map>
#include <unordered_set>

#include "core/ir/graph.h"

namespace passlab::analysis {

namespace {

// Element count of a tensor value with a static shape.
std::optional<double> numel(const ir::Value* v) {
  if (!v || !v->type().isTensor() || !v->type().hasShape()) return std::nullopt;
  auto n = v->type().shape()->numel();
  if (!n) return std::nullopt;
  return static_cast<double>(*n);
}

const std::vector<ir::Dim>* dimsOf(const ir::Value* v) {
  if (!v || !v->type().isTensor() || !v->type().hasShape()) return nullptr;
  return &v->type().shape()->dims();
}

// Product of the static dims [from, end) of v, or nullopt.
std::optional<double> product(const ir::Value* v, size_t from, size_t end) {
  const auto* d = dimsOf(v);
  if (!d || end > d->size()) return std::nullopt;
  double p = 1;
  for (size_t i = from; i < end; ++i) {
    if (!(*d)[i].isStatic()) return std::nullopt;
    p *= static_cast<double>((*d)[i].value());
  }
  return p;
}

bool isDataMovement(std::string_view op) {
  static const std::unordered_set<std::string_view> kOps = {"Reshape",
                                                            "Transpose",
                                                            "Squeeze",
                                                            "Unsqueeze",
                                                            "Flatten",
                                                            "Concat",
                                                            "Split",
                                                            "Slice",
                                                            "Gather",
                                                            "GatherElements",
                                                            "GatherND",
                                                            "Scatter",
                                                            "ScatterElements",
                                                            "ScatterND",
                                                            "Expand",
                                                            "Tile",
                                                            "Pad",
                                                            "Identity",
                                                            "Shape",
                                                            "Size",
                                                            "Cast",
                                                            "CastLike",
                                                            "Constant",
                                                            "ConstantOfShape",
                                                            "Dropout",
                                                            "DepthToSpace",
                                                            "SpaceToDepth",
                                                            "Compress",
                                                            "NonZero",
                                                            "Range",
                                                            "EyeLike",
                                                            "OneHot",
                                                            "If",
                                                            "Loop",
                                                            "Scan",
                                                            "SequenceConstruct",
                                                            "SequenceAt",
                                                            "SequenceInsert",
                                                            "SequenceErase",
                                                            "SequenceEmpty",
                                                            "SequenceLength",
                                                            "SplitToSequence",
                                                            "ConcatFromSequence",
                                                            "Optional",
                                                            "OptionalGetElement",
                                                            "OptionalHasElement",
                                                            "ZipMap",
                                                            "ArrayFeatureExtractor",
                                                            "BeamSearch",
                                                            "GreedySearch",
                                                            "ReverseSequence",
                                                            "Trilu",
                                                            "CenterCropPad"};
  return kOps.count(op) > 0;
}

bool isReduction(std::string_view op) {
  return op.substr(0, 6) == "Reduce" || op == "ArgMax" || op == "ArgMin" ||
         op == "GlobalAveragePool" || op == "GlobalMaxPool" || op == "GlobalLpPool";
}

// Per-element FLOPs of element-wise ops that are more than one operation.
double perElement(std::string_view op) {
  if (op == "Softmax" || op == "LogSoftmax") return 5;
  if (op == "LayerNormalization" || op == "SkipLayerNormalization" ||
      op == "SkipSimplifiedLayerNormalization" || op == "RMSNormalization" ||
      op == "InstanceNormalization" || op == "GroupNormalization" ||
      op == "MeanVarianceNormalization" || op == "EmbedLayerNormalization")
    return 8;
  if (op == "Gelu" || op == "FastGelu" || op == "BiasGelu" || op == "QuickGelu") return 8;
  if (op == "BatchNormalization") return 2;
  if (op == "LRN") return 2 * 5 + 3;  // window of 5 squares and sums, then a pow and a divide
  return 1;
}

// Multiply-adds of an Einsum without an ellipsis: 2 x the product of every
// label's size (each output element sums over the labels it lacks).
std::optional<double> einsumFlops(const ir::Node& n) {
  const std::string eq = n.attrString("equation", "");
  const size_t arrow = eq.find("->");
  if (eq.empty() || eq.find('.') != std::string::npos) return std::nullopt;
  std::unordered_map<char, int64_t> sizes;
  size_t input = 0, axis = 0;
  for (size_t i = 0; i < (arrow == std::string::npos ? eq.size() : arrow); ++i) {
    const char c = eq[i];
    if (c == ',') {
      ++input;
      axis = 0;
      continue;
    }
    if (c == ' ') continue;
    const auto* d = dimsOf(n.input(input));
    if (!d || axis >= d->size() || !(*d)[axis].isStatic()) return std::nullopt;
    sizes[c] = std::max(sizes[c], (*d)[axis].value());  // broadcast: the larger
    ++axis;
  }
  double p = 1;
  for (const auto& [label, size] : sizes) p *= static_cast<double>(size);
  return 2 * p;
}

std::optional<double> flopsOf(const ir::Node& n) {
  const std::string& op = n.opType();
  const ir::Value* out = n.output(0);
  if (isDataMovement(op)) return 0.0;
  if (op == "Conv" || op == "FusedConv" || op == "ConvInteger" || op == "QLinearConv" ||
      op == "FusedConvInteger" || op == "DeformConv") {
    const ir::Value* w = n.input(op == "QLinearConv" ? 3 : 1);
    const auto* wd = dimsOf(w);
    auto o = numel(out);
    auto k = wd ? product(w, 1, wd->size()) : std::nullopt;  // Cin/group * kernel
    if (!o || !k) return std::nullopt;
    const size_t biasInput = op == "QLinearConv"        ? 8
                             : op == "FusedConvInteger" ? 5
                             : op == "DeformConv"       ? 3
                                                        : 2;
    bool bias = n.input(biasInput) != nullptr;
    return 2 * *o * *k + (bias ? *o : 0);
  }
  if (op == "Einsum") return einsumFlops(n);
  if (op == "ConvTranspose") {
    const ir::Value* w = n.input(1);
    const auto* wd = dimsOf(w);
    auto in = numel(n.input(0));
    auto k = wd ? product(w, 1, wd->size()) : std::nullopt;  // Cout/group * kernel
    auto o = numel(out);
    if (!in || !k || !o) return std::nullopt;
    return 2 * *in * *k + (n.input(2) ? *o : 0);
  }
  if (op == "Gemm" || op == "FusedGemm" || op == "QGemm") {
    const auto* a = dimsOf(n.input(0));
    auto o = numel(out);
    if (!a || a->size() != 2 || !o) return std::nullopt;
    const ir::Dim& k = (*a)[n.attrInt("transA", 0) ? 0 : 1];
    if (!k.isStatic()) return std::nullopt;
    return 2 * *o * static_cast<double>(k.value()) + (n.input(op == "QGemm" ? 6 : 2) ? *o : 0);
  }
  if (op == "MatMul" || op == "MatMulInteger" || op == "QLinearMatMul" || op == "FusedMatMul") {
    const ir::Value* a = n.input(0);
    const auto* ad = dimsOf(a);
    auto o = numel(out);
    if (!ad || ad->empty() || !o) return std::nullopt;
    bool ta = op == "FusedMatMul" && n.attrInt("transA", 0) && ad->size() >= 2;
    const ir::Dim& k = (*ad)[ad->size() - (ta ? 2 : 1)];
    if (!k.isStatic()) return std::nullopt;
    return 2 * *o * static_cast<double>(k.value());
  }
  if (op == "MaxPool" || op == "AveragePool" || op == "LpPool") {
    auto o = numel(out);
    if (!o) return std::nullopt;
    double window = 1;
    for (int64_t k : n.attrInts("kernel_shape")) window *= static_cast<double>(k);
    return *o * window;
  }
  if (op == "LSTM" || op == "GRU" || op == "RNN") {
    // Per step and direction: gates x (input + hidden) multiply-adds for each batch row.
    const auto* x = dimsOf(n.input(0));
    const auto* w = dimsOf(n.input(1));
    const auto* r = dimsOf(n.input(2));
    auto steps = product(n.input(0), 0, 2);  // seq * batch (either layout)
    auto wsize = product(n.input(1), 0, w ? w->size() : 0);
    auto rsize = product(n.input(2), 0, r ? r->size() : 0);
    if (!x || !steps || !wsize || !rsize) return std::nullopt;
    return 2 * *steps * (*wsize + *rsize);
  }
  if (op == "Attention" && n.domain() == "com.microsoft") {
    const auto* in = dimsOf(n.input(0));
    const auto* w = dimsOf(n.input(1));
    auto o = numel(out);
    if (!in || !w || in->size() != 3 || w->size() != 2 || !o) return std::nullopt;
    auto bsd = product(n.input(0), 0, 3);
    auto s = product(n.input(0), 1, 2);
    auto qkv = product(n.input(1), 1, 2);
    if (!bsd || !s || !qkv) return std::nullopt;
    double t = *s;  // keys attended to (past included when known)
    if (const auto* present = dimsOf(n.output(1)); present && present->size() == 5) {
      auto total = product(n.output(1), 3, 4);
      if (!total) return std::nullopt;
      t = *total;
    }
    // Projection, Q·K^T and weights·V (each over the hidden size), softmax per head.
    double rows = *o / (*qkv / 3);  // batch * sequence
    auto heads = static_cast<double>(n.attrInt("num_heads", 1));
    return 2 * *bsd * *qkv + 2 * 2 * *o * t + 5 * rows * heads * t;
  }
  if (isReduction(op)) return numel(n.input(0));
  auto o = numel(out);
  if (!o) return std::nullopt;
  return *o * perElement(op);
}

// Bytes of a tensor value with a known element type and static shape.
std::optional<uint64_t> bytesOf(const ir::Value* v) {
  if (!v->type().isTensor()) return std::nullopt;
  ir::DataType t = v->type().elemType();
  if (t == ir::DataType::kUndefined || !v->type().hasShape()) return std::nullopt;
  auto n = v->type().shape()->numel();
  if (!n) return std::nullopt;
  if (t == ir::DataType::kString) return static_cast<uint64_t>(*n) * sizeof(void*);
  return ir::dtypeStorageBytes(t, static_cast<uint64_t>(*n));
}

void addModel(const ir::Graph& g, ModelCost& total) {
  for (const auto& n : g.nodes()) {
    NodeCost c = estimateNodeCost(*n);
    total.flops += c.flops;
    total.bytesRead += c.bytesRead;
    total.bytesWritten += c.bytesWritten;
    if (!c.known) ++total.nodesWithUnknownCost;
    for (const ir::Graph* sub : n->subgraphs()) addModel(*sub, total);
  }
}

}  // namespace

NodeCost estimateNodeCost(const ir::Node& node) {
  NodeCost c;
  for (const ir::Value* v : node.inputs()) {
    if (!v) continue;
    if (auto b = bytesOf(v))
      c.bytesRead += *b;
    else if (v->type().isTensor() || v->type().isUndefined())
      c.known = false;
  }
  for (const ir::Value* v : node.outputs()) {
    if (!v) continue;
    if (auto b = bytesOf(v))
      c.bytesWritten += *b;
    else if (v->type().isTensor() || v->type().isUndefined())
      c.known = false;
  }
  if (auto f = flopsOf(node))
    c.flops = *f;
  else
    c.known = false;
  return c;
}

ModelCost estimateModelCost(const ir::Model& model) {
  ModelCost total;
  addModel(model.graph(), total);
  return total;
}

}  // namespace passlab::analysis
