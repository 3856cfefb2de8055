#include "core/exec/kept_values.h"

#include <algorithm>

namespace passlab::exec {

namespace {

// A value the executor can hold across runs: the model's own (read-only)
// data as it is, anything else copied off the Arena and the planned block.
Value ownCopy(const Value& v) {
  if (v.isTensor() && v.tensor().isReadOnly()) return v;
  return v.detached();
}

}  // namespace

bool keepsOutputs(const Step& step) {
  return step.outputsInvariance != Invariance::kNo &&
         std::any_of(step.outputs.begin(), step.outputs.end(), [](int32_t s) { return s >= 0; });
}

bool KeptValues::applies(const Step& step, bool overridden) {
  if (!keepsOutputs(step)) return false;
  return step.outputsInvariance == Invariance::kAlways || !overridden;
}

const std::vector<Value>* KeptValues::find(size_t index) const {
  if (index >= values_.size() || !values_[index]) return nullptr;
  return &*values_[index];
}

const std::vector<Value>& KeptValues::keep(size_t index, std::vector<Value> outputs,
                                           const std::vector<bool>& own) {
  for (size_t i = 0; i < outputs.size(); ++i) {
    if (i >= own.size() || !own[i]) outputs[i] = ownCopy(outputs[i]);
    bytes_ += outputs[i].byteSize();
  }
  values_[index] = std::move(outputs);
  return *values_[index];
}

size_t KeptValues::count() const {
  size_t n = 0;
  for (const auto& v : values_)
    if (v) n += v->size();
  return n;
}

}  // namespace passlab::exec
