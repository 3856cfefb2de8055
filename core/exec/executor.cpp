#include "core/exec/executor.h"

#include <omp.h>

#include <chrono>
#include <optional>
#include <unordered_map>

#include "core/exec/compiled_graph.h"
#include "core/exec/compiler.h"
#include "core/exec/fork_join_cost.h"
#include "core/exec/interpreter.h"
#include "core/exec/kept_values.h"
#include "core/exec/legacy_repairs.h"
#include "core/exec/memory/body_plans.h"
#include "core/exec/output_buffers.h"
#include "core/exec/step_thread_use.h"
#include "core/ir/attribute_limits.h"

namespace passlab::exec {

namespace {

Status checkTensorInput(const InputInfo& info, const Tensor& t,
                        std::unordered_map<std::string, std::pair<int64_t, std::string>>& syms) {
  const ir::Type& type = info.type;
  if (type.elemType() != ir::DataType::kUndefined && t.dtype() != type.elemType())
    return invalidArgument("input '" + info.name + "' has element type " +
                           std::string(ir::dtypeName(t.dtype())) + ", the model expects " +
                           std::string(ir::dtypeName(type.elemType())));
  if (!type.hasShape()) return Status::ok();
  const ir::Shape& shape = *type.shape();
  if (shape.rank() != t.rank())
    return invalidArgument("input '" + info.name + "' has shape " + dimsToString(t.dims()) +
                           ", the model expects rank " + std::to_string(shape.rank()) + " " +
                           shape.toString());
  for (size_t i = 0; i < shape.rank(); ++i) {
    const ir::Dim& d = shape[i];
    if (d.isStatic() && d.value() != t.dim(i))
      return invalidArgument("input '" + info.name + "' has shape " + dimsToString(t.dims()) +
                             ", the model expects " + shape.toString());
    // A dim named "?" (as some exporters write an unnamed dynamic dim) or ""
    // names nothing: each is its own unknown, not one shared symbol.
    if (d.isSymbolic() && d.param() != "?" && !d.param().empty()) {
      auto [it, fresh] = syms.emplace(d.param(), std::make_pair(t.dim(i), info.name));
      if (!fresh && it->second.first != t.dim(i))
        return invalidArgument("input '" + info.name + "' has " + d.param() + " = " +
                               std::to_string(t.dim(i)) + " (dimension " + std::to_string(i) +
                               "), but input '" + it->second.second + "' has " + d.param() + " = " +
                               std::to_string(it->second.first));
    }
  }
  return Status::ok();
}

Status checkInput(const InputInfo& info, const Value& v,
                  std::unordered_map<std::string, std::pair<int64_t, std::string>>& syms) {
  switch (info.type.kind()) {
    case ir::Type::Kind::kTensor:
      if (!v.isTensor())
        return invalidArgument("input '" + info.name + "' is " + v.describe() +
                               ", the model expects a tensor " + info.type.toString());
      return checkTensorInput(info, v.tensor(), syms);
    case ir::Type::Kind::kSequence:
      if (!v.isSequence())
        return invalidArgument("input '" + info.name + "' is " + v.describe() +
                               ", the model expects " + info.type.toString());
      return Status::ok();
    case ir::Type::Kind::kMap:
      if (!v.isMap())
        return invalidArgument("input '" + info.name + "' is " + v.describe() +
                               ", the model expects " + info.type.toString());
      return Status::ok();
    default:
      return Status::ok();
  }
}

// One output, the value of `slot`: the buffer its step wrote handed over, or
// copied out of the run's memory once (output_buffers.h). A tensor's
// ir::Tensor and its runtime value share the bytes (read-only; ir::Tensor
// writers copy first).
void addOutput(const Value& v, int32_t slot, OutputBuffers& buffers, RunResult& result) {
  if (!v.isTensor()) {
    result.outputs.emplace_back();
    result.values.push_back(v.detached());
    return;
  }
  ir::Tensor t = buffers.take(slot, v.tensor());
  result.values.emplace_back(t);
  result.outputs.push_back(std::move(t));
}

// The calling thread's OpenMP thread count, set back when a run returns:
// Backend::beginRun sets the run's, and the caller would otherwise keep it (a
// 1-thread run left the caller's own OpenMP code, and what a later executor
// builds outside its runs, on one thread).
class CallerOmpThreads {
 public:
  CallerOmpThreads() : previous_(omp_get_max_threads()) {}
  ~CallerOmpThreads() { omp_set_num_threads(previous_); }
  CallerOmpThreads(const CallerOmpThreads&) = delete;
  CallerOmpThreads& operator=(const CallerOmpThreads&) = delete;

 private:
  int previous_;
};

// Gives a run's slots back to the executor's ConstantSlots (their values go,
// the initializers stay bound) at giveBack(), or when the run returns early.
class SlotsLoan {
 public:
  SlotsLoan(ConstantSlots& owner, const CompiledGraph& plan, std::vector<Value>& slots,
            bool overridden)
      : owner_(owner), plan_(plan), slots_(slots), overridden_(overridden) {}
  ~SlotsLoan() { giveBack(); }
  SlotsLoan(const SlotsLoan&) = delete;
  SlotsLoan& operator=(const SlotsLoan&) = delete;
  void giveBack() {
    if (given_) return;
    given_ = true;
    owner_.giveBack(plan_, std::move(slots_), overridden_);
    slots_.clear();
  }

 private:
  ConstantSlots& owner_;
  const CompiledGraph& plan_;
  std::vector<Value>& slots_;
  bool overridden_;
  bool given_ = false;
};

}  // namespace

Executor::~Executor() = default;

Expected<std::unique_ptr<Executor>> Executor::create(const ir::Model& model,
                                                     const ExecutorOptions& options) {
  // An attribute no kernel can honour is refused before any kernel sees it.
  PASSLAB_RETURN_IF_ERROR(ir::checkAttributeLimits(model));
  std::unique_ptr<Executor> ex(new Executor());
  ex->model_ = model.clone();
  ex->repairs_ = applyLegacyRepairs(ex->model_);
  auto backend = makeBackend(options.backend);
  if (!backend) return backend.error();
  ex->backend_ = std::move(backend).value();
  ex->compiler_ =
      std::make_unique<Compiler>(ex->model_, ex->backend_->kernels(), options.referenceKernels,
                                 /*buildAhead=*/!ex->backend_->runsGraphs());
  auto plan = ex->compiler_->compile(ex->model_.graph(), nullptr);
  if (!plan) return plan.error();
  ex->plan_ = std::move(plan).value();
  auto runner = ex->backend_->makeRunner(ex->model_, *ex->plan_, *ex->compiler_);
  if (!runner) return runner.error();
  ex->runner_ = std::move(runner).value();
  ex->memory_ =
      std::make_unique<memory::ExecutionMemory>(options.memoryPlan, options.tightMemoryPlan);
  ex->bodies_ = std::make_unique<memory::BodyPlans>(options.memoryPlan);
  if (!options.keepConstantSteps)  // every step runs, and the memory plan holds its outputs
    for (Step& step : ex->plan_->steps) step.outputsInvariance = Invariance::kNo;
  ex->kept_ = std::make_unique<KeptValues>(ex->plan_->steps.size());
  ex->outputs_ = std::make_unique<OutputBuffers>(*ex->plan_);
  ex->reproducible_ = options.reproducible;
  ex->stepTrials_ = options.stepTrials && !options.reproducible;
  // Initializers whose readers all hold packed copies are released too; on
  // the host only (a device runner binds the constants itself).
  if (options.keepConstantSteps && !ex->runner_)
    ex->kept_->trackConstants(*ex->plan_, ex->model_.graph());
  // Steps that depend only on the input shapes are kept per shape signature
  // under the same option (shape_values.h).
  if (options.keepConstantSteps && !ex->runner_) ex->kept_->shapes().classify(*ex->plan_);
  for (const ir::Value* v : ex->model_.graph().inputs())
    ex->inputs_.push_back({v->name(), v->type(), v->isInitializer()});
  for (const ir::Value* v : ex->model_.graph().outputs()) ex->outputNames_.push_back(v->name());
  return ex;
}

Status Executor::bindInputs(const NamedInputs& given, std::vector<Value>& slots) const {
  std::unordered_map<std::string, const Value*> byName;
  for (const auto& [name, value] : given) {
    if (!byName.emplace(name, &value).second)
      return invalidArgument("input '" + name + "' is given twice");
    bool known = false;
    for (const InputInfo& info : inputs_) known = known || info.name == name;
    if (!known) {
      std::string list;
      for (const InputInfo& info : inputs_)
        if (!info.optional) list += (list.empty() ? "" : ", ") + info.name;
      return invalidArgument("unknown input '" + name + "' (the model's inputs: " + list + ")");
    }
  }
  std::unordered_map<std::string, std::pair<int64_t, std::string>> syms;
  for (size_t i = 0; i < inputs_.size(); ++i) {
    const InputInfo& info = inputs_[i];
    auto it = byName.find(info.name);
    if (it == byName.end()) {
      if (info.optional) continue;  // the initializer is bound already
      return invalidArgument("missing input '" + info.name + "' (" + info.type.toString() + ")");
    }
    PASSLAB_RETURN_IF_ERROR(checkInput(info, *it->second, syms));
    slots[static_cast<size_t>(plan_->inputSlots[i])] = *it->second;
  }
  return Status::ok();
}

Expected<RunResult> Executor::run(const NamedInputs& inputs, const RunOptions& options) {
  using Clock = std::chrono::steady_clock;
  std::lock_guard<std::mutex> lock(runMutex_);
  auto start = Clock::now();

  if (runner_) {
    std::vector<Value> slots(plan_->slotCount);
    for (const auto& [slot, value] : plan_->constants) slots[static_cast<size_t>(slot)] = value;
    PASSLAB_RETURN_IF_ERROR(bindInputs(inputs, slots));
    return runOnRunner(std::move(slots), overridesInitializers(inputs), options, start);
  }

  // The slots with the initializers bound, kept between runs.
  Frame frame;
  frame.slots = kept_->slots().take(*plan_);
  SlotsLoan slotsLoan(kept_->slots(), *plan_, frame.slots, overridesInitializers(inputs));
  PASSLAB_RETURN_IF_ERROR(bindInputs(inputs, frame.slots));

  int threads = options.threads > 0 ? options.threads : backend_->defaultThreads();
  const CallerOmpThreads callerThreads;
  backend_->beginRun(threads);
  arena_.setLimit(options.memoryLimitBytes);
  arena_.resetPeak();
  Profiler profiler(options.profile ? plan_->steps.size() : 0);
  RunState state{arena_,         compiler_.get(),           threads,
                 options.cancel, options.maxLoopIterations, options.profile ? &profiler : nullptr};
  state.initializersOverridden = overridesInitializers(inputs);
  state.kept = kept_.get();
  kept_->shapes().beginRun(/*trusted=*/!state.initializersOverridden);
  if (threads > 1) {
    StepThreads& stepThreads = compiler_->stepThreads();
    state.singleThreadSteps = &stepThreads.prepare(model_, *plan_, inputs, threads, reproducible_);
    state.bodyThreads = &stepThreads;
    state.trials = stepTrials_ ? stepThreads.trials() : nullptr;
    if (state.trials != nullptr) state.trials->beginRun();
  }
  memory::RunMemoryUse memoryUse;
  // With a memory limit every output stays in the memory the limit counts:
  // copied out of the block, which then holds them (output_buffers.h).
  const bool directOutputs = options.memoryLimitBytes == 0 && !OutputBuffers::turnedOff();
  const memory::BlockLayout* layout =
      memory_->prepare(model_, *plan_, inputs, directOutputs, memoryUse);
  // Before the block: the result buffers the plan places tensors in are
  // taken with it (memory_plan.h, tensorsInOutputs).
  outputs_->beginRun(directOutputs);
  std::optional<memory::PlannedBlock> block;
  if (layout != nullptr) {
    block.emplace(*layout);
    if (Status st = block->begin(arena_, outputs_.get()); st) {
      frame.block = &*block;
    } else if (st.error().code() == ErrorCode::kLimit) {
      // The arena alone may fit (tensors freed one by one); if not, its error
      // names the node that passes the limit.
      block.reset();
      outputs_->beginRun(directOutputs);  // the buffers it took go back
      memoryUse = {};
      memoryUse.note = "the memory plan's block is above the memory limit: " + st.error().message();
    } else {
      outputs_->endRun();
      return st.error();
    }
  }
  std::vector<uint64_t> recorded;
  std::vector<uint64_t>* valueBytes = options.valueBytes;
  if (valueBytes == nullptr && memory_->recordBytes()) valueBytes = &recorded;
  if (valueBytes) {
    valueBytes->assign(plan_->slotCount, 0);
    frame.valueBytes = valueBytes;
  }
  // The kernel scratch each main-graph step asks for: reported, and planned
  // with the tensors for the next runs (ExecutionMemory::scratchRecorded).
  memory::ScratchRecord scratch(plan_->steps.size());
  frame.scratch = &scratch;
  bodies_->beginRun();
  state.bodies = bodies_.get();
  state.outputs = outputs_.get();
  if (Status ran = runGraph(*plan_, frame, state); !ran) {
    outputs_->endRun();
    return ran.error();
  }
  kept_->shapes().endRun();
  kept_->releaseHeld(*plan_, &frame.slots);  // kept values every reader now holds packed
  memoryUse.scratchBytes = scratch.take();
  if (block) memoryUse.counts = block->counts();

  RunResult result;
  result.outputNames = outputNames_;
  for (const SlotRef& r : plan_->outputs)
    addOutput(frame.at(r), r.depth == 0 ? r.index : -1, *outputs_, result);
  memoryUse.outputsHandedOver = outputs_->handedOver();
  outputs_->endRun();
  for (size_t i = 0; i < result.outputs.size(); ++i) result.outputs[i].setName(outputNames_[i]);
  slotsLoan.giveBack();  // the run's values go
  block.reset();
  // Plans for the next runs once this run's block is gone (the scratch
  // first: a plan made from the recorded sizes then holds it).
  memory_->scratchRecorded(*plan_, memoryUse.scratchBytes);
  if (memory_->recordBytes()) memory_->recorded(*plan_, *valueBytes);
  result.peakArenaBytes = arena_.peakBytes();
  memoryUse.keptBytes = kept_->bytes();
  memoryUse.keptFreedBytes = kept_->freedBytes();
  memoryUse.keptPeakBytes = kept_->peakBytes();
  memoryUse.bodies = bodies_->runCounts();
  result.memory = std::move(memoryUse);
  // The run's wall time; the profile's entries are built after it.
  result.totalMicros = std::chrono::duration<double, std::micro>(Clock::now() - start).count();
  result.profile = profiler.take();
  if (options.profile)
    noteThreadChoices(result.profile, *plan_,
                      {threads, state.trials, threads > 1 && splitLimitIsFixed()});
  return result;
}

bool Executor::overridesInitializers(const NamedInputs& inputs) const {
  for (const auto& given : inputs)
    for (const InputInfo& info : inputs_)
      if (info.optional && info.name == given.first) return true;
  return false;
}

Expected<RunResult> Executor::runOnRunner(std::vector<Value> slots, bool initializersOverridden,
                                          const RunOptions& options,
                                          std::chrono::steady_clock::time_point start) {
  RunResult result;
  result.outputNames = outputNames_;
  PASSLAB_RETURN_IF_ERROR(runner_->run(std::move(slots), initializersOverridden, options, result));
  for (size_t i = 0; i < result.outputs.size() && i < outputNames_.size(); ++i)
    result.outputs[i].setName(outputNames_[i]);
  result.totalMicros =
      std::chrono::duration<double, std::micro>(std::chrono::steady_clock::now() - start).count();
  return result;
}

}  // namespace passlab::exec
