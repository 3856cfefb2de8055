// Convolutions and pooling: [N, C, spatial...] with the window arithmetic of
// helpers.h (pads, strides, dilations, auto_pad, ceil_mode); static dims take
// ir::Window's per-axis rules (core/ir/window.h), which the kernels run on.
#include <algorithm>

#include "core/analysis/infer/helpers.h"
#include "core/analysis/infer/rules.h"
#include "core/ir/attribute_limits.h"
#include "core/ir/window.h"

namespace passlab::analysis::infer {

namespace {

// The image a transposed window's `in` positions cover (ConvTranspose,
// MaxUnpool): ir::Window's rule for a static dim, the same sum symbolically.
SymInt transposedExtent(const SymInt& in, int64_t kernel, int64_t stride, int64_t dilation,
                        int64_t padBegin, int64_t padEnd, int64_t outputPadding) {
  const int64_t span = (kernel - 1) * dilation + 1;
  if (auto c = in.constant(); c && *c >= 0 && *c <= ir::kMaxWindowExtent && outputPadding >= 0 &&
                              outputPadding <= ir::kMaxWindowExtent)
    return SymInt(ir::transposedImageExtent(*c, span, stride, padBegin, padEnd, outputPadding));
  return SymInt(stride) * (in - SymInt(1)) + SymInt(outputPadding) + SymInt(span) -
         SymInt(padBegin) - SymInt(padEnd);
}

}  // namespace

void inferConvLike(InferContext& ctx, size_t xIndex, size_t wIndex, size_t output) {
  const ir::Shape* x = ctx.inputShape(xIndex);
  const ir::Shape* w = ctx.inputShape(wIndex);
  if (x && x->rank() < 2) {
    ctx.fail("input rank " + std::to_string(x->rank()) + " is below 2");
    return;
  }
  if (w && x && w->rank() != x->rank()) {
    ctx.fail("weight rank " + std::to_string(w->rank()) + " differs from input rank " +
             std::to_string(x->rank()));
    return;
  }
  ir::Dim channels = w && w->rank() > 0 ? (*w)[0] : ir::Dim();
  if (!x) {
    if (w && w->rank() >= 2) {
      std::vector<ir::Dim> dims{ir::Dim(), channels};
      dims.resize(w->rank());
      ctx.setOutputShape(output, ir::Shape(std::move(dims)));
    }
    return;
  }
  size_t spatial = x->rank() - 2;
  std::vector<int64_t> kernel;
  if (w) {
    for (size_t i = 2; i < w->rank(); ++i) {
      if (!(*w)[i].isStatic()) {
        kernel.clear();
        break;
      }
      kernel.push_back((*w)[i].value());
    }
  }
  if (kernel.empty() && !ctx.hasAttr("kernel_shape")) {
    std::vector<ir::Dim> dims{(*x)[0], channels};
    dims.resize(x->rank());
    ctx.setOutputShape(output, ir::Shape(std::move(dims)));
    return;
  }
  WindowAttrs wa;
  if (!readWindowAttrs(ctx, spatial, kernel, wa)) return;
  if (auto s = windowOutputShape(ctx, *x, channels, wa)) ctx.setOutputShape(output, std::move(*s));
}

void inferConv(InferContext& ctx) {
  inferConvLike(ctx, 0, 1, 0);
}

void inferConvTranspose(InferContext& ctx) {
  const ir::Shape* x = ctx.inputShape(0);
  const ir::Shape* w = ctx.inputShape(1);
  if (!x) return;
  if (x->rank() < 2) {
    ctx.fail("input rank " + std::to_string(x->rank()) + " is below 2");
    return;
  }
  size_t spatial = x->rank() - 2;
  int64_t group = ctx.attrInt("group", 1);
  ir::Dim channels =
      w && w->rank() > 1 ? (SymInt::fromDim((*w)[1]) * SymInt(group)).toDim() : ir::Dim();
  std::vector<ir::Dim> dims{(*x)[0], channels};
  std::vector<int64_t> outputShape = ctx.attrInts("output_shape");
  if (!outputShape.empty()) {
    if (outputShape.size() == spatial + 2)
      outputShape.erase(outputShape.begin(), outputShape.begin() + 2);
    if (outputShape.size() != spatial) {
      ctx.fail("output_shape has " + std::to_string(outputShape.size()) + " values for " +
               std::to_string(spatial) + " spatial dims");
      return;
    }
    for (int64_t v : outputShape) dims.emplace_back(v);
    ctx.setOutputShape(0, ir::Shape(std::move(dims)));
    return;
  }
  std::vector<int64_t> kernel;
  if (w && w->rank() == x->rank())
    for (size_t i = 2; i < w->rank(); ++i)
      kernel.push_back((*w)[i].isStatic() ? (*w)[i].value() : -1);
  bool kernelKnown = std::find(kernel.begin(), kernel.end(), -1) == kernel.end();
  if ((!kernelKnown || kernel.empty()) && !ctx.hasAttr("kernel_shape")) {
    dims.resize(x->rank());
    ctx.setOutputShape(0, ir::Shape(std::move(dims)));
    return;
  }
  WindowAttrs wa;
  if (!readWindowAttrs(ctx, spatial, kernel, wa)) return;
  std::vector<int64_t> outPad = ctx.hasAttr("output_padding") ? ctx.attrInts("output_padding")
                                                              : std::vector<int64_t>(spatial, 0);
  if (outPad.size() != spatial) {
    ctx.fail("output_padding has " + std::to_string(outPad.size()) + " values");
    return;
  }
  for (size_t i = 0; i < spatial; ++i) {
    SymInt in = SymInt::fromDim((*x)[i + 2]);
    if (wa.autoPad == "SAME_UPPER" || wa.autoPad == "SAME_LOWER") {
      dims.push_back((in * SymInt(wa.strides[i])).toDim());
      continue;
    }
    if (wa.autoPad == "VALID") wa.pads[i] = wa.pads[i + spatial] = 0;
    dims.push_back(transposedExtent(in, wa.kernel[i], wa.strides[i], wa.dilations[i], wa.pads[i],
                                    wa.pads[i + spatial], outPad[i])
                       .toDim());
  }
  ctx.setOutputShape(0, ir::Shape(std::move(dims)));
}

void inferPool(InferContext& ctx) {
  const ir::Shape* x = ctx.inputShape(0);
  if (!x) return;
  if (x->rank() < 2) {
    ctx.fail("input rank " + std::to_string(x->rank()) + " is below 2");
    return;
  }
  WindowAttrs wa;
  if (!readWindowAttrs(ctx, x->rank() - 2, {}, wa)) return;
  auto s = windowOutputShape(ctx, *x, (*x)[1], wa);
  if (!s) return;
  ctx.setOutputShape(0, *s);
  if (ctx.outputCount() > 1 && ctx.hasOutput(1)) ctx.setOutput(1, ir::DataType::kInt64, *s);
}

void inferGlobalPool(InferContext& ctx) {
  const ir::Shape* x = ctx.inputShape(0);
  if (!x) return;
  if (x->rank() < 2) {
    ctx.fail("input rank " + std::to_string(x->rank()) + " is below 2");
    return;
  }
  std::vector<ir::Dim> dims{(*x)[0], (*x)[1]};
  dims.resize(x->rank(), ir::Dim(1));
  ctx.setOutputShape(0, ir::Shape(std::move(dims)));
}

void inferRoiPool(InferContext& ctx) {
  const ir::Shape* x = ctx.inputShape(0);
  const ir::Shape* rois = ctx.inputShape(1);
  ir::Dim numRois = rois && rois->rank() == 2 ? (*rois)[0] : ir::Dim();
  ir::Dim channels = x && x->rank() == 4 ? (*x)[1] : ir::Dim();
  std::vector<ir::Dim> dims{numRois, channels};
  if (ctx.node().opType() == "MaxRoiPool") {
    std::vector<int64_t> pooled = ctx.attrInts("pooled_shape");
    if (pooled.size() != 2) {
      ctx.fail("pooled_shape must have 2 values");
      return;
    }
    dims.emplace_back(pooled[0]);
    dims.emplace_back(pooled[1]);
  } else {
    dims.emplace_back(ctx.attrInt("output_height", 1));
    dims.emplace_back(ctx.attrInt("output_width", 1));
  }
  ctx.setOutputShape(0, ir::Shape(std::move(dims)));
}

void inferMaxUnpool(InferContext& ctx) {
  const ir::Shape* x = ctx.inputShape(0);
  if (ctx.hasInput(2)) {
    if (auto s = ctx.inputInts(2)) {
      ctx.setOutputShape(0, ir::Shape::fromValues(*s));
    } else if (x) {
      ctx.setOutputShape(0, unknownShape(x->rank()));
    }
    return;
  }
  if (!x) return;
  if (x->rank() < 2) {
    ctx.fail("input rank " + std::to_string(x->rank()) + " is below 2");
    return;
  }
  size_t spatial = x->rank() - 2;
  WindowAttrs wa;
  if (!readWindowAttrs(ctx, spatial, {}, wa)) return;
  std::vector<ir::Dim> dims{(*x)[0], (*x)[1]};
  for (size_t i = 0; i < spatial; ++i) {
    SymInt in = SymInt::fromDim((*x)[i + 2]);
    dims.push_back(
        transposedExtent(in, wa.kernel[i], wa.strides[i], 1, wa.pads[i], wa.pads[i + spatial], 0)
            .toDim());
  }
  ctx.setOutputShape(0, ir::Shape(std::move(dims)));
}

void inferCol2Im(InferContext& ctx) {
  const ir::Shape* x = ctx.inputShape(0);
  auto image = ctx.inputInts(1);
  auto block = ctx.inputInts(2);
  if (!x || x->rank() != 3) return;
  if (!image || !block) {
    if (const ir::Shape* is = ctx.inputShape(1); is && is->rank() == 1 && (*is)[0].isStatic())
      ctx.setOutputShape(0, unknownShape(2 + static_cast<size_t>((*is)[0].value())));
    return;
  }
  int64_t blockSize = 1;
  for (int64_t b : *block) blockSize *= b;
  std::vector<ir::Dim> dims{(*x)[0], SymInt::fromDim((*x)[1]).exactDiv(SymInt(blockSize)).toDim()};
  for (int64_t v : *image) dims.emplace_back(v);
  ctx.setOutputShape(0, ir::Shape(std::move(dims)));
}

// CausalConvWithState (opset 27): input [B,C,L], weight [C,1,K]
//   -> output [B,C,L], present_state [B,C,K-1]
void inferCausalConvWithState(InferContext& ctx) {
  copyShapeFrom(ctx, 0, 0);
  const ir::Shape* x = ctx.inputShape(0);
  const ir::Shape* w = ctx.inputShape(1);
  if (ctx.outputCount() < 2 || !ctx.hasOutput(1) || !x || x->rank() != 3) return;
  SymInt k = w && w->rank() == 3 ? SymInt::fromDim((*w)[2]) : SymInt();
  ctx.setOutputShape(1, ir::Shape({(*x)[0], (*x)[1], (k - SymInt(1)).toDim()}));
}

}  // namespace passlab::analysis::infer
