// ai.passlab FusedElementwise on the GPU, what runs without one: the program
// parse (the CPU kernel's checks), broadcast plans, the generated source,
// NVRTC compiles of every instruction for every float type (NVRTC needs no
// device), the architecture choice and the PTX cache on disk (corrupt
// entries, concurrent writers). Then, only where a GPU is present, every
// instruction run on it against the CPU kernel (evaluateNode).
#include <cuda_runtime_api.h>
#include <gtest/gtest.h>

#include <algorithm>
#include <atomic>
#include <cmath>
#include <cstdlib>
#include <cstring>
#include <filesystem>
#include <fstream>
#include <functional>
#include <optional>
#include <random>
#include <thread>

#include "core/exec/broadcast.h"
#include "core/exec/cpu/half_convert.h"
#include "core/exec/cuda/fused_elementwise_codegen.h"
#include "core/exec/cuda/nvrtc_program.h"
#include "core/exec/cuda/ptx_cache.h"
#include "core/exec/evaluate.h"
#include "core/exec/executor.h"
#include "tests/support/cuda_test_context.h"
#include "tests/support/test_support.h"

namespace passlab::exec::cuda {
namespace {

namespace fs = std::filesystem;
using fused::EwAccess;

const char* kHeader = R"(<ir_version: 8, opset_import: ["" : 20, "ai.passlab" : 1]>)";

// A model whose one node is FusedElementwise <attrs> (x[, z]); keep the model alive.
struct OneNode {
  ir::Model model;
  const ir::Node* node = nullptr;
};

OneNode fusedNode(
    const std::string& attrs, bool binary = true,
    const std::string& sig = "main (float[5,1,6] x, float[4,1] z) => (float[5,4,6] y)") {
  OneNode o;
  o.model = testing::parse(std::string(kHeader) + sig + " {\n y = ai.passlab.FusedElementwise <" +
                           attrs + "> (" + (binary ? "x, z" : "x") + ") }");
  o.model.graph().forEachNodeRecursive([&](ir::Node* n) {
    if (n->opType() == "FusedElementwise") o.node = n;
  });
  EXPECT_NE(o.node, nullptr);
  return o;
}

// One program per instruction (the CPU kernel's test list, passlab_fused_test.cpp).
struct OneOp {
  const char* program;
  bool binary;  // reads z as well as x
};
const OneOp kOps[] = {
    {R"(ops = ["Add"], operands = [0, 1, -1])", true},
    {R"(ops = ["Sub"], operands = [0, 1, -1])", true},
    {R"(ops = ["Mul"], operands = [0, 1, -1])", true},
    {R"(ops = ["Div"], operands = [0, 1, -1])", true},
    {R"(ops = ["Abs", "Pow"], operands = [0, -1, -1, 2, 1, -1])", true},
    {R"(ops = ["Abs", "Pow"], operands = [0, -1, -1, 1, -2, -1], constants = [2.0])", false},
    {R"(ops = ["Abs", "Pow"], operands = [0, -1, -1, 1, -2, -1], constants = [3.0])", false},
    {R"(ops = ["Abs", "Pow"], operands = [0, -1, -1, 1, -2, -1], constants = [0.5])", false},
    {R"(ops = ["Abs", "Pow"], operands = [0, -1, -1, 1, -2, -1], constants = [1.7])", false},
    {R"(ops = ["Max"], operands = [0, 1, -1])", true},
    {R"(ops = ["Min"], operands = [0, 1, -1])", true},
    {R"(ops = ["PRelu"], operands = [0, 1, -1])", true},
    {R"(ops = ["Neg"], operands = [0, -1, -1])", false},
    {R"(ops = ["Abs"], operands = [0, -1, -1])", false},
    {R"(ops = ["Relu"], operands = [0, -1, -1])", false},
    {R"(ops = ["Sigmoid"], operands = [0, -1, -1])", false},
    {R"(ops = ["Tanh"], operands = [0, -1, -1])", false},
    {R"(ops = ["Exp"], operands = [0, -1, -1])", false},
    {R"(ops = ["Abs", "Log"], operands = [0, -1, -1, 1, -1, -1])", false},
    {R"(ops = ["Abs", "Sqrt"], operands = [0, -1, -1, 1, -1, -1])", false},
    {R"(ops = ["Reciprocal"], operands = [0, -1, -1])", false},
    {R"(ops = ["Erf"], operands = [0, -1, -1])", false},
    {R"(ops = ["Floor"], operands = [0, -1, -1])", false},
    {R"(ops = ["Ceil"], operands = [0, -1, -1])", false},
    {R"(ops = ["Sin"], operands = [0, -1, -1])", false},
    {R"(ops = ["Cos"], operands = [0, -1, -1])", false},
    {R"(ops = ["Softplus"], operands = [0, -1, -1])", false},
    {R"(ops = ["Softsign"], operands = [0, -1, -1])", false},
    {R"(ops = ["HardSwish"], operands = [0, -1, -1])", false},
    {R"(ops = ["Gelu"], operands = [0, -1, -1])", false},
    {R"(ops = ["GeluTanh"], operands = [0, -1, -1])", false},
    {R"(ops = ["Identity"], operands = [0, -1, -1])", false},
    {R"(ops = ["LeakyRelu"], operands = [0, -2, -1], constants = [0.2])", false},
    {R"(ops = ["LeakyRelu"], operands = [0, -1, -1])", false},
    {R"(ops = ["Elu"], operands = [0, -2, -1], constants = [0.7])", false},
    {R"(ops = ["HardSigmoid"], operands = [0, -2, -3], constants = [0.3, 0.4])", false},
    {R"(ops = ["Clip"], operands = [0, -2, -3], constants = [-0.5, 0.75])", false},
    {R"(ops = ["Clip"], operands = [0, -1, -2], constants = [0.75])", false},
    // A tree: tanh GELU reading x four times, then a broadcast Add with z and a scalar constant.
    {R"(ops = ["Mul", "Pow", "Mul", "Add", "Mul", "Tanh", "Add", "Mul", "Add", "Sub"],
        operands = [0, -2, -1, 0, -3, -1, 3, -4, -1, 0, 4, -1, 5, -5, -1, 6, -1, -1, 7, -6, -1,
                    2, 8, -1, 9, 1, -1, 10, -7, -1],
        constants = [0.5, 3.0, 0.044715, 0.7978846, 1.0, -1.25e-3])",
     true},
};

const LaunchFloat kTypes[] = {LaunchFloat::kFloat32, LaunchFloat::kFloat16, LaunchFloat::kBFloat16};

// ---- the program ----

TEST(FusedElementwiseCodegen, ParsesLikeTheCpuKernel) {
  auto err = [](const std::string& attrs) {
    OneNode o = fusedNode(attrs, false, "main (float[2] x) => (float[2] y)");
    auto p = fused::parseEwProgram(*o.node);
    return p ? std::string("(parsed)") : p.error().message();
  };
  EXPECT_NE(
      err(R"(ops = ["Frobnicate"], operands = [0, -1, -1])").find("does not know op 'Frobnicate'"),
      std::string::npos);
  EXPECT_NE(err(R"(ops = ["Relu"], operands = [1, -1, -1])").find("not yet defined"),
            std::string::npos);
  EXPECT_NE(err(R"(ops = ["Add"], operands = [0, -1, -1])").find("takes two operands"),
            std::string::npos);
  EXPECT_NE(err(R"(ops = ["Relu"], operands = [0, -2, -1])").find("reads constant 0 of 0"),
            std::string::npos);
  EXPECT_NE(err(R"(ops = ["Relu", "Relu"], operands = [0, -1, -1])").find("3 per op expected"),
            std::string::npos);
  EXPECT_NE(err(R"(ops = ["Clip"], operands = [0, 0, -1])").find("must be constants"),
            std::string::npos);

  OneNode o = fusedNode(
      R"(ops = ["Clip", "Elu"], operands = [0, -1, -2, 1, -1, -1], constants = [0.75])", false);
  auto p = fused::parseEwProgram(*o.node);
  ASSERT_TRUE(p) << p.error().message();
  ASSERT_EQ(p->steps.size(), 2u);
  EXPECT_EQ(p->inputs, 1u);
  EXPECT_TRUE(std::isinf(p->steps[0].p0) && p->steps[0].p0 < 0);  // no minimum
  EXPECT_EQ(p->steps[0].p1, 0.75f);
  EXPECT_EQ(p->steps[1].p0, 1.0f);  // Elu's default alpha
}

// ---- the broadcast plan ----

TEST(FusedElementwiseCodegen, PlanReadsSameShapeScalarAndStridedInputs) {
  const Dims out{2, 3, 4};
  const Dims same{2, 3, 4}, same2{1, 2, 3, 4}, scalar{1, 1}, row{4}, col{3, 1}, sameCount{2, 3, 4};
  fused::EwPlan p = fused::planBroadcast(out, {&same, &scalar, &row, &col});
  ASSERT_EQ(p.access.size(), 4u);
  EXPECT_EQ(p.access[0], EwAccess::kSame);
  EXPECT_EQ(p.access[1], EwAccess::kScalar);
  EXPECT_EQ(p.access[2], EwAccess::kStrided);
  EXPECT_EQ(p.access[3], EwAccess::kStrided);
  EXPECT_EQ(p.numel, 24);
  // row [4]: strides (0, 0, 1); col [3,1]: (0, 1, 0): the leading 2 and 3 do not merge for col.
  EXPECT_EQ(p.dims, (Dims{2, 3, 4}));
  EXPECT_EQ(p.strides[0], (std::vector<int64_t>{0, 0, 1}));
  EXPECT_EQ(p.strides[1], (std::vector<int64_t>{0, 1, 0}));
  EXPECT_EQ(p.signature(), "S.s.B.B/r3/i32");
  EXPECT_EQ(fused::shapeArgument(p), (std::vector<int64_t>{24, 2, 3, 4, 0, 0, 1, 0, 1, 0}));

  // Only same-shape and scalar inputs: no dims at all.
  fused::EwPlan q = fused::planBroadcast(out, {&same2, &scalar, &sameCount});
  EXPECT_TRUE(q.dims.empty());
  EXPECT_EQ(q.signature(), "S.s.S/r0/i32");
  EXPECT_EQ(fused::shapeArgument(q), (std::vector<int64_t>{24}));

  // Dims merge where every strided input is contiguous across them: [2,3,4] + [3,4] -> [2, 12].
  const Dims inner{3, 4};
  fused::EwPlan r = fused::planBroadcast(out, {&same, &inner});
  EXPECT_EQ(r.dims, (Dims{2, 12}));
  EXPECT_EQ(r.strides[0], (std::vector<int64_t>{0, 1}));
}

// ---- the source ----

TEST(FusedElementwiseCodegen, SourceEntryNameIsAStableHashOfTheKernel) {
  OneNode o = fusedNode(kOps[0].program);
  auto p = fused::parseEwProgram(*o.node);
  ASSERT_TRUE(p);
  const Dims out{5, 4, 6}, x{5, 1, 6}, z{4, 1};
  const fused::EwPlan plan = fused::planBroadcast(out, {&x, &z});
  const fused::EwSource a = fused::generateSource(*p, LaunchFloat::kFloat32, plan);
  const fused::EwSource b = fused::generateSource(*p, LaunchFloat::kFloat32, plan);
  EXPECT_EQ(a.entry, b.entry);
  EXPECT_EQ(a.code, b.code);
  EXPECT_EQ(a.entry.rfind("passlab_fused_", 0), 0u);
  EXPECT_EQ(a.entry.size(), std::string("passlab_fused_").size() + 16);
  EXPECT_NE(a.code.find("extern \"C\" __global__"), std::string::npos);
  EXPECT_NE(a.code.find(a.entry + "("), std::string::npos);
  EXPECT_EQ(a.code.find("#include"), std::string::npos);
  // Another type, another plan: another kernel.
  EXPECT_NE(fused::generateSource(*p, LaunchFloat::kFloat16, plan).entry, a.entry);
  EXPECT_NE(fused::generateSource(*p, LaunchFloat::kBFloat16, plan).entry, a.entry);
  const Dims same{5, 4, 6};
  EXPECT_NE(
      fused::generateSource(*p, LaunchFloat::kFloat32, fused::planBroadcast(out, {&same, &same}))
          .entry,
      a.entry);
  // The vectorized kernel is another one, and only where no input is strided.
  EXPECT_EQ(fused::generateSource(*p, LaunchFloat::kFloat32, plan, true).entry, a.entry);
  const fused::EwPlan flat = fused::planBroadcast(out, {&same, &same});
  EXPECT_NE(fused::generateSource(*p, LaunchFloat::kFloat32, flat, true).entry,
            fused::generateSource(*p, LaunchFloat::kFloat32, flat, false).entry);
  alignas(16) float buf[8];
  EXPECT_TRUE(fused::vectorizable(flat, LaunchFloat::kFloat32, buf, {buf + 4, buf}));
  EXPECT_FALSE(fused::vectorizable(flat, LaunchFloat::kFloat32, buf, {buf + 1, buf}));
  EXPECT_FALSE(fused::vectorizable(flat, LaunchFloat::kFloat32, buf + 2, {buf, buf}));
  EXPECT_TRUE(fused::vectorizable(flat, LaunchFloat::kFloat16, buf + 2, {buf, buf}));
  EXPECT_FALSE(fused::vectorizable(plan, LaunchFloat::kFloat32, buf, {buf, buf}));
  // The same plan signature with other dims: the same kernel.
  const Dims out2{7, 2, 9}, x2{7, 1, 9}, z2{2, 1};
  EXPECT_EQ(fused::generateSource(*p, LaunchFloat::kFloat32, fused::planBroadcast(out2, {&x2, &z2}))
                .entry,
            a.entry);
}

TEST(FusedElementwiseCodegen, ConstantsAreExactLiterals) {
  OneNode o = fusedNode(
      R"(ops = ["Mul", "Clip"], operands = [0, -2, -1, 1, -1, -3], constants = [0.1, 6.0])", false);
  auto p = fused::parseEwProgram(*o.node);
  ASSERT_TRUE(p);
  const Dims x{5, 1, 6};
  const std::string code =
      fused::generateSource(*p, LaunchFloat::kFloat32, fused::planBroadcast(x, {&x})).code;
  EXPECT_NE(code.find("0x1.99999ap-4f"), std::string::npos) << code;  // 0.1f
  EXPECT_NE(code.find("0x1.8p+2f"), std::string::npos) << code;       // 6
  EXPECT_NE(code.find("__uint_as_float(0xff800000u)"), std::string::npos)
      << code;  // no minimum: -inf
}

// ---- NVRTC ----

// Every instruction for float32; the 16-bit types (their loads and stores
// differ, not the instructions) on the last program, the tree.
TEST(FusedElementwiseNvrtc, EveryInstructionCompilesForEveryFloatType) {
  const std::string arch = nvrtc::targetArchitecture(nullptr);
  EXPECT_EQ(arch, "compute_90");
  for (const OneOp& op : kOps) {
    const bool last = &op == &kOps[std::size(kOps) - 1];
    OneNode o = fusedNode(op.program, op.binary);
    auto p = fused::parseEwProgram(*o.node);
    ASSERT_TRUE(p) << op.program << ": " << p.error().message();
    const Dims out{5, 4, 6}, x{5, 1, 6}, z{4, 1}, s{1};
    const fused::EwPlan plans[] = {
        op.binary ? fused::planBroadcast(out, {&x, &z}) : fused::planBroadcast(x, {&x}),
        op.binary ? fused::planBroadcast(x, {&x, &s}) : fused::planBroadcast(s, {&s})};
    for (const fused::EwPlan& plan : plans)
      for (LaunchFloat t : kTypes)
        for (bool vec : {false, true}) {
          if (t != LaunchFloat::kFloat32 && !last) continue;
          const bool strided = plan.signature().find('B') != std::string::npos;
          if (vec && strided) continue;
          const fused::EwSource src = fused::generateSource(*p, t, plan, vec);
          auto ptx = nvrtc::compileToPtx(src.code, src.entry + ".cu", arch);
          ASSERT_TRUE(ptx) << op.program << ": " << ptx.error().message() << "\n" << src.code;
          EXPECT_NE(ptx->find(".entry " + src.entry), std::string::npos) << op.program;
          if (vec) {
            // One wide load per whole input, one wide store.
            EXPECT_NE(
                ptx->find(t == LaunchFloat::kFloat32 ? "st.global.v4.f32" : "st.global.v2.u32"),
                std::string::npos)
                << op.program << "\n"
                << *ptx;
          }
        }
  }
}

TEST(FusedElementwiseNvrtc, LargeOutputsIndexIn64Bits) {
  OneNode o = fusedNode(kOps[0].program);
  auto p = fused::parseEwProgram(*o.node);
  ASSERT_TRUE(p);
  const Dims out{3, 1 << 20, 1024}, x{3, 1, 1024}, z{1 << 20, 1};
  const fused::EwPlan plan = fused::planBroadcast(out, {&x, &z});
  EXPECT_FALSE(plan.index32);
  EXPECT_EQ(plan.signature(), "B.B/r3");
  const fused::EwSource src = fused::generateSource(*p, LaunchFloat::kFloat32, plan);
  EXPECT_NE(src.code.find("long long r = (long long)i"), std::string::npos) << src.code;
  auto ptx = nvrtc::compileToPtx(src.code, src.entry + ".cu", "compute_90");
  ASSERT_TRUE(ptx) << ptx.error().message();
  EXPECT_NE(ptx->find(".entry " + src.entry), std::string::npos);
  // Under 2^31 elements: 32-bit offsets, another kernel.
  const Dims small{3, 1, 1024};
  const Dims z4{4, 1};
  const fused::EwPlan plan32 = fused::planBroadcast(Dims{3, 4, 1024}, {&small, &z4});
  EXPECT_TRUE(plan32.index32);
}

TEST(FusedElementwiseNvrtc, CompileErrorCarriesTheLog) {
  auto ptx = nvrtc::compileToPtx("extern \"C\" __global__ void k() { undeclared_thing(); }",
                                 "bad.cu", "compute_90");
  ASSERT_FALSE(ptx);
  EXPECT_NE(ptx.error().message().find("bad.cu"), std::string::npos) << ptx.error().message();
  EXPECT_NE(ptx.error().message().find("undeclared_thing"), std::string::npos)
      << ptx.error().message();
}

TEST(FusedElementwiseNvrtc, ArchitectureFollowsTheDevice) {
  DeviceProperties d;
  d.computeMajor = 8;
  d.computeMinor = 6;
  EXPECT_EQ(nvrtc::targetArchitecture(&d), "compute_86");
  d.computeMajor = 9;
  d.computeMinor = 0;
  EXPECT_EQ(nvrtc::targetArchitecture(&d), "compute_90");
  d.computeMajor = 99;  // newer than NVRTC knows: its newest
  const std::string newest = nvrtc::targetArchitecture(&d);
  EXPECT_EQ(newest.rfind("compute_", 0), 0u);
  EXPECT_GE(std::stoi(newest.substr(8)), 90);
  EXPECT_NE(nvrtc::version(), "unknown");
}

// ---- the kernel row ----

// A build for `n` on an sm_90 device.
test_support::TestBuild fakeBuild(const ir::Node& n, ir::DataType t) {
  DeviceProperties sm90;
  sm90.computeMajor = 9;
  return test_support::TestBuild(n, 1, t, nullptr, sm90);
}

TEST(FusedElementwiseRow, TakesFloatTypesAndDeclinesTheRest) {
  for (ir::DataType t : {ir::DataType::kFloat, ir::DataType::kFloat16, ir::DataType::kBFloat16}) {
    auto rows = findCudaKernels("ai.passlab", "FusedElementwise", 1, t);
    ASSERT_EQ(rows.size(), 1u);
    EXPECT_EQ(rows[0]->name, "nvrtc.FusedElementwise");
  }
  EXPECT_TRUE(findCudaKernels("ai.passlab", "FusedElementwise", 1, ir::DataType::kDouble).empty());
  const CudaKernelDef* row =
      findCudaKernels("ai.passlab", "FusedElementwise", 1, ir::DataType::kFloat)[0];
  OneNode good = fusedNode(kOps[0].program);
  // Made without compiling (that happens on the first run, per plan).
  EXPECT_TRUE(row->create(fakeBuild(*good.node, ir::DataType::kFloat)));
  EXPECT_TRUE(row->create(fakeBuild(*good.node, ir::DataType::kUndefined)));
  auto i32 = row->create(fakeBuild(*good.node, ir::DataType::kInt32));
  ASSERT_FALSE(i32);
  EXPECT_EQ(i32.error().code(), ErrorCode::kUnsupported);
  // A program the CPU rejects too: declined (the CPU kernel reports it).
  OneNode bad = fusedNode(R"(ops = ["Frobnicate"], operands = [0, -1, -1])", false);
  auto declined = row->create(fakeBuild(*bad.node, ir::DataType::kFloat));
  ASSERT_FALSE(declined);
  EXPECT_EQ(declined.error().code(), ErrorCode::kUnsupported);
  EXPECT_NE(declined.error().message().find("Frobnicate"), std::string::npos);
}

// ---- the PTX cache ----

const char* kTinySource =
    "extern \"C\" __global__ void passlab_tiny(float* y) { y[threadIdx.x] = 1.0f; }";

TEST(PtxCache, CompilesOnceThenReadsFromDisk) {
  PtxCache cache(testing::tempDir() + "/ptx-once");
  bool hit = true;
  auto a = cache.ptxFor(kTinySource, "tiny.cu", "compute_90", &hit);
  ASSERT_TRUE(a) << a.error().message();
  EXPECT_FALSE(hit);
  EXPECT_NE(a->find(".entry passlab_tiny"), std::string::npos);
  auto b = cache.ptxFor(kTinySource, "tiny.cu", "compute_90", &hit);
  ASSERT_TRUE(b);
  EXPECT_TRUE(hit);
  EXPECT_EQ(*a, *b);
  // Another architecture is another entry.
  auto c = cache.ptxFor(kTinySource, "tiny.cu", "compute_80", &hit);
  ASSERT_TRUE(c);
  EXPECT_FALSE(hit);
  EXPECT_NE(PtxCache::key(kTinySource, "compute_90", "13.0"),
            PtxCache::key(kTinySource, "compute_80", "13.0"));
  EXPECT_NE(PtxCache::key(kTinySource, "compute_90", "13.0"),
            PtxCache::key(kTinySource, "compute_90", "13.1"));
  EXPECT_EQ(PtxCache::key(kTinySource, "compute_90", "13.0").size(), 32u);
}

TEST(PtxCache, CorruptEntriesAreCompiledAgain) {
  const std::string dir = testing::tempDir() + "/ptx-corrupt";
  PtxCache cache(dir);
  const std::string key = PtxCache::key(kTinySource, "compute_90", nvrtc::version());
  bool hit = false;
  ASSERT_TRUE(cache.ptxFor(kTinySource, "tiny.cu", "compute_90", &hit));
  const fs::path file = cache.pathOf(key);
  ASSERT_TRUE(fs::exists(file));
  std::string good;
  {
    std::ifstream in(file, std::ios::binary);
    good.assign(std::istreambuf_iterator<char>(in), {});
  }
  const std::string corruptions[] = {
      "",                                                     // empty
      good.substr(0, good.size() / 2),                        // truncated
      "garbage without a header",                             // no header
      "passlab-ptx 1 " + key + " 5 0000000000000000\nhello",  // wrong hash
      good.substr(0, good.size() - 1) + "X",                  // one byte changed
  };
  for (const std::string& bad : corruptions) {
    {
      std::ofstream out(file, std::ios::binary | std::ios::trunc);
      out << bad;
    }
    EXPECT_FALSE(cache.load(key)) << bad.size();
    auto ptx = cache.ptxFor(kTinySource, "tiny.cu", "compute_90", &hit);
    ASSERT_TRUE(ptx) << ptx.error().message();
    EXPECT_FALSE(hit);
    EXPECT_NE(ptx->find(".entry passlab_tiny"), std::string::npos);
    // Rewritten: the next lookup reads it.
    EXPECT_TRUE(cache.load(key));
  }
  // An entry that cannot be read (a folder where the file should be) is compiled, not a crash.
  fs::remove(file);
  fs::create_directories(file);
  auto ptx = cache.ptxFor(kTinySource, "tiny.cu", "compute_90", &hit);
  ASSERT_TRUE(ptx) << ptx.error().message();
  EXPECT_FALSE(hit);
}

TEST(PtxCache, UnwritableFolderStillGivesPtx) {
  const std::string file = testing::tempDir() + "/not-a-folder";
  std::ofstream(file) << "x";
  PtxCache cache(fs::path(file) / "ptx");  // under a plain file: cannot be created
  bool hit = true;
  auto ptx = cache.ptxFor(kTinySource, "tiny.cu", "compute_90", &hit);
  ASSERT_TRUE(ptx) << ptx.error().message();
  EXPECT_FALSE(hit);
  EXPECT_FALSE(cache.store("k", "ptx"));
  PtxCache none{fs::path()};
  EXPECT_TRUE(none.ptxFor(kTinySource, "tiny.cu", "compute_90"));
}

TEST(PtxCache, ConcurrentWritersLeaveOneWholeEntry) {
  const std::string dir = testing::tempDir() + "/ptx-concurrent";
  PtxCache cache(dir);
  const std::string key = PtxCache::key("concurrent", "compute_90", "13.0");
  // Entries of several sizes, so that a torn write would show.
  std::vector<std::string> versions;
  for (int v = 0; v < 4; ++v)
    versions.push_back(std::string(static_cast<size_t>(2000 + 50000 * v), char('a' + v)));
  std::atomic<int> bad{0}, seen{0};
  std::vector<std::thread> threads;
  for (int t = 0; t < 8; ++t)
    threads.emplace_back([&, t] {
      for (int i = 0; i < 25; ++i) {
        if (!cache.store(key, versions[static_cast<size_t>((t + i) % 4)])) bad++;
        if (auto got = cache.load(key)) {
          seen++;
          if (std::find(versions.begin(), versions.end(), *got) == versions.end()) bad++;
        }
      }
    });
  for (std::thread& t : threads) t.join();
  EXPECT_EQ(bad.load(), 0);
  EXPECT_GT(seen.load(), 0);
  auto last = cache.load(key);
  ASSERT_TRUE(last);
  EXPECT_NE(std::find(versions.begin(), versions.end(), *last), versions.end());
  // No temporary files left behind.
  size_t files = 0;
  for (const auto& e : fs::directory_iterator(dir)) {
    ++files;
    EXPECT_EQ(e.path().extension(), ".ptx") << e.path();
  }
  EXPECT_EQ(files, 1u);

  // And ptxFor from many threads at once: every one gets the PTX.
  PtxCache cache2(dir + "/2");
  std::atomic<int> ok{0};
  threads.clear();
  for (int t = 0; t < 6; ++t)
    threads.emplace_back([&] {
      auto ptx = cache2.ptxFor(kTinySource, "tiny.cu", "compute_90");
      if (ptx && ptx->find(".entry passlab_tiny") != std::string::npos) ok++;
    });
  for (std::thread& t : threads) t.join();
  EXPECT_EQ(ok.load(), 6);
}

TEST(PtxCache, FolderFromTheEnvironment) {
  auto keep = [](const char* n) {
    const char* v = std::getenv(n);
    return v ? std::optional<std::string>(v) : std::nullopt;
  };
  const auto cacheDir = keep("PASSLAB_CACHE_DIR"), xdg = keep("XDG_CACHE_HOME"),
             home = keep("HOME");
  setenv("PASSLAB_CACHE_DIR", "/tmp/a", 1);
  setenv("XDG_CACHE_HOME", "/tmp/b", 1);
  setenv("HOME", "/tmp/c", 1);
  EXPECT_EQ(PtxCache::defaultDir(), fs::path("/tmp/a"));
  unsetenv("PASSLAB_CACHE_DIR");
  EXPECT_EQ(PtxCache::defaultDir(), fs::path("/tmp/b/passlab/ptx"));
  unsetenv("XDG_CACHE_HOME");
  EXPECT_EQ(PtxCache::defaultDir(), fs::path("/tmp/c/.cache/passlab/ptx"));
  unsetenv("HOME");
  EXPECT_TRUE(PtxCache::defaultDir().empty());
  auto restore = [](const char* n, const std::optional<std::string>& v) {
    if (v)
      setenv(n, v->c_str(), 1);
    else
      unsetenv(n);
  };
  restore("PASSLAB_CACHE_DIR", cacheDir);
  restore("XDG_CACHE_HOME", xdg);
  restore("HOME", home);
}

// ---- on a GPU ----

std::vector<float> uniform(size_t n, unsigned seed) {
  std::mt19937 g(seed);
  std::uniform_real_distribution<float> u(-2.0f, 2.0f);
  std::vector<float> v(n);
  for (float& x : v) x = u(g);
  return v;
}

uint16_t toBf16(float f) {
  uint32_t u;
  std::memcpy(&u, &f, 4);
  if ((u & 0x7fffffffu) > 0x7f800000u) return static_cast<uint16_t>((u >> 16) | 0x40u);
  u += 0x7fffu + ((u >> 16) & 1u);
  return static_cast<uint16_t>(u >> 16);
}
float fromBf16(uint16_t h) {
  uint32_t u = static_cast<uint32_t>(h) << 16;
  float f;
  std::memcpy(&f, &u, 4);
  return f;
}

// Element bytes of `v` in type t (16-bit types rounded), and v rounded to them.
std::vector<uint8_t> encode(std::vector<float>& v, LaunchFloat t) {
  std::vector<uint8_t> bytes;
  if (t == LaunchFloat::kFloat32) {
    bytes.resize(v.size() * 4);
    std::memcpy(bytes.data(), v.data(), bytes.size());
    return bytes;
  }
  std::vector<uint16_t> h(v.size());
  if (t == LaunchFloat::kFloat16) {
    cpu::floatToHalfN(v.data(), h.data(), static_cast<int64_t>(v.size()));
    cpu::halfToFloatN(h.data(), v.data(), static_cast<int64_t>(v.size()));
  } else {
    for (size_t i = 0; i < v.size(); ++i) {
      h[i] = toBf16(v[i]);
      v[i] = fromBf16(h[i]);
    }
  }
  bytes.resize(h.size() * 2);
  std::memcpy(bytes.data(), h.data(), bytes.size());
  return bytes;
}

std::vector<float> decode(const std::vector<uint8_t>& bytes, LaunchFloat t, size_t n) {
  std::vector<float> v(n);
  if (t == LaunchFloat::kFloat32) {
    std::memcpy(v.data(), bytes.data(), n * 4);
  } else {
    std::vector<uint16_t> h(n);
    std::memcpy(h.data(), bytes.data(), n * 2);
    if (t == LaunchFloat::kFloat16) {
      cpu::halfToFloatN(h.data(), v.data(), static_cast<int64_t>(n));
    } else {
      for (size_t i = 0; i < n; ++i) v[i] = fromBf16(h[i]);
    }
  }
  return v;
}

// Runs `node` on the GPU through the generated kernel for inputs `xs` (float
// values, rounded to t first) of dims `dims`; compares with the CPU kernel on
// the rounded inputs.
void checkOnDevice(const ir::Node& node, std::vector<std::vector<float>> xs,
                   const std::vector<Dims>& dims, LaunchFloat t, const std::string& what,
                   bool vectorized = false) {
  auto p = fused::parseEwProgram(node);
  ASSERT_TRUE(p) << what;
  std::vector<const Dims*> shapes;
  for (const Dims& d : dims) shapes.push_back(&d);
  auto out = broadcastShapes(shapes);
  ASSERT_TRUE(out);
  const fused::EwPlan plan = fused::planBroadcast(*out, shapes);
  const fused::EwSource src = fused::generateSource(*p, t, plan, vectorized);
  int dev = 0;
  cudaDeviceProp prop{};
  ASSERT_EQ(cudaGetDevice(&dev), cudaSuccess);
  ASSERT_EQ(cudaGetDeviceProperties(&prop, dev), cudaSuccess);
  DeviceProperties dp;
  dp.computeMajor = prop.major;
  dp.computeMinor = prop.minor;
  PtxCache cache(testing::tempDir() + "/ptx-device");
  auto ptx = cache.ptxFor(src.code, src.entry + ".cu", nvrtc::targetArchitecture(&dp));
  ASSERT_TRUE(ptx) << ptx.error().message();
  auto kernel = nvrtc::loadKernel(*ptx, src.entry);
  ASSERT_TRUE(kernel) << kernel.error().message();

  const size_t esize = t == LaunchFloat::kFloat32 ? 4 : 2;
  std::vector<void*> dx(xs.size(), nullptr);
  std::vector<ir::Tensor> hostIn;
  for (size_t i = 0; i < xs.size(); ++i) {
    std::vector<uint8_t> bytes = encode(xs[i], t);
    ASSERT_EQ(cudaMalloc(&dx[i], std::max<size_t>(bytes.size(), 4)), cudaSuccess);
    ASSERT_EQ(cudaMemcpy(dx[i], bytes.data(), bytes.size(), cudaMemcpyHostToDevice), cudaSuccess);
    ir::Tensor h(ir::DataType::kFloat, dims[i]);
    std::memcpy(h.mutableBytes().data(), xs[i].data(), xs[i].size() * 4);
    hostIn.push_back(std::move(h));
  }
  const size_t n = static_cast<size_t>(plan.numel);
  void* dy = nullptr;
  ASSERT_EQ(cudaMalloc(&dy, std::max<size_t>(n * esize, 4)), cudaSuccess);
  std::vector<int64_t> shape = fused::shapeArgument(plan);
  std::vector<void*> args{&dy};
  for (void*& x : dx) args.push_back(&x);
  args.push_back(shape.data());
  std::vector<const void*> xptrs(dx.begin(), dx.end());
  if (vectorized) ASSERT_TRUE(fused::vectorizable(plan, t, dy, xptrs)) << what;
  Status s = nvrtc::launchGridStride(*kernel, vectorized ? (plan.numel + 3) / 4 : plan.numel,
                                     args.data(), nullptr);
  ASSERT_TRUE(s) << s.message();
  ASSERT_EQ(cudaDeviceSynchronize(), cudaSuccess) << what;
  std::vector<uint8_t> ybytes(n * esize);
  ASSERT_EQ(cudaMemcpy(ybytes.data(), dy, ybytes.size(), cudaMemcpyDeviceToHost), cudaSuccess);
  for (void* x : dx) cudaFree(x);
  cudaFree(dy);
  const std::vector<float> got = decode(ybytes, t, n);

  std::vector<const ir::Tensor*> ins;
  for (const ir::Tensor& h : hostIn) ins.push_back(&h);
  auto want = evaluateNode(node, ins, 1);
  ASSERT_TRUE(want) << want.error().message();
  std::vector<float> w((*want)[0].data<float>().begin(), (*want)[0].data<float>().end());
  ASSERT_EQ(w.size(), n) << what;
  encode(w, t);  // the CPU's float result rounded to t, as the GPU's store rounds
  // float32: CUDA's math functions are within a few ulp of libm's; 16-bit
  // types: both rounded once, at most an ulp or two apart (fp16 2^-11, bf16 2^-8).
  const float rtol =
      t == LaunchFloat::kFloat32 ? 1e-5f : (t == LaunchFloat::kFloat16 ? 1.5e-3f : 1.2e-2f);
  const float atol =
      t == LaunchFloat::kFloat32 ? 1e-6f : (t == LaunchFloat::kFloat16 ? 1e-4f : 1e-3f);
  int shown = 0;
  for (size_t i = 0; i < n; ++i) {
    const float a = got[i], b = w[i];
    if (std::isnan(a) && std::isnan(b)) continue;
    if (std::isinf(b) && a == b) continue;
    if (!(std::fabs(a - b) <= atol + rtol * std::fabs(b)) && shown++ < 3)
      ADD_FAILURE() << what << " element " << i << ": GPU " << a << ", CPU " << b;
  }
}

TEST(FusedElementwiseDevice, EveryInstructionMatchesTheCpuKernel) {
  std::string why;
  if (!test_support::haveCudaDevice(&why)) GTEST_SKIP() << "no CUDA device: " << why;
  for (const OneOp& op : kOps) {
    OneNode o = fusedNode(op.program, op.binary);
    for (LaunchFloat t : kTypes) {
      const std::string what =
          std::string(op.program) + " type " + std::to_string(static_cast<int>(t));
      if (op.binary) {
        // Strided (x [5,1,6] and z [4,1] -> [5,4,6]), then scalar and same shape, one by
        // one and 4 a thread (sizes not a multiple of 4: the tail too).
        checkOnDevice(*o.node, {uniform(30, 1), uniform(4, 2)}, {{5, 1, 6}, {4, 1}}, t,
                      what + " strided");
        for (bool vec : {false, true}) {
          if (!vec && t != LaunchFloat::kFloat32)
            continue;  // 16-bit: the strided case reads one by one
          const std::string v = vec ? " vectorized" : "";
          checkOnDevice(*o.node, {uniform(99099, 3), uniform(1, 4)}, {{99, 1001}, {1}}, t,
                        what + " scalar" + v, vec);
          checkOnDevice(*o.node, {uniform(3003, 5), uniform(3003, 6)}, {{3, 1001}, {3, 1001}}, t,
                        what + " same" + v, vec);
        }
      } else {
        for (bool vec : {false, true})
          if (vec || t == LaunchFloat::kFloat32)
            checkOnDevice(*o.node, {uniform((1 << 20) + 3, 7)}, {{(1 << 20) + 3}}, t,
                          what + (vec ? " vectorized" : ""), vec);
      }
    }
  }
}

// Through the Executor with backend "cuda": two FusedElementwise nodes (a
// per-channel scale and shift from initializers, a scalar constant, an
// intermediate read twice) on the device, none sent to the CPU, the outputs
// those of the CPU executor.
TEST(FusedElementwiseDevice, RunsThroughTheExecutor) {
  std::string why;
  if (!test_support::haveCudaDevice(&why)) GTEST_SKIP() << "no CUDA device: " << why;
  const std::string text = std::string(kHeader) +
                           R"(main (float[2,3,40,50] x, float[2,1,40,50] m) => (float[2,3,40,50] y)
      <float[1,3,1,1] s = {0.5, -1, 2}, float[3,1,1] b = {0.1, 0.2, -0.3}> {
      u = ai.passlab.FusedElementwise <ops = ["Mul", "Add", "Relu"], operands = [0, 1, -1, 3, 2, -1, 4, -1, -1]> (x, s, b)
      y = ai.passlab.FusedElementwise <ops = ["Mul", "GeluTanh", "Add", "Clip"],
          operands = [0, 1, -1, 2, -1, -1, 3, 0, -1, 4, -2, -3], constants = [-0.25, 1.5]> (u, m) })";
  ir::Model model = testing::parse(text);
  auto cpu = Executor::create(model);
  ASSERT_TRUE(cpu) << cpu.error().message();
  ExecutorOptions eo;
  eo.backend = "cuda";
  auto gpu = Executor::create(model, eo);
  ASSERT_TRUE(gpu) << gpu.error().message();
  std::vector<float> xv = uniform(2 * 3 * 40 * 50, 11), mv = uniform(2 * 40 * 50, 12);
  ir::Tensor x(ir::DataType::kFloat, {2, 3, 40, 50}), m(ir::DataType::kFloat, {2, 1, 40, 50});
  std::memcpy(x.mutableBytes().data(), xv.data(), xv.size() * 4);
  std::memcpy(m.mutableBytes().data(), mv.data(), mv.size() * 4);
  NamedInputs in;
  in.emplace_back("x", Value(Tensor::fromIr(x).clone()));
  in.emplace_back("m", Value(Tensor::fromIr(m).clone()));
  auto want = (*cpu)->run(in);
  ASSERT_TRUE(want) << want.error().message();
  for (int run = 0; run < 2; ++run) {  // the second run reuses the loaded kernels
    auto got = (*gpu)->run(in);
    ASSERT_TRUE(got) << got.error().message();
    EXPECT_EQ(got->device.fallbackSteps, 0);
    for (const DeviceFallback& f : got->device.fallbacks)
      ADD_FAILURE() << f.node << " (" << f.op << ") ran on the CPU: " << f.reason;
    EXPECT_EQ(got->device.deviceSteps, 2);
    ASSERT_EQ(got->outputs.size(), 1u);
    const std::span<const float> a = got->outputs[0].data<float>(),
                                 b = want->outputs[0].data<float>();
    ASSERT_EQ(a.size(), b.size());
    size_t outside = 0;
    for (size_t i = 0; i < a.size(); ++i)
      if (!(std::fabs(a[i] - b[i]) <= 1e-6f + 1e-5f * std::fabs(b[i]))) ++outside;
    EXPECT_EQ(outside, 0u) << outside << " of " << a.size() << " elements differ";
  }
}

// FusedElementwise's bandwidth against a device-to-device copy of as many
// bytes (the issue's goal: >= 70% on tensors >= 64 MB). Prints one line per
// case ("[fused-bandwidth] ..."); fails only when a kernel does not run.
TEST(FusedElementwiseDevice, BandwidthAgainstDeviceCopy) {
  std::string why;
  if (!test_support::haveCudaDevice(&why)) GTEST_SKIP() << "no CUDA device: " << why;
  // y = Relu(x * 0.5 + b), b a scalar input: reads x, writes y.
  OneNode o =
      fusedNode(R"(ops = ["Mul", "Add", "Relu"], operands = [0, -2, -1, 2, 1, -1, 3, -1, -1],
      constants = [0.5])");
  auto p = fused::parseEwProgram(*o.node);
  ASSERT_TRUE(p);
  int dev = 0;
  cudaDeviceProp prop{};
  ASSERT_EQ(cudaGetDevice(&dev), cudaSuccess);
  ASSERT_EQ(cudaGetDeviceProperties(&prop, dev), cudaSuccess);
  DeviceProperties dp;
  dp.computeMajor = prop.major;
  dp.computeMinor = prop.minor;
  PtxCache cache(testing::tempDir() + "/ptx-bandwidth");
  const int64_t n = int64_t{64} << 20;  // 64 Mi elements: 256 MB float32, 128 MB 16-bit
  for (LaunchFloat t : kTypes) {
    const size_t esize = t == LaunchFloat::kFloat32 ? 4 : 2;
    const size_t bytes = static_cast<size_t>(n) * esize;
    void *x = nullptr, *b = nullptr, *y = nullptr;
    ASSERT_EQ(cudaMalloc(&x, bytes), cudaSuccess);
    ASSERT_EQ(cudaMalloc(&y, bytes), cudaSuccess);
    ASSERT_EQ(cudaMalloc(&b, 16), cudaSuccess);
    ASSERT_EQ(cudaMemset(x, 0, bytes), cudaSuccess);
    ASSERT_EQ(cudaMemset(b, 0, 16), cudaSuccess);
    const Dims xd{n}, bd{1};
    const fused::EwPlan plan = fused::planBroadcast(xd, {&xd, &bd});
    std::vector<int64_t> shape = fused::shapeArgument(plan);
    cudaEvent_t e0, e1;
    ASSERT_EQ(cudaEventCreate(&e0), cudaSuccess);
    ASSERT_EQ(cudaEventCreate(&e1), cudaSuccess);
    auto timeIt = [&](const std::function<void()>& f) {
      f();  // warm-up
      cudaEventRecord(e0);
      const int reps = 20;
      for (int r = 0; r < reps; ++r) f();
      cudaEventRecord(e1);
      cudaEventSynchronize(e1);
      float ms = 0;
      cudaEventElapsedTime(&ms, e0, e1);
      return ms / reps;
    };
    const float copyMs =
        timeIt([&] { cudaMemcpyAsync(y, x, bytes, cudaMemcpyDeviceToDevice, nullptr); });
    for (bool vec : {false, true}) {
      const fused::EwSource src = fused::generateSource(*p, t, plan, vec);
      auto ptx = cache.ptxFor(src.code, src.entry + ".cu", nvrtc::targetArchitecture(&dp));
      ASSERT_TRUE(ptx) << ptx.error().message();
      auto kernel = nvrtc::loadKernel(*ptx, src.entry);
      ASSERT_TRUE(kernel) << kernel.error().message();
      std::vector<void*> args{&y, &x, &b, shape.data()};
      Status launched = Status::ok();
      const float ms = timeIt([&] {
        Status st = nvrtc::launchGridStride(*kernel, vec ? (n + 3) / 4 : n, args.data(), nullptr);
        if (!st) launched = st;
      });
      ASSERT_TRUE(launched) << launched.message();
      ASSERT_EQ(cudaGetLastError(), cudaSuccess);
      const double gbps = 2.0 * static_cast<double>(bytes) / (ms * 1e6);
      const double copyGbps = 2.0 * static_cast<double>(bytes) / (copyMs * 1e6);
      std::printf(
          "[fused-bandwidth] %s %s type %d, %zu MB: %.3f ms, %.0f GB/s; copy %.3f ms, %.0f GB/s; "
          "%.0f%% of copy\n",
          prop.name, vec ? "vectorized" : "one by one", static_cast<int>(t), bytes >> 20, ms, gbps,
          copyMs, copyGbps, 100.0 * gbps / copyGbps);
    }
    cudaEventDestroy(e0);
    cudaEventDestroy(e1);
    cudaFree(x);
    cudaFree(y);
    cudaFree(b);
  }
}

}  // namespace
}  // namespace passlab::exec::cuda
