// ai.passlab FusedElementwise: a chain or tree of elementwise ops with
// numpy broadcasting, evaluated in one pass over the data, float32.
//
// The program (attributes; docs/fused-kernels.md has the full table):
//   ops       STRINGS  one op name per instruction ("Add", "Relu", "Clip", ...)
//   operands  INTS     three per instruction (a, b, c):
//                        r >= 0   register r: registers 0..n-1 are the node's n
//                                 inputs, instruction i writes register n + i
//                                 (so an operand names an input or an earlier result)
//                        -1       no operand
//                        r <= -2  constants[-2 - r]
//   constants FLOATS   scalar constants
// Y is the last instruction's register; its shape is the broadcast of the
// inputs' shapes. Binary ops take a and b; unary ops take a; LeakyRelu and Elu
// take alpha as b, HardSigmoid alpha and beta as b and c, Clip min and max as
// b and c (-1: unbounded); these parameters must be constants.
//
// Evaluation: the output's dims are collapsed with every input's strides (as
// BroadcastWalker does). When the collapsed inner dim is long (>= 256), each
// piece of a row (up to kTile elements) reads every input in place or as one
// value (an input either moves with Y along a row or is broadcast there), so
// nothing is copied. When the inner dim is short but each input is all of Y,
// one value, or one short row repeated along the dim above (a per-channel
// operand of a blocked [1, C/16, H, W, 16] tensor), the repeated row is laid
// out once into a tile buffer and reused while it stays the same (runPeriodic);
// the program x * a + c of such rows (a blocked BatchNormalization) runs in one
// pass reading a and c in place (runScaleShift).
// Otherwise Y is cut into tiles of kTile elements and an input of another
// shape is gathered into a tile buffer through its broadcast. Either way the instructions then run
// one after the other over the piece, each a tight loop over data that stays in L1: every input is
// read once and Y written once, instead of one full pass per op.
// Intermediate registers share buffers where their lifetimes do not overlap.
#include <algorithm>
#include <cmath>
#include <limits>
#include <memory>
#include <numbers>
#include <optional>
#include <unordered_map>

#include "core/exec/broadcast.h"
#include "core/exec/cpu/activation_rows.h"
#include "core/exec/cpu/erf_rows.h"
#include "core/exec/cpu/passlab_fused.h"
#include "core/exec/cpu/sigmoid_rows.h"
#include "core/exec/cpu/trig_rows.h"
#include "core/exec/kernel.h"
#include "core/exec/parallel.h"
#include "core/ir/passlab_ops.h"

namespace passlab::exec::cpu::fused {

namespace {

// Elements per piece: small enough that a piece of every stream an
// instruction touches (inputs, laid-out periodic rows, scratch, Y) stays in
// L1 (32 KiB). 2048 made a blocked BatchNormalization (x * a + c, per-channel
// a and c laid out) 0.57 ms instead of 0.42 on [1, 16, 56, 56, 16] (AMD EPYC,
// docs/exec-benchmark.md); a GELU chain on long rows is 8% faster too.
constexpr int64_t kTile = 512;
// Rows at least this long are read in place (runRows); shorter ones gathered.
constexpr int64_t kRowMin = 256;

// Y's dims with every input's element strides along them, size-1 dims
// dropped and neighbours merged where every input is contiguous across them
// (what BroadcastWalker does, for any number of inputs).
struct Collapsed {
  Dims dims;
  std::vector<std::vector<int64_t>> strides;  // [input][dim]
};

Collapsed collapse(const Dims& out, const std::vector<const Dims*>& ins) {
  Collapsed c;
  const size_t n = ins.size();
  std::vector<std::vector<int64_t>> full(n);
  for (size_t k = 0; k < n; ++k) full[k] = broadcastStrides(*ins[k], out);
  c.strides.resize(n);
  for (size_t i = 0; i < out.size(); ++i) {
    if (out[i] == 1) continue;
    bool merge = !c.dims.empty();
    for (size_t k = 0; k < n && merge; ++k) merge = c.strides[k].back() == full[k][i] * out[i];
    if (merge) {
      c.dims.back() *= out[i];
      for (size_t k = 0; k < n; ++k) c.strides[k].back() = full[k][i];
    } else {
      c.dims.push_back(out[i]);
      for (size_t k = 0; k < n; ++k) c.strides[k].push_back(full[k][i]);
    }
  }
  if (c.dims.empty()) {
    c.dims.push_back(1);
    for (size_t k = 0; k < n; ++k) c.strides[k].push_back(0);
  }
  return c;
}

// The instructions and their operands: the one table in core/ir/passlab_ops.h.
using Op = ir::passlab_ops::EwInstr;
using ir::passlab_ops::EwOperands;

// An operand resolved for one tile: a pointer to kTile values or one value.
struct Src {
  const float* p = nullptr;
  float s = 0.0f;
  bool scalar() const { return p == nullptr; }
};

struct Operand {
  enum Kind : uint8_t { kNone, kReg, kConst } kind = kNone;
  int reg = 0;
  float value = 0.0f;
};

struct Instr {
  Op op;
  Operand a, b, c;
  float p0 = 0.0f, p1 = 0.0f;  // constant parameters (LeakyRelu, Elu, HardSigmoid, Clip)
  int buffer = -1;             // where the result goes (-1: the output)
};

struct Program {
  size_t inputs = 0;
  std::vector<Instr> code;
  int buffers = 0;  // intermediate tile buffers
};

Expected<Program> parseProgram(const ir::Node& node) {
  Program p;
  p.inputs = node.inputCount();
  const ir::Attribute* opsAttr = node.attr("ops");
  if (!opsAttr || opsAttr->strings.empty())
    return invalidArgument("FusedElementwise needs a non-empty 'ops' attribute");
  const std::vector<std::string>& ops = opsAttr->strings;
  const std::vector<int64_t> operands = node.attrInts("operands");
  const std::vector<float> consts = node.attrFloats("constants");
  if (operands.size() != 3 * ops.size())
    return invalidArgument("FusedElementwise has " + std::to_string(ops.size()) + " ops and " +
                           std::to_string(operands.size()) + " operands (3 per op expected)");
  auto operand = [&](size_t i, int64_t code) -> Expected<Operand> {
    Operand o;
    if (code == -1) return o;
    if (code >= 0) {
      if (code >= static_cast<int64_t>(p.inputs + i))
        return invalidArgument("instruction " + std::to_string(i) + " reads register " +
                               std::to_string(code) + ", not yet defined");
      o.kind = Operand::kReg;
      o.reg = static_cast<int>(code);
      return o;
    }
    size_t k = static_cast<size_t>(-2 - code);
    if (k >= consts.size())
      return invalidArgument("instruction " + std::to_string(i) + " reads constant " +
                             std::to_string(k) + " of " + std::to_string(consts.size()));
    o.kind = Operand::kConst;
    o.value = consts[k];
    return o;
  };
  for (size_t i = 0; i < ops.size(); ++i) {
    const ir::passlab_ops::ElementwiseOp* info = ir::passlab_ops::findInstruction(ops[i]);
    if (!info) return invalidArgument("FusedElementwise does not know op '" + ops[i] + "'");
    Instr in{info->code, {}, {}, {}};
    PASSLAB_ASSIGN_OR_RETURN(in.a, operand(i, operands[3 * i]));
    PASSLAB_ASSIGN_OR_RETURN(in.b, operand(i, operands[3 * i + 1]));
    PASSLAB_ASSIGN_OR_RETURN(in.c, operand(i, operands[3 * i + 2]));
    const std::string at = ops[i] + " (instruction " + std::to_string(i) + ")";
    if (in.a.kind == Operand::kNone) return invalidArgument(at + " has no first operand");
    if (info->operands == EwOperands::kTwo &&
        (in.b.kind == Operand::kNone || in.c.kind != Operand::kNone))
      return invalidArgument(at + " takes two operands");
    if (info->operands == EwOperands::kOne &&
        (in.b.kind != Operand::kNone || in.c.kind != Operand::kNone))
      return invalidArgument(at + " takes one operand");
    if (info->operands == EwOperands::kParams) {
      if (in.b.kind == Operand::kReg || in.c.kind == Operand::kReg)
        return invalidArgument(at + ": its parameters must be constants");
      const float inf = std::numeric_limits<float>::infinity();
      switch (in.op) {
        case Op::kLeakyRelu:
        case Op::kElu:
          if (in.c.kind != Operand::kNone) return invalidArgument(at + " takes one parameter");
          in.p0 = in.b.kind == Operand::kConst ? in.b.value : (in.op == Op::kElu ? 1.0f : 0.01f);
          break;
        case Op::kHardSigmoid:
          in.p0 = in.b.kind == Operand::kConst ? in.b.value : 0.2f;
          in.p1 = in.c.kind == Operand::kConst ? in.c.value : 0.5f;
          break;
        default:  // Clip
          in.p0 = in.b.kind == Operand::kConst ? in.b.value : -inf;
          in.p1 = in.c.kind == Operand::kConst ? in.c.value : inf;
          break;
      }
    }
    p.code.push_back(in);
  }
  // Buffers: a result lives from its instruction to its last reader.
  const size_t n = p.code.size();
  std::vector<size_t> lastUse(p.inputs + n, 0);
  for (size_t i = 0; i < n; ++i)
    for (const Operand* o : {&p.code[i].a, &p.code[i].b, &p.code[i].c})
      if (o->kind == Operand::kReg) lastUse[static_cast<size_t>(o->reg)] = i;
  std::vector<int> freeList;
  std::vector<int> bufferOf(p.inputs + n, -1);
  for (size_t i = 0; i < n; ++i) {
    // Operands whose last reader is this instruction free their buffers first:
    // an elementwise loop may write where it reads.
    for (const Operand* o : {&p.code[i].a, &p.code[i].b, &p.code[i].c})
      if (o->kind == Operand::kReg && lastUse[static_cast<size_t>(o->reg)] == i) {
        int b = bufferOf[static_cast<size_t>(o->reg)];
        if (b >= 0 && std::find(freeList.begin(), freeList.end(), b) == freeList.end())
          freeList.push_back(b);
      }
    if (i + 1 == n) break;  // the last one writes the output
    int b;
    if (!freeList.empty()) {
      b = freeList.back();
      freeList.pop_back();
    } else {
      b = p.buffers++;
    }
    p.code[i].buffer = b;
    bufferOf[p.inputs + i] = b;
  }
  return p;
}

// ---- the loops ----

template <class F>
void unary(float* y, Src a, int64_t n, F f) {
  if (a.scalar()) {
    const float v = f(a.s);
    for (int64_t i = 0; i < n; ++i) y[i] = v;
    return;
  }
  const float* x = a.p;
  for (int64_t i = 0; i < n; ++i) y[i] = f(x[i]);
}

template <class F>
void binary(float* y, Src a, Src b, int64_t n, F f) {
  if (!a.scalar() && !b.scalar()) {
    const float* x = a.p;
    const float* z = b.p;
    for (int64_t i = 0; i < n; ++i) y[i] = f(x[i], z[i]);
  } else if (!a.scalar()) {
    const float* x = a.p;
    const float s = b.s;
    for (int64_t i = 0; i < n; ++i) y[i] = f(x[i], s);
  } else if (!b.scalar()) {
    const float s = a.s;
    const float* z = b.p;
    for (int64_t i = 0; i < n; ++i) y[i] = f(s, z[i]);
  } else {
    const float v = f(a.s, b.s);
    for (int64_t i = 0; i < n; ++i) y[i] = v;
  }
}

float sigmoid(float x) {
  return x >= 0.0f ? 1.0f / (1.0f + std::exp(-x)) : std::exp(x) / (1.0f + std::exp(x));
}

// One instruction over n elements. The formulas are those of the ONNX kernels.
void execute(const Instr& in, float* y, Src a, Src b, int64_t n) {
  const float p0 = in.p0, p1 = in.p1;
  switch (in.op) {
    case Op::kAdd:
      return binary(y, a, b, n, [](float u, float v) { return u + v; });
    case Op::kSub:
      return binary(y, a, b, n, [](float u, float v) { return u - v; });
    case Op::kMul:
      return binary(y, a, b, n, [](float u, float v) { return u * v; });
    case Op::kDiv:
      return binary(y, a, b, n, [](float u, float v) { return u / v; });
    case Op::kPow:
      // The constant exponents Pow's kernel (pow_mod.cpp) computes without powf, the same way.
      if (b.scalar() && b.s == 2.0f) return unary(y, a, n, [](float u) { return u * u; });
      if (b.scalar() && b.s == 3.0f) return unary(y, a, n, [](float u) { return u * u * u; });
      if (b.scalar() && b.s == 1.0f) return unary(y, a, n, [](float u) { return u; });
      if (b.scalar() && b.s == 0.5f)
        return unary(y, a, n, [](float u) { return std::isinf(u) ? std::fabs(u) : std::sqrt(u); });
      return binary(y, a, b, n, [](float u, float v) { return std::pow(u, v); });
    case Op::kMax:
      return binary(y, a, b, n,
                    [](float u, float v) { return u != u ? u : (v != v ? v : (u < v ? v : u)); });
    case Op::kMin:
      return binary(y, a, b, n,
                    [](float u, float v) { return u != u ? u : (v != v ? v : (v < u ? v : u)); });
    case Op::kPRelu:
      return binary(y, a, b, n, [](float u, float s) { return u < 0.0f ? s * u : u; });
    case Op::kIdentity:
      return unary(y, a, n, [](float u) { return u; });
    case Op::kNeg:
      return unary(y, a, n, [](float u) { return -u; });
    case Op::kAbs:
      return unary(y, a, n, [](float u) { return std::fabs(u); });
    case Op::kRelu:
      return unary(y, a, n, [](float u) { return std::max(u, 0.0f); });
    case Op::kSigmoid:
      // cpu.Sigmoid's and cpu.Tanh's rows (sigmoid_rows.h): the ops' results.
      if (!a.scalar()) return sigmoidRow(a.p, y, n);
      return unary(y, a, n, sigmoid);
    case Op::kTanh:
      if (!a.scalar()) return tanhRow(a.p, y, n);
      return unary(y, a, n, [](float u) { return std::tanh(u); });
    case Op::kExp:  // Exp's, Log's, Erf's, Softplus's, Gelu's, Elu's rows: the ops' results
      if (!a.scalar()) return expRow(a.p, y, n);
      return unary(y, a, n, [](float u) { return std::exp(u); });
    case Op::kLog:
      if (!a.scalar()) return logRow(a.p, y, n);
      return unary(y, a, n, [](float u) { return std::log(u); });
    case Op::kSqrt:
      return unary(y, a, n, [](float u) { return std::sqrt(u); });
    case Op::kReciprocal:
      return unary(y, a, n, [](float u) { return 1.0f / u; });
    case Op::kErf:
      if (!a.scalar()) return erfRow(a.p, y, n);
      return unary(y, a, n, [](float u) { return std::erf(u); });
    case Op::kFloor:
      return unary(y, a, n, [](float u) { return std::floor(u); });
    case Op::kCeil:
      return unary(y, a, n, [](float u) { return std::ceil(u); });
    case Op::kSin:  // Sin's and Cos's rows (trig_rows.h): the ops' results
      if (!a.scalar()) return sinRow(a.p, y, n);
      return unary(y, a, n, [](float u) { return std::sin(u); });
    case Op::kCos:
      if (!a.scalar()) return cosRow(a.p, y, n);
      return unary(y, a, n, [](float u) { return std::cos(u); });
    case Op::kSoftplus:
      if (!a.scalar()) return softplusRow(a.p, y, n);
      return unary(y, a, n, [](float u) {
        return u > 0.0f ? u + std::log1p(std::exp(-u)) : std::log1p(std::exp(u));
      });
    case Op::kSoftsign:
      return unary(y, a, n, [](float u) { return u / (1.0f + std::fabs(u)); });
    case Op::kHardSwish:
      return unary(y, a, n, [](float u) {
        float v = u / 6.0f + 0.5f;
        v = v < 0.0f ? 0.0f : (v > 1.0f ? 1.0f : v);
        return u * v;
      });
    case Op::kGelu:
      if (!a.scalar()) return geluErfRow(a.p, nullptr, 1, 0, y, n);
      return unary(y, a, n, [](float u) {
        return 0.5f * u * (1.0f + std::erf(u * static_cast<float>(std::numbers::sqrt2 / 2)));
      });
    case Op::kGeluTanh:
      if (!a.scalar()) return geluTanhRow(a.p, y, n);
      return unary(y, a, n, [](float u) {
        const float k = static_cast<float>(std::numbers::sqrt2 / std::sqrt(std::numbers::pi));
        return 0.5f * u * (1.0f + std::tanh(k * (u + 0.044715f * u * u * u)));
      });
    case Op::kLeakyRelu:
      return unary(y, a, n, [p0](float u) { return u < 0.0f ? p0 * u : u; });
    case Op::kElu:
      if (!a.scalar()) return eluRow(a.p, p0, y, n);
      return unary(y, a, n, [p0](float u) { return u < 0.0f ? p0 * std::expm1(u) : u; });
    case Op::kHardSigmoid:
      return unary(y, a, n, [p0, p1](float u) {
        float v = p0 * u + p1;
        return v < 0.0f ? 0.0f : (v > 1.0f ? 1.0f : v);
      });
    case Op::kClip:
      return unary(y, a, n, [p0, p1](float u) { return u < p0 ? p0 : (u > p1 ? p1 : u); });
    case Op::kCount:  // not an instruction (parseProgram accepts none)
      return;
  }
}

class FusedElementwise final : public Kernel {
 public:
  static Expected<std::unique_ptr<Kernel>> create(const KernelBuild& b) {
    PASSLAB_ASSIGN_OR_RETURN(Program p, parseProgram(b.node()));
    return std::unique_ptr<Kernel>(new FusedElementwise(std::move(p)));
  }

  Status run(KernelContext& ctx) override {
    const size_t nin = prog_.inputs;
    std::vector<const Tensor*> xs(nin, nullptr);
    std::vector<const Dims*> shapes;
    for (size_t i = 0; i < nin; ++i) {
      if (!ctx.has(i)) return invalidArgument("input " + std::to_string(i) + " is missing");
      xs[i] = &ctx.input(i);
      if (xs[i]->dtype() != ir::DataType::kFloat)
        return invalidArgument("FusedElementwise runs float32 only (input " + std::to_string(i) +
                               " is " + xs[i]->describe() + ")");
      shapes.push_back(&xs[i]->dims());
    }
    Dims out;
    if (!shapes.empty()) {
      PASSLAB_ASSIGN_OR_RETURN(out, broadcastShapes(shapes));
    }
    PASSLAB_ASSIGN_OR_RETURN(Tensor * y, ctx.allocate(0, ir::DataType::kFloat, out));
    const int64_t total = y->numel();
    if (total == 0) return Status::ok();

    float* Y = y->mutableData<float>();
    const Collapsed c = collapse(out, shapes);
    if (c.dims.back() >= kRowMin) return runRows(c, xs, Y, total, ctx.threads());
    if (periodic(c, xs, total)) {
      if (auto ss = scaleShiftOperands(xs, total))
        return runScaleShift(c, xs, *ss, Y, total, ctx.threads());
      return runPeriodic(c, xs, Y, total, ctx.threads());
    }
    return runGathered(out, shapes, xs, Y, total, ctx.threads());
  }

 private:
  // Runs the program over [begin, begin + n) of Y with the inputs in `reg`.
  void runTile(std::vector<Src>& reg, float* scratch, float* Y, int64_t begin, int64_t n) const {
    const size_t nin = prog_.inputs;
    for (size_t j = 0; j < prog_.code.size(); ++j) {
      const Instr& in = prog_.code[j];
      auto src = [&](const Operand& o) {
        return o.kind == Operand::kConst ? Src{nullptr, o.value} : reg[static_cast<size_t>(o.reg)];
      };
      float* dst = in.buffer < 0 ? Y + begin : scratch + static_cast<size_t>(in.buffer) * kTile;
      execute(in, dst, src(in.a), in.b.kind == Operand::kNone ? Src{} : src(in.b), n);
      reg[nin + j] = Src{dst, 0.0f};
    }
  }

  // Long rows (the collapsed inner dim has >= kRowMin elements): along a row
  // every input either moves with Y or stays on one element, so a piece of a
  // row reads each input in place or as a scalar, with nothing gathered.
  Status runRows(const Collapsed& c, const std::vector<const Tensor*>& xs, float* Y, int64_t total,
                 int threads) const {
    const size_t nin = prog_.inputs;
    const size_t rank = c.dims.size();
    const int64_t inner = c.dims.back();
    parallelFor(total, threads, kElementwiseGrain, [&](int64_t b, int64_t e) {
      std::vector<float> scratch(static_cast<size_t>(std::max(prog_.buffers, 1)) * kTile);
      std::vector<Src> reg(nin + prog_.code.size());
      for (int64_t p = b; p < e;) {
        const int64_t row = p / inner, col = p % inner;
        const int64_t n = std::min({inner - col, e - p, kTile});
        for (size_t i = 0; i < nin; ++i) {
          const std::vector<int64_t>& st = c.strides[i];
          int64_t off = col * st[rank - 1];
          for (int64_t r = row, d = static_cast<int64_t>(rank) - 2; d >= 0; --d) {
            off += (r % c.dims[static_cast<size_t>(d)]) * st[static_cast<size_t>(d)];
            r /= c.dims[static_cast<size_t>(d)];
          }
          const float* data = xs[i]->data<float>() + off;
          reg[i] = st[rank - 1] == 1 ? Src{data, 0.0f} : Src{nullptr, data[0]};
        }
        runTile(reg, scratch.data(), Y, p, n);
        p += n;
      }
    });
    return Status::ok();
  }

  // Whether runPeriodic applies: short rows (the collapsed inner dim P <
  // kRowMin) under a broadcast dim, with every input either all of Y, one
  // value, or a row of P values repeated along the dim above (strides 0, 1 on
  // the last two collapsed dims): a per-channel operand of a blocked tensor,
  // [1, C/16, 1, 1, 16] against [1, C/16, H, W, 16], collapsed to [C/16, H*W, 16].
  static bool periodic(const Collapsed& c, const std::vector<const Tensor*>& xs, int64_t total) {
    const size_t rank = c.dims.size();
    if (rank < 2) return false;
    bool any = false;
    for (size_t i = 0; i < xs.size(); ++i) {
      if (xs[i]->numel() == 1 || xs[i]->numel() == total) continue;
      if (c.strides[i][rank - 1] != 1 || c.strides[i][rank - 2] != 0) return false;
      any = true;
    }
    return any;
  }

  // The inputs of x * a + c (Mul then Add, operands in either order) with x
  // all of Y and a, c periodic rows, optionally then Relu of the sum: a
  // BatchNormalization of a blocked tensor and the Relu after it
  // (convert_to_blocked_layout).
  struct ScaleShift {
    size_t x, a, c;
    bool relu = false;
  };
  std::optional<ScaleShift> scaleShiftOperands(const std::vector<const Tensor*>& xs,
                                               int64_t total) const {
    const size_t nin = prog_.inputs;
    auto reg = [](const Operand& o) { return o.kind == Operand::kReg ? o.reg : -1; };
    const size_t n = prog_.code.size();
    const bool relu = n == 3 && prog_.code[2].op == Op::kRelu &&
                      reg(prog_.code[2].a) == static_cast<int>(nin) + 1;
    if ((n != 2 && !relu) || prog_.code[0].op != Op::kMul || prog_.code[1].op != Op::kAdd)
      return std::nullopt;
    auto periodicInput = [&](int r) {
      return r >= 0 && static_cast<size_t>(r) < nin && xs[r]->numel() != 1 &&
             xs[r]->numel() != total;
    };
    auto fullInput = [&](int r) {
      return r >= 0 && static_cast<size_t>(r) < nin && xs[r]->numel() == total;
    };
    const Instr& mul = prog_.code[0];
    const Instr& add = prog_.code[1];
    int x = reg(mul.a), a = reg(mul.b);
    if (!fullInput(x)) std::swap(x, a);
    int prod = reg(add.a), c = reg(add.b);
    if (prod != static_cast<int>(nin)) std::swap(prod, c);
    if (!fullInput(x) || !periodicInput(a) || prod != static_cast<int>(nin) || !periodicInput(c))
      return std::nullopt;
    return ScaleShift{static_cast<size_t>(x), static_cast<size_t>(a), static_cast<size_t>(c), relu};
  }

  // y = x * a + c in one pass, a super-row (the last two collapsed dims) at a
  // time with a and c read in place at their row: the same two roundings as
  // the Mul and Add loops, without laying the rows out (densenet121's 62
  // blocked BatchNormalizations: 3.8-5.8 -> 2.1-2.5 ms per run, AMD EPYC),
  // and the Relu's max(y, 0) in the same pass when the program ends with it.
  // The threads split super-rows.
  Status runScaleShift(const Collapsed& c, const std::vector<const Tensor*>& xs,
                       const ScaleShift& ss, float* Y, int64_t total, int threads) const {
    if (ss.relu) return runScaleShiftAs<true>(c, xs, ss, Y, total, threads);
    return runScaleShiftAs<false>(c, xs, ss, Y, total, threads);
  }

  template <bool kRelu>
  Status runScaleShiftAs(const Collapsed& c, const std::vector<const Tensor*>& xs,
                         const ScaleShift& ss, float* Y, int64_t total, int threads) const {
    const size_t rank = c.dims.size();
    const int64_t period = c.dims[rank - 1], rowsPerOuter = c.dims[rank - 2];
    const float* X = xs[ss.x]->data<float>();
    const float* A = xs[ss.a]->data<float>();
    const float* C = xs[ss.c]->data<float>();
    auto rowOffset = [&](size_t input, int64_t outer) {
      int64_t off = 0;
      for (int64_t r = outer, k = static_cast<int64_t>(rank) - 3; k >= 0; --k) {
        off += (r % c.dims[static_cast<size_t>(k)]) * c.strides[input][static_cast<size_t>(k)];
        r /= c.dims[static_cast<size_t>(k)];
      }
      return off;
    };
    const int64_t super = rowsPerOuter * period;
    parallelFor(total / super, threads, std::max<int64_t>(1, kElementwiseGrain / super),
                [&](int64_t o0, int64_t o1) {
                  for (int64_t outer = o0; outer < o1; ++outer) {
                    const float* a = A + rowOffset(ss.a, outer);
                    const float* cc = C + rowOffset(ss.c, outer);
                    const float* x = X + outer * super;
                    float* y = Y + outer * super;
                    for (int64_t r = 0; r < rowsPerOuter; ++r, x += period, y += period)
                      for (int64_t j = 0; j < period; ++j) {
                        const float m = x[j] * a[j];
                        const float sum = m + cc[j];
                        y[j] = kRelu ? std::max(sum, 0.0f) : sum;
                      }
                  }
                });
    return Status::ok();
  }

  // Rows of P values repeated along a broadcast dim (see periodic): Y is cut
  // into pieces of whole super-rows' parts (the last two collapsed dims, up to
  // about kTile elements); a periodic input is laid out once into a tile
  // buffer (its row repeated) and read from there until its row or phase
  // changes, which happens once per super-row, not once per P elements as
  // gathering through the broadcast would.
  Status runPeriodic(const Collapsed& c, const std::vector<const Tensor*>& xs, float* Y,
                     int64_t total, int threads) const {
    const size_t nin = prog_.inputs;
    const size_t rank = c.dims.size();
    const int64_t period = c.dims[rank - 1];
    const int64_t super = c.dims[rank - 2] * period;
    const int64_t piece = std::max<int64_t>(period, (kTile / period) * period);
    std::vector<int> slot(nin, -1);
    int periodic = 0;
    for (size_t i = 0; i < nin; ++i)
      if (xs[i]->numel() != 1 && xs[i]->numel() != total) slot[i] = periodic++;
    parallelFor(total, threads, kElementwiseGrain, [&](int64_t b, int64_t e) {
      const size_t slots = static_cast<size_t>(prog_.buffers + periodic);
      std::vector<float> scratch(std::max<size_t>(slots, 1) * kTile);
      std::vector<Src> reg(nin + prog_.code.size());
      // Per periodic input: the row and phase its buffer holds, and how many values.
      std::vector<const float*> heldRow(nin, nullptr);
      std::vector<int64_t> heldPhase(nin, -1), heldCount(nin, 0);
      for (int64_t p = b; p < e;) {
        const int64_t outer = p / super, col = p % super;
        const int64_t n = std::min({super - col, e - p, piece});
        for (size_t i = 0; i < nin; ++i) {
          const float* d = xs[i]->data<float>();
          if (xs[i]->numel() == 1) {
            reg[i] = Src{nullptr, d[0]};
            continue;
          }
          if (slot[i] < 0) {
            reg[i] = Src{d + p, 0.0f};
            continue;
          }
          const std::vector<int64_t>& st = c.strides[i];
          int64_t off = 0;
          for (int64_t r = outer, k = static_cast<int64_t>(rank) - 3; k >= 0; --k) {
            off += (r % c.dims[static_cast<size_t>(k)]) * st[static_cast<size_t>(k)];
            r /= c.dims[static_cast<size_t>(k)];
          }
          const float* row = d + off;
          const int64_t phase = col % period;
          float* buf = scratch.data() + static_cast<size_t>(prog_.buffers + slot[i]) * kTile;
          if (row != heldRow[i] || phase != heldPhase[i] || heldCount[i] < n) {
            for (int64_t k = 0, j = phase; k < n; ++k) {
              buf[k] = row[j];
              if (++j == period) j = 0;
            }
            heldRow[i] = row;
            heldPhase[i] = phase;
            heldCount[i] = n;
          }
          reg[i] = Src{buf, 0.0f};
        }
        runTile(reg, scratch.data(), Y, p, n);
        p += n;
      }
    });
    return Status::ok();
  }

  // Short rows: tiles of kTile elements of Y; an input of another shape is
  // gathered into a tile buffer through its broadcast.
  Status runGathered(const Dims& out, const std::vector<const Dims*>& shapes,
                     const std::vector<const Tensor*>& xs, float* Y, int64_t total,
                     int threads) const {
    const size_t nin = prog_.inputs;
    enum Mode : uint8_t { kDirect, kScalar, kGather };
    std::vector<Mode> mode(nin);
    std::vector<std::unique_ptr<BroadcastWalker<1>>> walkers(nin);
    int gathered = 0;
    std::vector<int> gatherSlot(nin, -1);
    for (size_t i = 0; i < nin; ++i) {
      if (xs[i]->numel() == 1) {
        mode[i] = kScalar;
      } else if (xs[i]->numel() == total) {
        mode[i] = kDirect;  // it broadcasts to `out` with as many elements: the same layout
      } else {
        mode[i] = kGather;
        walkers[i] =
            std::make_unique<BroadcastWalker<1>>(out, std::array<const Dims*, 1>{shapes[i]});
        gatherSlot[i] = gathered++;
      }
    }
    const int64_t tiles = (total + kTile - 1) / kTile;
    const int slots = prog_.buffers + gathered;
    // Threads get whole tiles; small outputs stay on the calling thread.
    parallelFor(tiles, threads, std::max<int64_t>(1, kElementwiseGrain / kTile),
                [&](int64_t t0, int64_t t1) {
                  std::vector<float> scratch(static_cast<size_t>(std::max(slots, 1)) * kTile);
                  std::vector<Src> reg(nin + prog_.code.size());
                  for (int64_t t = t0; t < t1; ++t) {
                    const int64_t begin = t * kTile;
                    const int64_t n = std::min(kTile, total - begin);
                    for (size_t i = 0; i < nin; ++i) {
                      const float* d = xs[i]->data<float>();
                      if (mode[i] == kScalar) {
                        reg[i] = Src{nullptr, d[0]};
                      } else if (mode[i] == kDirect) {
                        reg[i] = Src{d + begin, 0.0f};
                      } else {
                        float* g = scratch.data() +
                                   static_cast<size_t>(prog_.buffers + gatherSlot[i]) * kTile;
                        walkers[i]->walk(begin, begin + n,
                                         [&](int64_t o, const std::array<int64_t, 1>& off,
                                             int64_t cnt, const std::array<int64_t, 1>& st) {
                                           float* dst = g + (o - begin);
                                           const float* src = d + off[0];
                                           if (st[0] == 1) {
                                             for (int64_t k = 0; k < cnt; ++k) dst[k] = src[k];
                                           } else {
                                             const float v = src[0];
                                             for (int64_t k = 0; k < cnt; ++k) dst[k] = v;
                                           }
                                         });
                        reg[i] = Src{g, 0.0f};
                      }
                    }
                    runTile(reg, scratch.data(), Y, begin, n);
                  }
                });
    return Status::ok();
  }

  explicit FusedElementwise(Program p) : prog_(std::move(p)) {}
  Program prog_;
};

}  // namespace

Expected<std::unique_ptr<Kernel>> makeFusedElementwise(const KernelBuild& b) {
  return FusedElementwise::create(b);
}

}  // namespace passlab::exec::cpu::fused
