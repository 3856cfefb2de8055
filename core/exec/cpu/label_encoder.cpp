// ai.onnx.ml LabelEncoder: maps keys to values (strings, int64, floats; from
// opset 4 also int32, int16, double and tensor attributes), with a default
// for keys that are not listed. Version 1 maps strings to their index in
// classes_strings and back.
#include <algorithm>
#include <cmath>
#include <cstdio>
#include <map>
#include <string>

#include "core/exec/cpu/families.h"
#include "core/exec/kernel.h"

namespace passlab::exec::cpu {

namespace {

using ir::DataType;

// A key or value as text (numbers exactly, so 0.1f and 0.1 differ as they should).
std::string keyOf(double v) {
  if (v == 0) v = 0;  // -0 matches 0
  char buf[40];
  std::snprintf(buf, sizeof buf, "%a", v);
  return buf;
}

// One column of keys or values: numbers as doubles, or strings.
struct Column {
  DataType type = DataType::kUndefined;
  std::vector<double> nums;
  std::vector<std::string> strs;
  size_t size() const { return type == DataType::kString ? strs.size() : nums.size(); }
  std::string key(size_t i) const { return type == DataType::kString ? strs[i] : keyOf(nums[i]); }
};

// The keys_* or values_* attribute that is set (prefix "keys" or "values").
Expected<Column> readColumn(const ir::Node& n, const std::string& prefix) {
  Column c;
  if (const ir::Attribute* a = n.attr(prefix + "_strings"); a && !a->strings.empty()) {
    c.type = DataType::kString;
    c.strs = a->strings;
  } else if (const ir::Attribute* i = n.attr(prefix + "_int64s"); i && !i->ints.empty()) {
    c.type = DataType::kInt64;
    for (int64_t v : i->ints) c.nums.push_back(static_cast<double>(v));
  } else if (const ir::Attribute* f = n.attr(prefix + "_floats"); f && !f->floats.empty()) {
    c.type = DataType::kFloat;
    for (float v : f->floats) c.nums.push_back(v);
  } else if (const ir::Attribute* t = n.attr(prefix + "_tensor");
             t && t->type() == ir::AttrType::kTensor) {
    c.type = t->t.dtype();
    if (c.type == DataType::kString) {
      c.strs = t->t.strings();
    } else {
      c.nums = t->t.toDoubleVector();
    }
  } else {
    return invalidModel("one of " + prefix + "_strings, " + prefix + "_int64s, " + prefix +
                        "_floats or " + prefix + "_tensor is required");
  }
  return c;
}

class LabelEncoder final : public Kernel {
 public:
  static Expected<std::unique_ptr<Kernel>> create(const KernelBuild& b) {
    const ir::Node& n = b.node();
    auto k = std::unique_ptr<LabelEncoder>(new LabelEncoder());
    if (b.opset() < 2) {
      // classes_strings: string -> its index, int64 -> the string at that index.
      k->legacy_ = true;
      if (const ir::Attribute* a = n.attr("classes_strings")) k->classes_ = a->strings;
      k->defaultInt_ = n.attrInt("default_int64", -1);
      k->defaultStr_ = n.attrString("default_string", "_Unused");
      return std::unique_ptr<Kernel>(std::move(k));
    }
    PASSLAB_ASSIGN_OR_RETURN(k->keys_, readColumn(n, "keys"));
    PASSLAB_ASSIGN_OR_RETURN(k->values_, readColumn(n, "values"));
    if (k->keys_.size() != k->values_.size())
      return invalidModel("keys and values have different lengths (" +
                          std::to_string(k->keys_.size()) + " and " +
                          std::to_string(k->values_.size()) + ")");
    for (size_t i = 0; i < k->keys_.size(); ++i) k->index_.emplace(k->keys_.key(i), i);
    // The default: default_tensor, else the default_* attribute of the value type.
    k->defaultStr_ = n.attrString("default_string", "_Unused");
    k->defaultNum_ = k->values_.type == DataType::kInt64 || k->values_.type == DataType::kInt32 ||
                             k->values_.type == DataType::kInt16
                         ? static_cast<double>(n.attrInt("default_int64", -1))
                         : static_cast<double>(n.attrFloat("default_float", -0.0f));
    if (const ir::Attribute* d = n.attr("default_tensor");
        d && d->type() == ir::AttrType::kTensor) {
      if (d->t.numel() != 1) return invalidModel("default_tensor must hold one value");
      if (d->t.dtype() == DataType::kString) {
        k->defaultStr_ = d->t.strings()[0];
      } else {
        k->defaultNum_ = d->t.valueAsDouble(0);
      }
    }
    return std::unique_ptr<Kernel>(std::move(k));
  }

  Status run(KernelContext& ctx) override {
    const Tensor& x = ctx.input(0);
    if (legacy_) return runLegacy(ctx, x);
    const bool strKeys = keys_.type == DataType::kString;
    if (x.isString() != strKeys)
      return invalidArgument("X " + x.describe() + " does not have the keys' type " +
                             std::string(ir::dtypeName(keys_.type)));
    PASSLAB_ASSIGN_OR_RETURN(Tensor * y, ctx.allocate(0, values_.type, x.dims()));
    std::vector<double> xs;
    if (!strKeys) {
      Status s = dispatch<types::kNumeric>(x.dtype(), [&](auto tag) -> Status {
        using S = typename decltype(tag)::type;
        for (int64_t i = 0; i < x.numel(); ++i)
          xs.push_back(static_cast<double>(load(x.data<S>()[i])));
        return Status::ok();
      });
      if (!s) return s;
    }
    for (int64_t i = 0; i < x.numel(); ++i) {
      const std::string k = strKeys ? x.data<std::string>()[i] : keyOf(xs[static_cast<size_t>(i)]);
      auto it = index_.find(k);
      if (values_.type == DataType::kString) {
        y->mutableData<std::string>()[i] =
            it == index_.end() ? defaultStr_ : values_.strs[it->second];
        continue;
      }
      const double v = it == index_.end() ? defaultNum_ : values_.nums[it->second];
      PASSLAB_RETURN_IF_ERROR(dispatch<types::kNumeric>(values_.type, [&](auto tag) -> Status {
        using S = typename decltype(tag)::type;
        y->mutableData<S>()[i] = store<S>(static_cast<ComputeT<S>>(v));
        return Status::ok();
      }));
    }
    return Status::ok();
  }

 private:
  LabelEncoder() = default;

  Status runLegacy(KernelContext& ctx, const Tensor& x) {
    if (x.isString()) {
      PASSLAB_ASSIGN_OR_RETURN(Tensor * y, ctx.allocate(0, DataType::kInt64, x.dims()));
      for (int64_t i = 0; i < x.numel(); ++i) {
        auto it = std::find(classes_.begin(), classes_.end(), x.data<std::string>()[i]);
        y->mutableData<int64_t>()[i] = it == classes_.end() ? defaultInt_ : it - classes_.begin();
      }
      return Status::ok();
    }
    if (x.dtype() != DataType::kInt64)
      return invalidArgument("X must be string or int64, got " + x.describe());
    PASSLAB_ASSIGN_OR_RETURN(Tensor * y, ctx.allocate(0, DataType::kString, x.dims()));
    for (int64_t i = 0; i < x.numel(); ++i) {
      int64_t v = x.data<int64_t>()[i];
      y->mutableData<std::string>()[i] = v >= 0 && v < static_cast<int64_t>(classes_.size())
                                             ? classes_[static_cast<size_t>(v)]
                                             : defaultStr_;
    }
    return Status::ok();
  }

  bool legacy_ = false;
  std::vector<std::string> classes_;
  int64_t defaultInt_ = -1;
  Column keys_, values_;
  std::map<std::string, size_t> index_;
  std::string defaultStr_;
  double defaultNum_ = 0;
};

constexpr TypeSet kKeyTypes{DataType::kString, DataType::kInt64, DataType::kFloat,
                            DataType::kInt32,  DataType::kInt16, DataType::kDouble};

const KernelDef kRows[] = {
    {"ai.onnx.ml", "LabelEncoder", 1, kOpsetMax, kKeyTypes, 0, Tier::kReference,
     "cpu.ml.LabelEncoder", makeKernel<LabelEncoder>},
};

}  // namespace

std::span<const KernelDef> labelEncoderKernels() {
  return kRows;
}

}  // namespace passlab::exec::cpu
