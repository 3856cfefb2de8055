// Single ops with their own shape laws: losses, signal processing (DFT,
// STFT, MelWeightMatrix), Det, string ops, TfIdfVectorizer, ImageDecoder,
// BitCast, Multinomial, the preview training optimizers.
#include <algorithm>

#include "core/analysis/infer/helpers.h"
#include "core/analysis/infer/rules.h"

namespace passlab::analysis::infer {

namespace {

SymInt scalarInput(InferContext& ctx, size_t input) {
  if (!ctx.hasInput(input)) return {};
  const KnownValue* k = ctx.inputValue(input);
  return k && k->elems.size() == 1 ? k->elems[0] : SymInt();
}

ir::DataType dtypeAttr(InferContext& ctx, const char* name, ir::DataType fallback) {
  if (!ctx.hasAttr(name)) return fallback;
  auto v = static_cast<int32_t>(ctx.attrInt(name, 0));
  return ir::isKnownDtype(v) ? static_cast<ir::DataType>(v) : fallback;
}

}  // namespace

void inferLoss(InferContext& ctx) {
  std::string reduction = ctx.attrString("reduction", "mean");
  if (ctx.outputType(0).elemType() == ir::DataType::kUndefined)
    ctx.setOutputElem(0, ctx.inputElem(0));
  if (reduction == "none") {
    if (const ir::Shape* target = ctx.inputShape(1)) ctx.setOutputShape(0, *target);
  } else if (reduction == "mean" || reduction == "sum") {
    ctx.setOutputShape(0, ir::Shape());
  } else {
    ctx.fail("unknown reduction '" + reduction + "'");
    return;
  }
  if (ctx.outputCount() > 1 && ctx.hasOutput(1)) copyShapeFrom(ctx, 0, 1);  // log_prob
}

void inferDft(InferContext& ctx) {
  const ir::Shape* x = ctx.inputShape(0);
  if (!x) return;
  auto rank = static_cast<int64_t>(x->rank());
  if (rank < 2) {
    ctx.fail("input must have rank >= 2, got " + x->toString());
    return;
  }
  int64_t axis = ctx.attrInt("axis", 1);
  if (ctx.opset() >= 20) {
    axis = -2;
    if (ctx.hasInput(2)) {
      auto a = scalarInput(ctx, 2).constant();
      if (!a) {
        ctx.setOutputShape(0, unknownShape(x->rank()));
        return;
      }
      axis = *a;
    }
  }
  // The last dim holds (real) or (real, imaginary) and is not a signal axis.
  auto a = ctx.axis(axis, rank - 1);
  if (!a) return;
  std::vector<ir::Dim> dims = x->dims();
  bool inverse = ctx.attrInt("inverse", 0) != 0, onesided = ctx.attrInt("onesided", 0) != 0;
  SymInt in = SymInt::fromDim(dims[static_cast<size_t>(*a)]);
  SymInt n = ctx.hasInput(1) ? scalarInput(ctx, 1) : in;
  if (onesided && inverse) {
    // Half spectrum in, real signal out: dft_length samples, else 2*(n-1).
    if (!ctx.hasInput(1)) n = (in - SymInt(1)) * SymInt(2);
  } else if (onesided) {
    n = n.floorDiv(SymInt(2)) + SymInt(1);
  }
  dims[static_cast<size_t>(*a)] = n.toDim();
  dims.back() = ir::Dim(onesided && inverse ? 1 : 2);
  ctx.setOutputShape(0, ir::Shape(std::move(dims)));
}

void inferStft(InferContext& ctx) {
  const ir::Shape* x = ctx.inputShape(0);
  if (!x) return;
  if (x->rank() != 3) {
    ctx.fail("signal must be 3-D [batch, length, 1|2], got " + x->toString());
    return;
  }
  SymInt step = scalarInput(ctx, 1);
  SymInt frame = scalarInput(ctx, 3);
  if (!ctx.hasInput(3))
    if (const ir::Shape* w = ctx.inputShape(2); w && w->rank() == 1)
      frame = SymInt::fromDim((*w)[0]);
  SymInt frames = (SymInt::fromDim((*x)[1]) - frame).floorDiv(step) + SymInt(1);
  SymInt bins = ctx.attrInt("onesided", 1) != 0 ? frame.floorDiv(SymInt(2)) + SymInt(1) : frame;
  ctx.setOutputShape(0, ir::Shape({(*x)[0], frames.toDim(), bins.toDim(), ir::Dim(2)}));
}

void inferMelWeightMatrix(InferContext& ctx) {
  ctx.setOutputElem(0, dtypeAttr(ctx, "output_datatype", ir::DataType::kFloat));
  SymInt bins = scalarInput(ctx, 0);
  SymInt dft = scalarInput(ctx, 1);
  ctx.setOutputShape(0, ir::Shape({(dft.floorDiv(SymInt(2)) + SymInt(1)).toDim(), bins.toDim()}));
}

void inferDet(InferContext& ctx) {
  const ir::Shape* x = ctx.inputShape(0);
  if (!x) return;
  if (x->rank() < 2) {
    ctx.fail("input must have rank >= 2, got " + x->toString());
    return;
  }
  ctx.setOutputShape(0, ir::Shape(std::vector<ir::Dim>(x->dims().begin(), x->dims().end() - 2)));
}

void inferStringSplit(InferContext& ctx) {
  const ir::Shape* x = ctx.inputShape(0);
  if (!x) return;
  std::vector<ir::Dim> dims = x->dims();
  ctx.setOutputShape(1, *x);
  dims.emplace_back();
  ctx.setOutputShape(0, ir::Shape(std::move(dims)));
}

void inferStringNormalizer(InferContext& ctx) {
  const ir::Shape* x = ctx.inputShape(0);
  if (!x) return;
  if (x->rank() != 1 && x->rank() != 2) {
    ctx.fail("input must be [C] or [1, C], got " + x->toString());
    return;
  }
  ir::Shape out = *x;
  // Stop words may remove entries.
  if (!ctx.node().attrInts("stopwords").empty() || ctx.node().hasAttr("stopwords"))
    out[out.rank() - 1] = ir::Dim();
  ctx.setOutputShape(0, out);
}

void inferTfIdfVectorizer(InferContext& ctx) {
  const ir::Shape* x = ctx.inputShape(0);
  std::vector<int64_t> indexes = ctx.attrInts("ngram_indexes");
  ir::Dim size;
  if (!indexes.empty()) size = ir::Dim(*std::max_element(indexes.begin(), indexes.end()) + 1);
  if (!x) return;
  if (x->rank() == 1)
    ctx.setOutputShape(0, ir::Shape({size}));
  else if (x->rank() == 2)
    ctx.setOutputShape(0, ir::Shape({(*x)[0], size}));
  else
    ctx.fail("input must be [C] or [N, C], got " + x->toString());
}

void inferImageDecoder(InferContext& ctx) {
  std::string format = ctx.attrString("pixel_format", "RGB");
  ctx.setOutput(0, ir::DataType::kUInt8,
                ir::Shape({ir::Dim(), ir::Dim(), ir::Dim(format == "Grayscale" ? 1 : 3)}));
}

void inferBitCast(InferContext& ctx) {
  auto to = static_cast<int32_t>(ctx.attrInt("to", 0));
  if (!ir::isKnownDtype(to)) {
    ctx.fail("attribute 'to' is not a known element type");
    return;
  }
  ctx.setOutputElem(0, static_cast<ir::DataType>(to));
  const ir::Shape* x = ctx.inputShape(0);
  if (!x) return;
  int inBits = ir::dtypeBits(ctx.inputElem(0)),
      outBits = ir::dtypeBits(static_cast<ir::DataType>(to));
  if (inBits == 0 || outBits == 0) return;
  std::vector<ir::Dim> dims = x->dims();
  if (inBits > outBits) {
    dims.emplace_back(inBits / outBits);
  } else if (inBits < outBits) {
    // The last dim holds the pieces of one output element and goes away.
    if (dims.empty() || (dims.back().isStatic() && dims.back().value() != outBits / inBits)) {
      ctx.fail("last dim must be " + std::to_string(outBits / inBits) + " to cast " +
               x->toString() + " to a wider type");
      return;
    }
    dims.pop_back();
  }
  ctx.setOutputShape(0, ir::Shape(std::move(dims)));
}

void inferMultinomial(InferContext& ctx) {
  ctx.setOutputElem(0, dtypeAttr(ctx, "dtype", ir::DataType::kInt32));
  const ir::Shape* x = ctx.inputShape(0);
  ir::Dim batch = x && x->rank() == 2 ? (*x)[0] : ir::Dim();
  ctx.setOutputShape(0, ir::Shape({batch, ir::Dim(ctx.attrInt("sample_size", 1))}));
}

// ai.onnx.preview.training optimizers: inputs R, T, then n-tensor groups
//   Adagrad: X, G, H -> X_new, H_new     Momentum: X, G, V -> X_new, V_new
//   Adam:    X, G, V, H -> X_new, V_new, H_new
// Each new tensor has the type of the tensor it updates.
void inferOptimizer(InferContext& ctx) {
  bool adam = ctx.node().opType() == "Adam";
  size_t groups = adam ? 4 : 3;
  std::vector<size_t> updated = adam ? std::vector<size_t>{0, 2, 3} : std::vector<size_t>{0, 2};
  if (ctx.inputCount() < 2 || (ctx.inputCount() - 2) % groups != 0) {
    ctx.fail("inputs after R and T must form " + std::to_string(groups) + " equal groups");
    return;
  }
  size_t n = (ctx.inputCount() - 2) / groups;
  if (ctx.outputCount() > n * updated.size()) {
    ctx.fail("has " + std::to_string(ctx.outputCount()) + " outputs for " + std::to_string(n) +
             " tensors");
    return;
  }
  for (size_t out = 0; out < ctx.outputCount(); ++out)
    if (ctx.hasOutput(out)) copyTypeFrom(ctx, 2 + updated[out / n] * n + out % n, out);
}

}  // namespace passlab::analysis::infer
