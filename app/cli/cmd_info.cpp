// passlab-cli info MODEL [--json]: what is in a model.
#include <CLI/CLI.hpp>

#include <cstdio>
#include <iostream>
#include <nlohmann/json.hpp>
#include <optional>

#include "app/cli/commands.h"
#include "core/analysis/model_summary.h"
#include "core/io/model_io.h"
#include "core/pipeline/input_synthesis.h"
#include "core/pipeline/planned_cost.h"
#include "core/support/strings.h"

namespace passlab::cli {

namespace {

std::string domainName(const std::string& d) {
  return d.empty() ? "ai.onnx" : d;
}

std::string humanFlops(double f) {
  const char* units[] = {"", "K", "M", "G", "T", "P"};
  int u = 0;
  while (f >= 1000 && u < 5) {
    f /= 1000;
    ++u;
  }
  char buf[32];
  std::snprintf(buf, sizeof buf, u ? "%.2f %s" : "%.0f%s", f, units[u]);
  return buf;
}

// What `run` and `optimize --check` make up for each input, and why (an error
// when the synthesis cannot plan an input).
std::vector<std::string> plannedInputs(const ir::Model& model) {
  auto plan = pipeline::planInputs(model, {});
  if (!plan) return {"cannot make up inputs: " + plan.error().message()};
  std::vector<std::string> out;
  for (const pipeline::InputPlan& p : *plan) out.push_back(p.describe().str());
  return out;
}

// The cost at the made-up input shapes, when the file's own shapes leave
// costs unknown (a symbolic batch) and those shapes know more; nothing
// otherwise, or when the synthesis cannot plan the inputs (plannedInputs says
// why).
std::optional<analysis::ModelCost> costAtMadeUpInputs(const ir::Model& model,
                                                      const analysis::ModelSummary& s) {
  if (s.nodesWithUnknownCost == 0) return std::nullopt;
  auto planned = pipeline::costAtPlannedInputs(model);
  if (!planned || planned->cost.nodesWithUnknownCost >= s.nodesWithUnknownCost) return std::nullopt;
  return planned->cost;
}

nlohmann::json toJson(const std::string& path, const io::LoadReport& load,
                      const analysis::ModelSummary& s, const std::vector<std::string>& planned,
                      const std::optional<analysis::ModelCost>& madeUpCost) {
  using nlohmann::json;
  json j;
  j["model"] = path;
  j["ir_version"] = s.irVersion;
  j["producer"] = s.producer;
  for (const auto& o : s.opsets) j["opsets"][domainName(o.domain)] = o.version;
  for (const auto& v : s.inputs) j["inputs"].push_back({{"name", v.name}, {"type", v.type}});
  for (const auto& v : s.outputs) j["outputs"].push_back({{"name", v.name}, {"type", v.type}});
  j["synthesized_inputs"] = planned;
  j["nodes"] = {{"main_graph", s.nodes},
                {"in_subgraphs", s.nodesInSubgraphs},
                {"subgraphs", s.subgraphs},
                {"in_file", load.fileNodes},
                {"in_file_incl_subgraphs", load.fileNodesInclSubgraphs}};
  for (const auto& c : s.ops)
    j["ops"].push_back({{"domain", domainName(c.domain)},
                        {"op", c.op},
                        {"main_graph", c.topLevel},
                        {"in_subgraphs", c.inSubgraphs}});
  j["parameters"] = {{"count", s.parameters},
                     {"bytes", s.parameterBytes},
                     {"initializers", s.initializers},
                     {"mapped_bytes", s.mappedBytes}};
  j["flops"] = {{"estimate", s.flops}, {"nodes_with_unknown_cost", s.nodesWithUnknownCost}};
  if (madeUpCost)
    j["flops"]["at_made_up_inputs"] = {
        {"estimate", madeUpCost->flops},
        {"nodes_with_unknown_cost", madeUpCost->nodesWithUnknownCost}};
  j["shapes"] = {{"values", s.shapes.values},       {"typed", s.shapes.typed},
                 {"shaped", s.shapes.shaped},       {"failures", s.shapes.failures},
                 {"conflicts", s.shapes.conflicts}, {"ops_without_rule", s.shapes.opsWithoutRule}};
  j["unknown_ops"] = json::array();
  for (const auto& u : s.unknownOps)
    j["unknown_ops"].push_back({{"domain", domainName(u.domain)},
                                {"op", u.op},
                                {"opset", u.opset},
                                {"count", u.count},
                                {"reason", u.reason}});
  j["load"] = {{"repairs", load.repairs}, {"warnings", load.warnings}};
  j["verifier"] = {{"errors", s.verifierErrors}, {"warnings", s.verifierWarnings}};
  return j;
}

void printText(const std::string& path, const io::LoadReport& load, const analysis::ModelSummary& s,
               const std::vector<std::string>& planned,
               const std::optional<analysis::ModelCost>& madeUpCost) {
  std::printf("model:       %s\n", path.c_str());
  std::printf("IR version:  %lld    producer: %s\n", static_cast<long long>(s.irVersion),
              s.producer.empty() ? "(none)" : s.producer.c_str());
  std::string opsets = str::join(s.opsets, ", ", [](const ir::OpsetImport& o) {
    return domainName(o.domain) + " " + std::to_string(o.version);
  });
  std::printf("opsets:      %s\n", opsets.c_str());
  std::printf("inputs:\n");
  for (const auto& v : s.inputs) std::printf("  %-32s %s\n", v.name.c_str(), v.type.c_str());
  std::printf("made-up inputs (run, optimize --check):\n");
  for (const auto& p : planned) std::printf("  %s\n", p.c_str());
  std::printf("outputs:\n");
  for (const auto& v : s.outputs) std::printf("  %-32s %s\n", v.name.c_str(), v.type.c_str());
  std::printf("nodes:       %zu in the main graph, %zu in %zu subgraphs", s.nodes,
              s.nodesInSubgraphs, s.subgraphs);
  if (load.fileNodesInclSubgraphs != s.nodes + s.nodesInSubgraphs)
    std::printf(" (%zu in the file before repairs)", load.fileNodesInclSubgraphs);
  std::printf("\n  %-36s %8s %8s\n", "op", "main", "subgraph");
  for (const auto& c : s.ops) {
    std::string name = c.domain.empty() ? c.op : c.domain + "." + c.op;
    std::printf("  %-36s %8zu %8zu\n", name.c_str(), c.topLevel, c.inSubgraphs);
  }
  std::printf(
      "parameters:  %s (%s in %zu initializers and Constant nodes; %s mapped from external data)\n",
      str::withThousands(static_cast<int64_t>(s.parameters)).c_str(),
      str::humanBytes(s.parameterBytes).c_str(), s.initializers,
      str::humanBytes(s.mappedBytes).c_str());
  std::printf("FLOPs:       %s", humanFlops(s.flops).c_str());
  if (s.nodesWithUnknownCost)
    std::printf(" (%zu nodes of unknown cost not counted)", s.nodesWithUnknownCost);
  if (madeUpCost) {
    std::printf("\n             %s at the made-up input shapes",
                humanFlops(madeUpCost->flops).c_str());
    if (madeUpCost->nodesWithUnknownCost)
      std::printf(" (%zu nodes of unknown cost not counted)", madeUpCost->nodesWithUnknownCost);
  }
  std::printf("\nshapes:      %zu of %zu values typed, %zu with known rank\n", s.shapes.typed,
              s.shapes.values, s.shapes.shaped);
  for (const auto& f : s.shapes.failures) std::printf("  inference: %s\n", f.c_str());
  for (const auto& f : s.shapes.conflicts) std::printf("  conflict: %s\n", f.c_str());
  if (s.unknownOps.empty()) {
    std::printf("unknown ops: none\n");
  } else {
    std::printf("unknown ops:\n");
    for (const auto& u : s.unknownOps)
      std::printf("  %s.%s x%zu: %s\n", domainName(u.domain).c_str(), u.op.c_str(), u.count,
                  u.reason.c_str());
  }
  for (const auto& r : load.repairs) std::printf("repaired:    %s\n", r.c_str());
  for (const auto& w : load.warnings) std::printf("warning:     %s\n", w.c_str());
  if (s.verifierErrors.empty() && s.verifierWarnings.empty()) std::printf("verifier:    ok\n");
  for (const auto& e : s.verifierErrors) std::printf("verifier error:   %s\n", e.c_str());
  for (const auto& w : s.verifierWarnings) std::printf("verifier warning: %s\n", w.c_str());
}

}  // namespace

void registerInfo(CLI::App& app) {
  auto* cmd = app.add_subcommand(
      "info", "Describe a model: opsets, inputs, outputs, op counts, parameters, FLOPs");
  auto path = std::make_shared<std::string>();
  auto json = std::make_shared<bool>(false);
  cmd->add_option("model", *path, "ONNX model file")->required();
  cmd->add_flag("--json", *json, "Print JSON");
  cmd->callback([path, json] {
    auto loaded = io::loadModel(*path);
    if (!loaded) {
      std::cerr << "error: " << loaded.error().message() << "\n";
      setExitCode(1);
      return;
    }
    analysis::ModelSummary s = analysis::summarize(loaded->model);
    const std::vector<std::string> planned = plannedInputs(loaded->model);
    const std::optional<analysis::ModelCost> madeUpCost = costAtMadeUpInputs(loaded->model, s);
    if (*json)
      std::cout << toJson(*path, loaded->report, s, planned, madeUpCost).dump(2) << "\n";
    else
      printText(*path, loaded->report, s, planned, madeUpCost);
  });
}

}  // namespace passlab::cli
