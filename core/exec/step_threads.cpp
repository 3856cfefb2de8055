#include "core/exec/step_threads.h"

#include <cstdlib>

#include "core/analysis/shape_inference.h"
#include "core/exec/input_types.h"

namespace passlab::exec {

namespace {

// Single-thread rates of this machine class, rounded down: FLOPs of the
// vectorized kernels (oneDNN's and ours) and bytes moved, per microsecond.
constexpr double kFlopsPerMicro = 50'000.0;
constexpr double kBytesPerMicro = 20'000.0;

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

// kSingleThreadMicros, or PASSLAB_SMALL_STEP_MICROS when it is a number.
double limitMicros() {
  const char* v = std::getenv("PASSLAB_SMALL_STEP_MICROS");
  if (v == nullptr || *v == '\0') return kSingleThreadMicros;
  char* end = nullptr;
  double limit = std::strtod(v, &end);
  return end != v && *end == '\0' && limit >= 0.0 ? limit : kSingleThreadMicros;
}

bool runsOnOneThread(const ir::Model& typed, const ir::Node& node, double limit) {
  if (node.hasSubgraphs()) return false;  // its body's nodes decide for themselves
  const ir::Node* twin = counterpart(typed, node);
  return twin != nullptr && threadsForWork(analysis::estimateNodeCost(*twin), 2, limit) == 1;
}

}  // namespace

double workMicros(const analysis::NodeCost& cost) {
  if (!cost.known) return -1.0;
  double bytes = static_cast<double>(cost.bytesRead + cost.bytesWritten);
  return cost.flops / kFlopsPerMicro + bytes / kBytesPerMicro;
}

int threadsForWork(const analysis::NodeCost& cost, int threads, double limitMicros) {
  double micros = workMicros(cost);
  return micros >= 0.0 && micros < limitMicros ? 1 : threads;
}

const std::vector<bool>& StepThreads::prepare(const ir::Model& model, const CompiledGraph& graph,
                                              const Inputs& inputs) {
  std::string signature = signatureOf(inputs);
  if (prepared_ && signature == signature_) return single_;
  prepared_ = true;
  signature_ = std::move(signature);
  single_.assign(graph.steps.size(), false);
  double limit = limitMicros();
  if (limit <= 0.0) return single_;
  ir::Model typed = model.clone();
  bindInputTypes(typed, inputs);
  analysis::ShapeInferenceOptions options;
  options.replaceDeclared = true;  // declared symbolic dims give way to the given ones
  analysis::inferShapes(typed, options);
  for (size_t i = 0; i < graph.steps.size(); ++i)
    single_[i] =
        graph.steps[i].node != nullptr && runsOnOneThread(typed, *graph.steps[i].node, limit);
  return single_;
}

}  // namespace passlab::exec
