#include "core/exec/cuda/fused_elementwise_codegen.h"

#include <bit>
#include <cmath>
#include <cstdio>
#include <functional>
#include <limits>

#include "core/exec/broadcast.h"
#include "core/exec/kernel.h"

namespace passlab::exec::cuda::fused {

namespace {

using Op = ir::passlab_ops::EwInstr;
using ir::passlab_ops::EwOperands;

// A float as a CUDA C literal that reads back as the same bits.
std::string floatLiteral(float v) {
  if (!std::isfinite(v)) {
    char buf[48];
    std::snprintf(buf, sizeof buf, "__uint_as_float(0x%08xu)", std::bit_cast<uint32_t>(v));
    return buf;
  }
  char buf[64];
  std::snprintf(buf, sizeof buf, "%af", static_cast<double>(v));
  return v < 0.0f || std::signbit(v) ? "(" + std::string(buf) + ")" : std::string(buf);
}

// The helpers every kernel may call: the CPU kernel's formulas
// (passlab_fused_elementwise.cpp), in float.
const char* kHelpers = R"(
__device__ __forceinline__ float pl_max(float u, float v) { return u != u ? u : (v != v ? v : (u < v ? v : u)); }
__device__ __forceinline__ float pl_min(float u, float v) { return u != u ? u : (v != v ? v : (v < u ? v : u)); }
__device__ __forceinline__ float pl_sqrt_pow(float u) { return isinf(u) ? fabsf(u) : sqrtf(u); }
__device__ __forceinline__ float pl_pow(float u, float v) {
  if (v == 2.0f) return u * u;
  if (v == 3.0f) return u * u * u;
  if (v == 1.0f) return u;
  if (v == 0.5f) return pl_sqrt_pow(u);
  return powf(u, v);
}
__device__ __forceinline__ float pl_sigmoid(float x) {
  return x >= 0.0f ? 1.0f / (1.0f + expf(-x)) : expf(x) / (1.0f + expf(x));
}
__device__ __forceinline__ float pl_softplus(float u) {
  return u > 0.0f ? u + log1pf(expf(-u)) : log1pf(expf(u));
}
__device__ __forceinline__ float pl_clamp01(float v) { return v < 0.0f ? 0.0f : (v > 1.0f ? 1.0f : v); }
__device__ __forceinline__ float pl_hardswish(float u) { return u * pl_clamp01(u / 6.0f + 0.5f); }
__device__ __forceinline__ float pl_gelu(float u) { return 0.5f * u * (1.0f + erff(u * 0.707106781186547524f)); }
__device__ __forceinline__ float pl_gelu_tanh(float u) {
  return 0.5f * u * (1.0f + tanhf(0.797884560802865355f * (u + 0.044715f * u * u * u)));
}
)";

// Loads and stores of each element type (16-bit types as their bit patterns:
// no cuda_fp16.h needed, so NVRTC compiles the source without include paths).
const char* typeCode(LaunchFloat t) {
  switch (t) {
    case LaunchFloat::kFloat16:
      return R"(// element type: float16
typedef unsigned short pl_t;
__device__ __forceinline__ float pl_ld(pl_t h) { float f; asm("cvt.f32.f16 %0, %1;" : "=f"(f) : "h"(h)); return f; }
__device__ __forceinline__ pl_t pl_st(float f) { pl_t h; asm("cvt.rn.f16.f32 %0, %1;" : "=h"(h) : "f"(f)); return h; }
)";
    case LaunchFloat::kBFloat16:
      return R"(// element type: bfloat16
typedef unsigned short pl_t;
__device__ __forceinline__ float pl_ld(pl_t h) { return __uint_as_float(((unsigned int)h) << 16); }
__device__ __forceinline__ pl_t pl_st(float f) {
  unsigned int u = __float_as_uint(f);
  if ((u & 0x7fffffffu) > 0x7f800000u) return (pl_t)((u >> 16) | 0x0040u);  // NaN stays NaN
  u += 0x7fffu + ((u >> 16) & 1u);  // round to nearest even
  return (pl_t)(u >> 16);
}
)";
    case LaunchFloat::kFloat32:
      break;
  }
  return R"(// element type: float32
typedef float pl_t;
__device__ __forceinline__ float pl_ld(pl_t v) { return v; }
__device__ __forceinline__ pl_t pl_st(float v) { return v; }
)";
}

std::string reg(int r) {
  return "v" + std::to_string(r);
}

std::string operand(const EwOperand& o) {
  return o.kind == EwOperand::kConst ? floatLiteral(o.value) : reg(o.reg);
}

// The expression of one instruction.
std::string expression(const EwStep& s) {
  const std::string a = operand(s.a);
  const std::string b = s.b.kind == EwOperand::kNone ? std::string() : operand(s.b);
  const std::string p0 = floatLiteral(s.p0), p1 = floatLiteral(s.p1);
  switch (s.op) {
    case Op::kAdd:
      return a + " + " + b;
    case Op::kSub:
      return a + " - " + b;
    case Op::kMul:
      return a + " * " + b;
    case Op::kDiv:
      return a + " / " + b;
    case Op::kPow:
      // The constant exponents the CPU computes without powf, the same way.
      if (s.b.kind == EwOperand::kConst) {
        if (s.b.value == 2.0f) return a + " * " + a;
        if (s.b.value == 3.0f) return a + " * " + a + " * " + a;
        if (s.b.value == 1.0f) return a;
        if (s.b.value == 0.5f) return "pl_sqrt_pow(" + a + ")";
        return "powf(" + a + ", " + b + ")";
      }
      return "pl_pow(" + a + ", " + b + ")";
    case Op::kMax:
      return "pl_max(" + a + ", " + b + ")";
    case Op::kMin:
      return "pl_min(" + a + ", " + b + ")";
    case Op::kPRelu:
      return a + " < 0.0f ? " + b + " * " + a + " : " + a;
    case Op::kIdentity:
      return a;
    case Op::kNeg:
      return "-" + a;
    case Op::kAbs:
      return "fabsf(" + a + ")";
    case Op::kRelu:
      return a + " < 0.0f ? 0.0f : " + a;  // std::max(u, 0.0f): NaN stays NaN
    case Op::kSigmoid:
      return "pl_sigmoid(" + a + ")";
    case Op::kTanh:
      return "tanhf(" + a + ")";
    case Op::kExp:
      return "expf(" + a + ")";
    case Op::kLog:
      return "logf(" + a + ")";
    case Op::kSqrt:
      return "sqrtf(" + a + ")";
    case Op::kReciprocal:
      return "1.0f / " + a;
    case Op::kErf:
      return "erff(" + a + ")";
    case Op::kFloor:
      return "floorf(" + a + ")";
    case Op::kCeil:
      return "ceilf(" + a + ")";
    case Op::kSin:
      return "sinf(" + a + ")";
    case Op::kCos:
      return "cosf(" + a + ")";
    case Op::kSoftplus:
      return "pl_softplus(" + a + ")";
    case Op::kSoftsign:
      return a + " / (1.0f + fabsf(" + a + "))";
    case Op::kHardSwish:
      return "pl_hardswish(" + a + ")";
    case Op::kGelu:
      return "pl_gelu(" + a + ")";
    case Op::kGeluTanh:
      return "pl_gelu_tanh(" + a + ")";
    case Op::kLeakyRelu:
      return a + " < 0.0f ? " + p0 + " * " + a + " : " + a;
    case Op::kElu:
      return a + " < 0.0f ? " + p0 + " * expm1f(" + a + ") : " + a;
    case Op::kHardSigmoid:
      return "pl_clamp01(" + p0 + " * " + a + " + " + p1 + ")";
    case Op::kClip:
      return a + " < " + p0 + " ? " + p0 + " : (" + a + " > " + p1 + " ? " + p1 + " : " + a + ")";
    case Op::kCount:
      break;
  }
  return "0.0f";  // not an instruction (parseEwProgram accepts none)
}

}  // namespace

Expected<EwProgram> parseEwProgram(const ir::Node& node) {
  EwProgram p;
  p.inputs = node.inputCount();
  const ir::Attribute* opsAttr = node.attr(ir::passlab_ops::kOps);
  if (!opsAttr || opsAttr->strings.empty())
    return invalidArgument("FusedElementwise needs a non-empty 'ops' attribute");
  const std::vector<std::string>& ops = opsAttr->strings;
  const std::vector<int64_t> operands = node.attrInts(ir::passlab_ops::kOperands);
  const std::vector<float> consts = node.attrFloats(ir::passlab_ops::kConstants);
  if (operands.size() != 3 * ops.size())
    return invalidArgument("FusedElementwise has " + std::to_string(ops.size()) + " ops and " +
                           std::to_string(operands.size()) + " operands (3 per op expected)");
  auto operand = [&](size_t i, int64_t code) -> Expected<EwOperand> {
    EwOperand o;
    if (code == -1) return o;
    if (code >= 0) {
      if (code >= static_cast<int64_t>(p.inputs + i))
        return invalidArgument("instruction " + std::to_string(i) + " reads register " +
                               std::to_string(code) + ", not yet defined");
      o.kind = EwOperand::kReg;
      o.reg = static_cast<int>(code);
      return o;
    }
    const size_t k = static_cast<size_t>(-2 - code);
    if (k >= consts.size())
      return invalidArgument("instruction " + std::to_string(i) + " reads constant " +
                             std::to_string(k) + " of " + std::to_string(consts.size()));
    o.kind = EwOperand::kConst;
    o.value = consts[k];
    return o;
  };
  for (size_t i = 0; i < ops.size(); ++i) {
    const ir::passlab_ops::ElementwiseOp* info = ir::passlab_ops::findInstruction(ops[i]);
    if (!info) return invalidArgument("FusedElementwise does not know op '" + ops[i] + "'");
    EwStep s{info->code, {}, {}, {}};
    PASSLAB_ASSIGN_OR_RETURN(s.a, operand(i, operands[3 * i]));
    PASSLAB_ASSIGN_OR_RETURN(s.b, operand(i, operands[3 * i + 1]));
    PASSLAB_ASSIGN_OR_RETURN(s.c, operand(i, operands[3 * i + 2]));
    const std::string at = ops[i] + " (instruction " + std::to_string(i) + ")";
    if (s.a.kind == EwOperand::kNone) return invalidArgument(at + " has no first operand");
    if (info->operands == EwOperands::kTwo &&
        (s.b.kind == EwOperand::kNone || s.c.kind != EwOperand::kNone))
      return invalidArgument(at + " takes two operands");
    if (info->operands == EwOperands::kOne &&
        (s.b.kind != EwOperand::kNone || s.c.kind != EwOperand::kNone))
      return invalidArgument(at + " takes one operand");
    if (info->operands == EwOperands::kParams) {
      if (s.b.kind == EwOperand::kReg || s.c.kind == EwOperand::kReg)
        return invalidArgument(at + ": its parameters must be constants");
      const float inf = std::numeric_limits<float>::infinity();
      switch (s.op) {
        case Op::kLeakyRelu:
        case Op::kElu:
          if (s.c.kind != EwOperand::kNone) return invalidArgument(at + " takes one parameter");
          s.p0 = s.b.kind == EwOperand::kConst ? s.b.value : (s.op == Op::kElu ? 1.0f : 0.01f);
          break;
        case Op::kHardSigmoid:
          s.p0 = s.b.kind == EwOperand::kConst ? s.b.value : 0.2f;
          s.p1 = s.c.kind == EwOperand::kConst ? s.c.value : 0.5f;
          break;
        default:  // Clip
          s.p0 = s.b.kind == EwOperand::kConst ? s.b.value : -inf;
          s.p1 = s.c.kind == EwOperand::kConst ? s.c.value : inf;
          break;
      }
    }
    p.steps.push_back(s);
  }
  return p;
}

std::string EwPlan::signature() const {
  std::string s;
  for (size_t i = 0; i < access.size(); ++i) {
    if (i) s += '.';
    s += access[i] == EwAccess::kSame ? 'S' : (access[i] == EwAccess::kScalar ? 's' : 'B');
  }
  return s + "/r" + std::to_string(dims.size()) + (index32 ? "/i32" : "");
}

EwPlan planBroadcast(const Dims& out, const std::vector<const Dims*>& ins) {
  EwPlan plan;
  plan.numel = 1;
  for (int64_t d : out) plan.numel *= d;
  plan.index32 = plan.numel <= int64_t{0x7fffffff};
  std::vector<std::vector<int64_t>> full;  // strides of the strided inputs along `out`
  for (const Dims* in : ins) {
    int64_t n = 1;
    for (int64_t d : *in) n *= d;
    if (n == 1) {
      plan.access.push_back(EwAccess::kScalar);
    } else if (n == plan.numel) {
      // It broadcasts to `out` with as many elements: the same layout.
      plan.access.push_back(EwAccess::kSame);
    } else {
      plan.access.push_back(EwAccess::kStrided);
      full.push_back(broadcastStrides(*in, out));
    }
  }
  if (full.empty()) return plan;
  const size_t k = full.size();
  plan.strides.resize(k);
  for (size_t i = 0; i < out.size(); ++i) {
    if (out[i] == 1) continue;
    bool merge = !plan.dims.empty();
    for (size_t j = 0; j < k && merge; ++j) merge = plan.strides[j].back() == full[j][i] * out[i];
    if (merge) {
      plan.dims.back() *= out[i];
      for (size_t j = 0; j < k; ++j) plan.strides[j].back() = full[j][i];
    } else {
      plan.dims.push_back(out[i]);
      for (size_t j = 0; j < k; ++j) plan.strides[j].push_back(full[j][i]);
    }
  }
  if (plan.dims.empty()) {  // (not reached: a strided input has Y's dims != 1)
    plan.dims.push_back(1);
    for (size_t j = 0; j < k; ++j) plan.strides[j].push_back(0);
  }
  return plan;
}

std::vector<int64_t> shapeArgument(const EwPlan& plan) {
  std::vector<int64_t> a;
  a.push_back(plan.numel);
  a.insert(a.end(), plan.dims.begin(), plan.dims.end());
  for (const std::vector<int64_t>& s : plan.strides) a.insert(a.end(), s.begin(), s.end());
  return a;
}

std::string hashHex(std::string_view data) {
  uint64_t h = 14695981039346656037ull;
  for (char c : data) {
    h ^= static_cast<unsigned char>(c);
    h *= 1099511628211ull;
  }
  char buf[17];
  std::snprintf(buf, sizeof buf, "%016llx", static_cast<unsigned long long>(h));
  return buf;
}

EwSource generateSource(const EwProgram& program, LaunchFloat type, const EwPlan& plan,
                        bool vectorized) {
  static constexpr std::string_view kPlaceholder = "PASSLAB_ENTRY";
  const size_t nin = program.inputs;
  const size_t rank = plan.dims.size();
  size_t strided = 0;
  for (EwAccess a : plan.access) strided += a == EwAccess::kStrided ? 1 : 0;
  vectorized = vectorized && strided == 0;
  const bool wide = type == LaunchFloat::kFloat32;  // float4 loads; 16-bit types: uint2

  std::string c =
      "// ai.passlab FusedElementwise (generated by PassLab: fused_elementwise_codegen.cpp)\n";
  c += "// plan " + plan.signature() + (vectorized ? ", 4 elements a thread" : "") + "\n";
  c += typeCode(type);
  c += kHelpers;
  c += "struct PassLabShape {\n  long long n;\n";
  if (rank > 0) c += "  long long dims[" + std::to_string(rank) + "];\n";
  if (rank > 0 && strided > 0)
    c += "  long long strides[" + std::to_string(strided) + "][" + std::to_string(rank) + "];\n";
  c += "};\n";
  c += "extern \"C\" __global__ void __launch_bounds__(256) " + std::string(kPlaceholder) +
       "(pl_t* __restrict__ y";
  for (size_t i = 0; i < nin; ++i) c += ", const pl_t* __restrict__ x" + std::to_string(i);
  c += ", const PassLabShape s) {\n";
  c += "  const long long step = (long long)blockDim.x * gridDim.x;\n";
  c += "  const long long first = (long long)blockIdx.x * blockDim.x + threadIdx.x;\n";

  // Which inputs the program reads (the others are not loaded).
  std::vector<bool> used(nin, false);
  for (const EwStep& st : program.steps)
    for (const EwOperand* o : {&st.a, &st.b, &st.c})
      if (o->kind == EwOperand::kReg && static_cast<size_t>(o->reg) < nin)
        used[static_cast<size_t>(o->reg)] = true;
  auto access = [&](size_t i) { return i < plan.access.size() ? plan.access[i] : EwAccess::kSame; };
  const std::string result = program.steps.empty()
                                 ? std::string("0.0f")
                                 : reg(static_cast<int>(nin + program.steps.size() - 1));
  // The instructions on registers v0..v(n-1) loaded by `load(i)`; the result in vN.
  auto body = [&](const std::string& indent, const std::function<std::string(size_t)>& load) {
    std::string b;
    for (size_t i = 0; i < nin; ++i)
      if (used[i])
        b += indent + "const float " + reg(static_cast<int>(i)) + " = pl_ld(" + load(i) + ");\n";
    for (size_t j = 0; j < program.steps.size(); ++j)
      b += indent + "const float " + reg(static_cast<int>(nin + j)) + " = " +
           expression(program.steps[j]) + ";\n";
    return b;
  };
  // One element i (the whole loop, or the tail after the vectorized part).
  auto scalarLoop = [&](const std::string& from) {
    std::string l = "  for (long long i = " + from + "; i < s.n; i += step) {\n";
    // Offsets of the strided inputs: i's index along each collapsed dim.
    std::vector<size_t> slot(nin, 0);
    bool anyStridedUsed = false;
    for (size_t i = 0, k = 0; i < nin; ++i)
      if (access(i) == EwAccess::kStrided) {
        slot[i] = k++;
        anyStridedUsed = anyStridedUsed || used[i];
      }
    if (anyStridedUsed && rank > 0) {
      // 32-bit index arithmetic where Y (so every input) has under 2^31 elements.
      const std::string ix = plan.index32 ? "unsigned int" : "long long";
      l += "    " + ix + " r = (" + ix + ")i, q;\n";
      for (size_t i = 0; i < nin; ++i)
        if (used[i] && access(i) == EwAccess::kStrided)
          l += "    " + ix + " o" + std::to_string(i) + " = 0;\n";
      for (size_t d = rank; d-- > 0;) {
        const std::string dim = "(" + ix + ")s.dims[" + std::to_string(d) + "]";
        l += d > 0 ? "    q = r % " + dim + "; r /= " + dim + ";\n" : std::string("    q = r;\n");
        for (size_t i = 0; i < nin; ++i)
          if (used[i] && access(i) == EwAccess::kStrided)
            l += "    o" + std::to_string(i) + " += q * (" + ix + ")s.strides[" +
                 std::to_string(slot[i]) + "][" + std::to_string(d) + "];\n";
      }
    }
    l += body("    ", [&](size_t i) {
      const EwAccess a = access(i);
      const std::string at =
          a == EwAccess::kSame ? "i" : (a == EwAccess::kScalar ? "0" : "o" + std::to_string(i));
      return "x" + std::to_string(i) + "[" + at + "]";
    });
    l += "    y[i] = pl_st(" + result + ");\n  }\n";
    return l;
  };

  if (!vectorized) {
    c += scalarLoop("first");
  } else {
    // Four elements a thread: one 16-byte (float32) or 8-byte (16-bit) load
    // per whole input and one store (the launch checks the alignment), then
    // the rest one by one.
    const std::string vec = wide ? "float4" : "uint2";
    c += "  const long long n4 = s.n >> 2;\n";
    c += "  for (long long j = first; j < n4; j += step) {\n";
    for (size_t i = 0; i < nin; ++i)
      if (used[i] && access(i) == EwAccess::kSame)
        c += "    const " + vec + " w" + std::to_string(i) + " = ((const " + vec + "*)x" +
             std::to_string(i) + ")[j];\n";
    static const char* kFloatLane[] = {"x", "y", "z", "w"};
    static const char* kHalfLane[] = {"(pl_t)(W.x & 0xffffu)", "(pl_t)(W.x >> 16)",
                                      "(pl_t)(W.y & 0xffffu)", "(pl_t)(W.y >> 16)"};
    c += "    float o0, o1, o2, o3;\n";
    for (int lane = 0; lane < 4; ++lane) {
      c += "    {\n";
      c += body("      ", [&](size_t i) {
        const std::string x = "x" + std::to_string(i), w = "w" + std::to_string(i);
        if (access(i) == EwAccess::kScalar) return x + "[0]";
        if (wide) return w + "." + kFloatLane[lane];
        std::string e = kHalfLane[lane];
        e.replace(e.find('W'), 1, w);
        return e;
      });
      c += "      o" + std::to_string(lane) + " = " + result + ";\n    }\n";
    }
    if (wide) {
      c += "    float4 out;\n    out.x = o0; out.y = o1; out.z = o2; out.w = o3;\n";
      c += "    ((float4*)y)[j] = out;\n";
    } else {
      c += "    uint2 out;\n";
      c += "    out.x = (unsigned int)pl_st(o0) | ((unsigned int)pl_st(o1) << 16);\n";
      c += "    out.y = (unsigned int)pl_st(o2) | ((unsigned int)pl_st(o3) << 16);\n";
      c += "    ((uint2*)y)[j] = out;\n";
    }
    c += "  }\n";
    c += scalarLoop("(n4 << 2) + first");
  }
  c += "}\n";

  EwSource out;
  out.entry = "passlab_fused_" + hashHex(c);
  out.code = c.replace(c.find(kPlaceholder), kPlaceholder.size(), out.entry);
  return out;
}

bool vectorizable(const EwPlan& plan, LaunchFloat type, const void* y,
                  const std::vector<const void*>& inputs) {
  const uintptr_t align = type == LaunchFloat::kFloat32 ? 16 : 8;
  if (reinterpret_cast<uintptr_t>(y) % align != 0) return false;
  for (size_t i = 0; i < plan.access.size(); ++i) {
    if (plan.access[i] == EwAccess::kStrided) return false;
    if (plan.access[i] == EwAccess::kSame &&
        (i >= inputs.size() || reinterpret_cast<uintptr_t>(inputs[i]) % align != 0))
      return false;
  }
  return true;
}

}  // namespace passlab::exec::cuda::fused
