// passlab-cli: the headless entry point. Each subcommand lives in its own file
// and registers itself here.
#include <CLI/CLI.hpp>

#include "app/cli/commands.h"
#include "app/cli/wait_policy.h"
#include "core/support/log.h"

int main(int argc, char** argv) {
  passlab::cli::sleepIdleThreadsInSearches(argc, argv);
  CLI::App app{"PassLab: offline optimization workbench for ONNX inference graphs"};
  app.set_version_flag("--version", std::string("passlab-cli ") + PASSLAB_VERSION);
  app.require_subcommand(1);
  bool verbose = false;
  app.add_flag("-v,--verbose", verbose, "Log what happens");
  passlab::cli::registerInfo(app);
  passlab::cli::registerOptimize(app);
  passlab::cli::registerPasses(app);
  passlab::cli::registerRun(app);
  passlab::cli::registerProfile(app);
  passlab::cli::registerConformance(app);
  passlab::cli::registerPrecision(app);
  passlab::cli::registerDevices(app);
  try {
    app.parse(argc, argv);
  } catch (const CLI::ParseError& e) {
    // --help and --version end here with 0; any error in the arguments exits with 1, as every
    // command's help promises ("1 bad arguments or files"), not CLI11's own codes (105-115).
    return app.exit(e) == 0 ? 0 : 1;
  }
  return passlab::cli::exitCode();
}
