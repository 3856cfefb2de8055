#include "core/exec/cpu/matmul_shape.h"

#include "core/exec/broadcast.h"

namespace passlab::exec::cpu {

Expected<MatMulShape> matmulShape(const Dims& aIn, const Dims& bIn) {
  if (aIn.empty() || bIn.empty())
    return invalidArgument("MatMul operands must have rank 1 or more (got " + dimsToString(aIn) +
                           " and " + dimsToString(bIn) + ")");
  Dims a = aIn, b = bIn;
  if (a.size() == 1) a.insert(a.begin(), 1);
  if (b.size() == 1) b.push_back(1);
  MatMulShape s;
  s.M = a[a.size() - 2];
  s.K = a[a.size() - 1];
  s.N = b[b.size() - 1];
  if (b[b.size() - 2] != s.K)
    return invalidArgument("MatMul inner dimensions differ: " + dimsToString(aIn) + " x " +
                           dimsToString(bIn));
  Dims ab(a.begin(), a.end() - 2), bb(b.begin(), b.end() - 2);
  auto batch = broadcastShapes(ab, bb);
  if (!batch) return batch.error().withContext("MatMul batch dimensions");
  s.batch = *batch;
  s.aBatch = Dims(s.batch.size() - ab.size(), 1);
  s.aBatch.insert(s.aBatch.end(), ab.begin(), ab.end());
  s.bBatch = Dims(s.batch.size() - bb.size(), 1);
  s.bBatch.insert(s.bBatch.end(), bb.begin(), bb.end());
  auto sa = broadcastStrides(ab, s.batch), sb = broadcastStrides(bb, s.batch);
  int64_t count = numelOf(s.batch);
  s.aMats.resize(static_cast<size_t>(count));
  s.bMats.resize(static_cast<size_t>(count));
  for (int64_t i = 0; i < count; ++i) {
    int64_t rest = i, oa = 0, ob = 0;
    for (size_t d = s.batch.size(); d-- > 0;) {
      int64_t idx = rest % s.batch[d];
      rest /= s.batch[d];
      oa += idx * sa[d];
      ob += idx * sb[d];
    }
    s.aMats[static_cast<size_t>(i)] = oa;
    s.bMats[static_cast<size_t>(i)] = ob;
  }
  s.out = s.batch;
  if (aIn.size() > 1) s.out.push_back(s.M);
  if (bIn.size() > 1) s.out.push_back(s.N);
  return s;
}

}  // namespace passlab::exec::cpu
