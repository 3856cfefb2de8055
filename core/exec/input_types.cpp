#include "core/exec/input_types.h"

namespace passlab::exec {

void bindInputTypes(ir::Model& model, const std::vector<std::pair<std::string, Value>>& inputs) {
  for (const auto& [name, value] : inputs) {
    if (!value.isTensor()) continue;
    ir::Value* v = model.graph().findValue(name);
    if (v == nullptr) continue;
    v->setType(
        ir::Type::tensor(value.tensor().dtype(), ir::Shape::fromValues(value.tensor().dims())));
  }
}

}  // namespace passlab::exec
