#include "core/passes/transpose_perm.h"

#include <algorithm>

namespace passlab::passes {

std::vector<int64_t> inversePerm(const std::vector<int64_t>& p) {
  std::vector<int64_t> q(p.size());
  for (size_t i = 0; i < p.size(); ++i) q[static_cast<size_t>(p[i])] = static_cast<int64_t>(i);
  return q;
}

bool isPerm(const std::vector<int64_t>& p) {
  std::vector<int64_t> s = p;
  std::sort(s.begin(), s.end());
  for (size_t i = 0; i < s.size(); ++i)
    if (s[i] != static_cast<int64_t>(i)) return false;
  return true;
}

std::vector<int64_t> composePerms(const std::vector<int64_t>& first,
                                  const std::vector<int64_t>& second) {
  std::vector<int64_t> q(second.size());
  for (size_t i = 0; i < q.size(); ++i) q[i] = first[static_cast<size_t>(second[i])];
  return q;
}

bool isIdentityPerm(const std::vector<int64_t>& p) {
  for (size_t i = 0; i < p.size(); ++i)
    if (p[i] != static_cast<int64_t>(i)) return false;
  return true;
}

ir::Type permutedType(const ir::Value* v, const std::vector<int64_t>& perm) {
  const ir::Type& t = v->type();
  if (!t.isTensor() || !t.hasShape() || t.shape()->rank() != perm.size()) return ir::Type();
  std::vector<ir::Dim> d;
  for (int64_t p : perm) d.push_back((*t.shape())[static_cast<size_t>(p)]);
  return ir::Type::tensor(t.elemType(), ir::Shape(d));
}

std::vector<int64_t> withoutAxes(const std::vector<int64_t>& perm,
                                 const std::vector<int64_t>& goneOfX) {
  std::vector<int64_t> out;
  for (int64_t p : perm) {
    if (std::find(goneOfX.begin(), goneOfX.end(), p) != goneOfX.end()) continue;
    int64_t below = 0;
    for (int64_t g : goneOfX) below += g < p ? 1 : 0;
    out.push_back(p - below);
  }
  return out;
}

std::vector<int64_t> withAxes(const std::vector<int64_t>& perm,
                              const std::vector<int64_t>& inserted) {
  const size_t rank = perm.size() + inserted.size();
  std::vector<bool> isNew(rank, false);
  for (int64_t a : inserted) isNew[static_cast<size_t>(a)] = true;
  std::vector<int64_t> kept;  // kept[m]: the position of x's m-th old axis
  for (size_t j = 0; j < rank; ++j)
    if (!isNew[j]) kept.push_back(static_cast<int64_t>(j));
  std::vector<int64_t> out(rank);
  for (size_t j = 0, k = 0; j < rank; ++j)
    out[j] = isNew[j] ? static_cast<int64_t>(j) : kept[static_cast<size_t>(perm[k++])];
  return out;
}

}  // namespace passlab::passes
