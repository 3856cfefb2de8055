// Device code: the storage type of each ElemType (elementwise_launch.h), one
// dispatch for elementwise.cu and elementwise_binary.cu.
#pragma once

#include <cuda_bf16.h>
#include <cuda_fp16.h>

#include <cstdint>

#include "core/exec/cuda/elementwise_launch.h"

namespace passlab::exec::cuda::ew {

// Calls f.template operator()<T>() with T the storage type of `t`; false for none.
template <class F>
bool withElemType(ElemType t, F&& f) {
  switch (t) {
    case ElemType::kFloat32:
      f.template operator()<float>();
      return true;
    case ElemType::kFloat16:
      f.template operator()<__half>();
      return true;
    case ElemType::kBFloat16:
      f.template operator()<__nv_bfloat16>();
      return true;
    case ElemType::kInt32:
      f.template operator()<int32_t>();
      return true;
    case ElemType::kInt64:
      f.template operator()<int64_t>();
      return true;
    case ElemType::kInt8:
      f.template operator()<int8_t>();
      return true;
    case ElemType::kUInt8:
      f.template operator()<uint8_t>();
      return true;
    case ElemType::kBool:
      f.template operator()<bool>();
      return true;
  }
  return false;
}

}  // namespace passlab::exec::cuda::ew
