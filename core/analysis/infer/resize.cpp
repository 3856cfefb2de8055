// Resampling: Resize (scales or sizes; roi from opset 11; axes and
// keep_aspect_ratio_policy from opset 18), Upsample (scales attribute at
// opset 7, input from 9), GridSample, AffineGrid.
#include <algorithm>
#include <cmath>

#include "core/analysis/infer/helpers.h"
#include "core/analysis/infer/rules.h"

namespace passlab::analysis::infer {

namespace {

// out = floor(d * scale); a symbol times an integral scale stays symbolic.
ir::Dim scaleDim(const ir::Dim& d, double scale) {
  if (d.isStatic()) {
    double out = std::floor(static_cast<double>(d.value()) * scale);
    return out < 9.0e15 ? ir::Dim(static_cast<int64_t>(out)) : ir::Dim();
  }
  double whole = std::round(scale);
  if (whole >= 1 && std::abs(scale - whole) < 1e-9)
    return (SymInt::fromDim(d) * SymInt(static_cast<int64_t>(whole))).toDim();
  return {};
}

// Float values of a constant input, or nullopt.
std::optional<std::vector<double>> floatsOf(InferContext& ctx, size_t input) {
  if (!ctx.hasInput(input)) return std::nullopt;
  const ir::Tensor* t = ctx.inputConstant(input);
  if (!t || t->bytes().size() < t->expectedBytes()) return std::nullopt;
  return t->toDoubleVector();
}

// An input given but empty (a common way to say "not used").
bool isEmptyInput(InferContext& ctx, size_t input) {
  const ir::Shape* s = ctx.inputShape(input);
  return s && s->rank() == 1 && (*s)[0].isStatic() && (*s)[0].value() == 0;
}

}  // namespace

void inferResize(InferContext& ctx) {
  const ir::Shape* x = ctx.inputShape(0);
  if (!x) return;
  auto rank = static_cast<int64_t>(x->rank());
  bool upsample = ctx.node().opType() == "Upsample";
  size_t scalesIndex = upsample || ctx.opset() < 11 ? 1 : 2;
  size_t sizesIndex = 3;
  std::vector<int64_t> axes = ctx.opset() >= 18 ? ctx.attrInts("axes") : std::vector<int64_t>();
  if (axes.empty())
    for (int64_t i = 0; i < rank; ++i) axes.push_back(i);
  if (!normalizeAxes(ctx, axes, rank)) return;
  ir::Shape out = *x;
  auto unknownAxes = [&] {
    for (int64_t a : axes) out[static_cast<size_t>(a)] = ir::Dim();
    ctx.setOutputShape(0, out);
  };

  bool haveSizes =
      !upsample && ctx.opset() >= 11 && ctx.hasInput(sizesIndex) && !isEmptyInput(ctx, sizesIndex);
  if (haveSizes) {
    const KnownValue* sizes = ctx.inputValue(sizesIndex);
    if (!sizes) return unknownAxes();
    if (sizes->elems.size() != axes.size()) {
      ctx.fail("sizes has " + std::to_string(sizes->elems.size()) + " values for " +
               std::to_string(axes.size()) + " axes");
      return;
    }
    std::string policy = ctx.attrString("keep_aspect_ratio_policy", "stretch");
    if (ctx.opset() >= 18 && policy != "stretch") {
      // One scale for all axes: the smallest (not_larger) or largest (not_smaller) ratio.
      double scale = policy == "not_larger" ? INFINITY : 0;
      for (size_t i = 0; i < axes.size(); ++i) {
        auto s = sizes->elems[i].constant();
        const ir::Dim& d = (*x)[static_cast<size_t>(axes[i])];
        if (!s || !d.isStatic() || d.value() == 0) return unknownAxes();
        double r = static_cast<double>(*s) / static_cast<double>(d.value());
        scale = policy == "not_larger" ? std::min(scale, r) : std::max(scale, r);
      }
      for (int64_t a : axes) {
        auto i = static_cast<size_t>(a);
        double v = std::round(static_cast<double>(out[i].value()) * scale);
        out[i] = v < 9.0e15 ? ir::Dim(static_cast<int64_t>(v)) : ir::Dim();
      }
    } else {
      for (size_t i = 0; i < axes.size(); ++i)
        out[static_cast<size_t>(axes[i])] = sizes->elems[i].toDim();
    }
    ctx.setOutputShape(0, out);
    return;
  }

  std::optional<std::vector<double>> scales;
  if (upsample && ctx.opset() < 9) {
    std::vector<float> f = ctx.node().attrFloats("scales");
    scales = std::vector<double>(f.begin(), f.end());
  } else {
    scales = floatsOf(ctx, scalesIndex);
  }
  if (!scales) return unknownAxes();
  if (scales->size() != axes.size()) {
    ctx.fail("scales has " + std::to_string(scales->size()) + " values for " +
             std::to_string(axes.size()) + " axes");
    return;
  }
  for (size_t i = 0; i < axes.size(); ++i) {
    if ((*scales)[i] <= 0) {
      ctx.fail("scale " + std::to_string((*scales)[i]) + " is not positive");
      return;
    }
    auto a = static_cast<size_t>(axes[i]);
    out[a] = scaleDim(out[a], (*scales)[i]);
  }
  ctx.setOutputShape(0, out);
}

void inferGridSample(InferContext& ctx) {
  const ir::Shape* x = ctx.inputShape(0);
  const ir::Shape* grid = ctx.inputShape(1);
  if (!x || !grid) return;
  if (x->rank() < 3 || grid->rank() != x->rank()) {
    ctx.fail("grid " + grid->toString() + " does not fit input " + x->toString());
    return;
  }
  std::vector<ir::Dim> dims{(*x)[0], (*x)[1]};
  dims.insert(dims.end(), grid->dims().begin() + 1, grid->dims().end() - 1);
  ctx.setOutputShape(0, ir::Shape(std::move(dims)));
}

void inferAffineGrid(InferContext& ctx) {
  const KnownValue* size = ctx.inputValue(1);
  if (!size) {
    if (const ir::Shape* s = ctx.inputShape(1); s && s->rank() == 1 && (*s)[0].isStatic())
      ctx.setOutputShape(0, unknownShape(static_cast<size_t>((*s)[0].value())));
    return;
  }
  size_t n = size->elems.size();
  if (n != 4 && n != 5) {
    ctx.fail("size must have 4 or 5 values");
    return;
  }
  std::vector<ir::Dim> dims{size->elems[0].toDim()};
  for (size_t i = 2; i < n; ++i) dims.push_back(size->elems[i].toDim());
  dims.emplace_back(static_cast<int64_t>(n - 2));
  ctx.setOutputShape(0, ir::Shape(std::move(dims)));
}

}  // namespace passlab::analysis::infer
