// passlab-cli devices [--json] [--plan MODEL.onnx [--backend cuda] [--steps]]
// Lists the backends this build has and the devices found; a backend with
// none says why (no driver, no device). Exit code 0 either way.
// --plan says where each step of a model would run on a device backend,
// planned on the host (no GPU needed): per op, steps on the device, on the
// host, on the CPU with the reason, or decided when it runs; --steps lists
// every step. Exit code 1 when the model cannot be loaded or planned.
#include <CLI/CLI.hpp>

#include <cstdio>
#include <iostream>
#include <map>
#include <nlohmann/json.hpp>
#include <set>

#include "app/cli/commands.h"
#include "core/exec/backend.h"
#include "core/io/model_io.h"

namespace passlab::cli {

namespace {

int listCommand(bool json) {
  std::vector<std::string> notes;
  std::vector<exec::DeviceDescription> devices = exec::listDevices(&notes);
  std::vector<std::string> built = exec::availableBackends();
  if (json) {
    nlohmann::json j = {{"backends", built}, {"notes", notes}};
    j["devices"] = nlohmann::json::array();
    for (const auto& d : devices)
      j["devices"].push_back({{"backend", d.backend},
                              {"index", d.index},
                              {"name", d.name},
                              {"details", d.details},
                              {"id", d.backend + ":" + std::to_string(d.index)}});
    std::cout << j.dump(2) << "\n";
    return 0;
  }
  std::string list;
  for (const std::string& b : built) list += (list.empty() ? "" : ", ") + b;
  std::printf("backends: %s\n", list.c_str());
  std::printf("cpu:      always (the CPU executor)\n");
  for (const auto& d : devices)
    std::printf("%s:%d   %s (%s)\n", d.backend.c_str(), d.index, d.name.c_str(), d.details.c_str());
  for (const std::string& n : notes)
    std::printf("note:     %s; runs use the CPU only\n", n.c_str());
  if (built.size() == 1)
    std::printf(
        "note:     this build has no GPU backend (configure with -DPASSLAB_CUDA=ON where "
        "the CUDA toolkit is installed)\n");
  return 0;
}

struct PlanArgs {
  std::string model;
  std::string backend = "cuda";
  bool steps = false;
  bool json = false;
};

// Per op: how many steps go where, and the reasons of those that do not go
// to the device.
struct OpPlan {
  std::map<std::string, int> where;
  std::set<std::string> reasons;
};

int planCommand(const PlanArgs& a) {
  auto loaded = io::loadModel(a.model);
  if (!loaded) {
    std::cerr << "error: " << loaded.error().message() << "\n";
    return 1;
  }
  auto plan = exec::planPlacement(a.backend, loaded->model);
  if (!plan) {
    std::cerr << "error: " << plan.error().message() << "\n";
    return 1;
  }
  std::map<std::string, OpPlan> byOp;
  std::map<std::string, int> totals;
  for (const exec::StepPlacement& p : *plan) {
    ++byOp[p.op].where[p.where];
    ++totals[p.where];
    if (!p.reason.empty() && p.where != "device") byOp[p.op].reasons.insert(p.reason);
  }
  if (a.json) {
    nlohmann::json j = {{"model", a.model}, {"backend", a.backend}, {"totals", totals}};
    j["steps"] = nlohmann::json::array();
    for (const exec::StepPlacement& p : *plan)
      j["steps"].push_back({{"node", p.node},
                            {"op", p.op},
                            {"where", p.where},
                            {"kernel", p.kernel},
                            {"reason", p.reason}});
    std::cout << j.dump(2) << "\n";
    return 0;
  }
  std::printf("model:   %s\nbackend: %s (planned on the host; a run may still move steps)\n",
              a.model.c_str(), a.backend.c_str());
  std::printf(
      "steps:   %zu: %d on the device, %d on the host, %d on the CPU, %d decided at run time\n",
      plan->size(), totals["device"], totals["host"], totals["cpu"], totals["run-time"]);
  for (const auto& [op, p] : byOp) {
    std::string counts;
    for (const auto& [where, n] : p.where)
      counts += (counts.empty() ? "" : ", ") + std::to_string(n) + " " + where;
    std::printf("  %-28s %s\n", op.c_str(), counts.c_str());
    for (const std::string& r : p.reasons) std::printf("  %-28s   %s\n", "", r.c_str());
  }
  if (a.steps)
    for (const exec::StepPlacement& p : *plan)
      std::printf("%-9s %-24s %-36s %s\n", p.where.c_str(), p.op.c_str(), p.node.c_str(),
                  (p.kernel.empty() ? p.reason : p.kernel).c_str());
  return 0;
}

}  // namespace

void registerDevices(CLI::App& app) {
  auto* cmd = app.add_subcommand("devices", "List the backends and the devices they found");
  auto json = std::make_shared<bool>(false);
  auto plan = std::make_shared<PlanArgs>();
  cmd->add_flag("--json", *json, "Print JSON");
  cmd->add_option("--plan", plan->model,
                  "Say where each step of this model would run on a device backend (no GPU "
                  "needed)");
  cmd->add_option("--backend", plan->backend, "The backend of --plan (default cuda)");
  cmd->add_flag("--steps", plan->steps, "With --plan: one line per step");
  cmd->callback([json, plan] {
    plan->json = *json;
    setExitCode(plan->model.empty() ? listCommand(*json) : planCommand(*plan));
  });
}

}  // namespace passlab::cli
