// passlab-cli devices [--json]
// Lists the backends this build has and the devices found; a backend with
// none says why (no driver, no device). Exit code 0 either way.
#include <CLI/CLI.hpp>

#include <cstdio>
#include <iostream>
#include <nlohmann/json.hpp>

#include "app/cli/commands.h"
#include "core/exec/backend.h"

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

}  // namespace

void registerDevices(CLI::App& app) {
  auto* cmd = app.add_subcommand("devices", "List the backends and the devices they found");
  auto json = std::make_shared<bool>(false);
  cmd->add_flag("--json", *json, "Print JSON");
  cmd->callback([json] { setExitCode(listCommand(*json)); });
}

}  // namespace passlab::cli
