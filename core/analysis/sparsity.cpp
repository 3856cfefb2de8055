#include "core/analysis/sparsity.h"

#include <optional>

namespace passlab::analysis {

const ir::Tensor* storedWeight(const ir::Value* v) {
  if (!v) return nullptr;
  const ir::Tensor* t = v->initializer();
  if (!t && v->producer() && v->producer()->opType() == "Constant")
    if (const ir::Attribute* a = v->producer()->attr("value");
        a && a->type() == ir::AttrType::kTensor)
      t = &a->t;
  return t && ir::isFloatingPoint(t->dtype()) ? t : nullptr;
}

std::optional<WeightLayout> weightLayout(const ir::Node& n, const ir::Tensor& w) {
  const auto& d = w.dims();
  if (n.opType() == "Conv") {
    if (d.size() < 3) return std::nullopt;
    const int64_t per = w.numel() / d[0];
    return WeightLayout{d[0], per, per, 1};
  }
  if (d.size() != 2) return std::nullopt;
  const bool transposed = n.opType() == "Gemm" && n.attrInt("transB", 0) != 0;
  // [K, N]: channel n is column n, reducing down the rows; transposed [N, K]: row n.
  return transposed ? WeightLayout{d[0], d[1], d[1], 1} : WeightLayout{d[1], d[0], 1, d[1]};
}

namespace {

LayerSparsity measure(const ir::Node& n, const ir::Value* wv, const ir::Tensor& w,
                      const WeightLayout& l) {
  LayerSparsity s;
  s.node = n.id();
  s.describe = n.describe();
  s.weight = wv->name();
  s.elements = w.numel();
  s.channels = l.channels;
  for (int64_t c = 0; c < l.channels; ++c) {
    int64_t zerosHere = 0, inGroup = 0, zerosInGroup = 0;
    for (int64_t r = 0; r < l.reduce; ++r) {
      const bool zero = w.valueAsDouble(c * l.channelStride + r * l.reduceStride) == 0;
      zerosHere += zero ? 1 : 0;
      zerosInGroup += zero ? 1 : 0;
      if (++inGroup == 4) {
        ++s.groupsOfFour;
        s.twoFourGroups += zerosInGroup >= 2 ? 1 : 0;
        inGroup = zerosInGroup = 0;
      }
    }
    s.zeros += zerosHere;
    s.zeroChannels += zerosHere == l.reduce ? 1 : 0;
  }
  return s;
}

}  // namespace

std::vector<LayerSparsity> sparsityReport(const ir::Model& model) {
  std::vector<LayerSparsity> out;
  for (const auto& owned : model.graph().nodes()) {
    const ir::Node& n = *owned;
    if (!n.domain().empty() ||
        (n.opType() != "Conv" && n.opType() != "MatMul" && n.opType() != "Gemm"))
      continue;
    const ir::Value* wv = n.input(1);
    const ir::Tensor* w = storedWeight(wv);
    if (!w || w->numel() == 0) continue;
    if (auto l = weightLayout(n, *w)) out.push_back(measure(n, wv, *w, *l));
  }
  return out;
}

}  // namespace passlab::analysis
