#include "core/exec/evaluate.h"

#include <exception>

#include "core/exec/arena.h"
#include "core/exec/cpu/cpu_backend.h"
#include "core/exec/interpreter.h"
#include "core/ir/attribute_limits.h"

namespace passlab::exec {

namespace {

class EvalBuild final : public KernelBuild {
 public:
  EvalBuild(const ir::Node& node, int64_t opset, ir::DataType dtype,
            const std::vector<const ir::Tensor*>& inputs)
      : KernelBuild(node, opset, dtype), inputs_(inputs) {}
  const ir::Tensor* constantInput(size_t i) const override {
    return i < inputs_.size() ? inputs_[i] : nullptr;
  }

 private:
  const std::vector<const ir::Tensor*>& inputs_;
};

}  // namespace

Expected<std::vector<ir::Tensor>> evaluateNode(const ir::Node& node,
                                               const std::vector<const ir::Tensor*>& inputs,
                                               int64_t opsetVersion) {
  if (node.hasSubgraphs())
    return unsupported(node.describe() + ": nodes with subgraphs are not evaluated alone");
  if (auto problems = ir::attributeLimitProblems(node); !problems.empty())
    return invalidModel(node.describe() + ": " + problems.front());
  const KernelRegistry& registry = cpu::kernelRegistry();
  auto candidates = registry.find(node.domain(), node.opType(), opsetVersion);
  if (candidates.empty())
    return unsupported("unsupported operator " + node.opType() + " (domain " +
                       (node.domain().empty() ? std::string("ai.onnx") : node.domain()) +
                       ", opset " + std::to_string(opsetVersion) + ") at node " + node.describe());
  int typeInput = kAnyType;
  for (const KernelDef* d : candidates)
    if (d->typeInput != kAnyType) typeInput = d->typeInput;
  ir::DataType dtype = ir::DataType::kUndefined;
  if (typeInput != kAnyType) {
    auto i = static_cast<size_t>(typeInput);
    if (i >= inputs.size() || inputs[i] == nullptr)
      return invalidArgument(node.describe() + ": input " + std::to_string(i) + " is required");
    dtype = inputs[i]->dtype();
  }
  auto rows = KernelRegistry::forType(candidates, dtype, false);
  if (rows.empty())
    return unsupported(node.describe() + ": no kernel for element type " +
                       std::string(ir::dtypeName(dtype)));

  std::vector<Value> values;
  values.reserve(inputs.size());
  std::vector<const Value*> ins;
  for (const ir::Tensor* t : inputs) values.push_back(t ? Value(*t) : Value());
  for (size_t i = 0; i < inputs.size(); ++i) ins.push_back(inputs[i] ? &values[i] : nullptr);
  std::vector<bool> wanted;
  for (const ir::Value* v : node.outputs()) wanted.push_back(v != nullptr);

  Arena arena;
  RunState state{arena, nullptr, 1, nullptr, 1'000'000, nullptr};
  Error last = internalError("no kernel");
  for (const KernelDef* d : rows) {
    EvalBuild build(node, opsetVersion, dtype, inputs);
    auto kernel = d->create(build);
    if (!kernel) {
      last = kernel.error();
      if (last.code() == ErrorCode::kUnsupported) continue;
      break;
    }
    NodeContext ctx(state, nullptr, ins, wanted);
    Status s;
    try {
      s = (*kernel)->run(ctx);
    } catch (const std::exception& e) {
      s = internalError(std::string("kernel failed: ") + e.what());
    }
    if (!s) return s.error().withContext(node.describe());
    std::vector<ir::Tensor> out;
    for (size_t i = 0; i < wanted.size(); ++i) {
      if (!wanted[i]) {
        out.emplace_back();
        continue;
      }
      if (!ctx.produced(i) || !ctx.outputs()[i].isTensor())
        return unsupported(node.describe() + ": output " + std::to_string(i) + " is not a tensor");
      out.push_back(ctx.outputs()[i].tensor().toIr(node.output(i)->name()));
    }
    return out;
  }
  return last.withContext(node.describe());
}

}  // namespace passlab::exec
