#include "core/exec/cpu/data_util.h"

namespace passlab::exec::cpu {

Expected<std::vector<int64_t>> readInts(const Tensor& t, const char* what) {
  std::vector<int64_t> out(static_cast<size_t>(std::max<int64_t>(t.numel(), 0)));
  switch (t.dtype()) {
    case ir::DataType::kInt64:
      for (size_t i = 0; i < out.size(); ++i) out[i] = t.data<int64_t>()[i];
      return out;
    case ir::DataType::kInt32:
      for (size_t i = 0; i < out.size(); ++i) out[i] = t.data<int32_t>()[i];
      return out;
    default:
      return invalidArgument(std::string(what) + " must be int64 or int32, got " + t.describe());
  }
}

Expected<int64_t> normalizeAxis(int64_t axis, int64_t rank) {
  if (axis < -rank || axis >= rank)
    return invalidArgument("axis " + std::to_string(axis) + " is out of range for rank " +
                           std::to_string(rank));
  return axis < 0 ? axis + rank : axis;
}

}  // namespace passlab::exec::cpu
