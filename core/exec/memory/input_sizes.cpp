#include "core/exec/memory/input_sizes.h"

#include "core/analysis/shape_inference.h"
#include "core/exec/input_types.h"
#include "core/exec/memory/memory_plan.h"

namespace passlab::exec::memory {

namespace {

uint64_t bytesOf(const ir::Type& t) {
  if (!t.isTensor() || t.elemType() == ir::DataType::kUndefined ||
      t.elemType() == ir::DataType::kString || !t.hasShape())
    return kUnknownBytes;
  auto n = t.shape()->numel();
  if (!n || *n < 0) return kUnknownBytes;
  return ir::dtypeStorageBytes(t.elemType(), static_cast<uint64_t>(*n));
}

}  // namespace

std::vector<uint64_t> sizesForInputs(const ir::Model& model, const CompiledGraph& graph,
                                     const std::vector<std::pair<std::string, Value>>& inputs) {
  ir::Model copy = model.clone();
  bindInputTypes(copy, inputs);
  analysis::ShapeInferenceOptions options;
  options.replaceDeclared = true;  // declared symbolic dims give way to the given ones
  analysis::inferShapes(copy, options);
  std::vector<uint64_t> bytes(graph.slotCount, kUnknownBytes);
  for (size_t slot = 0; slot < graph.slotValues.size() && slot < bytes.size(); ++slot) {
    const ir::Value* v = graph.slotValues[slot];
    if (v == nullptr) continue;
    const ir::Value* inferred = copy.graph().findValue(v->name());
    if (inferred != nullptr) bytes[slot] = bytesOf(inferred->type());
  }
  return bytes;
}

}  // namespace passlab::exec::memory
