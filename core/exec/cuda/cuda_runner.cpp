#include "core/exec/cuda/cuda_runner.h"

#include <cuda_runtime_api.h>

#include <chrono>
#include <cstdlib>
#include <mutex>
#include <optional>
#include <unordered_map>

#include "core/exec/arena.h"
#include "core/exec/compiled_graph.h"
#include "core/exec/compiler.h"
#include "core/exec/cuda/cuda_check.h"
#include "core/exec/cuda/cupti_timing.h"
#include "core/exec/cuda/device_block.h"
#include "core/exec/cuda/device_checks.h"
#include "core/exec/cuda/device_memory.h"
#include "core/exec/cuda/kernel_choice.h"
#include "core/exec/cuda/placed_values.h"
#include "core/exec/cuda/step_events.h"
#include "core/exec/executor.h"
#include "core/exec/interpreter.h"

namespace passlab::exec::cuda {

namespace {

// A step's kernel for one dispatch type: a CUDA kernel, the host, or the CPU.
struct StepKernel {
  ir::DataType dtype = ir::DataType::kUndefined;
  Placement placement = Placement::kCpuFallback;
  const CudaKernelDef* def = nullptr;
  std::unique_ptr<CudaKernel> kernel;
  std::string reason;  // kCpuFallback: why
};

class Build final : public CudaBuild {
 public:
  Build(const Step& step, ir::DataType dtype, const CudaDevice& device)
      : step_(step), dtype_(dtype), device_(device) {}
  const ir::Node& node() const override { return *step_.node; }
  int64_t opset() const override { return step_.opset; }
  ir::DataType dtype() const override { return dtype_; }
  const ir::Tensor* constantInput(size_t i) const override {
    return i < step_.constantInputs.size() ? step_.constantInputs[i] : nullptr;
  }
  const DeviceProperties& device() const override { return device_.properties(); }
  cudaStream_t stream() const override { return device_.stream(); }

 private:
  const Step& step_;
  ir::DataType dtype_;
  const CudaDevice& device_;
};

class StepContext final : public CudaContext {
 public:
  StepContext(const Step& step, PlacedValues& values, const CudaDevice& device, bool overridden,
              DeviceBlock* block, DeviceChecks& checks)
      : step_(step),
        values_(values),
        device_(device),
        overridden_(overridden),
        block_(block),
        checks_(checks),
        outputs_(step.outputs.size()),
        produced_(step.outputs.size(), false) {}

  size_t inputCount() const override { return step_.inputs.size(); }
  bool has(size_t i) const override {
    return i < step_.inputs.size() && step_.inputs[i].present() && values_.present(slot(i));
  }
  Expected<DeviceTensor> input(size_t i) override {
    if (!has(i)) return invalidArgument("input " + std::to_string(i) + " is required");
    return values_.onDevice(slot(i));
  }
  Expected<Tensor> hostInput(size_t i) override {
    if (!has(i)) return invalidArgument("input " + std::to_string(i) + " is required");
    auto v = values_.onHost(slot(i));
    if (!v) return v.error();
    if (!(*v)->isTensor())
      return invalidArgument("input " + std::to_string(i) + " is " + (*v)->describe() +
                             ", a tensor was expected");
    return (*v)->tensor();
  }
  ir::DataType inputType(size_t i) const override {
    return has(i) ? values_.dtype(slot(i)) : ir::DataType::kUndefined;
  }
  const Dims& inputDims(size_t i) const override {
    static const Dims kNone;
    return has(i) ? values_.dims(slot(i)) : kNone;
  }
  bool invariantInput(size_t i) const override {
    if (i >= step_.invariantInputs.size()) return false;
    Invariance v = step_.invariantInputs[i];
    return v == Invariance::kAlways || (v == Invariance::kUnlessOverridden && !overridden_);
  }
  size_t outputCount() const override { return step_.outputs.size(); }
  bool wantsOutput(size_t i) const override {
    return i < step_.outputs.size() && step_.outputs[i] >= 0;
  }
  Expected<DeviceTensor> allocate(size_t i, ir::DataType dtype, Dims dims) override {
    if (i >= outputs_.size()) return internalError("output " + std::to_string(i) + " out of range");
    int64_t n = numelOf(dims);
    if (n < 0) return invalidArgument("output dims " + dimsToString(dims) + " are invalid");
    if (block_ != nullptr && step_.outputs[i] >= 0)
      if (auto placed = block_->tensorFor(step_.outputs[i], dtype, dims)) {
        outputs_[i] = std::move(*placed);
        produced_[i] = true;
        return outputs_[i];
      }
    auto storage = DeviceStorage::allocate(
        static_cast<size_t>(ir::dtypeStorageBytes(dtype, static_cast<uint64_t>(n))),
        device_.stream());
    if (!storage) return storage.error();
    outputs_[i] = DeviceTensor(dtype, std::move(dims), std::move(storage).value());
    produced_[i] = true;
    return outputs_[i];
  }
  void setOutput(size_t i, DeviceTensor t) override {
    if (i >= outputs_.size()) return;
    outputs_[i] = std::move(t);
    produced_[i] = true;
  }
  Expected<DeviceTensor> scratch(size_t bytes) override {
    auto storage = DeviceStorage::allocate(bytes, device_.stream());
    if (!storage) return storage.error();
    scratch_.emplace_back(ir::DataType::kUInt8, Dims{static_cast<int64_t>(bytes)},
                          std::move(storage).value());
    return scratch_.back();
  }
  cudaStream_t stream() const override { return device_.stream(); }
  cublasLtHandle_t cublasLt() override { return device_.cublasLt(); }
  cudnnHandle_t cudnn() override { return device_.cudnn(); }
  const DeviceProperties& device() const override { return device_.properties(); }
  Expected<int64_t*> rangeCheck(int64_t axis, int64_t size, const DeviceTensor& data) override {
    return checks_.add({step_.node->describe(), axis, size, data.describe()}, device_.stream());
  }

  std::vector<DeviceTensor>& outputs() { return outputs_; }
  bool produced(size_t i) const { return produced_[i]; }

 private:
  int32_t slot(size_t i) const { return step_.inputs[i].index; }

  const Step& step_;
  PlacedValues& values_;
  const CudaDevice& device_;
  bool overridden_;
  DeviceBlock* block_;  // the device memory plan's block, or null (the pool)
  DeviceChecks& checks_;
  std::vector<DeviceTensor> outputs_;
  std::vector<bool> produced_;
  std::vector<DeviceTensor> scratch_;  // freed (stream-ordered) with the context
};

std::string nodeLabel(const ir::Node& n) {
  return n.name().empty() ? n.describe() : n.name();
}

std::string opLabel(const ir::Node& n) {
  return n.domain().empty() || n.domain() == "ai.onnx" ? n.opType() : n.domain() + "." + n.opType();
}

// What one run carries from step to step.
struct RunContext {
  PlacedValues& values;
  RunState& state;  // for the CPU kernels
  DeviceRunSummary& summary;
  std::vector<std::string> kernelNames;  // per step, for the profile
  bool overridden;                       // an initializer listed as input was given
  bool profile;
  bool cupti = false;  // CUPTI collects this profiled run's kernels (cupti_timing.h)
};

// Tags the launches of one step for CUPTI while it lives.
class CuptiStepScope {
 public:
  CuptiStepScope(bool on, size_t step) : on_(on && CuptiTiming::pushStep(step)) {}
  ~CuptiStepScope() {
    if (on_) (void)CuptiTiming::popStep();
  }
  CuptiStepScope(const CuptiStepScope&) = delete;
  CuptiStepScope& operator=(const CuptiStepScope&) = delete;

 private:
  bool on_;
};

// Stops CUPTI's collection when a profiled run ends early.
struct CuptiRunScope {
  bool active = false;
  ~CuptiRunScope() {
    if (active) (void)CuptiTiming::finish(0);
  }
};

// Whether a profile's kernel name is a device kernel's (not a CPU or host
// step, nor a kept one): CUPTI times those.
bool timedByCupti(const std::string& kernel) {
  return kernel != kKeptKernel && kernel.rfind("cpu-fallback:", 0) != 0 &&
         kernel.rfind("host", 0) != 0;
}

class CudaRunner final : public GraphRunner {
 public:
  CudaRunner(std::shared_ptr<CudaDevice> device, const CompiledGraph& plan, Compiler& compiler)
      : device_(std::move(device)),
        plan_(plan),
        compiler_(compiler),
        stepKernels_(plan.steps.size()),
        kept_(plan.steps.size()),
        syncEachStep_(std::getenv("PASSLAB_CUDA_SYNC") != nullptr &&
                      std::string(std::getenv("PASSLAB_CUDA_SYNC")) == "1"),
        memory_(std::getenv("PASSLAB_CUDA_ARENA") == nullptr ||
                std::string(std::getenv("PASSLAB_CUDA_ARENA")) != "off"),
        cuptiWanted_(std::getenv("PASSLAB_CUDA_CUPTI") == nullptr ||
                     std::string(std::getenv("PASSLAB_CUDA_CUPTI")) != "off") {
    std::vector<int32_t> constantSlots;
    for (const auto& [slot, value] : plan.constants) constantSlots.push_back(slot);
    uploads_.setConstantSlots(constantSlots);
  }

  Status run(std::vector<Value> slots, bool initializersOverridden, const RunOptions& options,
             RunResult& result) override;

 private:
  Expected<StepKernel*> kernelFor(size_t stepIndex, ir::DataType dtype);
  Expected<ir::DataType> dispatchType(const Step& step, PlacedValues& values) const;
  Status runOnDevice(const Step& step, StepKernel& k, PlacedValues& values, bool overridden,
                     bool keep);
  // The device memory plan for this run: its block, or the pool (recording).
  Status prepareMemory(const std::vector<Value>& slots, DeviceRunSummary& summary);
  Status runDimsOnHost(const Step& step, PlacedValues& values);
  Status runOnCpu(const Step& step, ir::DataType dtype, PlacedValues& values, RunState& state);
  Status runStep(size_t stepIndex, RunContext& rc);
  // The step on its placement; `kernelName` gets the profile's kernel name.
  Status execute(const Step& step, StepKernel& k, ir::DataType dtype, bool keep, RunContext& rc,
                 std::string& kernelName);
  Status runOnHost(const Step& step, ir::DataType dtype, RunContext& rc, std::string& kernelName);
  Status runAsFallback(const Step& step, ir::DataType dtype, std::string reason, RunContext& rc,
                       std::string& kernelName);
  Status collectOutputs(PlacedValues& values, RunResult& result);
  // Per-node times: CUPTI's kernel spans where `activity` has them, else the
  // CUDA events'.
  void recordProfile(const std::vector<std::string>& kernelNames, const GroupedActivity* activity,
                     RunResult& result);
  bool keepable(const Step& step, bool overridden) const {
    return step.outputsInvariance == Invariance::kAlways ||
           (step.outputsInvariance == Invariance::kUnlessOverridden && !overridden);
  }

  std::shared_ptr<CudaDevice> device_;
  const CompiledGraph& plan_;
  Compiler& compiler_;
  Arena arena_;                                                        // host memory of CPU steps
  std::vector<std::vector<std::unique_ptr<StepKernel>>> stepKernels_;  // per step, per dtype
  std::vector<std::optional<std::vector<PlacedValue>>> kept_;          // per step
  ConstantUploads uploads_;                                            // constants on the device
  StepEvents events_;
  bool syncEachStep_;
  DeviceMemory memory_;                 // the device memory plan's stages
  std::unique_ptr<DeviceBlock> block_;  // its block in GPU memory, for runs on the plan
  uint64_t blockPlan_ = 0;              // the plan the block was made for
  bool cuptiWanted_;                    // PASSLAB_CUDA_CUPTI is not "off"
  DeviceChecks checks_;                 // the run's range checks on device values
};

// A small integer tensor (a shape, indices, axes): what kernels may read on
// the host, and what shape arithmetic computes.
bool smallIntegers(const PlacedValues& values, int32_t slot) {
  constexpr int64_t kSmall = 1024;
  ir::DataType t = values.dtype(slot);
  return (t == ir::DataType::kInt64 || t == ir::DataType::kInt32) &&
         numelOf(values.dims(slot)) <= kSmall;
}

// Every present input is a small integer tensor held on the host (shape
// arithmetic: Gather, Concat, Unsqueeze of Shape outputs). Such steps run on
// the CPU rather than copy a few numbers to the device and back.
bool smallIntegersOnHost(const Step& step, PlacedValues& values) {
  bool any = false;
  for (const SlotRef& r : step.inputs) {
    if (!r.present() || !values.present(r.index)) continue;
    if (!values.onHostOnly(r.index) || !smallIntegers(values, r.index)) return false;
    any = true;
  }
  return any;
}

// Copies to the device the inputs of `step` that are data: all but small
// integer tensors (shapes, indices, axes a kernel may read on the host).
Status uploadData(const Step& step, PlacedValues& values) {
  for (const SlotRef& r : step.inputs) {
    if (!r.present() || !values.present(r.index) || !values.onHostOnly(r.index)) continue;
    ir::DataType t = values.dtype(r.index);
    if (smallIntegers(values, r.index) || t == ir::DataType::kUndefined ||
        t == ir::DataType::kString)
      continue;
    auto d = values.onDevice(r.index);
    if (!d) return d.error();
  }
  return Status::ok();
}

Expected<ir::DataType> CudaRunner::dispatchType(const Step& step, PlacedValues& values) const {
  if (step.typeInput == kAnyType) return ir::DataType::kUndefined;
  auto i = static_cast<size_t>(step.typeInput);
  if (i >= step.inputs.size() || !step.inputs[i].present() || !values.present(step.inputs[i].index))
    return invalidArgument("input " + std::to_string(i) + " is required");
  return values.dtype(step.inputs[i].index);
}

Expected<StepKernel*> CudaRunner::kernelFor(size_t stepIndex, ir::DataType dtype) {
  for (auto& k : stepKernels_[stepIndex])
    if (k->dtype == dtype) return k.get();
  const Step& step = plan_.steps[stepIndex];
  auto k = std::make_unique<StepKernel>();
  k->dtype = dtype;
  RowChoice choice = chooseRows(*step.node, step.opset, dtype);
  k->placement = choice.placement;
  k->reason = choice.reason;
  if (choice.placement == Placement::kDevice) {
    Build build(step, dtype, *device_);
    std::string cudnnProblem;
    if (device_->cudnn() == nullptr)
      cudnnProblem =
          device_->cudnnProblem().empty() ? "it could not be started" : device_->cudnnProblem();
    auto built = buildFirstAccepting(choice.rows, build, cudnnProblem);
    if (!built) return built.error().withContext(step.node->describe());
    k->placement = built->def ? Placement::kDevice : Placement::kCpuFallback;
    k->def = built->def;
    k->kernel = std::move(built->kernel);
    k->reason = std::move(built->reason);
  }
  stepKernels_[stepIndex].push_back(std::move(k));
  return stepKernels_[stepIndex].back().get();
}

Status CudaRunner::runOnDevice(const Step& step, StepKernel& k, PlacedValues& values,
                               bool overridden, bool keep) {
  // Outputs kept across runs never take the block's memory.
  DeviceBlock* block = keep ? nullptr : block_.get();
  StepContext ctx(step, values, *device_, overridden, block, checks_);
  PASSLAB_RETURN_IF_ERROR(k.kernel->run(ctx));
  PASSLAB_CUDA_TRY(cudaGetLastError());
  for (size_t i = 0; i < step.outputs.size(); ++i) {
    int32_t slot = step.outputs[i];
    if (slot < 0) continue;
    if (!ctx.produced(i))
      return internalError("kernel " + std::string(k.def->name) + " did not produce output " +
                           std::to_string(i));
    DeviceTensor out = std::move(ctx.outputs()[i]);
    if (block != nullptr) {
      auto settled = block->settle(slot, std::move(out), device_->stream());
      if (!settled) return settled.error();
      out = std::move(settled).value();
    }
    if (!keep && memory_.recording()) memory_.record(slot, out.byteSize());
    values.setDevice(slot, std::move(out));
  }
  return Status::ok();
}

Status CudaRunner::prepareMemory(const std::vector<Value>& slots, DeviceRunSummary& summary) {
  DeviceBlockUse use;
  const memory::BlockLayout* layout = memory_.prepare(plan_, slots, use);
  if (layout == nullptr) {
    block_.reset();
    summary.memoryNote = use.note;
    return Status::ok();
  }
  if (!block_ || blockPlan_ != memory_.planNumber()) {
    block_.reset();  // the old plan's block goes back to the pool first
    auto block = DeviceBlock::create(*layout, device_->stream());
    if (!block) {
      memory_.blockFailed(block.error().message());
      DeviceBlockUse failed;
      memory_.prepare(plan_, slots, failed);
      summary.memoryNote = failed.note;
      return Status::ok();
    }
    block_ = std::move(block).value();
    blockPlan_ = memory_.planNumber();
  }
  block_->resetCounts();
  summary.blockBytes = use.blockBytes;
  summary.plannedTensorBytes = use.plannedTensorBytes;
  return Status::ok();
}

Status CudaRunner::runDimsOnHost(const Step& step, PlacedValues& values) {
  // Shape (with start/end) and Size need only the input's dims: no copy.
  if (step.inputs.empty() || !step.inputs[0].present() || !values.present(step.inputs[0].index))
    return invalidArgument("input 0 is required");
  if (step.outputs.empty() || step.outputs[0] < 0) return Status::ok();
  const Dims& dims = values.dims(step.inputs[0].index);
  if (step.node->opType() == "Size") {
    values.setHost(step.outputs[0],
                   Value(Tensor::fromVector<int64_t>(ir::DataType::kInt64, {}, {numelOf(dims)})));
    return Status::ok();
  }
  auto rank = static_cast<int64_t>(dims.size());
  auto clampAxis = [rank](int64_t a) {
    if (a < 0) a += rank;
    return a < 0 ? 0 : (a > rank ? rank : a);
  };
  int64_t start = clampAxis(step.node->attrInt("start", 0));
  int64_t end = clampAxis(step.node->attrInt("end", rank));
  std::vector<int64_t> shape;
  for (int64_t a = start; a < end; ++a) shape.push_back(dims[static_cast<size_t>(a)]);
  auto n = static_cast<int64_t>(shape.size());
  values.setHost(step.outputs[0],
                 Value(Tensor::fromVector<int64_t>(ir::DataType::kInt64, {n}, shape)));
  return Status::ok();
}

Status CudaRunner::runOnCpu(const Step& step, ir::DataType dtype, PlacedValues& values,
                            RunState& state) {
  if (step.node->hasSubgraphs()) PASSLAB_RETURN_IF_ERROR(values.allOnHost());
  std::vector<const Value*> ins(step.inputs.size(), nullptr);
  for (size_t i = 0; i < step.inputs.size(); ++i) {
    if (!step.inputs[i].present()) continue;
    auto v = values.onHost(step.inputs[i].index);
    if (!v) return v.error();
    ins[i] = *v;
  }
  auto inst = compiler_.instance(plan_, step, dtype);
  if (!inst) return inst.error();
  std::vector<bool> wanted(step.outputs.size());
  for (size_t i = 0; i < wanted.size(); ++i) wanted[i] = step.outputs[i] >= 0;
  NodeContext ctx(state, &values.hostFrame(), ins, std::move(wanted), &step);
  PASSLAB_RETURN_IF_ERROR((*inst)->kernel->run(ctx));
  for (size_t i = 0; i < step.outputs.size(); ++i) {
    int32_t slot = step.outputs[i];
    if (slot < 0) continue;
    if (!ctx.produced(i))
      return internalError("kernel " + std::string((*inst)->def->name) +
                           " did not produce output " + std::to_string(i));
    values.setHost(slot, std::move(ctx.outputs()[i]));
  }
  return Status::ok();
}

Status CudaRunner::run(std::vector<Value> slots, bool overridden, const RunOptions& options,
                       RunResult& result) {
  // Executors share the device's stream and handles (cuDNN's may not be
  // used from two threads at once): one run at a time per GPU.
  std::lock_guard<std::mutex> deviceLock(device_->runMutex());
  PASSLAB_RETURN_IF_ERROR(device_->makeCurrent());
  checks_.reset();
  PASSLAB_RETURN_IF_ERROR(prepareMemory(slots, result.device));
  PlacedValues values(std::move(slots), device_->stream(), uploads_);
  result.device.device =
      "cuda:" + std::to_string(device_->properties().index) + " " + device_->properties().name;
  int threads = options.threads > 0 ? options.threads : 1;
  RunState state{arena_, &compiler_, threads, options.cancel, options.maxLoopIterations, nullptr};
  if (options.profile) PASSLAB_RETURN_IF_ERROR(events_.prepare(plan_.steps.size()));
  RunContext rc{values,        state,
                result.device, std::vector<std::string>(plan_.steps.size()),
                overridden,    options.profile};
  CuptiRunScope cuptiRun;
  if (options.profile) {
    if (!cuptiWanted_) {
      result.device.timing = "CUDA events (PASSLAB_CUDA_CUPTI=off)";
    } else if (Status st = CuptiTiming::begin(); !st) {
      result.device.timing = "CUDA events (CUPTI not used: " + st.error().message() + ")";
    } else {
      rc.cupti = cuptiRun.active = true;
    }
  }
  for (size_t s = 0; s < plan_.steps.size(); ++s) {
    if (options.cancel && options.cancel->load())
      return Error(ErrorCode::kCancelled,
                   "run cancelled before " + plan_.steps[s].node->describe());
    if (Status st = runStep(s, rc); !st) {
      // An index out of range found on the device earlier may be the cause.
      if (!checks_.empty()) PASSLAB_RETURN_IF_ERROR(checks_.verify(device_->stream()));
      return st;
    }
  }
  if (cudaError_t e = cudaStreamSynchronize(device_->stream()); e != cudaSuccess)
    return fromCuda(e, "the run's kernels (set PASSLAB_CUDA_SYNC=1 to name the failing node)");
  PASSLAB_RETURN_IF_ERROR(checks_.verify(device_->stream()));
  PASSLAB_RETURN_IF_ERROR(collectOutputs(values, result));
  values.countCopies(result.device);
  if (block_) {
    result.device.placedInBlock = block_->counts().placed;
    result.device.blockFallbacks = block_->counts().fellBack;
    result.device.copiedOutOfBlock = block_->counts().copiedOut;
  }
  if (memory_.recording()) memory_.recorded(plan_);
  if (options.profile) {
    std::optional<GroupedActivity> activity;
    if (rc.cupti) {
      cuptiRun.active = false;
      auto grouped = CuptiTiming::finish(plan_.steps.size());
      if (!grouped) {
        result.device.timing =
            "CUDA events (CUPTI's records not read: " + grouped.error().message() + ")";
      } else {
        activity = std::move(grouped).value();
        int spans = 0;
        for (const StepActivity& a : activity->steps) spans += a.spans;
        result.device.timing = "CUPTI kernel spans (" + std::to_string(spans) + " under steps, " +
                               std::to_string(activity->unattributed) +
                               " outside them); CUDA events for the CPU and host steps";
      }
    }
    recordProfile(rc.kernelNames, activity ? &*activity : nullptr, result);
  }
  return Status::ok();
}

Status CudaRunner::runStep(size_t s, RunContext& rc) {
  const Step& step = plan_.steps[s];
  const ir::Node& node = *step.node;
  const cudaStream_t stream = device_->stream();
  const bool keep = keepable(step, rc.overridden);
  if (keep && kept_[s]) {
    rc.values.bind(step.outputs, *kept_[s]);
    rc.kernelNames[s] = std::string(kKeptKernel);
    ++rc.summary.keptSteps;
    rc.values.release(step.releaseAfter);
    return Status::ok();
  }
  auto dt = dispatchType(step, rc.values);
  if (!dt) return dt.error().withContext(node.describe());
  auto k = kernelFor(s, *dt);
  if (!k) return k.error();
  const bool onDevice = (*k)->placement == Placement::kDevice;
  // Shape arithmetic: integers already on the host stay there.
  const bool shapeArithmetic = onDevice && smallIntegersOnHost(step, rc.values);
  // The data a CUDA step reads is copied before its events, so that its
  // time is its kernels' (small integer inputs may be read on the host).
  if (onDevice && !shapeArithmetic) PASSLAB_RETURN_IF_ERROR(uploadData(step, rc.values));
  if (rc.profile) PASSLAB_RETURN_IF_ERROR(events_.begin(s, stream));
  std::optional<CuptiStepScope> cuptiStep;
  if (rc.cupti) cuptiStep.emplace(true, s);
  Status st = shapeArithmetic ? runOnHost(step, *dt, rc, rc.kernelNames[s])
                              : execute(step, **k, *dt, keep, rc, rc.kernelNames[s]);
  if (!st) return st.error().withContext(node.describe());
  cuptiStep.reset();
  if (rc.profile) PASSLAB_RETURN_IF_ERROR(events_.end(s, stream));
  if (syncEachStep_)
    if (cudaError_t e = cudaStreamSynchronize(stream); e != cudaSuccess)
      return fromCuda(e, "the step's kernels").withContext(node.describe());
  if (syncEachStep_) PASSLAB_RETURN_IF_ERROR(checks_.verify(stream));
  if (keep) {
    kept_[s] = rc.values.snapshot(step.outputs);
    // Their host copies are the same tensors on every run: uploaded once too.
    uploads_.setConstantSlots(step.outputs);
  }
  rc.values.release(step.releaseAfter);
  return Status::ok();
}

Status CudaRunner::runOnHost(const Step& step, ir::DataType dtype, RunContext& rc,
                             std::string& kernelName) {
  kernelName = "host:" + step.node->opType();
  ++rc.summary.hostSteps;
  return runOnCpu(step, dtype, rc.values, rc.state);
}

Status CudaRunner::runAsFallback(const Step& step, ir::DataType dtype, std::string reason,
                                 RunContext& rc, std::string& kernelName) {
  const ir::Node& node = *step.node;
  kernelName = "cpu-fallback:" + node.opType();
  ++rc.summary.fallbackSteps;
  rc.summary.fallbacks.push_back({nodeLabel(node), opLabel(node), std::move(reason)});
  return runOnCpu(step, dtype, rc.values, rc.state);
}

Status CudaRunner::execute(const Step& step, StepKernel& k, ir::DataType dtype, bool keep,
                           RunContext& rc, std::string& kernelName) {
  switch (k.placement) {
    case Placement::kHostDims:
      kernelName = "host." + step.node->opType();
      ++rc.summary.hostSteps;
      return runDimsOnHost(step, rc.values);
    case Placement::kDevice: {
      Status st = runOnDevice(step, k, rc.values, rc.overridden, keep);
      if (!st && st.error().code() == ErrorCode::kUnsupported)
        // A limit only the run's shapes show (a head size, a rank after
        // merging dims): this run's step goes to the CPU instead.
        return runAsFallback(
            step, dtype,
            std::string(k.def->name) + " declined at run time: " + st.error().message(), rc,
            kernelName);
      kernelName = std::string(k.def->name);
      ++rc.summary.deviceSteps;
      return st;
    }
    case Placement::kCpuFallback:
      // A constant-only step, computed once and kept, is not a fallback.
      if (keep) return runOnHost(step, dtype, rc, kernelName);
      return runAsFallback(step, dtype, k.reason, rc, kernelName);
  }
  return internalError("unknown placement");
}

Status CudaRunner::collectOutputs(PlacedValues& values, RunResult& result) {
  for (const SlotRef& r : plan_.outputs) {
    auto v = values.onHost(r.index);
    if (!v) return v.error();
    Value out = (*v)->detached();
    result.outputs.push_back(out.isTensor() ? out.tensor().toIr() : ir::Tensor());
    result.values.push_back(std::move(out));
  }
  return Status::ok();
}

void CudaRunner::recordProfile(const std::vector<std::string>& kernelNames,
                               const GroupedActivity* activity, RunResult& result) {
  for (size_t s = 0; s < plan_.steps.size(); ++s) {
    const ir::Node& node = *plan_.steps[s].node;
    NodeProfile p;
    p.nodeId = node.id();
    p.op = opLabel(node);
    p.name = node.name();
    p.kernel = kernelNames[s];
    p.calls = 1;
    p.micros = kernelNames[s] == kKeptKernel ? 0.0 : events_.micros(s);
    if (activity != nullptr && s < activity->steps.size() && activity->steps[s].spans > 0 &&
        timedByCupti(kernelNames[s]))
      p.micros = activity->steps[s].micros;
    result.profile.push_back(std::move(p));
  }
}

}  // namespace

Expected<std::unique_ptr<GraphRunner>> makeCudaRunner(std::shared_ptr<CudaDevice> device,
                                                      const CompiledGraph& plan,
                                                      Compiler& compiler) {
  if (plan.depth != 0) return internalError("the CUDA runner runs main graphs only");
  return std::unique_ptr<GraphRunner>(
      std::make_unique<CudaRunner>(std::move(device), plan, compiler));
}

}  // namespace passlab::exec::cuda
