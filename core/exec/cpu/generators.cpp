// Operators that make tensors: Constant (its attribute, used in place) and
// ConstantOfShape (a fill).
#include <cstring>

#include "core/exec/cpu/data_util.h"
#include "core/exec/cpu/families.h"
#include "core/exec/kernel.h"

namespace passlab::exec::cpu {

namespace {

class Constant final : public Kernel {
 public:
  static Expected<std::unique_ptr<Kernel>> create(const KernelBuild& b) {
    const ir::Node& n = b.node();
    ir::Tensor t;
    if (const ir::Attribute* a = n.attr("value"); a && a->type() == ir::AttrType::kTensor) {
      t = a->t;
    } else if (const ir::Attribute* f = n.attr("value_float")) {
      t = ir::Tensor::scalarFloat(f->f);
    } else if (const ir::Attribute* fs = n.attr("value_floats")) {
      t = ir::Tensor::fromVector<float>(ir::DataType::kFloat,
                                        {static_cast<int64_t>(fs->floats.size())}, fs->floats);
    } else if (const ir::Attribute* i = n.attr("value_int")) {
      t = ir::Tensor::scalarInt64(i->i);
    } else if (const ir::Attribute* is = n.attr("value_ints")) {
      t = ir::Tensor::fromInt64s(is->ints);
    } else if (const ir::Attribute* s = n.attr("value_string")) {
      t = ir::Tensor::fromStrings({}, {s->s});
    } else if (const ir::Attribute* ss = n.attr("value_strings")) {
      t = ir::Tensor::fromStrings({static_cast<int64_t>(ss->strings.size())}, ss->strings);
    } else if (n.hasAttr("sparse_value")) {
      return unsupported("Constant with a sparse_value");
    } else {
      return invalidModel("Constant has no value attribute");
    }
    if (t.dtype() != ir::DataType::kString && t.buffer() && t.buffer()->size() < t.expectedBytes())
      return invalidModel("the Constant's tensor holds fewer bytes than its dims need");
    return std::unique_ptr<Kernel>(new Constant(Tensor::fromIr(t)));
  }

  Status run(KernelContext& ctx) override {
    ctx.setOutput(0, value_);
    return Status::ok();
  }

 private:
  explicit Constant(Tensor v) : value_(std::move(v)) {}
  Tensor value_;
};

class ConstantOfShape final : public Kernel {
 public:
  static Expected<std::unique_ptr<Kernel>> create(const KernelBuild& b) {
    ir::Tensor v = ir::Tensor::scalarFloat(0.0f);
    if (const ir::Attribute* a = b.node().attr("value"); a && a->type() == ir::AttrType::kTensor)
      v = a->t;
    if (v.numel() != 1) return invalidModel("value must hold one element");
    if (v.dtype() == ir::DataType::kString || elementSize(v.dtype()) == 0)
      return unsupported("ConstantOfShape of " + std::string(ir::dtypeName(v.dtype())));
    return std::unique_ptr<Kernel>(new ConstantOfShape(Tensor::fromIr(v)));
  }

  Status run(KernelContext& ctx) override {
    PASSLAB_ASSIGN_OR_RETURN(std::vector<int64_t> shape, readInts(ctx.input(0), "shape"));
    for (int64_t d : shape)
      if (d < 0) return invalidArgument("shape " + dimsToString(shape) + " has a negative dim");
    PASSLAB_ASSIGN_OR_RETURN(Tensor * y, ctx.allocate(0, value_.dtype(), shape));
    size_t es = elementSize(value_.dtype());
    auto* out = static_cast<std::byte*>(y->mutableRaw());
    const int64_t n = y->numel();
    bool zero = true;
    for (size_t i = 0; i < es; ++i)
      zero = zero && static_cast<const std::byte*>(value_.raw())[i] == std::byte{0};
    if (zero) {
      std::memset(out, 0, y->byteSize());
    } else if (es == 4) {
      uint32_t v;
      std::memcpy(&v, value_.raw(), 4);
      std::fill(reinterpret_cast<uint32_t*>(out), reinterpret_cast<uint32_t*>(out) + n, v);
    } else {
      for (int64_t i = 0; i < n; ++i) std::memcpy(out + i * es, value_.raw(), es);
    }
    return Status::ok();
  }

 private:
  explicit ConstantOfShape(Tensor v) : value_(std::move(v)) {}
  Tensor value_;
};

const KernelDef kRows[] = {
    {"", "Constant", 1, kOpsetMax, types::kAll, kAnyType, Tier::kReference, "cpu.Constant",
     makeKernel<Constant>},
    {"", "ConstantOfShape", 9, kOpsetMax, types::kAll, kAnyType, Tier::kReference,
     "cpu.ConstantOfShape", makeKernel<ConstantOfShape>},
};

}  // namespace

std::span<const KernelDef> generatorKernels() {
  return kRows;
}

}  // namespace passlab::exec::cpu
