#include "core/exec/cuda/placement_plan.h"

#include "core/analysis/shape_inference.h"
#include "core/exec/compiled_graph.h"
#include "core/exec/compiler.h"
#include "core/exec/cuda/kernel_choice.h"
#include "core/exec/executor.h"

namespace passlab::exec::cuda {

namespace {

// A build on the host: no stream, a Hopper-class device assumed (NVRTC's
// default architecture).
class HostBuild final : public CudaBuild {
 public:
  HostBuild(const Step& step, ir::DataType dtype) : step_(step), dtype_(dtype) {
    props_.computeMajor = 9;
    props_.name = "(planned on the host)";
  }
  const ir::Node& node() const override { return *step_.node; }
  int64_t opset() const override { return step_.opset; }
  ir::DataType dtype() const override { return dtype_; }
  const ir::Tensor* constantInput(size_t i) const override {
    return i < step_.constantInputs.size() ? step_.constantInputs[i] : nullptr;
  }
  const DeviceProperties& device() const override { return props_; }
  cudaStream_t stream() const override { return nullptr; }

 private:
  const Step& step_;
  ir::DataType dtype_;
  DeviceProperties props_;
};

constexpr const char* kComputedOnce = "constant-only: computed once on the CPU and kept";

std::string opLabel(const ir::Node& n) {
  return n.domain().empty() || n.domain() == "ai.onnx" ? n.opType() : n.domain() + "." + n.opType();
}

// Integer inputs only, as shape arithmetic has (the runner keeps such steps
// on the host when those inputs are small and already there).
bool integerInputsOnly(const ir::Node& node) {
  bool any = false;
  for (const ir::Value* v : node.inputs()) {
    if (v == nullptr) continue;
    ir::DataType t = v->type().isTensor() ? v->type().elemType() : ir::DataType::kUndefined;
    if (t != ir::DataType::kInt64 && t != ir::DataType::kInt32) return false;
    any = true;
  }
  return any;
}

StepPlacement placeStep(const Step& step) {
  const ir::Node& node = *step.node;
  StepPlacement p;
  p.node = node.name().empty() ? node.describe() : node.name();
  p.op = opLabel(node);
  // Constant-only steps without a CUDA kernel run once on the CPU; their
  // outputs are kept (and uploaded once): not a fallback.
  const bool constantOnly = step.outputsInvariance != Invariance::kNo;
  ir::DataType dtype = declaredDispatchType(step);
  if (step.typeInput != kAnyType && dtype == ir::DataType::kUndefined) {
    p.where = "run-time";
    p.reason = "the element type is known only when it runs";
    return p;
  }
  RowChoice choice = chooseRows(node, step.opset, dtype);
  if (choice.placement == Placement::kHostDims) {
    p.where = "host";
    p.reason = "reads dims only";
    return p;
  }
  if (choice.placement == Placement::kCpuFallback) {
    p.where = constantOnly ? "host" : "cpu";
    p.reason = constantOnly ? kComputedOnce : choice.reason;
    return p;
  }
  HostBuild build(step, dtype);
  auto built = buildFirstAccepting(choice.rows, build, "");
  if (!built) {
    p.where = "run-time";
    p.reason = built.error().message();
  } else if (built->def == nullptr) {
    p.where = constantOnly ? "host" : "cpu";
    p.reason = constantOnly ? kComputedOnce : built->reason;
  } else {
    p.where = integerInputsOnly(node) ? "host" : "device";
    p.kernel = std::string(built->def->name);
    if (p.where == "host") p.reason = "shape arithmetic: small integer inputs stay on the host";
  }
  return p;
}

}  // namespace

Expected<std::vector<StepPlacement>> planCudaPlacement(const ir::Model& model) {
  // The executor's own compilation on the CPU backend: the same steps and
  // constants a CUDA run would have; element types from shape inference.
  ir::Model typed = model.clone();
  analysis::inferShapes(typed);
  auto ex = Executor::create(typed);
  if (!ex) return ex.error();
  std::vector<StepPlacement> out;
  for (const Step& step : (*ex)->compiled().steps) out.push_back(placeStep(step));
  return out;
}

}  // namespace passlab::exec::cuda
