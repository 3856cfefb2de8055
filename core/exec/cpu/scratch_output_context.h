// A kernel context for running a plain kernel on converted inputs
// (channels-first, unblocked, dequantized or widened copies): everything
// goes to the caller's context except the first `scratchOutputs` outputs
// (output 0 unless said), which the plain kernel writes to scratch memory,
// or sets, for the caller to convert back (qlinear_conv_channels_last.cpp,
// passlab_blocked.cpp, half_as_float.cpp, qlinear_float_run.h). Subclasses
// say which inputs they replace (value, invariantInput, holdsOwnCopy).
#pragma once

#include <string>
#include <utility>
#include <vector>

#include "core/exec/kernel.h"

namespace passlab::exec::cpu {

class ScratchOutputContext : public KernelContext {
 public:
  explicit ScratchOutputContext(KernelContext& inner, size_t scratchOutputs = 1)
      : inner_(inner), outputs_(scratchOutputs) {}
  // Output 0 as the plain kernel allocated or set it, once allocated() is true.
  Tensor& output() { return outputs_[0].mutableTensor(); }
  bool allocated() const { return outputs_[0].isTensor(); }
  // The scratch outputs as the plain kernel left them: a tensor it allocated,
  // a value it set (a view, a constant), or none; taken out of the context.
  std::vector<Value> takeOutputs() { return std::move(outputs_); }

  size_t inputCount() const override { return inner_.inputCount(); }
  const Value* value(size_t i) const override { return inner_.value(i); }
  bool invariantInput(size_t i) const override { return inner_.invariantInput(i); }
  size_t outputCount() const override { return inner_.outputCount(); }
  bool wantsOutput(size_t i) const override { return inner_.wantsOutput(i); }
  // Outputs past outputCount() (a subclass may show fewer than the caller
  // has): an error to allocate, ignored when set.
  Expected<Tensor*> allocate(size_t i, ir::DataType dtype, Dims dims) override {
    if (i >= outputCount()) return invalidArgument("output " + std::to_string(i) + " is absent");
    if (i >= outputs_.size()) return inner_.allocate(i, dtype, std::move(dims));
    PASSLAB_ASSIGN_OR_RETURN(Tensor t, inner_.scratch(dtype, std::move(dims)));
    outputs_[i] = Value(std::move(t));
    return &outputs_[i].mutableTensor();
  }
  void setOutput(size_t i, Value v) override {
    if (i >= outputCount()) return;
    if (i >= outputs_.size()) return inner_.setOutput(i, std::move(v));
    outputs_[i] = std::move(v);
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
  std::vector<Value> outputs_;
};

}  // namespace passlab::exec::cpu
