#include "core/exec/cpu/conv_geometry.h"

#include "core/ir/attribute_limits.h"

namespace passlab::exec::cpu {

namespace {

Status fillDefaults(const ConvAttrs& a, size_t spatial, const Dims& wDims, ConvGeometry& g,
                    Dims& pads) {
  g.kernel = a.kernel.empty() ? Dims(wDims.begin() + 2, wDims.end()) : a.kernel;
  if (g.kernel.size() != spatial)
    return invalidArgument("kernel_shape " + dimsToString(g.kernel) + " does not match " +
                           std::to_string(spatial) + " spatial dims");
  for (size_t i = 0; i < spatial; ++i)
    if (g.kernel[i] != wDims[i + 2])
      return invalidArgument("kernel_shape " + dimsToString(g.kernel) +
                             " differs from the weights " + dimsToString(wDims));
  g.stride = a.strides.empty() ? Dims(spatial, 1) : a.strides;
  g.dilation = a.dilations.empty() ? Dims(spatial, 1) : a.dilations;
  pads = a.pads.empty() ? Dims(2 * spatial, 0) : a.pads;
  if (g.stride.size() != spatial || g.dilation.size() != spatial || pads.size() != 2 * spatial)
    return invalidArgument("strides, dilations or pads have the wrong length for " +
                           std::to_string(spatial) + " spatial dims");
  for (size_t i = 0; i < spatial; ++i) {
    if (g.stride[i] < 1 || g.dilation[i] < 1 || g.kernel[i] < 1)
      return invalidArgument("strides, dilations and kernel_shape must be positive");
    if (pads[i] < 0 || pads[i + spatial] < 0) return invalidArgument("pads must not be negative");
    // A window whose arithmetic overflows (the verifier refuses these first).
    if (std::string why = ir::windowAxisProblem(g.kernel[i], g.stride[i], g.dilation[i], pads[i],
                                                pads[i + spatial]);
        !why.empty())
      return invalidArgument("spatial axis " + std::to_string(i) + ": " + why);
  }
  return Status::ok();
}

Status checkInputs(const Dims& x, const Dims& w, const char* what) {
  if (x.size() < 3 || w.size() != x.size())
    return invalidArgument(std::string(what) +
                           " needs X of rank 3 or more and W of the same rank (X " +
                           dimsToString(x) + ", W " + dimsToString(w) + ")");
  return Status::ok();
}

}  // namespace

Expected<ConvAttrs> parseConvAttrs(const ir::Node& node) {
  ConvAttrs a;
  a.autoPad = node.attrString("auto_pad", "NOTSET");
  a.kernel = node.attrInts("kernel_shape");
  a.strides = node.attrInts("strides");
  a.dilations = node.attrInts("dilations");
  a.pads = node.attrInts("pads");
  a.outputPadding = node.attrInts("output_padding");
  a.outputShape = node.attrInts("output_shape");
  a.group = node.attrInt("group", 1);
  if (a.group < 1) return invalidArgument("group must be positive");
  if (a.autoPad != "NOTSET" && a.autoPad != "SAME_UPPER" && a.autoPad != "SAME_LOWER" &&
      a.autoPad != "VALID")
    return invalidArgument("unknown auto_pad '" + a.autoPad + "'");
  return a;
}

Expected<ConvGeometry> convGeometry(const ConvAttrs& a, const Dims& x, const Dims& w) {
  PASSLAB_RETURN_IF_ERROR(checkInputs(x, w, "Conv"));
  ConvGeometry g;
  size_t sp = x.size() - 2;
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
  Dims pads;
  PASSLAB_RETURN_IF_ERROR(fillDefaults(a, sp, w, g, pads));
  g.in.assign(x.begin() + 2, x.end());
  g.padBegin.resize(sp);
  g.padEnd.resize(sp);
  g.out.resize(sp);
  for (size_t i = 0; i < sp; ++i) {
    int64_t span = (g.kernel[i] - 1) * g.dilation[i] + 1;
    if (a.autoPad == "SAME_UPPER" || a.autoPad == "SAME_LOWER") {
      int64_t out = (g.in[i] + g.stride[i] - 1) / g.stride[i];
      int64_t total = std::max<int64_t>(0, (out - 1) * g.stride[i] + span - g.in[i]);
      int64_t small = total / 2;
      g.padBegin[i] = a.autoPad == "SAME_UPPER" ? small : total - small;
      g.padEnd[i] = total - g.padBegin[i];
    } else if (a.autoPad == "VALID") {
      g.padBegin[i] = g.padEnd[i] = 0;
    } else {
      g.padBegin[i] = pads[i];
      g.padEnd[i] = pads[i + sp];
    }
    if (std::string why = ir::windowAxisProblem(g.kernel[i], g.stride[i], g.dilation[i],
                                                g.padBegin[i], g.padEnd[i], g.in[i]);
        !why.empty())
      return invalidArgument("spatial axis " + std::to_string(i) + ": " + why);
    int64_t padded = g.in[i] + g.padBegin[i] + g.padEnd[i];
    if (padded < span)
      return invalidArgument("the kernel (" + std::to_string(span) + " wide with dilation) is " +
                             "larger than the padded input (" + std::to_string(padded) + ")");
    g.out[i] = (padded - span) / g.stride[i] + 1;
  }
  g.outDims = {g.N, g.M};
  g.outDims.insert(g.outDims.end(), g.out.begin(), g.out.end());
  return g;
}

Expected<ConvGeometry> convTransposeGeometry(const ConvAttrs& a, const Dims& x, const Dims& w) {
  PASSLAB_RETURN_IF_ERROR(checkInputs(x, w, "ConvTranspose"));
  ConvGeometry g;
  size_t sp = x.size() - 2;
  g.N = x[0];
  g.C = x[1];
  g.group = a.group;
  if (w[0] != g.C)
    return invalidArgument("X has " + std::to_string(g.C) + " channels but W " + dimsToString(w) +
                           " expects " + std::to_string(w[0]));
  if (g.C % a.group != 0)
    return invalidArgument("input channels are not divisible by group " + std::to_string(a.group));
  g.M = w[1] * a.group;
  Dims pads;
  PASSLAB_RETURN_IF_ERROR(fillDefaults(a, sp, w, g, pads));
  Dims outPad = a.outputPadding.empty() ? Dims(sp, 0) : a.outputPadding;
  if (outPad.size() != sp) return invalidArgument("output_padding has the wrong length");
  Dims outShape = a.outputShape;
  if (outShape.size() == sp + 2) outShape.erase(outShape.begin(), outShape.begin() + 2);
  if (!outShape.empty() && outShape.size() != sp)
    return invalidArgument("output_shape has the wrong length");
  g.in.assign(x.begin() + 2, x.end());
  g.padBegin.resize(sp);
  g.padEnd.resize(sp);
  g.out.resize(sp);
  bool same = a.autoPad == "SAME_UPPER" || a.autoPad == "SAME_LOWER";
  for (size_t i = 0; i < sp; ++i) {
    int64_t span = (g.kernel[i] - 1) * g.dilation[i] + 1;
    int64_t full = 0;
    if (outPad[i] < 0 || __builtin_mul_overflow(g.stride[i], g.in[i] - 1, &full) ||
        __builtin_add_overflow(full, outPad[i], &full) ||
        __builtin_add_overflow(full, span, &full) || full > ir::kMaxWindowExtent)
      return invalidArgument(
          "spatial axis " + std::to_string(i) + ": the output extent overflows (stride " +
          std::to_string(g.stride[i]) + ", input " + std::to_string(g.in[i]) + ")");
    if (!outShape.empty() || same) {
      int64_t target = !outShape.empty() ? outShape[i] : g.in[i] * g.stride[i];
      int64_t total = full - target;
      if (total < 0) total = 0;  // the extra output is zero padding at the end (as ORT)
      if (a.autoPad == "SAME_UPPER") {
        g.padBegin[i] = total / 2;
        g.padEnd[i] = total - total / 2;
      } else {
        g.padBegin[i] = total - total / 2;
        g.padEnd[i] = total / 2;
      }
      g.out[i] = target;
    } else {
      g.padBegin[i] = a.autoPad == "VALID" ? 0 : pads[i];
      g.padEnd[i] = a.autoPad == "VALID" ? 0 : pads[i + sp];
      g.out[i] = full - g.padBegin[i] - g.padEnd[i];
    }
    if (g.out[i] < 1) return invalidArgument("the output would be empty");
  }
  g.outDims = {g.N, g.M};
  g.outDims.insert(g.outDims.end(), g.out.begin(), g.out.end());
  return g;
}

}  // namespace passlab::exec::cpu
