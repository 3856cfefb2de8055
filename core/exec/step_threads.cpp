#include "core/exec/step_threads.h"

#include "core/analysis/shape_inference.h"
#include "core/analysis/work_micros.h"
#include "core/exec/fork_join_cost.h"
#include "core/exec/input_types.h"

namespace passlab::exec {

namespace {

std::string signatureOf(const StepThreads::Inputs& inputs) {
  std::string s;
  for (const auto& [name, value] : inputs) s += name + "=" + value.describe() + ";";
  return s;
}

// The node of `typed` (an inferred copy) that produces what `node` produces.
const ir::Node* counterpart(const ir::Model& typed, const ir::Node& node) {
  for (const ir::Value* out : node.outputs()) {
    if (out == nullptr || out->name().empty()) continue;
    const ir::Value* v = typed.graph().findValue(out->name());
    if (v != nullptr && v->producer() != nullptr) return v->producer();
  }
  return nullptr;
}

// `twin`: the node of the inferred copy. One with subgraphs keeps every
// thread; its bodies' nodes decide for themselves (decideBodies).
bool runsOnOneThread(const ir::Node* twin, double limit) {
  if (twin == nullptr || twin->hasSubgraphs()) return false;
  return threadsForWork(analysis::workMicros(*twin), 2, limit) == 1;
}

// Whether the trials (step_trials.h) time `twin`'s step both ways: a node
// without subgraphs whose work is not known or not below the smallest limit
// the measurement gives (kMinSplitMicros), whichever way the measured limit
// put it, so that a limit measured under load does not keep steps on one
// thread once the machine is quiet.
bool tried(const ir::Node* twin) {
  if (twin == nullptr || twin->hasSubgraphs()) return false;
  return threadsForWork(analysis::workMicros(*twin), 2, kMinSplitMicros) > 1;
}

std::vector<const ir::Node*> nodesOf(const ir::Graph& g) {
  std::vector<const ir::Node*> nodes;
  for (const auto& n : g.nodes()) nodes.push_back(&*n);
  return nodes;
}

struct BodyDecision {
  std::unordered_set<const ir::Node*>& single;   // one thread
  std::unordered_set<const ir::Node*>& runTime;  // cost not known before running
};

// Adds the nodes of `node`'s subgraphs (at any depth) to `decision`, from
// their counterparts in `twin` (the same node of the inferred copy: the copy
// keeps every graph's node order).
void decideBodies(const ir::Node& node, const ir::Node& twin, double limit,
                  const BodyDecision& decision) {
  std::vector<ir::Graph*> bodies = node.subgraphs(), twinBodies = twin.subgraphs();
  if (bodies.size() != twinBodies.size()) return;
  for (size_t b = 0; b < bodies.size(); ++b) {
    std::vector<const ir::Node*> nodes = nodesOf(*bodies[b]), twins = nodesOf(*twinBodies[b]);
    if (nodes.size() != twins.size()) continue;
    for (size_t i = 0; i < nodes.size(); ++i) {
      if (nodes[i]->opType() != twins[i]->opType()) break;
      if (nodes[i]->hasSubgraphs()) {
        decideBodies(*nodes[i], *twins[i], limit, decision);
      } else if (!analysis::estimateNodeCost(*twins[i]).known) {
        decision.runTime.insert(nodes[i]);
      } else if (runsOnOneThread(twins[i], limit)) {
        decision.single.insert(nodes[i]);
      }
    }
  }
}

}  // namespace

int threadsForWork(double micros, int threads, double limitMicros) {
  return micros >= 0.0 && micros < limitMicros ? 1 : threads;
}

const std::vector<bool>& StepThreads::prepare(const ir::Model& model, const CompiledGraph& graph,
                                              const Inputs& inputs, int threads,
                                              bool reproducible) {
  std::string signature =
      std::to_string(threads) + (reproducible ? "r:" : ":") + signatureOf(inputs);
  if (prepared_ && signature == signature_) return single_;
  prepared_ = true;
  signature_ = std::move(signature);
  single_.assign(graph.steps.size(), false);
  std::vector<bool> tries(graph.steps.size(), false);
  singleBody_.clear();
  runTimeBody_.clear();
  double limit = reproducible ? reproducibleSplitLimitMicros() : splitLimitMicros(threads);
  limit_ = limit;
  trialsOn_ = !splitLimitIsFixed();
  if (limit <= 0.0) return single_;
  ir::Model typed = model.clone();
  bindInputTypes(typed, inputs);
  analysis::ShapeInferenceOptions options;
  options.replaceDeclared = true;  // declared symbolic dims give way to the given ones
  analysis::inferShapes(typed, options);
  for (size_t i = 0; i < graph.steps.size(); ++i) {
    const ir::Node* node = graph.steps[i].node;
    const ir::Node* twin = node != nullptr ? counterpart(typed, *node) : nullptr;
    single_[i] = runsOnOneThread(twin, limit);
    tries[i] = tried(twin);
    if (twin != nullptr && node->hasSubgraphs())
      decideBodies(*node, *twin, limit, {singleBody_, runTimeBody_});
  }
  trials_.reset(tries, single_);
  return single_;
}

RunShapeThreads::Choice StepThreads::bodyStep(const ir::Node& node,
                                              const std::vector<const Value*>& ins) const {
  if (singleBody_.count(&node) != 0) return RunShapeThreads::Choice::kOne;
  if (runTimeBody_.count(&node) == 0) return RunShapeThreads::Choice::kAll;
  return runShapes_.choose(node, ins);
}

void StepThreads::learnBodyStep(const ir::Node& node, const std::vector<const Value*>& ins,
                                const std::vector<Value>& outs) {
  runShapes_.learn(node, ins, outs, limit_);
}

}  // namespace passlab::exec
