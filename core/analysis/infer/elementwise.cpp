// Element-wise ops: unary (shape of input 0), broadcasting binary and variadic
// ops, Where, Cast, Dropout. Arithmetic on tracked integer values is propagated
// here, so shape computations (Shape -> Gather -> Mul -> Concat) stay known.
#include <functional>

#include "core/analysis/infer/helpers.h"
#include "core/analysis/infer/rules.h"

namespace passlab::analysis::infer {

namespace {

using ValueOp = std::function<SymInt(const SymInt&, const SymInt&)>;

SymInt compare(const SymInt& a, const SymInt& b, const std::function<bool(int64_t, int64_t)>& f) {
  auto x = a.constant(), y = b.constant();
  if (x && y) return SymInt(f(*x, *y) ? 1 : 0);
  return {};
}

// Integer division as ONNX defines it (truncation) for numbers; exact division
// for polynomials and for float-typed values (which hold integers here).
SymInt divide(const SymInt& a, const SymInt& b, bool isFloat) {
  auto x = a.constant(), y = b.constant();
  if (x && y) {
    if (*y == 0 || (*x == INT64_MIN && *y == -1)) return {};
    if (isFloat && *x % *y != 0) return {};
    return SymInt(*x / *y);
  }
  return a.exactDiv(b);
}

// Python-style modulo (sign of the divisor) unless fmod, which follows the dividend.
SymInt modulo(const SymInt& a, const SymInt& b, bool fmod) {
  auto x = a.constant(), y = b.constant();
  if (!x || !y || *y == 0 || (*x == INT64_MIN && *y == -1)) return {};
  int64_t r = *x % *y;
  if (!fmod && r != 0 && ((r < 0) != (*y < 0))) r += *y;
  return SymInt(r);
}

ValueOp valueOpFor(const InferContext& ctx, ir::DataType outElem) {
  const std::string& op = ctx.node().opType();
  bool isFloat = ir::isFloatingPoint(outElem);
  if (op == "Add" || op == "Sum") return [](auto& a, auto& b) { return a + b; };
  if (op == "Sub") return [](auto& a, auto& b) { return a - b; };
  if (op == "Mul") return [](auto& a, auto& b) { return a * b; };
  if (op == "Div") return [isFloat](auto& a, auto& b) { return divide(a, b, isFloat); };
  if (op == "Mod") {
    bool fmod = ctx.attrInt("fmod", 0) != 0;
    return [fmod](auto& a, auto& b) { return modulo(a, b, fmod); };
  }
  if (op == "Equal")
    return [](const SymInt& a, const SymInt& b) {
      if (a.sameAs(b)) return SymInt(1);
      return compare(a, b, [](int64_t x, int64_t y) { return x == y; });
    };
  if (op == "Less") return [](auto& a, auto& b) { return compare(a, b, std::less<int64_t>()); };
  if (op == "LessOrEqual")
    return [](auto& a, auto& b) { return compare(a, b, std::less_equal<int64_t>()); };
  if (op == "Greater")
    return [](auto& a, auto& b) { return compare(a, b, std::greater<int64_t>()); };
  if (op == "GreaterOrEqual")
    return [](auto& a, auto& b) { return compare(a, b, std::greater_equal<int64_t>()); };
  if (op == "And")
    return
        [](auto& a, auto& b) { return compare(a, b, [](int64_t x, int64_t y) { return x && y; }); };
  if (op == "Or")
    return
        [](auto& a, auto& b) { return compare(a, b, [](int64_t x, int64_t y) { return x || y; }); };
  if (op == "Max")
    return [](const SymInt& a, const SymInt& b) {
      if (a.sameAs(b)) return a;
      auto x = a.constant(), y = b.constant();
      return x && y ? SymInt(std::max(*x, *y)) : SymInt();
    };
  if (op == "Min")
    return [](const SymInt& a, const SymInt& b) {
      if (a.sameAs(b)) return a;
      auto x = a.constant(), y = b.constant();
      return x && y ? SymInt(std::min(*x, *y)) : SymInt();
    };
  return nullptr;
}

// Tracks the output's elements when every input is tracked.
void propagateValues(InferContext& ctx) {
  ir::DataType elem = ctx.outputType(0).elemType();
  if (!ir::isInteger(elem) && !ir::isFloatingPoint(elem) && elem != ir::DataType::kBool) return;
  ValueOp op = valueOpFor(ctx, elem);
  if (!op || ctx.inputCount() == 0) return;
  const KnownValue* first = ctx.inputValue(0);
  if (!first) return;
  std::optional<KnownValue> acc = *first;
  for (size_t i = 1; i < ctx.inputCount() && acc; ++i) {
    const KnownValue* next = ctx.inputValue(i);
    if (!next) return;
    acc = broadcastValues(
        {&*acc, next}, [&](const std::vector<SymInt>& e) { return op(e[0], e[1]); }, elem,
        ctx.session().maxConstantElements());
  }
  if (acc) {
    acc->dtype = elem;
    ctx.setOutputValue(0, std::move(*acc));
  }
}

void broadcastAll(InferContext& ctx, size_t firstInput, size_t output) {
  std::vector<const ir::Shape*> shapes;
  for (size_t i = firstInput; i < ctx.inputCount(); ++i) {
    if (!ctx.hasInput(i)) continue;
    shapes.push_back(ctx.inputShape(i));
  }
  if (shapes.empty()) return;
  std::string err;
  auto out = broadcastShapes(shapes, &err);
  if (out)
    ctx.setOutputShape(output, std::move(*out));
  else if (!err.empty())
    ctx.fail(err);
}

bool isIntegerLike(ir::DataType t) {
  return ir::isInteger(t) || t == ir::DataType::kBool;
}

// Cast of tracked values: integers stay integers; casting to bool keeps only 0/1 numbers.
void castValue(InferContext& ctx, ir::DataType to) {
  const KnownValue* in = ctx.inputValue(0);
  if (!in) return;
  if (!isIntegerLike(to) && !ir::isFloatingPoint(to)) return;
  KnownValue out = *in;
  out.dtype = to;
  if (to == ir::DataType::kBool)
    for (auto& e : out.elems) {
      auto c = e.constant();
      e = c ? SymInt(*c != 0 ? 1 : 0) : SymInt();
    }
  if (to == ir::DataType::kInt32 || to == ir::DataType::kUInt32 || ir::dtypeBits(to) < 32)
    for (auto& e : out.elems) {
      // Narrowing keeps numbers that fit; polynomials are assumed to (they are dims).
      auto c = e.constant();
      int bits = ir::dtypeBits(to);
      if (c && bits < 64 && bits > 1) {
        int64_t lim = int64_t{1} << (bits - 1);
        if (*c < -lim || *c >= 2 * lim) e = SymInt();
      }
    }
  ctx.setOutputValue(0, std::move(out));
}

}  // namespace

void inferSameShape(InferContext& ctx) {
  copyShapeFrom(ctx, 0, 0);
}

void inferIdentity(InferContext& ctx) {
  copyTypeFrom(ctx, 0, 0);
  if (const KnownValue* v = ctx.inputValue(0)) ctx.setOutputValue(0, *v);
}

void inferNeg(InferContext& ctx) {
  copyShapeFrom(ctx, 0, 0);
  if (const KnownValue* v = ctx.inputValue(0)) {
    KnownValue out = *v;
    for (auto& e : out.elems) e = -e;
    ctx.setOutputValue(0, std::move(out));
  }
}

void inferBroadcast(InferContext& ctx) {
  // Before opset 7 the second operand was broadcast to the first (attribute
  // `broadcast`/`axis`), so the result has the first operand's shape.
  if (ctx.opset() < 7 && ctx.node().domain().empty())
    copyShapeFrom(ctx, 0, 0);
  else
    broadcastAll(ctx, 0, 0);
  if (!ctx.failed()) propagateValues(ctx);
}

void inferVariadic(InferContext& ctx) {
  broadcastAll(ctx, 0, 0);
  if (!ctx.failed()) propagateValues(ctx);
}

void inferWhere(InferContext& ctx) {
  broadcastAll(ctx, 0, 0);
  if (ctx.failed()) return;
  const KnownValue* c = ctx.inputValue(0);
  const KnownValue* x = ctx.inputValue(1);
  const KnownValue* y = ctx.inputValue(2);
  if (!c || !x || !y) return;
  auto out = broadcastValues(
      {c, x, y},
      [](const std::vector<SymInt>& e) {
        auto k = e[0].constant();
        return k ? (*k ? e[1] : e[2]) : SymInt();
      },
      x->dtype, ctx.session().maxConstantElements());
  if (out) ctx.setOutputValue(0, std::move(*out));
}

void inferCast(InferContext& ctx) {
  auto to = static_cast<ir::DataType>(ctx.attrInt("to", 0));
  if (!ir::isKnownDtype(static_cast<int32_t>(to))) {
    ctx.fail("attribute 'to' is not a known element type");
    return;
  }
  ctx.setOutputElem(0, to);
  copyShapeFrom(ctx, 0, 0);
  castValue(ctx, to);
}

void inferCastLike(InferContext& ctx) {
  ir::DataType to = ctx.inputElem(1);
  if (to != ir::DataType::kUndefined) ctx.setOutputElem(0, to);
  copyShapeFrom(ctx, 0, 0);
  if (to != ir::DataType::kUndefined) castValue(ctx, to);
}

void inferDropout(InferContext& ctx) {
  copyShapeFrom(ctx, 0, 0);
  if (ctx.outputCount() > 1 && ctx.hasOutput(1)) {
    // The mask is bool from opset 10, the input's type before.
    ir::DataType maskElem = ctx.opset() >= 10 ? ir::DataType::kBool : ctx.inputElem(0);
    ctx.setOutput(1, maskElem,
                  ctx.inputShape(0) ? std::optional(*ctx.inputShape(0)) : std::nullopt);
  }
}

}  // namespace passlab::analysis::infer
