#include "core/exec/backend.h"

#include "core/exec/cpu/cpu_backend.h"

namespace passlab::exec {

Expected<std::unique_ptr<Backend>> makeBackend(std::string_view name) {
  if (name == "cpu") return cpu::makeCpuBackend();
  return unsupported("backend '" + std::string(name) + "' is not available (built: cpu)");
}

std::vector<std::string> availableBackends() {
  return {"cpu"};
}

}  // namespace passlab::exec
