#include "core/exec/cpu/conv_geometry.h"

#include <utility>

#include "core/exec/kernel.h"

namespace passlab::exec::cpu {

namespace {

Status checkInputs(const Dims& x, const Dims& w, const char* what) {
  if (x.size() < 3 || w.size() != x.size())
    return invalidArgument(std::string(what) +
                           " needs X of rank 3 or more and W of the same rank (X " +
                           dimsToString(x) + ", W " + dimsToString(w) + ")");
  return Status::ok();
}

// The geometry's spatial lists from its window; `image` is X's side for
// Conv and Y's for ConvTranspose.
void fillFromWindow(ConvGeometry& g, ir::Window w, bool transposed) {
  for (const ir::WindowAxis& x : w.axes) {
    g.in.push_back(transposed ? x.grid : x.image);
    g.out.push_back(transposed ? x.image : x.grid);
    g.kernel.push_back(x.kernel);
    g.stride.push_back(x.stride);
    g.dilation.push_back(x.dilation);
    g.padBegin.push_back(x.padBegin);
    g.padEnd.push_back(x.padEnd);
  }
  g.outDims = {g.N, g.M};
  g.outDims.insert(g.outDims.end(), g.out.begin(), g.out.end());
  g.window = std::move(w);
}

}  // namespace

Expected<ConvAttrs> parseConvAttrs(const ir::Node& node) {
  ConvAttrs a;
  PASSLAB_ASSIGN_OR_RETURN(a.window, ir::readWindowAttrs(node));
  a.group = node.attrInt("group", 1);
  if (a.group < 1) return invalidArgument("group must be positive");
  return a;
}

Expected<ConvGeometry> convGeometry(const ConvAttrs& a, const Dims& x, const Dims& w) {
  PASSLAB_RETURN_IF_ERROR(checkInputs(x, w, "Conv"));
  ConvGeometry g;
  g.N = x[0];
  g.C = x[1];
  g.M = w[0];
  g.group = a.group;
  if (g.C != w[1] * a.group)
    return invalidArgument("X has " + std::to_string(g.C) + " channels but W " + dimsToString(w) +
                           " with group " + std::to_string(a.group) + " expects " +
                           std::to_string(w[1] * a.group));
  if (g.M % a.group != 0)
    return invalidArgument("output channels " + std::to_string(g.M) +
                           " are not divisible by group " + std::to_string(a.group));
  PASSLAB_ASSIGN_OR_RETURN(ir::Window win, ir::forwardWindow(a.window, Dims(x.begin() + 2, x.end()),
                                                             Dims(w.begin() + 2, w.end())));
  fillFromWindow(g, std::move(win), false);
  return g;
}

Expected<ConvGeometry> convTransposeGeometry(const ConvAttrs& a, const Dims& x, const Dims& w) {
  PASSLAB_RETURN_IF_ERROR(checkInputs(x, w, "ConvTranspose"));
  ConvGeometry g;
  g.N = x[0];
  g.C = x[1];
  g.group = a.group;
  if (w[0] != g.C)
    return invalidArgument("X has " + std::to_string(g.C) + " channels but W " + dimsToString(w) +
                           " expects " + std::to_string(w[0]));
  if (g.C % a.group != 0)
    return invalidArgument("input channels are not divisible by group " + std::to_string(a.group));
  g.M = w[1] * a.group;
  PASSLAB_ASSIGN_OR_RETURN(
      ir::Window win,
      ir::transposedWindow(a.window, Dims(x.begin() + 2, x.end()), Dims(w.begin() + 2, w.end())));
  fillFromWindow(g, std::move(win), true);
  return g;
}

}  // namespace passlab::exec::cpu
