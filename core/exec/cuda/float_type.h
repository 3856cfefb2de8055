// The element type of a float kernel as its launch function takes it
// (device_math.cuh's FloatType), from a PassLab dtype.
#pragma once

#include <optional>

#include "core/ir/dtype.h"

namespace passlab::exec::cuda {

enum class LaunchFloat : int { kFloat32 = 0, kFloat16 = 1, kBFloat16 = 2 };

inline std::optional<LaunchFloat> launchFloat(ir::DataType t) {
  switch (t) {
    case ir::DataType::kFloat:
      return LaunchFloat::kFloat32;
    case ir::DataType::kFloat16:
      return LaunchFloat::kFloat16;
    case ir::DataType::kBFloat16:
      return LaunchFloat::kBFloat16;
    default:
      return std::nullopt;
  }
}

}  // namespace passlab::exec::cuda
