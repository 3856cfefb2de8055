// passlab-cli info MODEL [--json]
#include <CLI/CLI.hpp>

#include <iostream>

#include "app/cli/commands.h"
#include "core/io/model_io.h"

namespace passlab::cli {

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
    std::cout << "nodes: " << loaded->model.graph().nodeCountRecursive() << "\n";
  });
}

}  // namespace passlab::cli
