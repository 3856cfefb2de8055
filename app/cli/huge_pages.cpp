#include "app/cli/huge_pages.h"

#if defined(__linux__)
#include <sys/prctl.h>
#endif

namespace passlab::cli {

bool disableTransparentHugePages() {
#if defined(__linux__) && defined(PR_SET_THP_DISABLE)
  return prctl(PR_SET_THP_DISABLE, 1, 0, 0, 0) == 0;
#else
  return false;
#endif
}

bool transparentHugePagesDisabled() {
#if defined(__linux__) && defined(PR_GET_THP_DISABLE)
  return prctl(PR_GET_THP_DISABLE, 0, 0, 0, 0) == 1;
#else
  return false;
#endif
}

}  // namespace passlab::cli
