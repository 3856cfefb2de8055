#include "core/exec/cpu/qlinear_reference.h"

#include <string>

#include "core/exec/cpu/families.h"

namespace passlab::exec::cpu {

Expected<std::unique_ptr<Kernel>> makeQLinearReference(std::string_view op, const KernelBuild& b) {
  for (const KernelDef& row : qlinearKernels())
    if (row.op == op && row.tier == Tier::kReference) return row.create(b);
  return unsupported("the reference " + std::string(op) + " kernel is missing");
}

}  // namespace passlab::exec::cpu
