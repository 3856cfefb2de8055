#include "core/exec/cpu/copy_rules.h"

#include <algorithm>

#include "core/exec/broadcast.h"

namespace passlab::exec::cpu {

Expected<TransposeShape> transposeShape(const Dims& in, std::vector<int64_t> perm,
                                        const DescribeInput& describe) {
  if (perm.empty())
    for (size_t i = in.size(); i-- > 0;) perm.push_back(static_cast<int64_t>(i));
  if (perm.size() != in.size())
    return invalidArgument("perm " + dimsToString(perm) + " does not match " + describe());
  std::vector<bool> seen(in.size(), false);
  Dims out;
  for (int64_t p : perm) {
    if (p < 0 || p >= static_cast<int64_t>(in.size()) || seen[static_cast<size_t>(p)])
      return invalidArgument("perm " + dimsToString(perm) + " is not a permutation");
    seen[static_cast<size_t>(p)] = true;
    out.push_back(in[static_cast<size_t>(p)]);
  }
  return TransposeShape{std::move(perm), std::move(out)};
}

Expected<SpaceDepthShape> spaceDepthShape(bool toSpace, bool crd, int64_t N, int64_t C, int64_t H,
                                          int64_t W, int64_t b) {
  SpaceDepthShape s;
  if (toSpace) {
    if (C % (b * b) != 0)
      return invalidArgument("channels " + std::to_string(C) + " are not divisible by " +
                             std::to_string(b * b));
    int64_t c = C / (b * b);
    if (crd) {
      s.view = {N, c, b, b, H, W};
      s.perm = {0, 1, 4, 2, 5, 3};
    } else {
      s.view = {N, b, b, c, H, W};
      s.perm = {0, 3, 4, 1, 5, 2};
    }
    s.out = {N, c, H * b, W * b};
  } else {
    if (H % b != 0 || W % b != 0)
      return invalidArgument("height and width must be divisible by the blocksize");
    s.view = {N, C, H / b, b, W / b, b};
    s.perm = {0, 3, 5, 1, 2, 4};
    s.out = {N, C * b * b, H / b, W / b};
  }
  return s;
}

Expected<Dims> expandDims(const Dims& in, const Tensor& s) {
  if (s.dtype() != ir::DataType::kInt64 || s.rank() != 1)
    return invalidArgument("shape must be a 1-D int64 tensor, got " + s.describe());
  Dims shape(s.data<int64_t>(), s.data<int64_t>() + s.numel());
  for (int64_t d : shape)
    if (d < 0) return invalidArgument("shape " + dimsToString(shape) + " has a negative dim");
  return broadcastShapes(in, shape);
}

Expected<std::vector<int64_t>> splitLengths(int64_t n, int64_t axis, int64_t outputs,
                                            std::vector<int64_t> split, int64_t numOutputs,
                                            const DescribeInput& describe) {
  if (!split.empty()) {
    if (static_cast<int64_t>(split.size()) != outputs)
      return invalidArgument("split has " + std::to_string(split.size()) + " lengths for " +
                             std::to_string(outputs) + " outputs");
    int64_t sum = 0;
    for (int64_t l : split) {
      if (l < 0) return invalidArgument("split has a negative length " + std::to_string(l));
      sum += l;
    }
    if (sum != n)
      return invalidArgument("split " + dimsToString(split) + " sums to " + std::to_string(sum) +
                             ", but axis " + std::to_string(axis) + " of " + describe() + " has " +
                             std::to_string(n));
  } else if (numOutputs > 0) {
    // Opset 18: chunks of ceil(n / num_outputs), the last one smaller.
    if (numOutputs != outputs)
      return invalidModel("num_outputs is " + std::to_string(numOutputs) + ", the node has " +
                          std::to_string(outputs) + " outputs");
    const int64_t chunk = (n + outputs - 1) / outputs;
    for (int64_t i = 0, at = 0; i < outputs; ++i, at += chunk)
      split.push_back(std::clamp<int64_t>(n - at, 0, chunk));
    if (chunk * (outputs - 1) > n)
      return invalidArgument("axis " + std::to_string(axis) + " of " + describe() +
                             " cannot be split into " + std::to_string(outputs) + " chunks of " +
                             std::to_string(chunk));
  } else {
    if (outputs == 0 || n % outputs != 0)
      return invalidArgument("axis " + std::to_string(axis) + " of " + describe() +
                             " does not split evenly into " + std::to_string(outputs) + " outputs");
    split.assign(static_cast<size_t>(outputs), n / outputs);
  }
  return split;
}

Expected<SliceWindow> sliceWindow(const Dims& in, const std::vector<int64_t>& starts,
                                  const std::vector<int64_t>& ends, std::vector<int64_t> axes,
                                  std::vector<int64_t> steps) {
  if (ends.size() != starts.size())
    return invalidArgument("starts and ends have different lengths");
  if (axes.empty())
    for (size_t i = 0; i < starts.size(); ++i) axes.push_back(static_cast<int64_t>(i));
  if (steps.empty()) steps.assign(starts.size(), 1);
  if (axes.size() != starts.size() || steps.size() != starts.size())
    return invalidArgument("starts, ends, axes and steps have different lengths");
  const auto rank = static_cast<int64_t>(in.size());
  SliceWindow w{Dims(in.size(), 0), Dims(in.size(), 1), in};
  std::vector<bool> seen(in.size(), false);
  for (size_t i = 0; i < axes.size(); ++i) {
    PASSLAB_ASSIGN_OR_RETURN(int64_t a, normalizeAxis(axes[i], rank));
    if (seen[static_cast<size_t>(a)])
      return invalidArgument("axis " + std::to_string(a) + " is repeated");
    seen[static_cast<size_t>(a)] = true;
    const int64_t d = in[static_cast<size_t>(a)], st = steps[i];
    if (st == 0) return invalidArgument("steps must not be 0");
    int64_t s = starts[i], e = ends[i];
    if (s < 0) s = s < -d ? 0 : s + d;
    if (e < 0) e = e < -d ? -1 : e + d;
    int64_t len;
    if (st > 0) {
      s = std::clamp<int64_t>(s, 0, d);
      e = std::clamp<int64_t>(e, 0, d);
      len = e > s ? (e - s + st - 1) / st : 0;
    } else if (d == 0) {
      len = 0;
    } else {
      s = std::clamp<int64_t>(s, 0, d - 1);
      e = std::clamp<int64_t>(e, -1, d - 1);
      len = s > e ? (s - e - st - 1) / (-st) : 0;
    }
    w.begin[static_cast<size_t>(a)] = s;
    w.step[static_cast<size_t>(a)] = st;
    w.out[static_cast<size_t>(a)] = len;
  }
  return w;
}

Expected<PadMode> parsePadMode(const ir::Node& n) {
  std::string m = n.attrString("mode", "constant");
  if (m == "constant") return PadMode::kConstant;
  if (m == "reflect") return PadMode::kReflect;
  if (m == "edge") return PadMode::kEdge;
  if (m == "wrap") return PadMode::kWrap;
  return invalidArgument("unknown mode '" + m + "'");
}

Expected<PadShape> padShape(const Dims& in, const std::vector<int64_t>& pads,
                            const std::vector<int64_t>* axesIn, PadMode mode,
                            const DescribeInput& describe) {
  const auto rank = static_cast<int64_t>(in.size());
  std::vector<int64_t> axes;
  if (axesIn) {
    axes = *axesIn;
  } else {
    for (int64_t i = 0; i < rank; ++i) axes.push_back(i);
  }
  if (pads.size() != 2 * axes.size())
    return invalidArgument("pads has " + std::to_string(pads.size()) + " values, expected " +
                           std::to_string(2 * axes.size()) + " for " + describe());
  Dims padBegin(in.size(), 0), padEnd(in.size(), 0);
  for (size_t i = 0; i < axes.size(); ++i) {
    PASSLAB_ASSIGN_OR_RETURN(int64_t a, normalizeAxis(axes[i], rank));
    padBegin[static_cast<size_t>(a)] = pads[i];
    padEnd[static_cast<size_t>(a)] = pads[i + axes.size()];
  }
  Dims out(in.size());
  for (size_t d = 0; d < in.size(); ++d) {
    out[d] = in[d] + padBegin[d] + padEnd[d];
    if (out[d] < 0)
      return invalidArgument("pads " + dimsToString(pads) + " crop more than " + describe());
    if (mode != PadMode::kConstant && in[d] == 0 && out[d] > 0)
      return invalidArgument("cannot pad an empty dimension in this mode");
  }
  return PadShape{std::move(padBegin), std::move(out)};
}

}  // namespace passlab::exec::cpu
