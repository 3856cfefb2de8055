#include "core/exec/compiler.h"

#include <algorithm>
#include <functional>
#include <unordered_set>

#include "core/exec/constant_steps_order.h"
#include "core/ir/op_schema.h"

namespace passlab::exec {

void collectOuterReads(const ir::Node& n, const ir::Graph& g, std::vector<const ir::Value*>& out) {
  for (ir::Graph* sub : n.subgraphs()) {
    for (const ir::Value* v : sub->outputs())
      if (v && v->owner() == &g) out.push_back(v);
    sub->forEachNodeRecursive([&](ir::Node* inner) {
      for (const ir::Value* v : inner->inputs())
        if (v && v->owner() == &g) out.push_back(v);
      for (ir::Graph* deeper : inner->subgraphs())
        for (const ir::Value* v : deeper->outputs())
          if (v && v->owner() == &g) out.push_back(v);
    });
  }
}

namespace {

std::vector<const ir::Value*> dependencies(const ir::Node& n, const ir::Graph& g) {
  std::vector<const ir::Value*> deps(n.inputs().begin(), n.inputs().end());
  if (n.hasSubgraphs()) collectOuterReads(n, g, deps);
  return deps;
}

// The nodes of g in an order where producers come first: the stored order when
// it already is one, else a depth-first topological order.
Expected<std::vector<const ir::Node*>> orderNodes(const ir::Graph& g) {
  std::vector<const ir::Node*> order;
  std::unordered_set<const ir::Node*> seen;
  bool sorted = true;
  for (const auto& n : g.nodes()) {
    for (const ir::Value* v : dependencies(*n, g))
      if (v && v->producer() && v->producer()->owner() == &g && !seen.count(v->producer()))
        sorted = false;
    seen.insert(n.get());
    order.push_back(n.get());
  }
  if (sorted) return order;

  order.clear();
  enum : uint8_t { kNew, kActive, kDone };
  std::unordered_map<const ir::Node*, uint8_t> state;
  std::function<Status(const ir::Node*)> visit = [&](const ir::Node* n) -> Status {
    uint8_t& s = state[n];
    if (s == kDone) return Status::ok();
    if (s == kActive) return invalidModel("the graph has a cycle through " + n->describe());
    s = kActive;
    for (const ir::Value* v : dependencies(*n, g))
      if (v && v->producer() && v->producer()->owner() == &g)
        PASSLAB_RETURN_IF_ERROR(visit(v->producer()));
    state[n] = kDone;
    order.push_back(n);
    return Status::ok();
  };
  for (const auto& n : g.nodes()) PASSLAB_RETURN_IF_ERROR(visit(n.get()));
  return order;
}

const ir::Tensor* constantData(const ir::Value* v) {
  if (v == nullptr) return nullptr;
  if (v->isInitializer()) return v->initializer();
  const ir::Node* p = v->producer();
  if (p && p->opType() == "Constant" && p->domain().empty()) {
    const ir::Attribute* a = p->attr("value");
    if (a && a->type() == ir::AttrType::kTensor) return &a->t;
  }
  return nullptr;
}

// KernelBuild for one step: constants of the step, subgraphs compiled on demand.
class StepBuild final : public KernelBuild {
 public:
  StepBuild(Compiler& compiler, const CompiledGraph& plan, const Step& step, ir::DataType dtype)
      : KernelBuild(*step.node, step.opset, dtype), compiler_(compiler), plan_(plan), step_(step) {}

  const ir::Tensor* constantInput(size_t i) const override {
    return i < step_.constantInputs.size() ? step_.constantInputs[i] : nullptr;
  }

  Expected<const CompiledGraph*> subgraph(std::string_view attr) const override {
    const ir::Attribute* a = node().attr(attr);
    if (a == nullptr || a->type() != ir::AttrType::kGraph || !a->g)
      return invalidModel("missing graph attribute '" + std::string(attr) + "'");
    for (const auto& s : plan_.subgraphs)
      if (s->graph == a->g.get()) return s.get();
    auto sub = compiler_.compile(*a->g, &plan_);
    if (!sub) return sub.error().withContext("in attribute '" + std::string(attr) + "'");
    plan_.subgraphs.push_back(std::move(sub).value());
    return plan_.subgraphs.back().get();
  }

 private:
  Compiler& compiler_;
  const CompiledGraph& plan_;
  const Step& step_;
};

std::string domainLabel(const std::string& domain) {
  return domain.empty() ? "ai.onnx" : domain;
}

}  // namespace

ir::DataType declaredDispatchType(const Step& step) {
  if (step.typeInput == kAnyType) return ir::DataType::kUndefined;
  const ir::Value* v = step.node->input(static_cast<size_t>(step.typeInput));
  if (v == nullptr || !v->type().isTensor()) return ir::DataType::kUndefined;
  return v->type().elemType();
}

Compiler::Compiler(const ir::Model& model, const KernelRegistry& registry, bool referenceKernels,
                   bool buildAhead)
    : model_(model),
      registry_(registry),
      referenceKernels_(referenceKernels),
      buildAhead_(buildAhead) {}

Expected<std::unique_ptr<CompiledGraph>> Compiler::compile(const ir::Graph& g,
                                                           const CompiledGraph* parent) {
  auto plan = std::make_unique<CompiledGraph>();
  plan->graph = &g;
  plan->parent = parent;
  plan->depth = parent ? parent->depth + 1 : 0;

  // Slots for every value defined in this graph.
  auto addSlot = [&](const ir::Value* v) {
    auto [it, fresh] = plan->slotOf.emplace(v, static_cast<int32_t>(plan->slotCount));
    if (fresh) {
      plan->slotValues.push_back(v);
      ++plan->slotCount;
    }
    return it->second;
  };
  for (const ir::Value* v : g.inputs()) plan->inputSlots.push_back(addSlot(v));
  for (const ir::Value* v : g.initializers()) {
    int32_t slot = addSlot(v);
    plan->constants.emplace_back(slot, Value(*v->initializer()));
  }
  for (const ir::Value* v : g.sparseInitializers())
    return unsupported("sparse initializer '" + v->name() + "' (sparse tensors are not supported)");
  for (const auto& n : g.nodes())
    for (const ir::Value* v : n->outputs())
      if (v) addSlot(v);

  PASSLAB_RETURN_IF_ERROR(buildSteps(g, *plan));

  for (const ir::Value* v : g.outputs()) {
    SlotRef ref;
    const CompiledGraph* p = plan.get();
    for (uint32_t depth = 0; p; p = p->parent, ++depth) {
      auto it = p->slotOf.find(v);
      if (it != p->slotOf.end()) {
        ref = {depth, it->second};
        break;
      }
    }
    if (!ref.present()) return invalidModel("graph output '" + v->name() + "' is never defined");
    plan->outputs.push_back(ref);
  }
  PASSLAB_RETURN_IF_ERROR(computeLifetimes(*plan));
  return plan;
}

Status Compiler::buildSteps(const ir::Graph& g, CompiledGraph& plan) {
  auto order = orderNodes(g);
  if (!order) return order.error();
  // The main graph's constant-only nodes run just before their first reader,
  // so their kept outputs are not all live at once on the first run.
  if (plan.parent == nullptr) *order = constantNodesBeforeFirstReader(*order, g);
  plan.steps.reserve(order->size());
  // Values of g that hold the same data on every run (Step::invariantInputs);
  // those not listed are Invariance::kNo. A subgraph's formal inputs are
  // always bound by the node that runs it, initializer or not.
  InvariantValues invariant = invariantInitializers(g, plan.parent == nullptr);
  for (const ir::Node* n : *order) {
    Step step;
    step.node = n;
    auto opset = model_.opsetVersion(n->domain());
    if (!opset)
      return invalidModel(n->describe() + ": the model imports no opset for domain '" +
                          domainLabel(n->domain()) + "'");
    step.opset = *opset;
    step.candidates = registry_.find(n->domain(), n->opType(), step.opset);
    if (referenceKernels_)
      std::erase_if(step.candidates,
                    [](const KernelDef* d) { return d->tier != Tier::kReference; });
    if (step.candidates.empty()) {
      std::string msg = "unsupported operator " + n->opType() + " (domain " +
                        domainLabel(n->domain()) + ", opset " + std::to_string(step.opset) +
                        ") at node " + n->describe();
      std::string have = registry_.coverage(n->domain(), n->opType());
      msg += have.empty() ? ": no kernel implements it" : ": kernels cover opsets " + have;
      return unsupported(msg);
    }
    for (const KernelDef* d : step.candidates) {
      if (d->typeInput != kAnyType && step.typeInput == kAnyType) step.typeInput = d->typeInput;
      if (d->flags & kValueInputs) step.valueInputs = true;
    }
    for (const ir::Value* v : n->inputs()) {
      SlotRef ref;
      if (v != nullptr) {
        const CompiledGraph* p = &plan;
        for (uint32_t depth = 0; p; p = p->parent, ++depth) {
          auto it = p->slotOf.find(v);
          if (it != p->slotOf.end()) {
            ref = {depth, it->second};
            break;
          }
        }
        if (!ref.present())
          return invalidModel(n->describe() + " reads '" + v->name() + "', which is never defined");
      }
      step.inputs.push_back(ref);
      step.constantInputs.push_back(constantData(v));
      auto it = v ? invariant.find(v) : invariant.end();
      step.invariantInputs.push_back(it == invariant.end() ? Invariance::kNo : it->second);
    }
    // The node's outputs are as invariant as its least invariant input.
    Invariance out = outputInvariance(*n, invariant);
    if (out != Invariance::kNo)
      for (const ir::Value* v : n->outputs())
        if (v) invariant.emplace(v, out);
    if (plan.parent == nullptr) step.outputsInvariance = out;
    for (const ir::Value* v : n->outputs()) step.outputs.push_back(v ? plan.slotOf.at(v) : -1);
    plan.steps.push_back(std::move(step));
  }
  // Kernels whose element type is known now are built now, so bad attributes
  // and unsupported configurations are reported by create().
  if (!buildAhead_) return Status::ok();
  for (Step& step : plan.steps) {
    bool typeless = std::all_of(step.candidates.begin(), step.candidates.end(),
                                [](const KernelDef* d) { return d->typeInput == kAnyType; });
    ir::DataType dt = declaredDispatchType(step);
    if (typeless || dt != ir::DataType::kUndefined) {
      auto inst = instance(plan, step, typeless ? ir::DataType::kUndefined : dt);
      if (!inst) return inst.error();
    }
  }
  return Status::ok();
}

Expected<KernelInstance*> Compiler::instance(const CompiledGraph& plan, const Step& step,
                                             ir::DataType dtype) {
  for (KernelInstance& k : step.instances)
    if (k.dtype == dtype || k.def->typeInput == kAnyType) return &k;
  auto rows = KernelRegistry::forType(step.candidates, dtype, referenceKernels_);
  const ir::Node& n = *step.node;
  if (rows.empty()) {
    TypeSet all;
    for (const KernelDef* d : step.candidates) all = all | d->types;
    return unsupported(n.describe() + ": no kernel for element type " +
                       std::string(ir::dtypeName(dtype)) + " of input " +
                       std::to_string(step.typeInput) + " (" + n.opType() + " opset " +
                       std::to_string(step.opset) + " supports " + all.toString() + ")");
  }
  Error last = internalError("no kernel");
  for (const KernelDef* d : rows) {
    StepBuild build(*this, plan, step, dtype);
    auto k = d->create(build);
    if (k) {
      step.instances.push_back({dtype, d, std::move(k).value()});
      return &step.instances.back();
    }
    last = k.error();
    // An optimized kernel may decline a configuration; the next row takes it.
    if (last.code() != ErrorCode::kUnsupported) break;
  }
  return last.withContext(n.describe());
}

Status Compiler::computeLifetimes(CompiledGraph& plan) {
  const ir::Graph& g = *plan.graph;
  std::vector<int32_t> lastUse(plan.slotCount, -1);
  std::vector<bool> keep(plan.slotCount, false);
  for (const auto& [slot, value] : plan.constants) keep[static_cast<size_t>(slot)] = true;
  for (const SlotRef& r : plan.outputs)
    if (r.depth == 0) keep[static_cast<size_t>(r.index)] = true;

  for (size_t i = 0; i < plan.steps.size(); ++i) {
    const Step& step = plan.steps[i];
    auto use = [&](int32_t slot) { lastUse[static_cast<size_t>(slot)] = static_cast<int32_t>(i); };
    for (const SlotRef& r : step.inputs)
      if (r.present() && r.depth == 0) use(r.index);
    if (step.node->hasSubgraphs()) {
      std::vector<const ir::Value*> outer;
      collectOuterReads(*step.node, g, outer);
      for (const ir::Value* v : outer) use(plan.slotOf.at(v));
    }
    for (int32_t slot : step.outputs)
      if (slot >= 0 && lastUse[static_cast<size_t>(slot)] < 0) use(slot);  // dead output
  }
  for (size_t slot = 0; slot < plan.slotCount; ++slot) {
    if (keep[slot] || lastUse[slot] < 0) continue;
    plan.steps[static_cast<size_t>(lastUse[slot])].releaseAfter.push_back(
        static_cast<int32_t>(slot));
  }
  return Status::ok();
}

}  // namespace passlab::exec
