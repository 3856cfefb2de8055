#include "core/exec/cuda/device_checks.h"

#include <cuda_runtime_api.h>

#include "core/exec/cuda/cuda_check.h"

namespace passlab::exec::cuda {

Status rangeCheckVerdict(const std::vector<RangeCheck>& checks, const std::vector<int64_t>& words) {
  for (size_t c = 0; c < checks.size(); ++c) {
    size_t at = c * kRangeCheckWords;
    if (at + 1 >= words.size()) return internalError("range check words missing");
    if (words[at] == 0) continue;
    const RangeCheck& k = checks[c];
    // The CPU kernel's words, found on the device.
    return Error(ErrorCode::kInvalidArgument,
                 "index " + std::to_string(words[at + 1]) + " is out of range for axis " +
                     std::to_string(k.axis) + " of size " + std::to_string(k.size) + " (data " +
                     k.data + "; found on the device)")
        .withContext(k.node);
  }
  return Status::ok();
}

void DeviceChecks::reset() {
  checks_.clear();
  words_.clear();
  verified_ = 0;
}

Expected<int64_t*> DeviceChecks::add(RangeCheck check, cudaStream_t stream) {
  constexpr size_t kBytes = kRangeCheckWords * sizeof(int64_t);
  auto storage = DeviceStorage::allocate(kBytes, stream);
  if (!storage) return storage.error();
  PASSLAB_CUDA_TRY(cudaMemsetAsync((*storage)->data(), 0, kBytes, stream));
  checks_.push_back(std::move(check));
  words_.push_back(std::move(storage).value());
  return reinterpret_cast<int64_t*>(words_.back()->data());
}

Status DeviceChecks::verify(cudaStream_t stream) {
  if (verified_ == checks_.size()) return Status::ok();
  std::vector<RangeCheck> pending(checks_.begin() + static_cast<std::ptrdiff_t>(verified_),
                                  checks_.end());
  std::vector<int64_t> words(pending.size() * kRangeCheckWords, 0);
  for (size_t c = 0; c < pending.size(); ++c)
    PASSLAB_CUDA_TRY(
        cudaMemcpyAsync(words.data() + c * kRangeCheckWords, words_[verified_ + c]->data(),
                        kRangeCheckWords * sizeof(int64_t), cudaMemcpyDeviceToHost, stream));
  PASSLAB_CUDA_TRY(cudaStreamSynchronize(stream));
  verified_ = checks_.size();
  return rangeCheckVerdict(pending, words);
}

}  // namespace passlab::exec::cuda
