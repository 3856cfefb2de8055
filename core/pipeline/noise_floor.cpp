#include "core/pipeline/noise_floor.h"

#include <cmath>
#include <optional>
#include <random>
#include <set>
#include <string_view>

#include "core/ir/graph.h"
#include "core/ir/node.h"
#include "core/ir/value.h"
#include "core/support/float16.h"

namespace passlab::pipeline {
namespace {

// Ops whose float inputs are data that arithmetic rounds: moving such an
// input by an ulp is what a re-rounding rewrite does. Not DequantizeLinear's
// scale: perturbing it flips QuantizeLinear steps, which would make every
// QDQ model's floor about one quantization step and let an exact pass move
// outputs by many steps (docs/numeric-check.md).
bool isArithmeticReader(const ir::Node& n) {
  static const std::set<std::string_view> kOps{"Conv",
                                               "ConvTranspose",
                                               "Gemm",
                                               "MatMul",
                                               "Add",
                                               "Sub",
                                               "Mul",
                                               "Div",
                                               "Sum",
                                               "Mean",
                                               "PRelu",
                                               "BatchNormalization",
                                               "Einsum",
                                               "InstanceNormalization",
                                               "LayerNormalization",
                                               "GroupNormalization",
                                               "LSTM",
                                               "GRU",
                                               "RNN"};
  const std::string& d = n.domain();
  if (!d.empty() && d != "ai.onnx") return false;
  return kOps.count(n.opType()) > 0;
}

// Values computed from shapes: Shape, Size, Range, ConstantOfShape, and what
// Cast, Gather, Slice, Concat, reshapes and arithmetic make of them (a few
// steps back). An elementwise op with such an operand computes a size, not
// data. (A Cast of an image input is data.)
bool isShapeArithmetic(const ir::Value* v, int depth = 6) {
  const ir::Node* p = v ? v->producer() : nullptr;
  if (!p || depth == 0) return false;
  static const std::set<std::string_view> kSources{"Shape", "Size", "Range", "ConstantOfShape"};
  static const std::set<std::string_view> kCarriers{
      "Cast",     "Gather", "Slice", "Concat", "Squeeze", "Unsqueeze", "Reshape",
      "Identity", "Add",    "Sub",   "Mul",    "Div",     "Floor",     "Ceil"};
  if (kSources.count(p->opType())) return true;
  if (!kCarriers.count(p->opType())) return false;
  for (const ir::Value* in : p->inputs())
    if (isShapeArithmetic(in, depth - 1)) return true;
  return false;
}

bool isElementwise(const ir::Node& n) {
  static const std::set<std::string_view> kOps{"Add", "Sub", "Mul", "Div", "Sum", "Mean"};
  return kOps.count(n.opType()) > 0;
}

bool readOnlyByArithmetic(const ir::Value& v) {
  if (v.uses().empty()) return false;
  for (const ir::Use& u : v.uses()) {
    if (!isArithmeticReader(*u.node)) return false;
    if (!isElementwise(*u.node)) continue;
    for (const ir::Value* other : u.node->inputs())
      if (other != &v && isShapeArithmetic(other)) return false;
  }
  return true;
}

double unitInLastPlace(ir::DataType t) {
  switch (t) {
    case ir::DataType::kFloat:
      return std::ldexp(1.0, -23);
    case ir::DataType::kDouble:
      return std::ldexp(1.0, -52);
    case ir::DataType::kFloat16:
      return std::ldexp(1.0, -10);
    case ir::DataType::kBFloat16:
      return std::ldexp(1.0, -7);
    default:
      return 0;
  }
}

// Multiplies every element by 1 + u * step, u uniform in [-1, 1].
void perturbTensor(ir::Tensor& t, std::mt19937_64& rng, double step) {
  std::uniform_real_distribution<double> u(-1.0, 1.0);
  switch (t.dtype()) {
    case ir::DataType::kFloat:
      for (float& x : t.mutableData<float>()) x = static_cast<float>(x * (1.0 + u(rng) * step));
      break;
    case ir::DataType::kDouble:
      for (double& x : t.mutableData<double>()) x *= 1.0 + u(rng) * step;
      break;
    case ir::DataType::kFloat16:
      for (uint16_t& x : t.mutableData<uint16_t>())
        x = floatToHalf(static_cast<float>(halfToFloat(x) * (1.0 + u(rng) * step)));
      break;
    case ir::DataType::kBFloat16:
      for (uint16_t& x : t.mutableData<uint16_t>())
        x = floatToBfloat16(static_cast<float>(bfloat16ToFloat(x) * (1.0 + u(rng) * step)));
      break;
    default:
      break;
  }
}

bool perturbable(const ir::Tensor& t) {
  return unitInLastPlace(t.dtype()) > 0 && t.numel() > 0;
}

// The fill of a ConstantOfShape whose shape is a constant and whose float
// output is read only by arithmetic: a weight spelled as a fill (models
// shipped without their weights). The same factor on every element would
// keep its symmetry (every channel equal, every softmax logit equal), which
// the kernels' own rounding breaks; so it is materialized, each element
// perturbed on its own. Empty when the node is not such a weight or the
// tensor would be large. A shape that is also a graph input (every
// initializer of an IR-3 file is listed so: light SqueezeNet's are) counts:
// the check's runs leave it at its value.
std::optional<ir::Tensor> filledWeight(const ir::Node& n) {
  constexpr int64_t kMaxElements = int64_t{1} << 24;
  if ((!n.domain().empty() && n.domain() != "ai.onnx") || n.opType() != "ConstantOfShape")
    return std::nullopt;
  if (n.inputs().size() != 1 || !n.input(0) || n.outputs().size() != 1 || !n.outputs()[0])
    return std::nullopt;
  const ir::Tensor* shape = n.input(0)->initializer();
  const ir::Attribute* fill = n.attr("value");
  if (!shape || shape->dtype() != ir::DataType::kInt64 || !fill ||
      fill->type() != ir::AttrType::kTensor || !perturbable(fill->t) || fill->t.numel() != 1)
    return std::nullopt;
  if (n.outputs()[0]->isGraphOutput() || !readOnlyByArithmetic(*n.outputs()[0]))
    return std::nullopt;
  std::vector<int64_t> dims;
  int64_t count = 1;
  for (int64_t d : shape->data<int64_t>()) {
    if (d < 0 || (d > 0 && count > kMaxElements / d)) return std::nullopt;
    dims.push_back(d);
    count *= d;
  }
  const double value = fill->t.valueAsDouble(0);
  if (count == 0 || value == 0) return std::nullopt;  // nothing a factor would move
  const auto n64 = static_cast<size_t>(count);
  switch (fill->t.dtype()) {
    case ir::DataType::kFloat:
      return ir::Tensor::fromVector<float>(fill->t.dtype(), dims,
                                           std::vector<float>(n64, static_cast<float>(value)));
    case ir::DataType::kDouble:
      return ir::Tensor::fromVector<double>(fill->t.dtype(), dims, std::vector<double>(n64, value));
    default: {  // float16, bfloat16: the fill's bits repeated
      const uint16_t bits = fill->t.data<uint16_t>()[0];
      return ir::Tensor::fromVector<uint16_t>(fill->t.dtype(), dims,
                                              std::vector<uint16_t>(n64, bits));
    }
  }
}

// Replaces each filled weight (above) of `g` by a perturbed initializer of
// the same name, up to 2^26 elements in all (the rest stay fills). Returns
// how many were replaced.
size_t perturbFilledWeights(ir::Graph& g, std::mt19937_64& rng, double ulps) {
  constexpr int64_t kMaxTotalElements = int64_t{1} << 26;  // 256 MiB of float32 in all
  std::vector<std::pair<ir::Node*, ir::Tensor>> fills;
  int64_t total = 0;
  for (const auto& n : g.nodes()) {
    auto t = filledWeight(*n);
    if (!t || total + t->numel() > kMaxTotalElements) continue;
    total += t->numel();
    fills.emplace_back(n.get(), std::move(*t));
  }
  for (auto& [node, tensor] : fills) {
    perturbTensor(tensor, rng, ulps * unitInLastPlace(tensor.dtype()));
    ir::Value* out = node->outputs()[0];
    const std::string name = out->name();
    ir::Value* weight = g.addInitializer(g.freshName(name), std::move(tensor));
    g.replaceAllUsesWith(out, weight);
    g.removeNode(node);
    g.renameValue(weight, name);
  }
  return fills.size();
}

}  // namespace

ir::Model perturbWeights(const ir::Model& model, uint64_t seed, double ulps, size_t* moved) {
  ir::Model copy = model.clone();
  std::mt19937_64 rng(seed);
  size_t count = 0;
  ir::Graph& g = copy.graph();
  for (ir::Value* v : g.initializers()) {
    const ir::Tensor* t = v->initializer();
    if (!t || !perturbable(*t) || !readOnlyByArithmetic(*v)) continue;
    ir::Tensor changed = *t;
    perturbTensor(changed, rng, ulps * unitInLastPlace(t->dtype()));
    g.setInitializer(v, std::move(changed));
    ++count;
  }
  g.forEachNodeRecursive([&](ir::Node* n) {
    if (n->opType() != "Constant" || n->outputs().size() != 1 || !n->outputs()[0]) return;
    ir::Attribute* a = n->attr("value");
    if (!a || a->type() != ir::AttrType::kTensor || !perturbable(a->t)) return;
    if (!readOnlyByArithmetic(*n->outputs()[0])) return;
    perturbTensor(a->t, rng, ulps * unitInLastPlace(a->t.dtype()));
    ++count;
  });
  count += perturbFilledWeights(g, rng, ulps);
  if (moved) *moved = count;
  return copy;
}

double maxAbsDifference(const ir::Tensor& a, const ir::Tensor& b) {
  if (a.dtype() != b.dtype() || a.dims() != b.dims() || !ir::isFloatingPoint(a.dtype())) return -1;
  double worst = 0;
  const int64_t n = a.numel();
  for (int64_t i = 0; i < n; ++i) {
    const double x = a.valueAsDouble(i), y = b.valueAsDouble(i);
    if (!std::isfinite(x) || !std::isfinite(y)) {
      if (std::isnan(x) && std::isnan(y)) continue;
      if (x == y) continue;  // the same infinity
      return -1;
    }
    worst = std::max(worst, std::fabs(x - y));
  }
  return worst;
}

void accumulateFloors(NoiseFloors& floors, const std::map<std::string, ir::Tensor>& reference,
                      const std::map<std::string, ir::Tensor>& perturbed) {
  for (const auto& [name, want] : reference) {
    auto it = perturbed.find(name);
    if (it == perturbed.end()) continue;
    const double d = maxAbsDifference(it->second, want);
    if (d < 0) {
      floors[name] = -1;  // unusable in this run, so in every run
      continue;
    }
    auto [slot, fresh] = floors.try_emplace(name, d);
    if (!fresh && slot->second >= 0) slot->second = std::max(slot->second, d);
  }
}

}  // namespace passlab::pipeline
