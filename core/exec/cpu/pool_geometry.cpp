#include "core/exec/cpu/pool_geometry.h"

#include <utility>

#include "core/exec/kernel.h"

namespace passlab::exec::cpu {

Expected<PoolAttrs> parsePoolAttrs(const ir::Node& node) {
  PoolAttrs a;
  PASSLAB_ASSIGN_OR_RETURN(a.window, ir::readWindowAttrs(node));
  a.storageOrder = node.attrInt("storage_order", 0);
  a.p = node.attrInt("p", 2);
  if (a.window.kernel.empty()) return invalidArgument("kernel_shape is required");
  return a;
}

Expected<PoolGeometry> poolGeometry(const PoolAttrs& a, const Dims& x) {
  if (x.size() != a.window.kernel.size() + 2)
    return invalidArgument("input " + dimsToString(x) + " does not match kernel_shape " +
                           dimsToString(a.window.kernel));
  PASSLAB_ASSIGN_OR_RETURN(ir::Window w, ir::forwardWindow(a.window, Dims(x.begin() + 2, x.end())));
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
