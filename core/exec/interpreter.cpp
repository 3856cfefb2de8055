#include "core/exec/interpreter.h"

#include <omp.h>

#include <algorithm>
#include <chrono>
#include <exception>
#include <iterator>
#include <new>
#include <optional>

#include "core/exec/body_value_watch.h"

namespace passlab::exec {

Expected<Tensor> allocateTensor(Arena& arena, ir::DataType dtype, Dims dims) {
  int64_t n = numelOf(dims);
  if (n < 0)
    return invalidArgument("cannot allocate a tensor of dims " + dimsToString(dims) +
                           " (negative or too large)");
  if (dtype == ir::DataType::kString)
    return Tensor(dtype, std::move(dims), makeStringStorage(static_cast<size_t>(n)));
  if (dtype == ir::DataType::kUndefined) return internalError("allocating a tensor of no type");
  uint64_t bytes = ir::dtypeStorageBytes(dtype, static_cast<uint64_t>(n));
  if (bytes > (uint64_t{1} << 46))
    return limitError("a tensor of " + std::string(ir::dtypeName(dtype)) + dimsToString(dims) +
                      " is too large");
  auto storage = arena.allocate(bytes);
  if (!storage) return storage.error();
  return Tensor(dtype, std::move(dims), std::move(storage).value());
}

namespace {

// A tensor of its own on the heap (zero-filled), with allocateTensor's checks.
Expected<Tensor> heapTensor(ir::DataType dtype, Dims dims) {
  int64_t n = numelOf(dims);
  if (n < 0)
    return invalidArgument("cannot allocate a tensor of dims " + dimsToString(dims) +
                           " (negative or too large)");
  if (dtype == ir::DataType::kUndefined) return internalError("allocating a tensor of no type");
  if (dtype != ir::DataType::kString &&
      ir::dtypeStorageBytes(dtype, static_cast<uint64_t>(n)) > (uint64_t{1} << 46))
    return limitError("a tensor of " + std::string(ir::dtypeName(dtype)) + dimsToString(dims) +
                      " is too large");
  try {
    return Tensor::zeros(dtype, std::move(dims));
  } catch (const std::bad_alloc&) {
    return limitError("out of memory for a tensor of " + std::string(ir::dtypeName(dtype)) +
                      dimsToString(dims));
  }
}

}  // namespace

NodeContext::NodeContext(RunState& state, const Frame* frame,
                         const std::vector<const Value*>& inputs, const std::vector<bool>& wanted,
                         const Step* step)
    : state_(state),
      frame_(frame),
      step_(step),
      threads_(state.threads),
      inputs_(inputs.begin(), inputs.end()),
      wanted_(wanted.begin(), wanted.end()),
      outputs_(wanted_.size()),
      produced_(wanted_.size(), false),
      heapOutput_(wanted_.size(), false) {}

NodeContext::NodeContext(RunState& state, const Frame* frame,
                         const std::vector<const Value*>& inputs, const Step& step)
    : state_(state),
      frame_(frame),
      step_(&step),
      threads_(state.threads),
      inputs_(inputs.begin(), inputs.end()),
      wanted_(step.outputs.size()),
      outputs_(step.outputs.size()),
      produced_(step.outputs.size(), false),
      heapOutput_(step.outputs.size(), false) {
  for (size_t i = 0; i < wanted_.size(); ++i) wanted_[i] = step.outputs[i] >= 0;
}

bool NodeContext::invariantInput(size_t i) const {
  if (step_ == nullptr || i >= inputs_.size() || inputs_[i] == nullptr ||
      i >= step_->invariantInputs.size())
    return false;
  switch (step_->invariantInputs[i]) {
    case Invariance::kAlways:
      return true;
    case Invariance::kUnlessOverridden:
      return !state_.initializersOverridden;
    default:
      return false;
  }
}

void NodeContext::holdsOwnCopy(size_t i) {
  if (!invariantInput(i)) return;
  if (holds_.size() <= i) holds_.resize(inputs_.size(), false);
  holds_[i] = true;
}

Expected<Tensor*> NodeContext::allocate(size_t i, ir::DataType dtype, Dims dims) {
  if (i >= outputs_.size())
    return internalError("output " + std::to_string(i) + " does not exist (the node has " +
                         std::to_string(outputs_.size()) + ")");
  if (outputBuffers_ != nullptr && step_ != nullptr && i < step_->outputs.size() &&
      outputBuffers_->writes(step_->outputs[i], dtype)) {
    auto t = outputBuffers_->allocate(step_->outputs[i], dtype, std::move(dims));
    if (!t) return t.error().withContext("output " + std::to_string(i));
    outputs_[i] = Value(std::move(t).value());
    produced_[i] = true;
    return &outputs_[i].mutableTensor();
  }
  if (block_ != nullptr && step_ != nullptr && i < step_->outputs.size()) {
    if (auto placed = block_->tensorFor(step_->outputs[i], dtype, dims)) {
      outputs_[i] = Value(std::move(*placed));
      produced_[i] = true;
      return &outputs_[i].mutableTensor();
    }
  }
  auto t = onHeap_ ? heapTensor(dtype, std::move(dims))
                   : allocateTensor(state_.arena, dtype, std::move(dims));
  if (!t) return t.error().withContext("output " + std::to_string(i));
  outputs_[i] = Value(std::move(t).value());
  produced_[i] = true;
  heapOutput_[i] = onHeap_;
  return &outputs_[i].mutableTensor();
}

void NodeContext::setOutput(size_t i, Value v) {
  if (i >= outputs_.size()) return;
  outputs_[i] = std::move(v);
  produced_[i] = true;
  heapOutput_[i] = false;
}

Expected<Tensor> NodeContext::scratch(ir::DataType dtype, Dims dims) {
  // A step computed for keeping (onHeap_) runs on the first run only: its
  // scratch is not the later runs' (kept_values.h).
  if (frame_ != nullptr && frame_->scratch != nullptr && !onHeap_) {
    const int64_t n = numelOf(dims);
    if (n >= 0 && dtype != ir::DataType::kString && dtype != ir::DataType::kUndefined)
      frame_->scratch->add(
          stepIndex_,
          std::max<uint64_t>(ir::dtypeStorageBytes(dtype, static_cast<uint64_t>(n)), 1));
  }
  if (block_ != nullptr)
    if (auto t = block_->scratchFor(stepIndex_, dtype, dims)) return std::move(*t);
  return allocateTensor(state_.arena, dtype, std::move(dims));
}

Expected<std::vector<Value>> NodeContext::runSubgraph(const CompiledGraph& graph,
                                                      std::vector<Value> inputs) {
  return exec::runSubgraph(graph, std::move(inputs), frame_, state_, &bodyBlocks_);
}

namespace {

// The input that selects the kernel, or an error when it is missing.
Expected<ir::DataType> dispatchType(const Step& step, const std::vector<const Value*>& ins) {
  if (step.typeInput == kAnyType) return ir::DataType::kUndefined;
  auto i = static_cast<size_t>(step.typeInput);
  const Value* v = i < ins.size() ? ins[i] : nullptr;
  if (v == nullptr || v->isNone())
    return invalidArgument("input " + std::to_string(i) + " is required");
  if (!v->isTensor()) return ir::DataType::kUndefined;  // value kernels check their inputs
  return v->tensor().dtype();
}

Status checkTensorInputs(const Step& step, const std::vector<const Value*>& ins) {
  if (step.valueInputs) return Status::ok();
  for (size_t i = 0; i < ins.size(); ++i)
    if (ins[i] && !ins[i]->isTensor() && !ins[i]->isNone())
      return invalidArgument("input " + std::to_string(i) + " is " + ins[i]->describe() +
                             ", a tensor was expected");
  return Status::ok();
}

Status runKernel(Kernel& kernel, NodeContext& ctx) {
  try {
    return kernel.run(ctx);
  } catch (const std::bad_alloc&) {
    return limitError("out of memory");
  } catch (const std::exception& e) {
    return internalError(std::string("kernel failed: ") + e.what());
  }
}

// Binds the outputs kept from an earlier run of `step` instead of running it;
// the profile shows the step with 0 µs under `kernel` (kKeptKernel, kShapeKernel).
void bindKept(const Step& step, const std::vector<Value>& values, Frame& frame, RunState& state,
              std::string_view kernel) {
  uint64_t held = 0;
  for (size_t i = 0; i < step.outputs.size(); ++i) {
    int32_t slot = step.outputs[i];
    if (slot < 0) continue;
    frame.slots[static_cast<size_t>(slot)] = values[i];
    held += values[i].byteSize();
    if (frame.valueBytes) (*frame.valueBytes)[static_cast<size_t>(slot)] = values[i].byteSize();
  }
  if (state.profiler) state.profiler->record(*step.node, kernel, 0, 0.0, 0, held);
  for (int32_t slot : step.releaseAfter) frame.slots[static_cast<size_t>(slot)] = Value();
}

// The OpenMP threads of the calling thread (what oneDNN's primitives are
// built for and run on) are `threads` while it lives.
class ScopedOmpThreads {
 public:
  explicit ScopedOmpThreads(int threads) : previous_(omp_get_max_threads()) {
    omp_set_num_threads(threads);
  }
  ~ScopedOmpThreads() { omp_set_num_threads(previous_); }
  ScopedOmpThreads(const ScopedOmpThreads&) = delete;
  ScopedOmpThreads& operator=(const ScopedOmpThreads&) = delete;

 private:
  int previous_;
};

// Whether step `stepIndex` of `plan` runs on one thread (step_threads.h), on
// every thread, or on every thread and its work is learnt from what it read
// and wrote (a body step whose shapes are known only now).
RunShapeThreads::Choice stepThreads(const CompiledGraph& plan, size_t stepIndex,
                                    const std::vector<const Value*>& ins, const RunState& state) {
  using Choice = RunShapeThreads::Choice;
  if (state.threads <= 1) return Choice::kAll;
  if (plan.depth > 0)
    return state.bodyThreads != nullptr
               ? state.bodyThreads->bodyStep(*plan.steps[stepIndex].node, ins)
               : Choice::kAll;
  if (state.trials != nullptr && state.trials->tries(stepIndex))
    return state.trials->oneThread(stepIndex) ? Choice::kOne : Choice::kAll;
  const std::vector<bool>* single = state.singleThreadSteps;
  return single != nullptr && stepIndex < single->size() && (*single)[stepIndex] ? Choice::kOne
                                                                                 : Choice::kAll;
}

}  // namespace

Status runGraph(const CompiledGraph& plan, Frame& frame, RunState& state) {
  using Clock = std::chrono::steady_clock;
  memory::PlannedBlock* block = frame.block;
  std::vector<const Value*> ins;
  for (size_t stepIndex = 0; stepIndex < plan.steps.size(); ++stepIndex) {
    const Step& step = plan.steps[stepIndex];
    const ir::Node& node = *step.node;
    if (state.cancel && state.cancel->load())
      return Error(ErrorCode::kCancelled, "run cancelled before " + node.describe());
    KeptValues* kept = plan.depth == 0 && state.kept != nullptr &&
                               KeptValues::applies(step, state.initializersOverridden)
                           ? state.kept
                           : nullptr;
    if (kept != nullptr)
      if (const std::vector<Value>* values = kept->find(stepIndex)) {
        bindKept(step, *values, frame, state, kKeptKernel);
        continue;
      }
    ShapeValues* shapes = plan.depth == 0 && state.kept != nullptr && kept == nullptr
                              ? &state.kept->shapes()
                              : nullptr;
    if (shapes != nullptr)
      if (const std::vector<Value>* values = shapes->reuse(stepIndex)) {
        bindKept(step, *values, frame, state, kShapeKernel);
        continue;
      }
    ins.assign(step.inputs.size(), nullptr);
    for (size_t i = 0; i < step.inputs.size(); ++i)
      if (step.inputs[i].present()) ins[i] = &frame.at(step.inputs[i]);
    if (Status s = checkTensorInputs(step, ins); !s) return s.error().withContext(node.describe());
    auto dt = dispatchType(step, ins);
    if (!dt) return dt.error().withContext(node.describe());
    auto inst = state.compiler ? state.compiler->instance(plan, step, *dt)
                               : Expected<KernelInstance*>(internalError("no compiler"));
    if (!inst) return inst.error();
    if (plan.depth == 0 && state.kept != nullptr)
      if (Status s = state.kept->checkFreedInputs(stepIndex, *(*inst)->kernel, ins); !s)
        return s.error().withContext(node.describe());

    NodeContext ctx(state, &frame, ins, step);
    // A kept step's outputs outlive the run: not in the block.
    ctx.placeOutputsIn(kept ? nullptr : block, static_cast<int32_t>(stepIndex));
    if (kept) ctx.allocateOutputsOnHeap();
    if (plan.depth == 0 && !kept) ctx.writeGraphOutputsTo(state.outputs);
    std::optional<ScopedOmpThreads> oneThread;
    const RunShapeThreads::Choice threads = stepThreads(plan, stepIndex, ins, state);
    if (threads == RunShapeThreads::Choice::kOne) {
      ctx.limitThreads(1);
      oneThread.emplace(1);
    }
    const bool timed =
        plan.depth == 0 && state.trials != nullptr && state.trials->timing(stepIndex);
    auto start = state.profiler || timed ? Clock::now() : Clock::time_point();
    Status s = runKernel(*(*inst)->kernel, ctx);
    oneThread.reset();
    if (timed)
      state.trials->record(stepIndex,
                           std::chrono::duration<double, std::micro>(Clock::now() - start).count());
    if (!s) return s.error().withContext(node.describe());
    if (threads == RunShapeThreads::Choice::kLearn)
      state.bodyThreads->learnBodyStep(
          node, ins, std::vector<Value>(ctx.outputs().begin(), ctx.outputs().end()));
    if (state.cancel && state.cancel->load())
      return Error(ErrorCode::kCancelled, "run cancelled in " + node.describe());

    uint64_t written = 0;
    for (size_t i = 0; i < step.outputs.size(); ++i) {
      int32_t slot = step.outputs[i];
      if (slot < 0) continue;
      if (!ctx.produced(i))
        return internalError(node.describe() + ": kernel " + std::string((*inst)->def->name) +
                             " did not produce output " + std::to_string(i));
      if (state.profiler) written += ctx.outputs()[i].byteSize();
      if (frame.valueBytes)
        (*frame.valueBytes)[static_cast<size_t>(slot)] = ctx.outputs()[i].byteSize();
      if (kept != nullptr) {
        continue;  // bound below, once all outputs are checked
      } else if (block != nullptr) {
        auto settled = block->settle(slot, std::move(ctx.outputs()[i]), state.arena,
                                     static_cast<int32_t>(stepIndex));
        if (!settled) return settled.error().withContext(node.describe());
        frame.slots[static_cast<size_t>(slot)] = std::move(settled).value();
      } else {
        frame.slots[static_cast<size_t>(slot)] = std::move(ctx.outputs()[i]);
      }
    }
    if (kept != nullptr) {
      std::vector<bool> own(step.outputs.size());
      for (size_t i = 0; i < own.size(); ++i) own[i] = ctx.allocatedOnHeap(i);
      const std::vector<Value>& values =
          kept->keep(stepIndex,
                     std::vector<Value>(std::make_move_iterator(ctx.outputs().begin()),
                                        std::make_move_iterator(ctx.outputs().end())),
                     own);
      for (size_t i = 0; i < step.outputs.size(); ++i)
        if (step.outputs[i] >= 0) frame.slots[static_cast<size_t>(step.outputs[i])] = values[i];
    }
    if (plan.depth > 0)
      if (const BodyValueWatch* watch = BodyValueWatch::current())
        for (size_t i = 0; i < step.outputs.size(); ++i)
          if (step.outputs[i] >= 0 && i < node.outputs().size() && node.output(i))
            if (Status seen = watch->saw(node.output(i)->name(),
                                         frame.slots[static_cast<size_t>(step.outputs[i])]);
                !seen)
              return seen.error().withContext(node.describe());
    if (shapes != nullptr) shapes->ran(step, stepIndex, frame.slots);
    if (plan.depth == 0 && state.kept != nullptr)
      for (size_t i = 0; i < ins.size(); ++i)
        if (ctx.holds(i)) state.kept->noteHeld(stepIndex, i, *(*inst)->kernel);
    if (plan.depth == 0 && state.kept != nullptr)
      state.kept->releaseReadBy(plan, stepIndex, frame.slots);
    if (state.profiler) {
      double micros = std::chrono::duration<double, std::micro>(Clock::now() - start).count();
      uint64_t read = 0;
      for (const Value* v : ins)
        if (v) read += v->byteSize();
      state.profiler->record(node, (*inst)->def->name, plan.depth, micros, read, written,
                             threads == RunShapeThreads::Choice::kOne ? 1 : state.threads);
    }
    for (int32_t slot : step.releaseAfter) frame.slots[static_cast<size_t>(slot)] = Value();
  }
  return Status::ok();
}

namespace {

// A body's activation on its plan (body_plans.h): the block its tensors go
// to, or the bytes it records for the plan of its next activations with the
// same shape signature.
class BodyActivation {
 public:
  BodyActivation(const CompiledGraph& body, Frame& frame, RunState& state,
                 memory::BodyBlocks* blocks)
      : body_(body), frame_(frame), plans_(blocks != nullptr ? state.bodies : nullptr) {
    if (plans_ == nullptr) return;
    for (int32_t slot : body.inputSlots)
      memory::appendShapeKey(frame.slots[static_cast<size_t>(slot)], key_);
    for (const SlotRef& r : plans_->outerReads(body)) memory::appendShapeKey(frame.at(r), key_);
    memory::BodyPlans::Choice choice = plans_->prepare(body, key_);
    memory::BodyRunCounts& counts = plans_->runCounts();
    if (choice.layout) frame.block = blocks->blockFor(body, choice.layout, state.arena, counts);
    if (frame.block != nullptr) {
      ++counts.onPlan;
      return;
    }
    ++counts.inArena;
    if (choice.record) {
      bytes_.assign(body.slotCount, 0);
      frame.valueBytes = &bytes_;
    }
  }
  // After the body ran (ok: it succeeded).
  void finish(bool ok) {
    if (plans_ == nullptr) return;
    if (frame_.block != nullptr) plans_->runCounts().counts += frame_.block->takeCounts();
    if (ok && frame_.valueBytes == &bytes_) plans_->recorded(body_, key_, bytes_);
  }

 private:
  const CompiledGraph& body_;
  Frame& frame_;
  memory::BodyPlans* plans_;
  std::vector<int64_t> key_;
  std::vector<uint64_t> bytes_;
};

}  // namespace

Expected<std::vector<Value>> runSubgraph(const CompiledGraph& plan, std::vector<Value> inputs,
                                         const Frame* parent, RunState& state,
                                         memory::BodyBlocks* blocks) {
  if (inputs.size() != plan.inputSlots.size())
    return invalidArgument("the subgraph '" + plan.graph->name() + "' takes " +
                           std::to_string(plan.inputSlots.size()) + " inputs, " +
                           std::to_string(inputs.size()) + " were given");
  Frame frame;
  frame.parent = parent;
  frame.slots.resize(plan.slotCount);
  for (const auto& [slot, value] : plan.constants) frame.slots[static_cast<size_t>(slot)] = value;
  for (size_t i = 0; i < inputs.size(); ++i)
    frame.slots[static_cast<size_t>(plan.inputSlots[i])] = std::move(inputs[i]);
  if (const BodyValueWatch* watch = BodyValueWatch::current())
    for (size_t i = 0; i < inputs.size() && i < plan.graph->inputs().size(); ++i)
      PASSLAB_RETURN_IF_ERROR(watch->saw(plan.graph->inputs()[i]->name(),
                                         frame.slots[static_cast<size_t>(plan.inputSlots[i])]));
  BodyActivation activation(plan, frame, state, blocks);
  Status ran = runGraph(plan, frame, state);
  activation.finish(ran.isOk());
  PASSLAB_RETURN_IF_ERROR(ran);
  std::vector<Value> out;
  out.reserve(plan.outputs.size());
  for (const SlotRef& r : plan.outputs) out.push_back(frame.at(r));
  return out;
}

}  // namespace passlab::exec
