// A kernel context for running a plain kernel on converted inputs
// (channels-first or unblocked copies): everything goes to the caller's
// context except output 0, which the plain kernel writes to scratch for the
// caller to convert back (qlinear_conv_channels_last.cpp, passlab_blocked.cpp).
// Subclasses say which inputs they replace (value, invariantInput,
// holdsOwnCopy).
#pragma once

#include <utility>

#include "core/exec/kernel.h"

namespace passlab::exec::cpu {

class ScratchOutputContext : public KernelContext {
 public:
  explicit ScratchOutputContext(KernelContext& inner) : inner_(inner) {}
  // Output 0 as the plain kernel wrote it, once allocated() is true.
  Tensor& output() { return out_; }
  bool allocated() const { return allocated_; }

  size_t inputCount() const override { return inner_.inputCount(); }
  const Value* value(size_t i) const override { return inner_.value(i); }
  bool invariantInput(size_t i) const override { return inner_.invariantInput(i); }
  size_t outputCount() const override { return inner_.outputCount(); }
  bool wantsOutput(size_t i) const override { return inner_.wantsOutput(i); }
  Expected<Tensor*> allocate(size_t i, ir::DataType dtype, Dims dims) override {
    if (i != 0) return inner_.allocate(i, dtype, std::move(dims));
    PASSLAB_ASSIGN_OR_RETURN(out_, inner_.scratch(dtype, std::move(dims)));
    allocated_ = true;
    return &out_;
  }
  void setOutput(size_t i, Value v) override {
    if (i == 0 && v.isTensor()) {
      out_ = v.tensor();
      allocated_ = true;
      return;
    }
    inner_.setOutput(i, std::move(v));
  }
  Expected<Tensor> scratch(ir::DataType dtype, Dims dims) override {
    return inner_.scratch(dtype, std::move(dims));
  }
  int threads() const override { return inner_.threads(); }
  bool cancelled() const override { return inner_.cancelled(); }
  int64_t maxLoopIterations() const override { return inner_.maxLoopIterations(); }

 protected:
  KernelContext& inner_;

 private:
  Tensor out_;
  bool allocated_ = false;
};

}  // namespace passlab::exec::cpu
