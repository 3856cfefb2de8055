#include "core/exec/cpu/pool_geometry.h"

#include <utility>

#include "core/exec/kernel.h"

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
  if (x.size() != a.kernel.size() + 2)
    return invalidArgument("input " + dimsToString(x) + " does not match kernel_shape " +
                           dimsToString(a.kernel));
  ir::WindowAttrs wa;
  PASSLAB_ASSIGN_OR_RETURN(wa.autoPad, ir::parseAutoPad(a.autoPad));
  wa.kernel = a.kernel;
  wa.strides = a.strides;
  wa.dilations = a.dilations;
  wa.pads = a.pads;
  wa.ceilMode = a.ceilMode;
  wa.countIncludePad = a.countIncludePad;
  PASSLAB_ASSIGN_OR_RETURN(ir::Window w, ir::forwardWindow(wa, Dims(x.begin() + 2, x.end())));
  PoolGeometry g;
  g.N = x[0];
  g.C = x[1];
  for (const ir::WindowAxis& ax : w.axes) {
    g.in.push_back(ax.image);
    g.kernel.push_back(ax.kernel);
    g.stride.push_back(ax.stride);
    g.dilation.push_back(ax.dilation);
    g.padBegin.push_back(ax.padBegin);
    g.padEnd.push_back(ax.padEnd);
    g.out.push_back(ax.grid);
  }
  g.outDims = {g.N, g.C};
  g.outDims.insert(g.outDims.end(), g.out.begin(), g.out.end());
  g.window = std::move(w);
  return g;
}

}  // namespace passlab::exec::cpu
