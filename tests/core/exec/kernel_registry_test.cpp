// The kernel table keeps itself complete and consistent: every row names an
// operator version that exists, rows do not overlap, every optimized kernel
// has a reference kernel to be tested against.
#include <gtest/gtest.h>

#include <set>

#include "core/exec/cpu/cpu_backend.h"
#include "core/ir/op_schema.h"

namespace passlab::exec {
namespace {

std::string label(const KernelDef& d) {
  return std::string(d.name) + " (" + std::string(d.domain) + ":" + std::string(d.op) + " " +
         std::to_string(d.since) + "-" + std::to_string(d.until) + ")";
}

// LayerNormalization, which onnxruntime ran in the default domain (as a contrib
// op) before opset 17 made it standard. (The experimental ops of early ONNX
// releases, ImageScaler and the rest, have schemas in op_schemas_extra.txt.)
const std::set<std::string> kExperimental = {"LayerNormalization"};

TEST(KernelRegistry, RowsNameExistingOperatorVersions) {
  const auto& reg = cpu::kernelRegistry();
  ASSERT_FALSE(reg.rows().empty());
  const auto& ops = ir::OpRegistry::instance();
  for (const KernelDef* d : reg.rows()) {
    EXPECT_LE(d->since, d->until) << label(*d);
    EXPECT_FALSE(d->name.empty()) << label(*d);
    EXPECT_NE(d->create, nullptr) << label(*d);
    if (kExperimental.count(std::string(d->op))) continue;
    if (d->domain == "ai.passlab") continue;  // PassLab's own ops: docs/fused-kernels.md
    const ir::OpSchema* s = ops.find(d->domain, d->op, d->since);
    EXPECT_NE(s, nullptr) << label(*d) << ": no such operator at opset " << d->since;
    if (d->typeInput != kAnyType) {
      EXPECT_FALSE(d->types.empty()) << label(*d);
    }
  }
}

TEST(KernelRegistry, RowsOfATierDoNotOverlap) {
  const auto& rows = cpu::kernelRegistry().rows();
  for (size_t i = 0; i < rows.size(); ++i)
    for (size_t j = i + 1; j < rows.size(); ++j) {
      const KernelDef& a = *rows[i];
      const KernelDef& b = *rows[j];
      if (a.domain != b.domain || a.op != b.op || a.tier != b.tier) continue;
      bool opsets = a.since <= b.until && b.since <= a.until;
      bool types =
          (a.types.bits & b.types.bits) != 0 || a.typeInput == kAnyType || b.typeInput == kAnyType;
      EXPECT_FALSE(opsets && types) << label(a) << " overlaps " << label(b);
    }
}

TEST(KernelRegistry, RowsOfAnOpAgreeOnTheDispatchInput) {
  const auto& rows = cpu::kernelRegistry().rows();
  for (const KernelDef* a : rows)
    for (const KernelDef* b : rows)
      if (a->domain == b->domain && a->op == b->op && a->typeInput != kAnyType &&
          b->typeInput != kAnyType)
        EXPECT_EQ(a->typeInput, b->typeInput) << label(*a) << " vs " << label(*b);
}

TEST(KernelRegistry, EveryOptimizedKernelHasAReference) {
  const auto& reg = cpu::kernelRegistry();
  for (const KernelDef* d : reg.rows()) {
    if (d->tier != Tier::kOptimized) continue;
    for (int opset : {d->since, d->until == kOpsetMax ? d->since : d->until}) {
      auto refs = KernelRegistry::forType(reg.find(d->domain, d->op, opset),
                                          ir::DataType::kUndefined, true);
      bool anyType = !refs.empty();
      for (int t = 1; t < ir::kDataTypeCount && !anyType; ++t) {
        auto dt = static_cast<ir::DataType>(t);
        if (!d->types.contains(dt)) continue;
        EXPECT_FALSE(KernelRegistry::forType(reg.find(d->domain, d->op, opset), dt, true).empty())
            << label(*d) << ": no reference kernel for " << ir::dtypeName(dt) << " at opset "
            << opset;
      }
    }
  }
}

TEST(KernelRegistry, FindsByOpsetAndOrdersOptimizedFirst) {
  const auto& reg = cpu::kernelRegistry();
  EXPECT_FALSE(reg.find("", "Relu", 14).empty());
  EXPECT_FALSE(reg.find("ai.onnx", "Relu", 14).empty());
  EXPECT_TRUE(reg.find("", "Relu", 1).empty() || reg.find("", "Relu", 1).front()->since <= 1);
  EXPECT_TRUE(reg.find("", "NoSuchOp", 14).empty());
  auto mm = reg.find("", "MatMul", 13);
  ASSERT_FALSE(mm.empty());
  for (size_t i = 1; i < mm.size(); ++i)
    EXPECT_FALSE(mm[i]->tier == Tier::kOptimized && mm[i - 1]->tier == Tier::kReference);
}

}  // namespace
}  // namespace passlab::exec
