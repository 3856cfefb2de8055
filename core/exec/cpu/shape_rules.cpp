#include "core/exec/cpu/shape_rules.h"

#include "core/exec/cpu/data_util.h"
#include "core/exec/kernel.h"

namespace passlab::exec::cpu {

Expected<Dims> reshapeDims(const Dims& in, const std::vector<int64_t>& shape, bool allowZero,
                           const DescribeInput& describe) {
  const int64_t numel = numelOf(in);
  Dims out(shape.begin(), shape.end());
  int64_t inferred = -1, known = 1;
  for (size_t i = 0; i < out.size(); ++i) {
    if (out[i] == 0 && !allowZero) {
      if (i >= in.size())
        return invalidArgument("shape " + dimsToString(shape) + " copies dimension " +
                               std::to_string(i) + " of " + describe() + ", which has none");
      out[i] = in[i];
    }
    if (out[i] == -1) {
      if (inferred >= 0) return invalidArgument("shape " + dimsToString(shape) + " has two -1");
      inferred = static_cast<int64_t>(i);
      continue;
    }
    if (out[i] < 0) return invalidArgument("shape " + dimsToString(shape) + " has a negative dim");
    known *= out[i];
  }
  if (inferred >= 0) {
    if (known == 0 || numel % known != 0)
      return invalidArgument("cannot reshape " + describe() + " to " + dimsToString(shape));
    out[static_cast<size_t>(inferred)] = numel / known;
  }
  if (numelOf(out) != numel)
    return invalidArgument("cannot reshape " + describe() + " (" + std::to_string(numel) +
                           " elements) to " + dimsToString(out));
  return out;
}

Expected<Dims> flattenDims(const Dims& in, int64_t axisAttr, const DescribeInput& describe) {
  auto rank = static_cast<int64_t>(in.size());
  int64_t axis = axisAttr < 0 ? axisAttr + rank : axisAttr;
  if (axis < 0 || axis > rank)
    return invalidArgument("axis " + std::to_string(axisAttr) + " is out of range for " +
                           describe());
  int64_t outer = 1, inner = 1;
  for (int64_t i = 0; i < axis; ++i) outer *= in[static_cast<size_t>(i)];
  for (int64_t i = axis; i < rank; ++i) inner *= in[static_cast<size_t>(i)];
  return Dims{outer, inner};
}

Expected<Dims> unsqueezeDims(const Dims& in, const std::vector<int64_t>& axes) {
  auto rank = static_cast<int64_t>(in.size() + axes.size());
  std::vector<bool> inserted(static_cast<size_t>(rank), false);
  for (int64_t a : axes) {
    PASSLAB_ASSIGN_OR_RETURN(int64_t n, normalizeAxis(a, rank));
    if (inserted[static_cast<size_t>(n)])
      return invalidArgument("axis " + std::to_string(a) + " is repeated");
    inserted[static_cast<size_t>(n)] = true;
  }
  Dims out;
  size_t src = 0;
  for (int64_t i = 0; i < rank; ++i)
    out.push_back(inserted[static_cast<size_t>(i)] ? 1 : in[src++]);
  return out;
}

Expected<Dims> squeezeDims(const Dims& in, const std::vector<int64_t>& axes,
                           const DescribeInput& describe) {
  auto rank = static_cast<int64_t>(in.size());
  std::vector<bool> drop(in.size(), false);
  if (axes.empty())
    for (size_t i = 0; i < in.size(); ++i) drop[i] = in[i] == 1;
  for (int64_t a : axes) {
    PASSLAB_ASSIGN_OR_RETURN(int64_t n, normalizeAxis(a, rank));
    if (in[static_cast<size_t>(n)] != 1)
      return invalidArgument("cannot squeeze axis " + std::to_string(a) + " of " + describe() +
                             ": its size is not 1");
    drop[static_cast<size_t>(n)] = true;
  }
  Dims out;
  for (size_t i = 0; i < in.size(); ++i)
    if (!drop[i]) out.push_back(in[i]);
  return out;
}

}  // namespace passlab::exec::cpu
