#include "app/cli/commands.h"

namespace passlab::cli {
namespace {
int gExitCode = 0;
}
int exitCode() {
  return gExitCode;
}
void setExitCode(int code) {
  gExitCode = code;
}
}  // namespace passlab::cli
