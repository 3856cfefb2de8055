// Registration of the CLI subcommands; each sets the process exit code.
#pragma once

namespace CLI {
class App;
}

namespace passlab::cli {

void registerInfo(CLI::App& app);
void registerOptimize(CLI::App& app);
void registerPasses(CLI::App& app);
void registerRun(CLI::App& app);
void registerProfile(CLI::App& app);
void registerConformance(CLI::App& app);
void registerPrecision(CLI::App& app);
void registerDevices(CLI::App& app);

int exitCode();
void setExitCode(int code);

}  // namespace passlab::cli
