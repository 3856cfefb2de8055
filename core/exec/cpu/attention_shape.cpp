#include "core/exec/cpu/attention_shape.h"

#include <algorithm>

namespace passlab::exec::cpu {

Dims padDims(const Dims& d, size_t rank) {
  Dims p(rank - d.size(), 1);
  p.insert(p.end(), d.begin(), d.end());
  return p;
}

Expected<AttentionShape> attentionShape(const Dims& q, const Dims& k, const Dims& v,
                                        bool kTransposed,
                                        const std::function<std::string()>& chainText,
                                        const std::function<std::string()>& batchText) {
  AttentionShape a;
  const size_t R = std::max({q.size(), k.size(), v.size()});
  a.rank = R;
  a.qd = padDims(q, R);
  a.kd = padDims(k, R);
  a.vd = padDims(v, R);
  a.S = a.qd[R - 2];
  a.H = a.qd[R - 1];
  a.T = kTransposed ? a.kd[R - 1] : a.kd[R - 2];
  const int64_t kH = kTransposed ? a.kd[R - 2] : a.kd[R - 1];
  a.Hv = a.vd[R - 1];
  if (kH != a.H || a.vd[R - 2] != a.T)
    return invalidArgument("FusedAttention: " + chainText() + " do not chain");
  a.batch.assign(R - 2, 0);
  for (size_t i = 0; i + 2 < R; ++i) {
    int64_t d = 1;
    for (int64_t x : {a.qd[i], a.kd[i], a.vd[i]}) {
      if (x == 1 || x == d) continue;
      if (d != 1)
        return invalidArgument("FusedAttention: batch dims of " + batchText() +
                               " do not broadcast");
      d = x;
    }
    a.batch[i] = d;
  }
  return a;
}

}  // namespace passlab::exec::cpu
