#include "core/passes/layer_weight.h"

#include <algorithm>

#include "core/passes/fusion_utils.h"
#include "core/passes/rule_helpers.h"

namespace passlab::passes {

void replaceConstantInput(rewrite::Rewriter& rw, ir::Node& n, size_t index, ir::Tensor t,
                          const std::string& hint) {
  ir::Value* old = index < n.inputs().size() ? n.input(index) : nullptr;
  // Frozen first, so that below IR version 4 the model is raised and the new
  // constant is an initializer too rather than a Constant node. Not below IR
  // version 3: raising it would end the legacy channel broadcast the executor
  // reads into such models' Add/Mul of a 1-D initializer (exec/legacy_repairs),
  // so the old initializer stays an (unused) input there.
  if (old && old->uses().size() == 1 && !old->isGraphOutput() && old->isGraphInput() &&
      old->isInitializer() && rw.model().irVersion >= 3)
    rw.freezeInitializer(old);
  ir::Value* v = addConstant(rw, *n.owner(), &n, hint, std::move(t), {&n});
  rw.setInput(&n, index, v);
  if (old) dropIfUnused(rw, old);
}

ir::Tensor dropAlongAxis(const ir::Tensor& t, int64_t axis, const std::vector<int64_t>& drop) {
  std::vector<int64_t> keep;
  for (int64_t i = 0; i < t.dims()[static_cast<size_t>(axis)]; ++i)
    if (!std::binary_search(drop.begin(), drop.end(), i)) keep.push_back(i);
  return *fusion::gatherTensor(t, axis, keep, false);
}

}  // namespace passlab::passes
