#include "core/passes/conv_weight_fold.h"

#include "core/passes/computed_from_constants.h"
#include "core/passes/fusion_utils.h"
#include "core/passes/rule_helpers.h"
#include "core/rewrite/match_utils.h"

namespace passlab::passes {

std::optional<FoldableConvWeight> foldableConvWeight(const ir::Node& conv, int64_t opset,
                                                     Text& why) {
  ir::Value* wIn = conv.input(1);
  FoldableConvWeight out;
  if (auto w = rewrite::constantValue(wIn)) {
    auto wv = fusion::floatValues(*w);
    if (!wv || w->rank() < 3) {
      why = "Conv weight is not a float tensor";
      return std::nullopt;
    }
    out.values = std::move(*wv);
    out.dims = w->dims();
    out.type = w->dtype();
    out.constant = *w;
    return out;
  }
  if (opset < 7 || !fusion::computedFromConstants(wIn)) {
    why = "Conv weight is not constant";
    return std::nullopt;
  }
  auto d = fusion::dimsOf(wIn);
  out.type = wIn->type().elemType();
  if (!d || d->size() < 3 || !fusion::isFloatType(out.type)) {
    why = "Conv weight is computed from constants but has no static dims or no float type";
    return std::nullopt;
  }
  out.dims = *d;
  return out;
}

ir::Value* scaledConvWeight(rewrite::Rewriter& rw, ir::Node* conv, const FoldableConvWeight& w,
                            const std::vector<double>& f, bool divide,
                            const std::string& constSuffix, const std::string& factorSuffix,
                            const std::vector<const ir::Node*>& from) {
  ir::Graph& g = *conv->owner();
  const int64_t m = w.dims[0];
  if (w.computed()) {
    std::vector<int64_t> fDims(w.dims.size(), 1);
    fDims[0] = m;
    ir::Value* fv = addConstant(rw, g, conv, conv->input(1)->name() + factorSuffix,
                                fusion::floatTensor(w.type, fDims, f), from);
    return fusion::addDerived(rw, divide ? "Div" : "Mul", {conv->input(1), fv}, conv, from, nullptr,
                              {conv->input(1)})
        ->output(0);
  }
  std::vector<double> nw = w.values;
  const size_t each = w.values.size() / static_cast<size_t>(m);
  for (int64_t k = 0; k < m; ++k)
    for (size_t j = 0; j < each; ++j) {
      if (divide)
        nw[k * each + j] /= f[k];
      else
        nw[k * each + j] *= f[k];
    }
  return addConstant(rw, g, conv, conv->input(1)->name() + constSuffix,
                     fusion::floatTensorLike(*w.constant, nw), from);
}

}  // namespace passlab::passes
