#include "app/cli/body_plans.h"

#include "core/exec/memory/memory_plan.h"
#include "core/exec/memory/plan_check.h"

namespace passlab::cli {

namespace {

void addPlan(const exec::memory::MemoryPlan& plan, nlohmann::json& j) {
  j["sizes"] = plan.plannedAtRunTime ? "run time" : "ahead";
  j["planned_peak_bytes"] = plan.peak;
  j["lower_bound_bytes"] = plan.lowerBound;
  j["ratio"] = plan.ratio();
  j["tensors"] = plan.tensors.size();
  j["steps"] = plan.stepCount;
  j["in_place_steps"] = plan.inPlaceCount;
}

void addBodies(const exec::CompiledGraph& g, const exec::memory::BodyPlans& plans,
               nlohmann::json& out) {
  for (const auto& body : g.subgraphs) {
    if (!body) continue;
    nlohmann::json j = {{"graph", body->graph != nullptr ? body->graph->name() : std::string()},
                        {"depth", body->depth}};
    exec::memory::BodyPlanInfo info = plans.info(*body);
    j["ran_on_plan"] = info.planned;
    if (info.planned) {
      addPlan(info.plan, j);
      j["signatures"] = info.signatures;
      if (!info.note.empty()) j["note"] = info.note;
    } else {
      // The plan it would run on, where its sizes are known ahead.
      auto plan = exec::memory::planMemory(*body, nullptr, exec::memory::bodyPlanOptions(*body));
      Status checked = plan ? exec::memory::checkPlan(*plan) : Status(plan.error());
      if (checked) {
        addPlan(*plan, j);
        j["note"] = info.note;
      } else {
        j["not_planned"] = info.note.empty() ? checked.error().message()
                                             : info.note + "; " + checked.error().message();
      }
    }
    out.push_back(std::move(j));
    addBodies(*body, plans, out);
  }
}

}  // namespace

nlohmann::json bodyPlansJson(const exec::CompiledGraph& main,
                             const exec::memory::BodyPlans& plans) {
  nlohmann::json out = nlohmann::json::array();
  addBodies(main, plans, out);
  return out;
}

}  // namespace passlab::cli
