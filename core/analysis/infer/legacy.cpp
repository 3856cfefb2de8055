// Shapes of the removed experimental ONNX ops that change shape (the
// elementwise ones use inferSameShape): Crop and GivenTensorFill. Their kernels
// are in core/exec/cpu/legacy_ops.cpp.
#include <string>
#include <vector>

#include "core/analysis/infer/helpers.h"
#include "core/analysis/infer/rules.h"

namespace passlab::analysis::infer {

// NCHW; border = [left, top, right, bottom]; scale = [h, w] fixes the window.
void inferCrop(InferContext& ctx) {
  const ir::Shape* x = ctx.inputShape(0);
  std::vector<int64_t> border = ctx.attrInts("border");
  std::vector<int64_t> scale = ctx.attrInts("scale");
  if (border.size() != 4) {
    ctx.fail("attribute 'border' needs 4 values [left, top, right, bottom], got " +
             std::to_string(border.size()));
    return;
  }
  if (!scale.empty() && scale.size() != 2) {
    ctx.fail("attribute 'scale' needs 2 values [height, width], got " +
             std::to_string(scale.size()));
    return;
  }
  if (!x) return;
  if (x->rank() != 4) {
    ctx.fail("input must be 4-D (NCHW), got rank " + std::to_string(x->rank()));
    return;
  }
  ir::Shape out = *x;
  for (size_t axis : {size_t{2}, size_t{3}}) {
    // axis 2 (height): top (border[1]) and bottom (border[3]); axis 3: left, right.
    const int64_t lo = axis == 2 ? border[1] : border[0];
    const int64_t hi = axis == 2 ? border[3] : border[2];
    if (!scale.empty()) {
      out[axis] = ir::Dim(scale[axis - 2]);
    } else if ((*x)[axis].isStatic()) {
      const int64_t d = (*x)[axis].value() - lo - hi;
      if (d < 0) {
        ctx.fail("attribute 'border' leaves a negative size on axis " + std::to_string(axis));
        return;
      }
      out[axis] = ir::Dim(d);
    } else {
      out[axis] = ir::Dim();
    }
  }
  ctx.setOutputShape(0, out);
}

// Float output: the `shape` attribute, or input 0's values followed by
// extra_shape when input_as_shape=1.
void inferGivenTensorFill(InferContext& ctx) {
  std::vector<int64_t> dims;
  if (ctx.attrInt("input_as_shape", 0) != 0) {
    auto known = ctx.hasInput(0) ? ctx.inputInts(0) : std::nullopt;
    if (!known) {
      ctx.setOutputElem(0, ir::DataType::kFloat);
      return;
    }
    dims = *known;
    for (int64_t d : ctx.attrInts("extra_shape")) dims.push_back(d);
  } else {
    dims = ctx.attrInts("shape");
  }
  std::vector<ir::Dim> shape(dims.begin(), dims.end());
  ctx.setOutput(0, ir::DataType::kFloat, ir::Shape(std::move(shape)));
}

}  // namespace passlab::analysis::infer
