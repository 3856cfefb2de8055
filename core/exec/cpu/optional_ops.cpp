// Optional, OptionalHasElement and OptionalGetElement. A non-empty optional
// is its element (a tensor or a sequence); an empty one is a none value that
// keeps its type.
#include <string>

#include "core/exec/cpu/families.h"
#include "core/exec/kernel.h"

namespace passlab::exec::cpu {

namespace {

// Optional(input) wraps it; Optional() with the `type` attribute is an empty optional.
class Optional final : public Kernel {
 public:
  static Expected<std::unique_ptr<Kernel>> create(const KernelBuild& b) {
    ir::Type type;
    if (const ir::Attribute* a = b.node().attr("type"); a && a->type() == ir::AttrType::kTypeProto)
      type = a->tp;
    bool hasInput = b.node().inputCount() > 0 && b.node().input(0) != nullptr;
    if (!hasInput && type.isUndefined())
      return invalidModel("an Optional without an input needs the type attribute");
    return std::unique_ptr<Kernel>(new Optional(std::move(type)));
  }

  Status run(KernelContext& ctx) override {
    const Value* v = ctx.value(0);
    if (v == nullptr || v->isNone()) {
      ctx.setOutput(0, Value::none(ir::Type::optional(type_)));
      return Status::ok();
    }
    ctx.setOutput(0, *v);
    return Status::ok();
  }

 private:
  explicit Optional(ir::Type type) : type_(std::move(type)) {}
  ir::Type type_;
};

class OptionalHasElement final : public Kernel {
 public:
  Status run(KernelContext& ctx) override {
    PASSLAB_ASSIGN_OR_RETURN(Tensor * y, ctx.allocate(0, ir::DataType::kBool, {}));
    y->mutableData<bool>()[0] = ctx.has(0);
    return Status::ok();
  }
};

class OptionalGetElement final : public Kernel {
 public:
  Status run(KernelContext& ctx) override {
    if (!ctx.has(0)) return invalidArgument("the optional input is empty");
    ctx.setOutput(0, *ctx.value(0));
    return Status::ok();
  }
};

const KernelDef kRows[] = {
    {"", "Optional", 15, kOpsetMax, types::kAll, kAnyType, Tier::kReference, "cpu.Optional",
     makeKernel<Optional>, kValueInputs},
    {"", "OptionalHasElement", 15, kOpsetMax, types::kAll, kAnyType, Tier::kReference,
     "cpu.OptionalHasElement", makeKernel<OptionalHasElement>, kValueInputs},
    {"", "OptionalGetElement", 15, kOpsetMax, types::kAll, kAnyType, Tier::kReference,
     "cpu.OptionalGetElement", makeKernel<OptionalGetElement>, kValueInputs},
};

}  // namespace

std::span<const KernelDef> optionalKernels() {
  return kRows;
}

}  // namespace passlab::exec::cpu
