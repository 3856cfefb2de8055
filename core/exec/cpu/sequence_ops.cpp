// Sequence operators: SequenceConstruct, SequenceEmpty, SequenceAt,
// SequenceInsert, SequenceErase, SequenceLength, SplitToSequence,
// ConcatFromSequence and SequenceMap (a subgraph per element). Sequences are
// immutable and share their tensors; every kernel makes a new one.
#include <algorithm>
#include <string>

#include "core/exec/cpu/data_util.h"
#include "core/exec/cpu/families.h"
#include "core/exec/cpu/transpose.h"
#include "core/exec/kernel.h"

namespace passlab::exec::cpu {

namespace {

Expected<const Sequence*> sequenceInput(KernelContext& ctx, size_t i) {
  const Value* v = ctx.value(i);
  if (v == nullptr || !v->isSequence())
    return invalidArgument("input " + std::to_string(i) + " must be a sequence, got " +
                           (v ? v->describe() : std::string("nothing")));
  return &v->sequence();
}

Expected<const Tensor*> tensorInput(KernelContext& ctx, size_t i) {
  const Value* v = ctx.value(i);
  if (v == nullptr || !v->isTensor())
    return invalidArgument("input " + std::to_string(i) + " must be a tensor, got " +
                           (v ? v->describe() : std::string("nothing")));
  return &v->tensor();
}

// A one-element int32/int64 tensor as int64.
Expected<int64_t> readPosition(const Tensor& t) {
  if (t.numel() != 1) return invalidArgument("position must be a scalar, got " + t.describe());
  PASSLAB_ASSIGN_OR_RETURN(std::vector<int64_t> v, readInts(t, "position"));
  return v[0];
}

// The element type a sequence output declares, else `fallback`.
ir::Type declaredElem(const ir::Node& n, size_t output, ir::Type fallback) {
  const ir::Value* v = n.output(output);
  if (v && v->type().kind() == ir::Type::Kind::kSequence && v->type().inner())
    return *v->type().inner();
  return fallback;
}

// Checks that `t` may join a sequence whose elements are `elem`.
Status checkElement(const ir::Type& elem, const Tensor& t) {
  if (elem.isTensor() && elem.elemType() != ir::DataType::kUndefined &&
      elem.elemType() != t.dtype())
    return invalidArgument("a " + t.describe() + " cannot join a sequence of " + elem.toString());
  return Status::ok();
}

class SequenceConstruct final : public Kernel {
 public:
  Status run(KernelContext& ctx) override {
    Sequence s;
    for (size_t i = 0; i < ctx.inputCount(); ++i) {
      PASSLAB_ASSIGN_OR_RETURN(const Tensor* t, tensorInput(ctx, i));
      if (i == 0) s.elemType = ir::Type::tensor(t->dtype());
      PASSLAB_RETURN_IF_ERROR(checkElement(s.elemType, *t));
      s.items.emplace_back(*t);
    }
    if (s.items.empty()) return invalidArgument("SequenceConstruct needs at least one input");
    ctx.setOutput(0, Value::sequence(std::move(s)));
    return Status::ok();
  }
};

class SequenceEmpty final : public Kernel {
 public:
  static Expected<std::unique_ptr<Kernel>> create(const KernelBuild& b) {
    auto dt = static_cast<ir::DataType>(
        b.node().attrInt("dtype", static_cast<int64_t>(ir::DataType::kFloat)));
    if (!ir::isKnownDtype(static_cast<int32_t>(dt)))
      return invalidModel("dtype " + std::to_string(static_cast<int>(dt)) +
                          " is not an element type");
    return std::unique_ptr<Kernel>(new SequenceEmpty(ir::Type::tensor(dt)));
  }
  Status run(KernelContext& ctx) override {
    ctx.setOutput(0, Value::sequence(Sequence{elem_, {}}));
    return Status::ok();
  }

 private:
  explicit SequenceEmpty(ir::Type elem) : elem_(std::move(elem)) {}
  ir::Type elem_;
};

class SequenceAt final : public Kernel {
 public:
  Status run(KernelContext& ctx) override {
    PASSLAB_ASSIGN_OR_RETURN(const Sequence* s, sequenceInput(ctx, 0));
    PASSLAB_ASSIGN_OR_RETURN(const Tensor* p, tensorInput(ctx, 1));
    PASSLAB_ASSIGN_OR_RETURN(int64_t pos, readPosition(*p));
    const auto n = static_cast<int64_t>(s->items.size());
    if (pos < -n || pos >= n)
      return invalidArgument("position " + std::to_string(pos) + " is out of range [" +
                             std::to_string(-n) + ", " + std::to_string(n) +
                             ") of a sequence of " + std::to_string(n));
    ctx.setOutput(0, s->items[static_cast<size_t>(pos < 0 ? pos + n : pos)]);
    return Status::ok();
  }
};

class SequenceInsert final : public Kernel {
 public:
  Status run(KernelContext& ctx) override {
    PASSLAB_ASSIGN_OR_RETURN(const Sequence* s, sequenceInput(ctx, 0));
    PASSLAB_ASSIGN_OR_RETURN(const Tensor* t, tensorInput(ctx, 1));
    PASSLAB_RETURN_IF_ERROR(checkElement(s->elemType, *t));
    const auto n = static_cast<int64_t>(s->items.size());
    int64_t pos = n;
    if (ctx.has(2)) {
      PASSLAB_ASSIGN_OR_RETURN(const Tensor* p, tensorInput(ctx, 2));
      PASSLAB_ASSIGN_OR_RETURN(pos, readPosition(*p));
      if (pos < -n || pos > n)
        return invalidArgument("position " + std::to_string(pos) + " is out of range [" +
                               std::to_string(-n) + ", " + std::to_string(n) +
                               "] for inserting into a sequence of " + std::to_string(n));
      if (pos < 0) pos += n;
    }
    Sequence out = *s;
    if (out.elemType.isUndefined()) out.elemType = ir::Type::tensor(t->dtype());
    out.items.insert(out.items.begin() + pos, Value(*t));
    ctx.setOutput(0, Value::sequence(std::move(out)));
    return Status::ok();
  }
};

class SequenceErase final : public Kernel {
 public:
  Status run(KernelContext& ctx) override {
    PASSLAB_ASSIGN_OR_RETURN(const Sequence* s, sequenceInput(ctx, 0));
    const auto n = static_cast<int64_t>(s->items.size());
    int64_t pos = n - 1;
    if (ctx.has(1)) {
      PASSLAB_ASSIGN_OR_RETURN(const Tensor* p, tensorInput(ctx, 1));
      PASSLAB_ASSIGN_OR_RETURN(pos, readPosition(*p));
    }
    if (pos < -n || pos >= n)
      return invalidArgument("position " + std::to_string(pos) + " is out of range [" +
                             std::to_string(-n) + ", " + std::to_string(n) +
                             ") of a sequence of " + std::to_string(n));
    if (pos < 0) pos += n;
    Sequence out = *s;
    out.items.erase(out.items.begin() + pos);
    ctx.setOutput(0, Value::sequence(std::move(out)));
    return Status::ok();
  }
};

class SequenceLength final : public Kernel {
 public:
  Status run(KernelContext& ctx) override {
    PASSLAB_ASSIGN_OR_RETURN(const Sequence* s, sequenceInput(ctx, 0));
    PASSLAB_ASSIGN_OR_RETURN(Tensor * y, ctx.allocate(0, ir::DataType::kInt64, {}));
    y->mutableData<int64_t>()[0] = static_cast<int64_t>(s->items.size());
    return Status::ok();
  }
};

// A copy of x[..., start:start+len, ...] along `axis` (heap memory: it outlives the call).
Tensor sliceAxis(const Tensor& x, int64_t axis, int64_t start, int64_t len, bool keepAxis) {
  int64_t outer = 1, inner = 1;
  for (int64_t d = 0; d < axis; ++d) outer *= x.dim(static_cast<size_t>(d));
  for (size_t d = static_cast<size_t>(axis) + 1; d < x.rank(); ++d) inner *= x.dim(d);
  Dims out = x.dims();
  if (keepAxis) {
    out[static_cast<size_t>(axis)] = len;
  } else {
    out.erase(out.begin() + axis);
  }
  Tensor y = Tensor::zeros(x.dtype(), out);
  const int64_t n = x.dim(static_cast<size_t>(axis));
  for (int64_t o = 0; o < outer; ++o)
    copyElements(x, (o * n + start) * inner, y, o * len * inner, len * inner);
  return y;
}

class SplitToSequence final : public Kernel {
 public:
  explicit SplitToSequence(const KernelBuild& b)
      : axis_(b.node().attrInt("axis", 0)), keepDims_(b.node().attrInt("keepdims", 1) != 0) {}

  Status run(KernelContext& ctx) override {
    PASSLAB_ASSIGN_OR_RETURN(const Tensor* xp, tensorInput(ctx, 0));
    const Tensor& x = *xp;
    if (!movable(x.dtype())) return unsupported("SplitToSequence of " + x.describe());
    PASSLAB_ASSIGN_OR_RETURN(int64_t axis, normalizeAxis(axis_, static_cast<int64_t>(x.rank())));
    const int64_t n = x.dim(static_cast<size_t>(axis));
    std::vector<int64_t> lengths;
    bool keep = true;
    if (!ctx.has(1)) {
      lengths.assign(static_cast<size_t>(n), 1);
      keep = keepDims_;
    } else {
      PASSLAB_ASSIGN_OR_RETURN(const Tensor* sp, tensorInput(ctx, 1));
      PASSLAB_ASSIGN_OR_RETURN(std::vector<int64_t> split, readInts(*sp, "split"));
      if (sp->rank() == 0) {
        int64_t chunk = split[0];
        if (chunk <= 0)
          return invalidArgument("split " + std::to_string(chunk) + " must be positive");
        for (int64_t at = 0; at < n; at += chunk) lengths.push_back(std::min(chunk, n - at));
      } else {
        int64_t sum = 0;
        for (int64_t l : split) {
          if (l < 0) return invalidArgument("split has a negative length " + std::to_string(l));
          sum += l;
        }
        if (sum != n)
          return invalidArgument("split " + dimsToString(split) + " sums to " +
                                 std::to_string(sum) + ", but axis " + std::to_string(axis) +
                                 " of " + x.describe() + " has " + std::to_string(n));
        lengths = split;
      }
    }
    Sequence s{ir::Type::tensor(x.dtype()), {}};
    int64_t at = 0;
    for (int64_t len : lengths) {
      s.items.emplace_back(sliceAxis(x, axis, at, len, keep));
      at += len;
    }
    ctx.setOutput(0, Value::sequence(std::move(s)));
    return Status::ok();
  }

 private:
  int64_t axis_;
  bool keepDims_;
};

class ConcatFromSequence final : public Kernel {
 public:
  static Expected<std::unique_ptr<Kernel>> create(const KernelBuild& b) {
    if (!b.node().hasAttr("axis")) return invalidModel("the axis attribute is required");
    return std::unique_ptr<Kernel>(new ConcatFromSequence(b.node().attrInt("axis", 0),
                                                          b.node().attrInt("new_axis", 0) != 0));
  }

  Status run(KernelContext& ctx) override {
    PASSLAB_ASSIGN_OR_RETURN(const Sequence* s, sequenceInput(ctx, 0));
    if (s->items.empty()) return invalidArgument("the input sequence is empty");
    std::vector<const Tensor*> xs;
    for (const Value& v : s->items) {
      if (!v.isTensor()) return invalidArgument("a sequence element is " + v.describe());
      xs.push_back(&v.tensor());
    }
    const Tensor& first = *xs[0];
    if (!movable(first.dtype())) return unsupported("ConcatFromSequence of " + first.describe());
    const auto rank = static_cast<int64_t>(first.rank());
    PASSLAB_ASSIGN_OR_RETURN(int64_t axis, normalizeAxis(axis_, newAxis_ ? rank + 1 : rank));
    // With new_axis each element gets a size-1 dim at `axis` first.
    Dims out = first.dims();
    if (newAxis_) out.insert(out.begin() + axis, 1);
    out[static_cast<size_t>(axis)] = 0;
    std::vector<int64_t> sizes;
    for (const Tensor* x : xs) {
      Dims d = x->dims();
      if (newAxis_) d.insert(d.begin() + axis, 1);
      bool ok = x->dtype() == first.dtype() && d.size() == out.size();
      for (size_t k = 0; ok && k < d.size(); ++k)
        ok = static_cast<int64_t>(k) == axis || d[k] == out[k];
      if (!ok)
        return invalidArgument("elements " + first.describe() + " and " + x->describe() +
                               " do not concatenate along axis " + std::to_string(axis));
      sizes.push_back(d[static_cast<size_t>(axis)]);
      out[static_cast<size_t>(axis)] += sizes.back();
    }
    PASSLAB_ASSIGN_OR_RETURN(Tensor * y, ctx.allocate(0, first.dtype(), out));
    int64_t outer = 1, inner = 1;
    for (int64_t d = 0; d < axis; ++d) outer *= out[static_cast<size_t>(d)];
    for (size_t d = static_cast<size_t>(axis) + 1; d < out.size(); ++d) inner *= out[d];
    const int64_t outBlock = out[static_cast<size_t>(axis)] * inner;
    int64_t offset = 0;
    for (size_t i = 0; i < xs.size(); ++i) {
      const int64_t block = sizes[i] * inner;
      for (int64_t o = 0; o < outer; ++o)
        copyElements(*xs[i], o * block, *y, o * outBlock + offset, block);
      offset += block;
    }
    return Status::ok();
  }

 private:
  ConcatFromSequence(int64_t axis, bool newAxis) : axis_(axis), newAxis_(newAxis) {}
  int64_t axis_;
  bool newAxis_;
};

// Runs `body` once per element of the first input; sequence inputs give their
// i-th element, tensor inputs are passed whole. Each body output becomes a sequence.
class SequenceMap final : public Kernel {
 public:
  static Expected<std::unique_ptr<Kernel>> create(const KernelBuild& b) {
    auto body = b.subgraph("body");
    if (!body) return body.error();
    return std::unique_ptr<Kernel>(new SequenceMap(*body, b.node()));
  }

  Status run(KernelContext& ctx) override {
    PASSLAB_ASSIGN_OR_RETURN(const Sequence* s, sequenceInput(ctx, 0));
    const size_t n = s->items.size();
    for (size_t k = 1; k < ctx.inputCount(); ++k) {
      const Value* v = ctx.value(k);
      if (v == nullptr || v->isNone())
        return invalidArgument("additional input " + std::to_string(k) + " is missing");
      if (v->isSequence() && v->sequence().items.size() != n)
        return invalidArgument("input sequence " + std::to_string(k) + " has " +
                               std::to_string(v->sequence().items.size()) +
                               " elements, the first has " + std::to_string(n));
    }
    std::vector<Sequence> outs(ctx.outputCount());
    for (size_t o = 0; o < outs.size(); ++o) outs[o].elemType = outElem_[o];
    for (size_t i = 0; i < n; ++i) {
      if (ctx.cancelled()) return Error(ErrorCode::kCancelled, "run cancelled in SequenceMap");
      std::vector<Value> in = {s->items[i]};
      for (size_t k = 1; k < ctx.inputCount(); ++k) {
        const Value* v = ctx.value(k);
        in.push_back(v->isSequence() ? v->sequence().items[i] : *v);
      }
      PASSLAB_ASSIGN_OR_RETURN(std::vector<Value> res, ctx.runSubgraph(*body_, std::move(in)));
      if (res.size() < outs.size())
        return invalidModel("the body has " + std::to_string(res.size()) + " outputs, the node " +
                            std::to_string(outs.size()));
      for (size_t o = 0; o < outs.size(); ++o) {
        if (!res[o].isTensor())
          return invalidArgument("body output " + std::to_string(o) + " is " + res[o].describe() +
                                 ", a tensor was expected");
        if (outs[o].elemType.isUndefined())
          outs[o].elemType = ir::Type::tensor(res[o].tensor().dtype());
        outs[o].items.push_back(std::move(res[o]));
      }
    }
    for (size_t o = 0; o < outs.size(); ++o) ctx.setOutput(o, Value::sequence(std::move(outs[o])));
    return Status::ok();
  }

 private:
  SequenceMap(const CompiledGraph* body, const ir::Node& n) : body_(body) {
    for (size_t o = 0; o < n.outputCount(); ++o) outElem_.push_back(declaredElem(n, o, {}));
  }
  const CompiledGraph* body_;
  std::vector<ir::Type> outElem_;
};

const KernelDef kRows[] = {
    {"", "SequenceConstruct", 11, kOpsetMax, types::kAll, kAnyType, Tier::kReference,
     "cpu.SequenceConstruct", makeKernel<SequenceConstruct>, kValueInputs},
    {"", "SequenceEmpty", 11, kOpsetMax, types::kAll, kAnyType, Tier::kReference,
     "cpu.SequenceEmpty", makeKernel<SequenceEmpty>, kValueInputs},
    {"", "SequenceAt", 11, kOpsetMax, types::kAll, kAnyType, Tier::kReference, "cpu.SequenceAt",
     makeKernel<SequenceAt>, kValueInputs},
    {"", "SequenceInsert", 11, kOpsetMax, types::kAll, kAnyType, Tier::kReference,
     "cpu.SequenceInsert", makeKernel<SequenceInsert>, kValueInputs},
    {"", "SequenceErase", 11, kOpsetMax, types::kAll, kAnyType, Tier::kReference,
     "cpu.SequenceErase", makeKernel<SequenceErase>, kValueInputs},
    {"", "SequenceLength", 11, kOpsetMax, types::kAll, kAnyType, Tier::kReference,
     "cpu.SequenceLength", makeKernel<SequenceLength>, kValueInputs},
    {"", "SplitToSequence", 11, kOpsetMax, types::kAll, kAnyType, Tier::kReference,
     "cpu.SplitToSequence", makeKernel<SplitToSequence>, kValueInputs},
    {"", "ConcatFromSequence", 11, kOpsetMax, types::kAll, kAnyType, Tier::kReference,
     "cpu.ConcatFromSequence", makeKernel<ConcatFromSequence>, kValueInputs},
    {"", "SequenceMap", 17, kOpsetMax, types::kAll, kAnyType, Tier::kReference, "cpu.SequenceMap",
     makeKernel<SequenceMap>, kValueInputs},
};

}  // namespace

std::span<const KernelDef> sequenceKernels() {
  return kRows;
}

}  // namespace passlab::exec::cpu
