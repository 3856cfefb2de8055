#include "core/exec/cpu/pool_geometry.h"

#include "core/ir/attribute_limits.h"

namespace passlab::exec::cpu {

Expected<PoolAttrs> parsePoolAttrs(const ir::Node& node) {
  PoolAttrs a;
  a.autoPad = node.attrString("auto_pad", "NOTSET");
  a.kernel = node.attrInts("kernel_shape");
  a.strides = node.attrInts("strides");
  a.dilations = node.attrInts("dilations");
  a.pads = node.attrInts("pads");
  a.ceilMode = node.attrInt("ceil_mode", 0) != 0;
  a.countIncludePad = node.attrInt("count_include_pad", 0) != 0;
  a.storageOrder = node.attrInt("storage_order", 0);
  a.p = node.attrInt("p", 2);
  if (a.kernel.empty()) return invalidArgument("kernel_shape is required");
  if (a.autoPad != "NOTSET" && a.autoPad != "SAME_UPPER" && a.autoPad != "SAME_LOWER" &&
      a.autoPad != "VALID")
    return invalidArgument("unknown auto_pad '" + a.autoPad + "'");
  return a;
}

Expected<PoolGeometry> poolGeometry(const PoolAttrs& a, const Dims& x) {
  size_t sp = a.kernel.size();
  if (x.size() != sp + 2)
    return invalidArgument("input " + dimsToString(x) + " does not match kernel_shape " +
                           dimsToString(a.kernel));
  PoolGeometry g;
  g.N = x[0];
  g.C = x[1];
  g.in.assign(x.begin() + 2, x.end());
  g.kernel = a.kernel;
  g.stride = a.strides.empty() ? Dims(sp, 1) : a.strides;
  g.dilation = a.dilations.empty() ? Dims(sp, 1) : a.dilations;
  Dims pads = a.pads.empty() ? Dims(2 * sp, 0) : a.pads;
  if (g.stride.size() != sp || g.dilation.size() != sp || pads.size() != 2 * sp)
    return invalidArgument("strides, dilations or pads have the wrong length");
  g.padBegin.resize(sp);
  g.padEnd.resize(sp);
  g.out.resize(sp);
  for (size_t i = 0; i < sp; ++i) {
    if (g.kernel[i] < 1 || g.stride[i] < 1 || g.dilation[i] < 1)
      return invalidArgument("kernel_shape, strides and dilations must be positive");
    // A window whose arithmetic overflows (the verifier refuses these first).
    if (std::string why = ir::windowAxisProblem(g.kernel[i], g.stride[i], g.dilation[i],
                                                std::max<int64_t>(0, pads[i]),
                                                std::max<int64_t>(0, pads[i + sp]), g.in[i]);
        !why.empty())
      return invalidArgument("spatial axis " + std::to_string(i) + ": " + why);
    int64_t span = (g.kernel[i] - 1) * g.dilation[i] + 1;
    if (a.autoPad == "SAME_UPPER" || a.autoPad == "SAME_LOWER") {
      g.out[i] = (g.in[i] + g.stride[i] - 1) / g.stride[i];
      int64_t total = std::max<int64_t>(0, (g.out[i] - 1) * g.stride[i] + span - g.in[i]);
      g.padBegin[i] = a.autoPad == "SAME_UPPER" ? total / 2 : total - total / 2;
      g.padEnd[i] = total - g.padBegin[i];
      continue;
    }
    if (a.autoPad == "VALID") {
      g.padBegin[i] = g.padEnd[i] = 0;
    } else {
      g.padBegin[i] = pads[i];
      g.padEnd[i] = pads[i + sp];
      if (g.padBegin[i] < 0 || g.padEnd[i] < 0) return invalidArgument("pads must not be negative");
    }
    int64_t room = g.in[i] + g.padBegin[i] + g.padEnd[i] - span;
    if (room < 0)
      return invalidArgument("the pooling window (" + std::to_string(span) +
                             ") is larger than the padded input");
    if (a.ceilMode) {
      g.out[i] = (room + g.stride[i] - 1) / g.stride[i] + 1;
      // A window starting in the end padding is dropped.
      if ((g.out[i] - 1) * g.stride[i] >= g.in[i] + g.padBegin[i]) --g.out[i];
    } else {
      g.out[i] = room / g.stride[i] + 1;
    }
  }
  g.outDims = {g.N, g.C};
  g.outDims.insert(g.outDims.end(), g.out.begin(), g.out.end());
  return g;
}

}  // namespace passlab::exec::cpu
