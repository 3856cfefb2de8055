// The weights as a direct kernel (a GEMV over B stored [N, K]) reads them,
// for a oneDNN kernel that may have freed them: once a oneDNN primitive holds
// the invariant weights packed, their initializer is released
// (KernelContext::holdsOwnCopy), and a later shape that takes the direct path
// reads them unpacked from the held copy. The path then follows from the
// shapes alone: a reused executor runs the kernel a fresh one runs.
#pragma once

#include "core/exec/cpu/onednn_util.h"
#include "core/support/error.h"

namespace passlab::exec::cpu::onednn {

class StoredWeights {
 public:
  // `w` itself while its data is there; else its values unpacked once from
  // `held()` (the primitive's packed copy, null when none) into the plain
  // layout `plain()` (a reorder: the same bits), kept for the later runs (the
  // values of freed weights do not change). The node then holds its weights
  // twice (packed and plain).
  template <class Held, class Plain>
  Expected<const Tensor*> of(const Tensor& w, Held held, Plain plain) {
    if (!w.dataFreed()) return &w;
    if (!valid_) {
      dnnl::memory from = held();
      if (!from) return internalError("the weights were freed and no oneDNN primitive holds them");
      unpacked_ = Tensor::zeros(ir::DataType::kFloat, w.dims());
      dnnl::memory to(plain(), engine(), unpacked_.mutableRaw());
      dnnl::reorder(from, to).execute(stream(), from, to);
      stream().wait();
      valid_ = true;
    }
    return &unpacked_;
  }

 private:
  Tensor unpacked_;
  bool valid_ = false;
};

}  // namespace passlab::exec::cpu::onednn
