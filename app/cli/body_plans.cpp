#include "app/cli/body_plans.h"

#include "core/exec/memory/memory_plan.h"
#include "core/exec/memory/plan_check.h"

namespace passlab::cli {

namespace {

void addBodies(const exec::CompiledGraph& g, nlohmann::json& out) {
  for (const auto& body : g.subgraphs) {
    if (!body) continue;
    nlohmann::json j = {{"graph", body->graph != nullptr ? body->graph->name() : std::string()},
                        {"depth", body->depth}};
    auto plan = exec::memory::planMemory(*body);
    Status checked = plan ? exec::memory::checkPlan(*plan) : Status(plan.error());
    if (!checked) {
      j["not_planned"] = checked.error().message();
    } else {
      j["planned_peak_bytes"] = plan->peak;
      j["lower_bound_bytes"] = plan->lowerBound;
      j["ratio"] = plan->ratio();
      j["tensors"] = plan->tensors.size();
      j["steps"] = plan->stepCount;
    }
    out.push_back(std::move(j));
    addBodies(*body, out);
  }
}

}  // namespace

nlohmann::json bodyPlansJson(const exec::CompiledGraph& main) {
  nlohmann::json out = nlohmann::json::array();
  addBodies(main, out);
  return out;
}

}  // namespace passlab::cli
