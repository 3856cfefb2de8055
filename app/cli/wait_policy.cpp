#include "app/cli/wait_policy.h"

#include <cstdlib>
#include <cstring>

#if defined(__linux__)
#include <unistd.h>
#endif

namespace passlab::cli {

bool wantsPassiveWait(int argc, const char* const* argv, const char* ompWaitPolicy) {
  if (ompWaitPolicy != nullptr) return false;
  for (int i = 1; i < argc; ++i) {
    if (argv[i] == nullptr || argv[i][0] == '-') continue;
    return std::strcmp(argv[i], "precision") == 0;
  }
  return false;
}

void sleepIdleThreadsInSearches(int argc, char** argv) {
#if defined(__linux__)
  if (!wantsPassiveWait(argc, argv, std::getenv("OMP_WAIT_POLICY"))) return;
  if (::setenv("OMP_WAIT_POLICY", "PASSIVE", 1) != 0) return;
  ::execv("/proc/self/exe", argv);
  ::unsetenv("OMP_WAIT_POLICY");  // exec failed: go on spinning, as before
#else
  (void)argc;
  (void)argv;
#endif
}

}  // namespace passlab::cli
