#include "core/exec/memory/input_sizes.h"

#include "core/exec/memory/input_shapes.h"

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

InputShapes shapesForInputs(const ir::Model& model, const CompiledGraph& graph,
                            const std::vector<std::pair<std::string, Value>>& inputs) {
  ir::Model copy = model.clone();
  bindInputTypes(copy, inputs);
  analysis::ShapeInferenceOptions options;
  options.replaceDeclared = true;  // declared symbolic dims give way to the given ones
  analysis::inferShapes(copy, options);
  InputShapes shapes;
  shapes.bytes.assign(graph.slotCount, kUnknownBytes);
  shapes.dims.resize(graph.slotCount);
  for (size_t slot = 0; slot < graph.slotValues.size() && slot < graph.slotCount; ++slot) {
    const ir::Value* v = graph.slotValues[slot];
    if (v == nullptr) continue;
    const ir::Value* inferred = copy.graph().findValue(v->name());
    if (inferred == nullptr) continue;
    const ir::Type& t = inferred->type();
    shapes.bytes[slot] = bytesOf(t);
    if (t.isTensor() && t.hasShape()) shapes.dims[slot] = t.shape()->staticDims();
  }
  return shapes;
}

std::vector<uint64_t> sizesForInputs(const ir::Model& model, const CompiledGraph& graph,
                                     const std::vector<std::pair<std::string, Value>>& inputs) {
  return shapesForInputs(model, graph, inputs).bytes;
}

}  // namespace passlab::exec::memory
