// Multidirectional (numpy-style) broadcasting: the result shape, and a walker
// that visits the output in rows of contiguous elements with each operand's
// offset and inner stride (0 where it is broadcast, 1 where it moves).
#pragma once

#include <array>
#include <cstdint>
#include <vector>

#include "core/exec/tensor.h"
#include "core/support/error.h"

namespace passlab::exec {

// The broadcast of all `shapes`; an error names the dims that do not match.
Expected<Dims> broadcastShapes(const std::vector<const Dims*>& shapes);
inline Expected<Dims> broadcastShapes(const Dims& a, const Dims& b) {
  return broadcastShapes({&a, &b});
}

// Element strides of a tensor of dims `in` read at the indices of `out`
// (right-aligned; 0 along broadcast dims). `in` must broadcast to `out`.
std::vector<int64_t> broadcastStrides(const Dims& in, const Dims& out);

template <size_t N>
class BroadcastWalker {
 public:
  // Each of `ins` must broadcast to `out`.
  BroadcastWalker(const Dims& out, const std::array<const Dims*, N>& ins);

  int64_t total() const { return total_; }
  // Calls f(outOffset, inOffsets, count, innerStrides) for runs of `count`
  // consecutive output elements covering [begin, end).
  template <class F>
  void walk(int64_t begin, int64_t end, F&& f) const;

 private:
  Dims dims_;  // collapsed output dims
  std::array<std::vector<int64_t>, N> strides_;
  int64_t total_ = 0;
};

template <size_t N>
BroadcastWalker<N>::BroadcastWalker(const Dims& out, const std::array<const Dims*, N>& ins) {
  total_ = numelOf(out);
  std::array<std::vector<int64_t>, N> full;
  for (size_t k = 0; k < N; ++k) full[k] = broadcastStrides(*ins[k], out);
  // Drop size-1 dims, then merge neighbours that are contiguous for every operand.
  for (size_t i = 0; i < out.size(); ++i) {
    if (out[i] == 1) continue;
    bool merge = !dims_.empty();
    for (size_t k = 0; k < N && merge; ++k) merge = strides_[k].back() == full[k][i] * out[i];
    if (merge) {
      dims_.back() *= out[i];
      for (size_t k = 0; k < N; ++k) strides_[k].back() = full[k][i];
    } else {
      dims_.push_back(out[i]);
      for (size_t k = 0; k < N; ++k) strides_[k].push_back(full[k][i]);
    }
  }
  if (dims_.empty()) {
    dims_.push_back(1);
    for (size_t k = 0; k < N; ++k) strides_[k].push_back(0);
  }
}

template <size_t N>
template <class F>
void BroadcastWalker<N>::walk(int64_t begin, int64_t end, F&& f) const {
  const size_t rank = dims_.size();
  const int64_t inner = dims_[rank - 1];
  // Multi-index of `begin` and the operands' offsets there.
  std::vector<int64_t> idx(rank, 0);
  std::array<int64_t, N> off{};
  int64_t rest = begin;
  for (size_t i = rank; i-- > 0;) {
    idx[i] = rest % dims_[i];
    rest /= dims_[i];
    for (size_t k = 0; k < N; ++k) off[k] += idx[i] * strides_[k][i];
  }
  std::array<int64_t, N> innerStride;
  for (size_t k = 0; k < N; ++k) innerStride[k] = strides_[k][rank - 1];
  int64_t pos = begin;
  while (pos < end) {
    int64_t count = std::min(inner - idx[rank - 1], end - pos);
    f(pos, off, count, innerStride);
    pos += count;
    // Advance the multi-index by `count` along the inner dim, carrying.
    idx[rank - 1] += count;
    for (size_t k = 0; k < N; ++k) off[k] += count * innerStride[k];
    for (size_t i = rank - 1; i > 0 && idx[i] == dims_[i]; --i) {
      for (size_t k = 0; k < N; ++k) off[k] -= dims_[i] * strides_[k][i];
      idx[i] = 0;
      ++idx[i - 1];
      for (size_t k = 0; k < N; ++k) off[k] += strides_[k][i - 1];
    }
  }
}

}  // namespace passlab::exec
