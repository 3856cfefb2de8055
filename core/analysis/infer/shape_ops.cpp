// Ops that read or rearrange shapes: Shape, Size, Reshape, Flatten, Squeeze,
// Unsqueeze, Transpose, DepthToSpace/SpaceToDepth. Shape and Size start the
// tracking of shape values; the others carry tracked values through.
#include <algorithm>

#include "core/analysis/infer/helpers.h"
#include "core/analysis/infer/rules.h"

namespace passlab::analysis::infer {

namespace {

// The same elements under new dims (Reshape, Squeeze, Unsqueeze, Flatten of a tracked value).
void reshapeValue(InferContext& ctx, const std::optional<ir::Shape>& outShape) {
  const KnownValue* in = ctx.inputValue(0);
  if (!in || !outShape) return;
  auto dims = outShape->staticDims();
  if (!dims) return;
  auto n = ir::checkedProduct(*dims);
  if (!n || static_cast<size_t>(*n) != in->elems.size()) return;
  KnownValue out = *in;
  out.dims = *dims;
  ctx.setOutputValue(0, std::move(out));
}

}  // namespace

void inferShape(InferContext& ctx) {
  const ir::Shape* x = ctx.inputShape(0);
  if (!x) {
    ctx.setOutputShape(0, unknownShape(1));
    return;
  }
  auto rank = static_cast<int64_t>(x->rank());
  int64_t start = 0, end = rank;
  if (ctx.opset() >= 15) {
    start = ctx.attrInt("start", 0);
    end = ctx.attrInt("end", rank);
    if (start < 0) start += rank;
    if (end < 0) end += rank;
    start = std::clamp<int64_t>(start, 0, rank);
    end = std::clamp<int64_t>(end, 0, rank);
  }
  std::vector<SymInt> elems;
  for (int64_t i = start; i < end; ++i)
    elems.push_back(SymInt::fromDim((*x)[static_cast<size_t>(i)]));
  ctx.setOutputShape(0, ir::Shape({ir::Dim(static_cast<int64_t>(elems.size()))}));
  ctx.setOutputValue(0, KnownValue::vector(std::move(elems)));
}

void inferSize(InferContext& ctx) {
  ctx.setOutputShape(0, ir::Shape());
  if (const ir::Shape* x = ctx.inputShape(0))
    ctx.setOutputValue(0, KnownValue::scalar(dimProduct(x->dims())));
}

void inferReshape(InferContext& ctx) {
  const ir::Shape* x = ctx.inputShape(0);
  std::vector<SymInt> target;
  if (ctx.opset() < 5) {
    for (int64_t v : ctx.attrInts("shape")) target.emplace_back(v);
  } else if (const KnownValue* k = ctx.inputValue(1)) {
    if (k->dims.size() != 1) {
      ctx.fail("target shape must be 1-D, has rank " + std::to_string(k->dims.size()));
      return;
    }
    target = k->elems;
  } else {
    const ir::Shape* s = ctx.inputShape(1);
    if (s && s->rank() == 1 && (*s)[0].isStatic())
      ctx.setOutputShape(0, unknownShape(static_cast<size_t>((*s)[0].value())));
    return;
  }
  bool allowZero = ctx.opset() >= 14 && ctx.attrInt("allowzero", 0) != 0;
  int inferIndex = -1;
  SymInt known(1);  // product of the target dims other than -1
  for (size_t i = 0; i < target.size(); ++i) {
    SymInt& t = target[i];
    auto c = t.constant();
    if (c && *c == -1) {
      if (inferIndex >= 0) {
        ctx.fail("two -1 in target shape");
        return;
      }
      inferIndex = static_cast<int>(i);
      continue;
    }
    if (c && *c < -1) {
      ctx.fail("negative dim " + std::to_string(*c) + " in target shape");
      return;
    }
    if (c && *c == 0 && !allowZero) {
      if (x && i >= x->rank()) {
        ctx.fail("target dim " + std::to_string(i) + " is 0 (copy) but the input has rank " +
                 std::to_string(x->rank()));
        return;
      }
      t = x ? SymInt::fromDim((*x)[i]) : SymInt();
    }
    known = known * t;
  }
  if (x) {
    SymInt total = dimProduct(x->dims());
    auto tc = total.constant(), kc = known.constant();
    if (inferIndex >= 0) {
      if (tc && kc && *kc != 0 && *tc % *kc != 0) {
        ctx.fail("cannot reshape " + x->toString() + " (" + std::to_string(*tc) +
                 " elements) with " + std::to_string(*kc) + " elements per -1");
        return;
      }
      target[static_cast<size_t>(inferIndex)] = kc && *kc == 0 ? SymInt() : total.exactDiv(known);
    } else if (tc && kc && *tc != *kc) {
      ctx.fail("cannot reshape " + x->toString() + " (" + std::to_string(*tc) + " elements) to " +
               std::to_string(*kc) + " elements");
      return;
    } else if (auto ratio = total.exactDiv(known).constant(); ratio && *ratio != 1) {
      // 15*N elements into 5*N places (N > 0 for any tensor this model can hold).
      ctx.fail("cannot reshape " + x->toString() + " to " + shapeOf(target).toString() +
               ": element counts differ by a factor of " + std::to_string(*ratio));
      return;
    }
  } else if (inferIndex >= 0) {
    target[static_cast<size_t>(inferIndex)] = SymInt();
  }
  ir::Shape out = shapeOf(target);
  ctx.setOutputShape(0, out);
  reshapeValue(ctx, out);
}

void inferFlatten(InferContext& ctx) {
  const ir::Shape* x = ctx.inputShape(0);
  if (!x) {
    ctx.setOutputShape(0, unknownShape(2));
    return;
  }
  auto rank = static_cast<int64_t>(x->rank());
  int64_t a = ctx.attrInt("axis", 1);
  if (a < -rank || a > rank) {
    ctx.fail("axis " + std::to_string(a) + " is out of range for rank " + std::to_string(rank));
    return;
  }
  if (a < 0) a += rank;
  std::vector<ir::Dim> head(x->dims().begin(), x->dims().begin() + a);
  std::vector<ir::Dim> tail(x->dims().begin() + a, x->dims().end());
  ir::Shape out({dimProduct(head).toDim(), dimProduct(tail).toDim()});
  ctx.setOutputShape(0, out);
  reshapeValue(ctx, out);
}

void inferSqueeze(InferContext& ctx) {
  const ir::Shape* x = ctx.inputShape(0);
  std::vector<int64_t> axes;
  AxesState state = readAxes(ctx, "axes", 13, 1, axes);
  if (!x) return;
  auto rank = static_cast<int64_t>(x->rank());
  if (state == AxesState::kUnknown) return;
  std::vector<bool> drop(x->rank(), false);
  if (state == AxesState::kAbsent) {
    // Squeezes every dim of size 1; a dim that is not a number may or may not be 1.
    for (size_t i = 0; i < x->rank(); ++i) {
      if (!(*x)[i].isStatic()) return;
      drop[i] = (*x)[i].value() == 1;
    }
  } else {
    if (!normalizeAxes(ctx, axes, rank)) return;
    for (int64_t a : axes) {
      const ir::Dim& d = (*x)[static_cast<size_t>(a)];
      if (d.isStatic() && d.value() != 1) {
        ctx.fail("cannot squeeze axis " + std::to_string(a) + " of size " +
                 std::to_string(d.value()));
        return;
      }
      drop[static_cast<size_t>(a)] = true;
    }
  }
  std::vector<ir::Dim> dims;
  for (size_t i = 0; i < x->rank(); ++i)
    if (!drop[i]) dims.push_back((*x)[i]);
  ir::Shape out(std::move(dims));
  ctx.setOutputShape(0, out);
  reshapeValue(ctx, out);
}

void inferUnsqueeze(InferContext& ctx) {
  const ir::Shape* x = ctx.inputShape(0);
  std::vector<int64_t> axes;
  AxesState state = readAxes(ctx, "axes", 13, 1, axes);
  if (state == AxesState::kAbsent) {
    ctx.fail("axes are missing");
    return;
  }
  if (!x) return;
  if (state == AxesState::kUnknown) {
    if (const ir::Shape* a = ctx.inputShape(1); a && a->rank() == 1 && (*a)[0].isStatic())
      ctx.setOutputShape(0, unknownShape(x->rank() + static_cast<size_t>((*a)[0].value())));
    return;
  }
  auto outRank = static_cast<int64_t>(x->rank() + axes.size());
  if (!normalizeAxes(ctx, axes, outRank)) return;
  std::vector<bool> inserted(static_cast<size_t>(outRank), false);
  for (int64_t a : axes) inserted[static_cast<size_t>(a)] = true;
  std::vector<ir::Dim> dims;
  size_t next = 0;
  for (size_t i = 0; i < inserted.size(); ++i)
    dims.push_back(inserted[i] ? ir::Dim(1) : (*x)[next++]);
  ir::Shape out(std::move(dims));
  ctx.setOutputShape(0, out);
  reshapeValue(ctx, out);
}

void inferTranspose(InferContext& ctx) {
  const ir::Shape* x = ctx.inputShape(0);
  if (!x) return;
  size_t rank = x->rank();
  std::vector<int64_t> perm = ctx.attrInts("perm");
  if (perm.empty()) {
    for (size_t i = rank; i-- > 0;) perm.push_back(static_cast<int64_t>(i));
  }
  if (perm.size() != rank) {
    ctx.fail("perm has " + std::to_string(perm.size()) + " entries for rank " +
             std::to_string(rank));
    return;
  }
  std::vector<bool> seen(rank, false);
  std::vector<ir::Dim> dims;
  for (int64_t p : perm) {
    auto a = ctx.axis(p, static_cast<int64_t>(rank), "perm entry");
    if (!a) return;
    if (seen[static_cast<size_t>(*a)]) {
      ctx.fail("perm repeats axis " + std::to_string(*a));
      return;
    }
    seen[static_cast<size_t>(*a)] = true;
    dims.push_back((*x)[static_cast<size_t>(*a)]);
  }
  ctx.setOutputShape(0, ir::Shape(std::move(dims)));
  if (rank <= 1) reshapeValue(ctx, *x);
}

void inferDepthToSpace(InferContext& ctx) {
  const ir::Shape* x = ctx.inputShape(0);
  if (!x) return;
  if (x->rank() != 4) {
    ctx.fail("input must be 4-D, got " + x->toString());
    return;
  }
  int64_t b = ctx.attrInt("blocksize", 0);
  if (b <= 0) {
    ctx.fail("blocksize must be positive");
    return;
  }
  SymInt c = SymInt::fromDim((*x)[1]), h = SymInt::fromDim((*x)[2]), w = SymInt::fromDim((*x)[3]);
  SymInt bb(b);
  if (ctx.node().opType() == "DepthToSpace") {
    if (auto cc = c.constant(); cc && *cc % (b * b) != 0) {
      ctx.fail("channels " + std::to_string(*cc) + " not divisible by blocksize^2");
      return;
    }
    ctx.setOutputShape(
        0, ir::Shape({(*x)[0], c.exactDiv(bb * bb).toDim(), (h * bb).toDim(), (w * bb).toDim()}));
  } else {
    ctx.setOutputShape(0, ir::Shape({(*x)[0], (c * bb * bb).toDim(), h.exactDiv(bb).toDim(),
                                     w.exactDiv(bb).toDim()}));
  }
}

}  // namespace passlab::analysis::infer
