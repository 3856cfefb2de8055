// ai.onnx.ml: ZipMap (seq(map(label, float))), ArrayFeatureExtractor,
// classifiers ([N] labels, [N, classes] scores), regressors ([N, targets]),
// TreeEnsemble and the element-wise ones (Binarizer, Scaler, LabelEncoder, ...).
#include "core/analysis/infer/helpers.h"
#include "core/analysis/infer/rules.h"

namespace passlab::analysis::infer {

namespace {

// Rows of a [N, F] or [F] input (one row for 1-D).
ir::Dim rowsOf(InferContext& ctx) {
  const ir::Shape* x = ctx.inputShape(0);
  if (!x) return {};
  if (x->rank() == 1) return ir::Dim(1);
  return x->rank() == 2 ? (*x)[0] : ir::Dim();
}

}  // namespace

void inferZipMap(InferContext& ctx) {
  bool strings = ctx.hasAttr("classlabels_strings");
  if (!strings && !ctx.hasAttr("classlabels_int64s")) {
    ctx.fail("classlabels_strings or classlabels_int64s is required");
    return;
  }
  ir::DataType key = strings ? ir::DataType::kString : ir::DataType::kInt64;
  ctx.setOutputType(0,
                    ir::Type::sequence(ir::Type::map(key, ir::Type::tensor(ir::DataType::kFloat))));
}

void inferArrayFeatureExtractor(InferContext& ctx) {
  const ir::Shape* x = ctx.inputShape(0);
  const ir::Shape* y = ctx.inputShape(1);
  if (ctx.outputType(0).elemType() == ir::DataType::kUndefined)
    ctx.setOutputElem(0, ctx.inputElem(0));
  if (!x || !y) return;
  ir::Dim count = dimProduct(y->dims()).toDim();
  if (x->rank() <= 1) {
    ctx.setOutputShape(0, ir::Shape({ir::Dim(1), count}));
    return;
  }
  std::vector<ir::Dim> dims(x->dims().begin(), x->dims().end() - 1);
  dims.push_back(count);
  ctx.setOutputShape(0, ir::Shape(std::move(dims)));
}

void inferClassifier(InferContext& ctx) {
  const ir::Node& n = ctx.node();
  bool strings = n.hasAttr("classlabels_strings");
  size_t classes = strings ? n.attr("classlabels_strings")->strings.size()
                           : n.attrInts("classlabels_ints").size();
  if (classes == 0 && n.hasAttr("classlabels_int64s"))
    classes = n.attrInts("classlabels_int64s").size();
  ir::Dim rows = rowsOf(ctx);
  ctx.setOutput(0, strings ? ir::DataType::kString : ir::DataType::kInt64, ir::Shape({rows}));
  if (ctx.outputCount() > 1 && ctx.hasOutput(1)) {
    // A binary classifier with one weight row still reports two scores.
    ir::Dim width = classes > 0 ? ir::Dim(static_cast<int64_t>(classes)) : ir::Dim();
    ctx.setOutput(1, ir::DataType::kFloat, ir::Shape({rows, width}));
  }
}

void inferRegressor(InferContext& ctx) {
  int64_t targets =
      ctx.node().opType() == "SVMRegressor"
          ? 1
          : ctx.attrInt(ctx.node().opType() == "LinearRegressor" ? "targets" : "n_targets", 1);
  ctx.setOutput(0, ir::DataType::kFloat, ir::Shape({rowsOf(ctx), ir::Dim(targets)}));
}

void inferTreeEnsemble(InferContext& ctx) {
  if (ctx.outputType(0).elemType() == ir::DataType::kUndefined)
    ctx.setOutputElem(0, ctx.inputElem(0));
  ir::Dim targets = ctx.hasAttr("n_targets") ? ir::Dim(ctx.attrInt("n_targets", 1)) : ir::Dim();
  ctx.setOutputShape(0, ir::Shape({rowsOf(ctx), targets}));
}

void inferMlSameShape(InferContext& ctx) {
  const ir::Node& n = ctx.node();
  const std::string& op = n.opType();
  if (op == "LabelEncoder") {
    if (n.hasAttr("values_strings")) ctx.setOutputElem(0, ir::DataType::kString);
    if (n.hasAttr("values_int64s")) ctx.setOutputElem(0, ir::DataType::kInt64);
    if (n.hasAttr("values_floats")) ctx.setOutputElem(0, ir::DataType::kFloat);
    if (const ir::Attribute* t = n.attr("values_tensor")) ctx.setOutputElem(0, t->t.dtype());
  } else if (op == "CategoryMapper") {
    ctx.setOutputElem(0, ctx.inputElem(0) == ir::DataType::kString ? ir::DataType::kInt64
                                                                   : ir::DataType::kString);
  } else if (op == "Scaler" || op == "Normalizer") {
    ctx.setOutputElem(0, ir::DataType::kFloat);
  }
  copyShapeFrom(ctx, 0, 0);
}

}  // namespace passlab::analysis::infer
