// Registration of the CLI subcommands; each sets the process exit code.
#pragma once

namespace CLI {
class App;
}

namespace passlab::cli {

void registerInfo(CLI::App& app);

int exitCode();
void setExitCode(int code);

}  // namespace passlab::cli
