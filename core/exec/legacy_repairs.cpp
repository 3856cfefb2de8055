#include "core/exec/legacy_repairs.h"

namespace passlab::exec {

std::vector<std::string> applyLegacyRepairs(ir::Model& model) {
  std::vector<std::string> repairs;
  if (model.irVersion >= 3) return repairs;
  model.graph().forEachNodeRecursive([&](ir::Node* n) {
    const std::string& op = n->opType();
    if (!n->domain().empty()) return;
    if (op == "Upsample") {
      std::vector<float> scales = n->attrFloats("scales");
      if (scales.size() != 2) return;
      n->setAttr(ir::Attribute::makeFloats("scales", {1.0f, 1.0f, scales[0], scales[1]}));
      repairs.push_back(n->describe() + ": two Upsample scales read as NCHW height and width (" +
                        "Upsample-1) for IR version " + std::to_string(model.irVersion));
      return;
    }
    if (n->hasAttr("broadcast")) return;
    if (op != "Add" && op != "Sub" && op != "Mul" && op != "Div") return;
    const ir::Value* b = n->input(1);
    if (b == nullptr || !b->isInitializer() || b->initializer()->rank() != 1) return;
    n->setAttr(ir::Attribute::makeInt("broadcast", 1));
    n->setAttr(ir::Attribute::makeInt("axis", 1));
    repairs.push_back(n->describe() +
                      ": legacy channel broadcast (broadcast=1, axis=1) for IR version " +
                      std::to_string(model.irVersion));
  });
  return repairs;
}

}  // namespace passlab::exec
