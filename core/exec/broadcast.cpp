#include "core/exec/broadcast.h"

#include <algorithm>

namespace passlab::exec {

Expected<Dims> broadcastShapes(const std::vector<const Dims*>& shapes) {
  size_t rank = 0;
  for (const Dims* s : shapes) rank = std::max(rank, s->size());
  Dims out(rank, 1);
  for (const Dims* s : shapes) {
    size_t shift = rank - s->size();
    for (size_t i = 0; i < s->size(); ++i) {
      int64_t d = (*s)[i];
      int64_t& o = out[shift + i];
      if (d == o || d == 1) continue;
      if (o == 1) {
        o = d;
        continue;
      }
      std::string list;
      for (const Dims* t : shapes) list += (list.empty() ? "" : " and ") + dimsToString(*t);
      return invalidArgument("shapes " + list + " do not broadcast (dimension " +
                             std::to_string(shift + i) + ": " + std::to_string(o) + " vs " +
                             std::to_string(d) + ")");
    }
  }
  return out;
}

std::vector<int64_t> broadcastStrides(const Dims& in, const Dims& out) {
  std::vector<int64_t> strides(out.size(), 0);
  size_t shift = out.size() - in.size();
  int64_t s = 1;
  for (size_t i = in.size(); i-- > 0;) {
    strides[shift + i] = in[i] == 1 ? 0 : s;
    s *= in[i];
  }
  return strides;
}

}  // namespace passlab::exec
