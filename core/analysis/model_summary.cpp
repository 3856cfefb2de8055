#include "core/analysis/model_summary.h"

#include <algorithm>
#include <map>

#include "core/analysis/cost_model.h"
#include "core/ir/op_schema.h"
#include "core/ir/passlab_ops.h"
#include "core/ir/verifier.h"

namespace passlab::analysis {

namespace {

void countParameters(const ir::Graph& g, ModelSummary& s) {
  for (const ir::Value* v : g.initializers()) {
    const ir::Tensor& t = *v->initializer();
    ++s.initializers;
    s.parameters += static_cast<uint64_t>(t.numel());
    s.parameterBytes += t.bytes().size();
    if (t.buffer() && t.buffer()->isMapped()) s.mappedBytes += t.bytes().size();
  }
  for (const auto& n : g.nodes()) {
    if (n->opType() == "Constant" && n->domain().empty())
      if (const ir::Attribute* a = n->attr("value"); a && a->type() == ir::AttrType::kTensor) {
        s.parameters += static_cast<uint64_t>(a->t.numel());
        s.parameterBytes += a->t.bytes().size();
      }
    for (ir::Graph* sub : n->subgraphs()) countParameters(*sub, s);
  }
}

// Why an op is not known, or "" if it is.
std::string unknownReason(const ir::Model& m, const ir::Node& n, int64_t opset) {
  const auto& reg = ir::OpRegistry::instance();
  if (m.findFunction(n.domain(), n.opType())) return "";
  if (reg.find(n.domain(), n.opType(), opset)) return "";
  if (n.domain() == ir::passlab_ops::kDomain)
    return ir::passlab_ops::findSchema(n.opType()) ? ""
                                                   : "no such operator in PassLab's own domain";
  if (const auto* versions = reg.versions(n.domain(), n.opType()); versions && !versions->empty())
    return "defined from opset " + std::to_string(versions->front().sinceVersion) +
           ", the model imports " + std::to_string(opset);
  if (!reg.knowsDomain(n.domain())) return "domain '" + n.domain() + "' is unknown to PassLab";
  return "no such operator in the domain";
}

}  // namespace

ModelSummary summarize(ir::Model& model) {
  ModelSummary s;
  s.irVersion = model.irVersion;
  s.producer =
      model.producerName + (model.producerVersion.empty() ? "" : " " + model.producerVersion);
  s.opsets = model.opsets;
  s.shapes = inferShapes(model);

  const ir::Graph& g = model.graph();
  for (const ir::Value* v : g.inputs())
    if (!v->isInitializer()) s.inputs.push_back({v->name(), v->type().toString()});
  for (const ir::Value* v : g.outputs()) s.outputs.push_back({v->name(), v->type().toString()});

  std::map<std::pair<std::string, std::string>, OpCount> counts;
  std::map<std::pair<std::string, std::string>, UnknownOp> unknown;
  s.nodes = g.nodeCount();
  g.forEachNodeRecursive([&](ir::Node* n) {
    bool top = n->owner() == &g;
    auto key = std::make_pair(n->domain(), n->opType());
    OpCount& c = counts[key];
    c.domain = n->domain();
    c.op = n->opType();
    (top ? c.topLevel : c.inSubgraphs)++;
    if (!top) ++s.nodesInSubgraphs;
    s.subgraphs += n->subgraphs().size();
    int64_t opset = model.opsetVersion(n->domain()).value_or(1);
    std::string why = unknownReason(model, *n, opset);
    if (!why.empty()) {
      UnknownOp& u = unknown[key];
      u.domain = n->domain();
      u.op = n->opType();
      u.opset = opset;
      u.reason = why;
      ++u.count;
    }
  });
  for (auto& [k, c] : counts) s.ops.push_back(c);
  std::stable_sort(s.ops.begin(), s.ops.end(), [](const OpCount& a, const OpCount& b) {
    return a.topLevel + a.inSubgraphs > b.topLevel + b.inSubgraphs;
  });
  for (auto& [k, u] : unknown) s.unknownOps.push_back(u);

  countParameters(g, s);
  ModelCost cost = estimateModelCost(model);
  s.flops = cost.flops;
  s.nodesWithUnknownCost = cost.nodesWithUnknownCost;

  for (const auto& p : ir::verifyModel(model))
    (p.severity == ir::VerifierProblem::Severity::kError ? s.verifierErrors : s.verifierWarnings)
        .push_back(p.message);
  return s;
}

}  // namespace passlab::analysis
