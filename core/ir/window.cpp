#include "core/ir/window.h"

#include <algorithm>
#include <string>
#include <utility>

#include "core/ir/attribute_limits.h"

namespace passlab::ir {

namespace {

using Ints = std::vector<int64_t>;

std::string intsText(const Ints& v) {
  std::string s = "[";
  for (size_t i = 0; i < v.size(); ++i) s += (i ? ", " : "") + std::to_string(v[i]);
  return s + "]";
}

int64_t floorDiv(int64_t a, int64_t b) {
  int64_t q = a / b;
  return (a % b != 0 && (a < 0) != (b < 0)) ? q - 1 : q;
}

int64_t ceilDiv(int64_t a, int64_t b) {
  return -floorDiv(-a, b);
}

// The kernel, strides, dilations and pads of `a` with their defaults for
// `spatial` axes, validated, as axes without image or grid extents yet.
Expected<std::vector<WindowAxis>> axesOf(const WindowAttrs& a, size_t spatial, const Ints& kernel) {
  const Ints& k = a.kernel.empty() ? kernel : a.kernel;
  if (k.empty() && spatial > 0) return invalidArgument("kernel_shape is required");
  if (k.size() != spatial)
    return invalidArgument("kernel_shape " + intsText(k) + " does not match " +
                           std::to_string(spatial) + " spatial dims");
  if (!a.kernel.empty() && !kernel.empty() && a.kernel != kernel)
    return invalidArgument("kernel_shape " + intsText(a.kernel) + " differs from the weights' " +
                           intsText(kernel));
  const Ints strides = a.strides.empty() ? Ints(spatial, 1) : a.strides;
  const Ints dilations = a.dilations.empty() ? Ints(spatial, 1) : a.dilations;
  const Ints pads = a.pads.empty() ? Ints(2 * spatial, 0) : a.pads;
  if (strides.size() != spatial || dilations.size() != spatial || pads.size() != 2 * spatial)
    return invalidArgument("strides, dilations or pads have the wrong length for " +
                           std::to_string(spatial) + " spatial dims");
  std::vector<WindowAxis> axes(spatial);
  for (size_t i = 0; i < spatial; ++i) {
    WindowAxis& x = axes[i];
    x.kernel = k[i];
    x.stride = strides[i];
    x.dilation = dilations[i];
    if (x.kernel < 1 || x.stride < 1 || x.dilation < 1)
      return invalidArgument("kernel_shape, strides and dilations must be positive");
    if (a.autoPad == AutoPad::kNotSet) {
      x.padBegin = pads[i];
      x.padEnd = pads[i + spatial];
      if (x.padBegin < 0 || x.padEnd < 0) return invalidArgument("pads must not be negative");
    }
    // A window whose arithmetic overflows (the verifier refuses these first).
    if (std::string why = windowAxisProblem(x.kernel, x.stride, x.dilation, x.padBegin, x.padEnd);
        !why.empty())
      return invalidArgument("spatial axis " + std::to_string(i) + ": " + why);
  }
  return axes;
}

bool isSame(AutoPad p) {
  return p == AutoPad::kSameUpper || p == AutoPad::kSameLower;
}

// Forward SAME padding: ceil(image / stride) positions, the padding they
// need split with the odd one at the end (SAME_UPPER) or the beginning.
void resolveSame(WindowAxis& x, AutoPad p) {
  x.grid = ceilDiv(x.image, x.stride);
  const int64_t total = std::max<int64_t>(0, (x.grid - 1) * x.stride + x.span() - x.image);
  x.padBegin = p == AutoPad::kSameUpper ? total / 2 : total - total / 2;
  x.padEnd = total - x.padBegin;
}

}  // namespace

Expected<AutoPad> parseAutoPad(std::string_view text) {
  if (text == "NOTSET") return AutoPad::kNotSet;
  if (text == "SAME_UPPER") return AutoPad::kSameUpper;
  if (text == "SAME_LOWER") return AutoPad::kSameLower;
  if (text == "VALID") return AutoPad::kValid;
  return invalidArgument("unknown auto_pad '" + std::string(text) + "'");
}

Expected<WindowAttrs> readWindowAttrs(const Node& node) {
  WindowAttrs a;
  auto autoPad = parseAutoPad(node.attrString("auto_pad", "NOTSET"));
  if (!autoPad) return autoPad.error();
  a.autoPad = *autoPad;
  a.kernel = node.attrInts("kernel_shape");
  a.strides = node.attrInts("strides");
  a.dilations = node.attrInts("dilations");
  a.pads = node.attrInts("pads");
  a.outputPadding = node.attrInts("output_padding");
  a.outputShape = node.attrInts("output_shape");
  a.ceilMode = node.attrInt("ceil_mode", 0) != 0;
  a.countIncludePad = node.attrInt("count_include_pad", 0) != 0;
  return a;
}

int64_t Window::imageSize() const {
  int64_t n = 1;
  for (const WindowAxis& x : axes) n *= x.image;
  return n;
}

int64_t Window::kernelSize() const {
  int64_t n = 1;
  for (const WindowAxis& x : axes) n *= x.kernel;
  return n;
}

int64_t Window::gridSize() const {
  int64_t n = 1;
  for (const WindowAxis& x : axes) n *= x.grid;
  return n;
}

std::vector<int64_t> Window::imageDims() const {
  Ints d;
  for (const WindowAxis& x : axes) d.push_back(x.image);
  return d;
}

std::vector<int64_t> Window::gridDims() const {
  Ints d;
  for (const WindowAxis& x : axes) d.push_back(x.grid);
  return d;
}

int64_t forwardGridExtent(int64_t image, int64_t span, int64_t stride, int64_t padBegin,
                          int64_t padEnd, bool ceilMode) {
  const int64_t room = image + padBegin + padEnd - span;
  int64_t grid = (ceilMode ? ceilDiv(room, stride) : floorDiv(room, stride)) + 1;
  // Ceil mode: the last window must start inside the input or the begin padding.
  if (ceilMode && (grid - 1) * stride >= image + padBegin) --grid;
  return grid;
}

int64_t transposedImageExtent(int64_t grid, int64_t span, int64_t stride, int64_t padBegin,
                              int64_t padEnd, int64_t outputPadding) {
  return stride * (grid - 1) + outputPadding + span - padBegin - padEnd;
}

Expected<Window> forwardWindow(const WindowAttrs& a, const Ints& image, const Ints& kernel) {
  auto checked = axesOf(a, image.size(), kernel);
  if (!checked) return checked.error();
  std::vector<WindowAxis> axes = std::move(checked).value();
  for (size_t i = 0; i < axes.size(); ++i) {
    WindowAxis& x = axes[i];
    x.image = image[i];
    if (x.image < 0) return invalidArgument("negative spatial dim " + std::to_string(x.image));
    if (isSame(a.autoPad)) resolveSame(x, a.autoPad);
    if (std::string why =
            windowAxisProblem(x.kernel, x.stride, x.dilation, x.padBegin, x.padEnd, x.image);
        !why.empty())
      return invalidArgument("spatial axis " + std::to_string(i) + ": " + why);
    if (isSame(a.autoPad)) continue;
    const int64_t padded = x.image + x.padBegin + x.padEnd;
    if (padded < x.span())
      return invalidArgument("the window (" + std::to_string(x.span()) +
                             " wide with dilation) is larger than the padded input (" +
                             std::to_string(padded) + ")");
    x.grid = forwardGridExtent(x.image, x.span(), x.stride, x.padBegin, x.padEnd, a.ceilMode);
  }
  Window w;
  w.axes = std::move(axes);
  w.countIncludePad = a.countIncludePad;
  return w;
}

Expected<Window> transposedWindow(const WindowAttrs& a, const Ints& grid, const Ints& kernel) {
  const size_t sp = grid.size();
  auto checked = axesOf(a, sp, kernel);
  if (!checked) return checked.error();
  std::vector<WindowAxis> axes = std::move(checked).value();
  const Ints outPad = a.outputPadding.empty() ? Ints(sp, 0) : a.outputPadding;
  if (outPad.size() != sp) return invalidArgument("output_padding has the wrong length");
  Ints outShape = a.outputShape;
  if (outShape.size() == sp + 2) outShape.erase(outShape.begin(), outShape.begin() + 2);
  if (!outShape.empty() && outShape.size() != sp)
    return invalidArgument("output_shape has the wrong length");
  for (size_t i = 0; i < sp; ++i) {
    WindowAxis& x = axes[i];
    x.grid = grid[i];
    int64_t full = 0;  // the image every position and tap covers, output_padding added
    if (outPad[i] < 0 || __builtin_mul_overflow(x.stride, x.grid - 1, &full) ||
        __builtin_add_overflow(full, outPad[i], &full) ||
        __builtin_add_overflow(full, x.span(), &full) || full > kMaxWindowExtent)
      return invalidArgument("spatial axis " + std::to_string(i) +
                             ": the output extent overflows (stride " + std::to_string(x.stride) +
                             ", input " + std::to_string(x.grid) + ")");
    if (!outShape.empty() || isSame(a.autoPad)) {
      x.image = !outShape.empty() ? outShape[i] : x.grid * x.stride;
      // A larger image than the windows cover is zero padding at the end (as ORT).
      const int64_t total = std::max<int64_t>(0, full - x.image);
      x.padEnd = a.autoPad == AutoPad::kSameUpper ? total - total / 2 : total / 2;
      x.padBegin = total - x.padEnd;
    } else {
      x.image = transposedImageExtent(x.grid, x.span(), x.stride, x.padBegin, x.padEnd, outPad[i]);
    }
    if (x.image < 1) return invalidArgument("the output would be empty");
  }
  Window w;
  w.axes = std::move(axes);
  return w;
}

}  // namespace passlab::ir
