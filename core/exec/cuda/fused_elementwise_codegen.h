// ai.passlab FusedElementwise on the GPU: the program of a node (the encoding
// of core/ir/passlab_ops.h, read as the CPU kernel reads it) turned into the
// CUDA C source of ONE kernel that NVRTC compiles at run time (nvrtc_program.h).
// Pure host code, no device needed: unit-tested in
// tests/core/exec/cuda/fused_elementwise_codegen_test.cpp.
//
// The generated kernel, for element type T (float, or the 16-bit patterns of
// float16 / bfloat16 as unsigned short) and a broadcast plan:
//
//   extern "C" __global__ void passlab_fused_<hash>(T* y, const T* x0, ...,
//                                                   PassLabShape s)
//
// a grid-stride loop over Y's s.n elements that reads every input once (x[i]
// when it has Y's shape, x[0] when it is a scalar, x[offset] through s.dims /
// s.strides otherwise), evaluates the instructions in float with the CPU
// kernel's formulas (passlab_fused_elementwise.cpp), and rounds once on store.
// PassLabShape is int64s only: n, then the collapsed dims (rank r), then r
// strides per strided input, which is what shapeArgument gives.
// The source depends on the program, the element type and the plan's
// signature (which input is read how, and the rank), not on the dims: one
// compiled kernel serves every shape with the same signature.
#pragma once

#include <cstdint>
#include <string>
#include <vector>

#include "core/exec/cuda/float_type.h"
#include "core/exec/tensor.h"
#include "core/ir/node.h"
#include "core/ir/passlab_ops.h"
#include "core/support/error.h"

namespace passlab::exec::cuda::fused {

struct EwOperand {
  enum Kind : uint8_t { kNone, kReg, kConst } kind = kNone;
  int reg = 0;         // kReg: inputs 0..n-1, instruction i writes n + i
  float value = 0.0f;  // kConst
};

struct EwStep {
  ir::passlab_ops::EwInstr op;
  EwOperand a, b, c;
  float p0 = 0.0f,
        p1 = 0.0f;  // parameters: LeakyRelu/Elu alpha, HardSigmoid alpha/beta, Clip min/max
};

struct EwProgram {
  size_t inputs = 0;
  std::vector<EwStep> steps;
};

// The node's program, checked as the CPU kernel checks it (the same messages).
Expected<EwProgram> parseEwProgram(const ir::Node& node);

// How the kernel reads one input.
enum class EwAccess : uint8_t {
  kSame,     // as many elements as Y (so Y's layout): x[i]
  kScalar,   // one element: x[0]
  kStrided,  // broadcast along some dims: x[offset(i)]
};

struct EwPlan {
  std::vector<EwAccess> access;  // per input
  int64_t numel = 0;             // Y's element count
  // Only when an input is strided: Y's dims collapsed (size-1 dims dropped,
  // neighbours merged where every strided input is contiguous across them),
  // and per strided input (in input order) its element strides along them.
  Dims dims;
  std::vector<std::vector<int64_t>> strides;
  // Y has under 2^31 elements: the strided offsets computed in 32 bits.
  bool index32 = true;

  // What the generated source depends on: "S.s.B/r2/i32" (Same, scalar,
  // Broadcast; rank; 32-bit offsets).
  std::string signature() const;
};

// The plan for inputs of dims `ins` broadcast to `out` (each must broadcast to it).
EwPlan planBroadcast(const Dims& out, const std::vector<const Dims*>& ins);

struct EwSource {
  std::string entry;  // "passlab_fused_<16 hex digits>", a hash of the code
  std::string code;   // CUDA C, no #include: compiles with NVRTC alone
};

// The kernel for `program` on `type` elements read as `plan` says (only the
// plan's signature matters). `vectorized` (taken only when no input is
// strided): each thread computes 4 consecutive elements from one 16-byte
// (float32) or 8-byte (16-bit types) load of every same-shape input and one
// store, then the last n % 4 one by one; Y and every same-shape input must
// then be aligned to 16 (8) bytes (vectorizable says so).
EwSource generateSource(const EwProgram& program, LaunchFloat type, const EwPlan& plan,
                        bool vectorized = false);

// Whether the vectorized kernel may run on these pointers (Y first, then the
// inputs, as the plan reads them): no strided input, and Y and every
// same-shape input aligned to 4 elements.
bool vectorizable(const EwPlan& plan, LaunchFloat type, const void* y,
                  const std::vector<const void*>& inputs);

// The kernel's last argument (PassLabShape) for `plan`: n, dims, strides.
std::vector<int64_t> shapeArgument(const EwPlan& plan);

// 64-bit FNV-1a, as 16 lowercase hex digits.
std::string hashHex(std::string_view data);

}  // namespace passlab::exec::cuda::fused
