#include "core/exec/dtype_traits.h"

namespace passlab::exec {

std::string TypeSet::toString() const {
  std::string s;
  for (int i = 1; i < ir::kDataTypeCount && i < 32; ++i) {
    if (!((bits >> i) & 1u)) continue;
    if (!s.empty()) s += ", ";
    s += ir::dtypeName(static_cast<ir::DataType>(i));
  }
  return s.empty() ? "nothing" : s;
}

}  // namespace passlab::exec
