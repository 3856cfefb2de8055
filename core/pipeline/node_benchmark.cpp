#include "core/pipeline/node_benchmark.h"

#include <algorithm>
#include <map>
#include <optional>
#include <set>

#include "core/exec/executor.h"
#include "core/pipeline/node_extract.h"
#include "core/pipeline/noise_floor.h"

namespace passlab::pipeline {

namespace {

const ir::Node* findByName(const ir::Graph& g, const std::string& name) {
  for (const auto& n : g.nodes())
    if (n->name() == name) return n.get();
  return nullptr;
}

// A cut-out's executor and the made-up inputs profileModel would time it on,
// and the request it is timed with.
struct Standalone {
  ProfileRequest request;
  PreparedRun run;
};

Expected<Standalone> prepareStandalone(const ir::Model& model, const ProfileRequest& request) {
  Standalone s;
  s.request = request;
  s.request.model = &model;
  s.request.given.clear();
  s.request.inputs.fixed.clear();
  s.request.inputs.dims.clear();
  auto run = prepareRun(model, s.request);
  if (!run) return run.error();
  s.run = std::move(run.value());
  return s;
}

// The names of the values cut-out `cut` reads (its graph inputs that are not
// initializers).
std::set<std::string> inputNames(const ir::Model& cut) {
  std::set<std::string> names;
  for (const ir::Value* v : cut.graph().inputs())
    if (!v->isInitializer()) names.insert(v->name());
  return names;
}

// A clone of `m` whose main-graph values named in `names` are also graph
// outputs (only those: a run holds them and not every value of the model).
ir::Model exposeValues(const ir::Model& m, const std::set<std::string>& names) {
  ir::Model c = m.clone();
  ir::Graph& g = c.graph();
  std::vector<ir::Value*> add;
  for (const auto& n : g.nodes())
    for (ir::Value* v : n->outputs())
      if (v && !v->isGraphOutput() && names.count(v->name()) > 0) add.push_back(v);
  for (ir::Value* v : add) g.addOutput(v);
  return c;
}

// `check` on `model` and `inputs` when there is one.
Status checked(const RunCheck& check, const ir::Model& model, const exec::NamedInputs& inputs) {
  return check ? check(model, inputs) : Status::ok();
}

// Every value `exposed` (a whole model through exposeValues) computes for
// `inputs`: the inputs themselves and its outputs, from one run.
Expected<std::map<std::string, exec::Value>> valuesInContext(const ir::Model& exposed,
                                                             const exec::NamedInputs& inputs,
                                                             const exec::RunOptions& options) {
  auto ex = exec::Executor::create(exposed);
  if (!ex) return ex.error();
  auto r = (*ex)->run(inputs, options);
  if (!r) return r.error();
  std::map<std::string, exec::Value> values(inputs.begin(), inputs.end());
  for (size_t i = 0; i < r->outputNames.size() && i < r->values.size(); ++i)
    values[r->outputNames[i]] = r->values[i];
  return values;
}

// The inputs of cut-out `cut` by name from `values`; nullopt when one of
// them is not there.
std::optional<exec::NamedInputs> inputsFrom(const ir::Model& cut,
                                            const std::map<std::string, exec::Value>& values) {
  exec::NamedInputs in;
  for (const ir::Value* v : cut.graph().inputs()) {
    if (v->isInitializer()) continue;
    auto it = values.find(v->name());
    if (it == values.end()) return std::nullopt;
    in.emplace_back(v->name(), it->second);
  }
  return in;
}

// For each output of the fused cut-out, the output of the original cut-out it
// stands for: by position when both have as many; otherwise the one original
// output of the same type and shape (an original group can have more
// outputs, e.g. an intermediate also read by a node the fusion kept).
// nullopt when a fused output has no such single counterpart.
std::optional<std::vector<size_t>> pairOutputs(const std::vector<ir::Tensor>& original,
                                               const std::vector<ir::Tensor>& fused) {
  std::vector<size_t> pairs;
  if (original.size() == fused.size()) {
    for (size_t j = 0; j < fused.size(); ++j) pairs.push_back(j);
    return pairs;
  }
  for (const ir::Tensor& f : fused) {
    std::vector<size_t> alike;
    for (size_t i = 0; i < original.size(); ++i)
      if (original[i].dtype() == f.dtype() && original[i].dims() == f.dims()) alike.push_back(i);
    if (alike.size() != 1) return std::nullopt;
    pairs.push_back(alike.front());
  }
  return pairs;
}

// Compares the two cut-outs in context: each runs on the values its whole
// model computes for the run's inputs (the fused node on what the optimized
// model feeds it, the original group on what the original model feeds it),
// so a fusion whose boundary differs from its group's (a value the group
// computes inside, read by the fused node) is still compared. Outputs paired
// by pairOutputs; -1 when a boundary value is missing or an output has no
// counterpart.
Expected<double> outputDifference(const ir::Model& originalCut, const ir::Model& fusedCut,
                                  const ir::Model& original, const ir::Model& optimized,
                                  const exec::NamedInputs& inputs, const exec::RunOptions& options,
                                  const RunCheck& check) {
  auto before = valuesInContext(original, inputs, options);
  if (!before) return before.error().withContext("running the original model");
  auto after = valuesInContext(optimized, inputs, options);
  if (!after) return after.error().withContext("running the optimized model");
  auto inA = inputsFrom(originalCut, *before);
  auto inB = inputsFrom(fusedCut, *after);
  if (!inA || !inB) return -1.0;
  PASSLAB_RETURN_IF_ERROR(checked(check, originalCut, *inA));
  PASSLAB_RETURN_IF_ERROR(checked(check, fusedCut, *inB));
  auto a = exec::Executor::create(originalCut);
  if (!a) return a.error();
  auto b = exec::Executor::create(fusedCut);
  if (!b) return b.error();
  auto ra = (*a)->run(*inA, options);
  if (!ra) return ra.error();
  auto rb = (*b)->run(*inB, options);
  if (!rb) return rb.error();
  auto pairs = pairOutputs(ra->outputs, rb->outputs);
  if (!pairs) return -1.0;
  double worst = 0;
  for (size_t j = 0; j < pairs->size(); ++j) {
    const double d = passlab::pipeline::maxAbsDifference(ra->outputs[(*pairs)[j]], rb->outputs[j]);
    if (d < 0) return -1.0;
    worst = std::max(worst, d);
  }
  return worst;
}

}  // namespace

Expected<NodeBenchmark> benchmarkNode(const ProfileRequest& request,
                                      const OptimizedModel& optimized, const std::string& nodeName,
                                      const RunCheck& check) {
  if (!request.model) return invalidArgument("no original model");
  const ir::Node* node = findByName(optimized.model.graph(), nodeName);
  if (!node)
    return invalidArgument(Text::of("the optimized model has no node named '%1'", nodeName));
  const std::vector<ir::NodeId> origins = optimized.provenance.origins(node->id());
  if (origins.empty())
    return invalidArgument(Text::of("'%1' stands for no node of the original model", nodeName));
  auto run = prepareRun(*request.model, request);
  if (!run) return run.error();
  NodeBenchmark out;
  out.node = nodeName;
  out.op = node->domain().empty() ? node->opType() : node->domain() + "." + node->opType();
  const ir::Model shapedOriginal = withRunShapes(*request.model, run->inputs);
  const ir::Model shapedOptimized = withRunShapes(optimized.model, run->inputs);
  for (ir::NodeId id : origins) {
    const ir::Node* n = shapedOriginal.graph().findNode(id);
    out.originalLabels.push_back(n && !n->name().empty() ? n->name() : "#" + std::to_string(id));
  }
  auto cutNew = extractNodes(shapedOptimized, {node->id()});
  if (!cutNew) return cutNew.error().withContext(Text::of("cutting out '%1'", nodeName));
  auto cutOld = extractNodes(shapedOriginal, origins);
  if (!cutOld)
    return cutOld.error().withContext(Text::of("cutting out the original nodes of '%1'", nodeName));
  // Every check before any run: the whole models in context (only what the
  // cut-outs read exposed), then the cut-outs on the inputs they are timed on.
  const ir::Model contextOriginal = exposeValues(*request.model, inputNames(*cutOld));
  const ir::Model contextOptimized = exposeValues(optimized.model, inputNames(*cutNew));
  if (Status st = checked(check, contextOriginal, run->inputs); !st)
    return st.error().withContext("running the original model");
  if (Status st = checked(check, contextOptimized, run->inputs); !st)
    return st.error().withContext("running the optimized model");
  auto timedNew = prepareStandalone(*cutNew, request);
  if (!timedNew) return timedNew.error().withContext(Text::of("'%1' alone", nodeName));
  if (Status st = checked(check, *cutNew, timedNew->run.inputs); !st)
    return st.error().withContext(Text::of("'%1' alone", nodeName));
  auto timedOld = prepareStandalone(*cutOld, request);
  if (!timedOld)
    return timedOld.error().withContext(Text::of("the original nodes of '%1'", nodeName));
  if (Status st = checked(check, *cutOld, timedOld->run.inputs); !st)
    return st.error().withContext(Text::of("the original nodes of '%1'", nodeName));
  exec::RunOptions contextOptions;
  contextOptions.threads = request.threads;
  contextOptions.cancel = request.cancel;
  contextOptions.memoryLimitBytes = request.memoryLimitBytes;
  auto difference = outputDifference(*cutOld, *cutNew, contextOriginal, contextOptimized,
                                     run->inputs, contextOptions, check);
  if (!difference)
    return difference.error().withContext(Text::of("'%1' against its original nodes", nodeName));
  auto newTimes = profilePrepared(*cutNew, timedNew->run, timedNew->request);
  if (!newTimes) return newTimes.error().withContext(Text::of("'%1' alone", nodeName));
  auto oldTimes = profilePrepared(*cutOld, timedOld->run, timedOld->request);
  if (!oldTimes)
    return oldTimes.error().withContext(Text::of("the original nodes of '%1'", nodeName));
  out.maxAbsDifference = *difference;
  out.optimized = std::move(newTimes.value());
  out.original = std::move(oldTimes.value());
  const double after = out.optimized.latency.medianMs;
  out.speedup = after > 0 ? out.original.latency.medianMs / after : 0;
  return out;
}

}  // namespace passlab::pipeline
