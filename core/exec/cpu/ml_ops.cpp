// ai.onnx.ml operators the corpus classifiers end with: ArrayFeatureExtractor
// (pick columns) and ZipMap (rows to label -> score maps).
#include "core/exec/cpu/data_util.h"
#include "core/exec/cpu/families.h"
#include "core/exec/kernel.h"

namespace passlab::exec::cpu {

namespace {

class ArrayFeatureExtractor final : public Kernel {
 public:
  Status run(KernelContext& ctx) override {
    const Tensor& x = ctx.input(0);
    if (!movable(x.dtype()) || x.rank() == 0)
      return invalidArgument("X must be a tensor of rank 1 or more, got " + x.describe());
    PASSLAB_ASSIGN_OR_RETURN(std::vector<int64_t> idx, readInts(ctx.input(1), "Y"));
    const int64_t n = x.dim(x.rank() - 1);
    for (int64_t i : idx)
      if (i < 0 || i >= n)
        return invalidArgument("index " + std::to_string(i) + " is out of range [0, " +
                               std::to_string(n) + ")");
    Dims out(x.dims().begin(), x.dims().end() - 1);
    if (out.empty()) out.push_back(1);
    out.push_back(static_cast<int64_t>(idx.size()));
    PASSLAB_ASSIGN_OR_RETURN(Tensor * y, ctx.allocate(0, x.dtype(), out));
    const int64_t rows = n == 0 ? 0 : x.numel() / n;
    for (int64_t r = 0; r < rows; ++r)
      for (size_t j = 0; j < idx.size(); ++j)
        copyElements(x, r * n + idx[j], *y,
                     r * static_cast<int64_t>(idx.size()) + static_cast<int64_t>(j), 1);
    return Status::ok();
  }
};

class ZipMap final : public Kernel {
 public:
  static Expected<std::unique_ptr<Kernel>> create(const KernelBuild& b) {
    auto ints = b.node().attrInts("classlabels_int64s");
    const ir::Attribute* s = b.node().attr("classlabels_strings");
    std::vector<std::string> strings = s ? s->strings : std::vector<std::string>{};
    if (ints.empty() == strings.empty())
      return invalidModel("ZipMap needs exactly one of classlabels_int64s and classlabels_strings");
    return std::unique_ptr<Kernel>(new ZipMap(std::move(ints), std::move(strings)));
  }

  Status run(KernelContext& ctx) override {
    const Tensor& x = ctx.input(0);
    if (x.dtype() != ir::DataType::kFloat || x.rank() == 0 || x.rank() > 2)
      return invalidArgument("X must be a float tensor of rank 1 or 2, got " + x.describe());
    const size_t labels = intLabels_.empty() ? strLabels_.size() : intLabels_.size();
    const int64_t cols = x.dim(x.rank() - 1);
    if (static_cast<size_t>(cols) != labels)
      return invalidArgument("X has " + std::to_string(cols) + " columns for " +
                             std::to_string(labels) + " class labels");
    const int64_t rows = x.rank() == 2 ? x.dim(0) : 1;
    bool byInt = !intLabels_.empty();
    Tensor keys = byInt ? Tensor::fromVector<int64_t>(ir::DataType::kInt64,
                                                      {static_cast<int64_t>(labels)}, intLabels_)
                        : Tensor::zeros(ir::DataType::kString, {static_cast<int64_t>(labels)});
    if (!byInt)
      for (size_t i = 0; i < labels; ++i) keys.mutableData<std::string>()[i] = strLabels_[i];
    Sequence seq;
    seq.elemType = ir::Type::map(byInt ? ir::DataType::kInt64 : ir::DataType::kString,
                                 ir::Type::tensor(ir::DataType::kFloat));
    for (int64_t r = 0; r < rows; ++r) {
      Tensor values = Tensor::zeros(ir::DataType::kFloat, {cols});
      std::copy(x.data<float>() + r * cols, x.data<float>() + (r + 1) * cols,
                values.mutableData<float>());
      seq.items.push_back(Value::map(Map{keys, std::move(values)}));
    }
    ctx.setOutput(0, Value::sequence(std::move(seq)));
    return Status::ok();
  }

 private:
  ZipMap(std::vector<int64_t> ints, std::vector<std::string> strings)
      : intLabels_(std::move(ints)), strLabels_(std::move(strings)) {}
  std::vector<int64_t> intLabels_;
  std::vector<std::string> strLabels_;
};

constexpr TypeSet kFeatureTypes = types::kFloats | types::kInts | types::kString | types::kBool;

const KernelDef kRows[] = {
    {"ai.onnx.ml", "ArrayFeatureExtractor", 1, kOpsetMax, kFeatureTypes, 0, Tier::kReference,
     "cpu.ml.ArrayFeatureExtractor", makeKernel<ArrayFeatureExtractor>},
    {"ai.onnx.ml", "ZipMap", 1, kOpsetMax, types::kFloat32, 0, Tier::kReference, "cpu.ml.ZipMap",
     makeKernel<ZipMap>},
};

}  // namespace

std::span<const KernelDef> mlKernels() {
  return kRows;
}

}  // namespace passlab::exec::cpu
