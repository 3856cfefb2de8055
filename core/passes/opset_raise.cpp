// The opset raise of core/passes/opset_raise.h: every node judged first,
// then the nodes whose form changed rewritten (see raise_opset.cpp).
#include "core/passes/opset_raise.h"

#include <utility>

#include "core/ir/op_schema.h"
#include "core/passes/fusion_utils.h"
#include "core/passes/rule_helpers.h"
#include "core/rewrite/driver.h"

namespace passlab::passes {

namespace {

// A parameter that an attribute gave up to `since` and an input gives from it.
struct MovedParam {
  std::string_view op;
  int since;
  std::string_view attr;
  size_t input;
  bool scalarOfDataType;  // a scalar of input 0's type (Clip's min/max, Pad's value), else int64s
};
constexpr MovedParam kMoved[] = {
    {"Slice", 10, "starts", 1, false}, {"Slice", 10, "ends", 2, false},
    {"Slice", 10, "axes", 3, false},   {"TopK", 10, "k", 1, false},
    {"Clip", 11, "min", 1, true},      {"Clip", 11, "max", 2, true},
    {"Pad", 11, "pads", 1, false},     {"Pad", 11, "value", 2, true},
    {"Squeeze", 13, "axes", 1, false}, {"Unsqueeze", 13, "axes", 1, false},
    {"Split", 13, "split", 1, false},  {"ReduceSum", 13, "axes", 1, false},
};

bool isSoftmaxFamily(std::string_view op) {
  return op == "Softmax" || op == "LogSoftmax" || op == "Hardmax";
}

// The node's first input's rank, or -1.
int64_t rankOf(const ir::Node& n) {
  const ir::Value* v = n.input(0);
  if (!v || !v->type().isTensor() || !v->type().shape()) return -1;
  return static_cast<int64_t>(v->type().shape()->rank());
}

bool sameParams(const std::vector<ir::FormalParam>& a, const std::vector<ir::FormalParam>& b,
                bool bMayAppendOptional) {
  if (b.size() < a.size() || (!bMayAppendOptional && b.size() != a.size())) return false;
  // A parameter that became optional (Gemm's C at 11) takes what it took.
  auto compatible = [](ir::ParamOption was, ir::ParamOption is) {
    return was == is || (was == ir::ParamOption::kSingle && is == ir::ParamOption::kOptional);
  };
  for (size_t i = 0; i < a.size(); ++i)
    if (a[i].name != b[i].name || !compatible(a[i].option, b[i].option)) return false;
  for (size_t i = a.size(); i < b.size(); ++i)
    if (b[i].option != ir::ParamOption::kOptional) return false;
  return true;
}

class Raiser {
 public:
  Raiser(rewrite::Rewriter& rw, int64_t target)
      : rw_(rw), from_(rw.model().opsetVersion("").value_or(1)), to_(target) {}

  Text whyNotAll() {
    for (ir::Node* n : nodes())
      if (Text why = whyNot(*n); !why.empty())
        return Text::of("%1 cannot be raised from opset %2 to %3: %4", n->describe(),
                        std::to_string(from_), std::to_string(to_), why);
    return "";
  }

  const ir::Node* firstRewrittenOutside(const rewrite::NodeFilter& filter) const {
    for (ir::Node* n : nodes())
      if (!filter.allows(n->id()) && rewrites(*n)) return n;
    return nullptr;
  }

  size_t apply() {
    std::vector<ir::Node*> all = nodes();
    rw_.setOpsetVersion("", to_);
    for (ir::Node* n : all) convert(*n);
    return rewritten_;
  }

 private:
  std::vector<ir::Node*> nodes() const {
    std::vector<ir::Node*> out;
    rw_.model().graph().forEachNodeRecursive([&](ir::Node* n) {
      if (n->domain().empty()) out.push_back(n);
    });
    return out;
  }

  const ir::OpSchema* schemaAt(const ir::Node& n, int64_t v) const {
    return ir::OpRegistry::instance().find(n, v);
  }

  bool changedBetween(const ir::Node& n) const {
    const ir::OpSchema* a = schemaAt(n, from_);
    const ir::OpSchema* b = schemaAt(n, to_);
    return a != b;
  }

  // Whether convert() edits `n` (true where it may: Softmax's axis, Dropout,
  // BatchNormalization).
  bool rewrites(const ir::Node& n) const {
    if (n.opType() == "ImageScaler") return true;
    if (!changedBetween(n)) return false;
    const std::string& op = n.opType();
    if (op == "Upsample" || isSoftmaxFamily(op) || op == "Dropout" || op == "BatchNormalization")
      return true;
    return firstMoved(n) != nullptr;
  }

  // "" when `n` can mean the same at opset to_; else why not.
  Text whyNot(const ir::Node& n) const {
    const ir::OpSchema* a = schemaAt(n, from_);
    const ir::OpSchema* b = schemaAt(n, to_);
    if (!a) return Text::of("%1 is not an op of opset %2", n.opType(), std::to_string(from_));
    if (a == b) return "";
    const std::string& op = n.opType();
    if (op == "Upsample") return whyNotUpsample(n);
    if (op == "ImageScaler") return "";
    if (!b || b->deprecated)
      return Text::of("%1 is not an op of opset %2", op, std::to_string(to_));
    if (isSoftmaxFamily(op) && a->sinceVersion < 13 && b->sinceVersion >= 13) {
      if (rankOf(n) < 0) return "its input's rank is unknown (the axis changed meaning at 13)";
      return "";
    }
    if (op == "Dropout" && n.outputs().size() > 1 && n.output(1) &&
        (n.output(1)->hasUses() || n.output(1)->isGraphOutput()))
      return "its mask is read (its type changed at 10)";
    if (op == "BatchNormalization" && n.hasAttr("spatial") && n.attrInt("spatial", 1) != 1)
      return "spatial = 0 has no form after opset 9";
    for (const ir::Attribute& attr : n.attributes()) {
      if (b->attr(attr.name()) || movedParam(n, attr.name())) continue;
      if ((op == "BatchNormalization" && attr.name() == "spatial") ||
          (op == "Dropout" && attr.name() == "ratio"))
        continue;  // spatial 1 is the only form left; an inference Dropout ignores its ratio
      return Text::of("its attribute '%1' is gone by opset %2", attr.name(),
                      std::to_string(b->sinceVersion));
    }
    if (const MovedParam* m = firstMoved(n); m && m->scalarOfDataType && !isFloatInput(n))
      return Text::of("'%1' would become a constant of a type other than float",
                      std::string(m->attr));
    if (!sameParams(a->outputs, b->outputs, true)) return "its outputs changed";
    if (hasMovedParams(op)) return "";
    if (!sameParams(a->inputs, b->inputs, true)) return "its inputs changed";
    for (const ir::AttrSpec& s : b->attributes)
      if (s.required && !n.hasAttr(s.name))
        return Text::of("opset %1 requires its attribute '%2'", std::to_string(to_), s.name);
    return "";
  }

  Text whyNotUpsample(const ir::Node& n) const {
    const std::string mode = n.attrString("mode", "nearest");
    if (mode != "nearest" && mode != "linear" && mode != "bilinear")
      return Text::of("Upsample mode '%1' has no Resize form", mode);
    if (!n.hasAttr("scales") && !n.input(1)) return "Upsample has no scales";
    return "";
  }

  bool isFloatInput(const ir::Node& n) const {
    const ir::Value* v = n.input(0);
    return v && v->type().isTensor() && v->type().elemType() == ir::DataType::kFloat;
  }

  const MovedParam* movedParam(const ir::Node& n, std::string_view attr) const {
    for (const MovedParam& m : kMoved)
      if (m.op == n.opType() && m.attr == attr && from_ < m.since && to_ >= m.since) return &m;
    return nullptr;
  }
  const MovedParam* firstMoved(const ir::Node& n) const {
    for (const ir::Attribute& a : n.attributes())
      if (const MovedParam* m = movedParam(n, a.name())) return m;
    return nullptr;
  }
  bool hasMovedParams(std::string_view op) const {
    for (const MovedParam& m : kMoved)
      if (m.op == op && from_ < m.since && to_ >= m.since) return true;
    return false;
  }

  void convert(ir::Node& n) {
    if (!changedBetween(n) && n.opType() != "ImageScaler") return;
    const std::string& op = n.opType();
    const size_t before = rw_.log().size();
    if (op == "Upsample") {
      upsampleToResize(n);
    } else if (op == "ImageScaler") {
      imageScalerToMulAdd(n);
    } else if (isSoftmaxFamily(op)) {
      softmaxAxis(n);
    } else if (op == "Dropout") {
      rw_.removeAttr(&n, "ratio");
      // An unread mask (whyNot refuses a read one) is bool from opset 10.
      ir::Value* mask = n.outputs().size() > 1 ? n.output(1) : nullptr;
      if (mask && from_ < 10 && mask->type().isTensor())
        rw_.setType(mask, ir::Type::tensor(ir::DataType::kBool, mask->type().shape()));
    } else if (op == "BatchNormalization") {
      rw_.removeAttr(&n, "spatial");
    } else {
      moveParams(n);
    }
    if (rw_.log().size() != before) ++rewritten_;
  }

  void moveParams(ir::Node& n) {
    std::vector<const MovedParam*> moved;
    for (const ir::Attribute& a : std::as_const(n).attributes())
      if (const MovedParam* m = movedParam(n, a.name())) moved.push_back(m);
    for (const MovedParam* m : moved) {
      const ir::Attribute* a = n.attr(m->attr);
      ir::Tensor value =
          m->scalarOfDataType
              ? ir::Tensor::scalarFloat(a->f)
              : ir::Tensor::fromInt64s(a->type() == ir::AttrType::kInt ? std::vector<int64_t>{a->i}
                                                                       : a->ints);
      // Pad's missing `value` input is 0 and Clip's missing bounds are none:
      // a lower input needs the ones before it (an empty name when absent).
      ir::Value* c = addConstant(rw_, *n.owner(), &n, std::string(m->attr), std::move(value), {&n});
      rw_.setInput(&n, m->input, c);
      rw_.removeAttr(&n, std::string(m->attr));
    }
  }

  void softmaxAxis(ir::Node& n) {
    const int64_t r = rankOf(n);
    int64_t axis = n.attrInt("axis", 1);
    if (axis < 0) axis += r;
    if (axis == r - 1) {
      rw_.setAttr(&n, ir::Attribute::makeInt("axis", axis));
      return;
    }
    // Old meaning: the op on [prod(dims < axis), prod(dims >= axis)].
    const std::vector<const ir::Node*> from{&n};
    ir::Node* flat = fusion::addDerived(rw_, "Flatten", {n.input(0)}, &n, from);
    rw_.setAttr(flat, ir::Attribute::makeInt("axis", axis));
    ir::Node* op = fusion::addDerived(rw_, n.opType(), {flat->output(0)}, &n, from);
    rw_.setAttr(op, ir::Attribute::makeInt("axis", 1));
    ir::Node* shape = fusion::addDerived(rw_, "Shape", {n.input(0)}, &n, from);
    ir::Node* back = fusion::addDerived(rw_, "Reshape", {op->output(0), shape->output(0)}, &n, from,
                                        nullptr, {n.output(0)});
    fusion::replaceAndErase(rw_, n.output(0), back->output(0), {&n});
  }

  // The scales attribute, with two values read as NCHW height and width in a
  // model of IR version below 3 (Upsample-1's form, as the executor reads
  // them: exec/legacy_repairs.h), so Resize gets one per axis.
  std::vector<float> upsampleScales(const ir::Node& n) const {
    std::vector<float> scales = n.attrFloats("scales");
    if (scales.size() == 2 && rw_.model().irVersion < 3)
      scales.insert(scales.begin(), {1.0f, 1.0f});
    return scales;
  }

  void upsampleToResize(ir::Node& n) {
    const std::vector<const ir::Node*> from{&n};
    ir::Value* scales = n.input(1);
    if (!scales) {
      const std::vector<float> values = upsampleScales(n);
      scales = addConstant(rw_, *n.owner(), &n, "scales",
                           ir::Tensor::fromVector<float>(
                               ir::DataType::kFloat, {static_cast<int64_t>(values.size())}, values),
                           from);
    }
    ir::Node* r = fusion::addDerived(rw_, "Resize", {n.input(0), nullptr, scales}, &n, from,
                                     nullptr, {n.output(0)});
    const bool nearest = n.attrString("mode", "nearest") == "nearest";
    rw_.setAttr(r, ir::Attribute::makeString("mode", nearest ? "nearest" : "linear"));
    rw_.setAttr(r, ir::Attribute::makeString("coordinate_transformation_mode", "asymmetric"));
    if (nearest) rw_.setAttr(r, ir::Attribute::makeString("nearest_mode", "floor"));
    fusion::replaceAndErase(rw_, n.output(0), r->output(0), {&n});
  }

  // ImageScaler(x) = scale * x + bias[c], over [N, C, H, W].
  void imageScalerToMulAdd(ir::Node& n) {
    const std::vector<const ir::Node*> from{&n};
    const ir::Attribute* b = n.attr("bias");
    const std::vector<float> bias = b ? b->floats : std::vector<float>{};
    ir::Value* s = addConstant(rw_, *n.owner(), &n, "scale",
                               ir::Tensor::scalarFloat(n.attrFloat("scale", 1.0f)), from);
    ir::Node* mul =
        fusion::addDerived(rw_, "Mul", {n.input(0), s}, &n, from, nullptr, {n.output(0)});
    ir::Value* result = mul->output(0);
    if (!bias.empty()) {
      ir::Value* bv =
          addConstant(rw_, *n.owner(), &n, "bias",
                      ir::Tensor::fromVector<float>(
                          ir::DataType::kFloat, {1, static_cast<int64_t>(bias.size()), 1, 1}, bias),
                      from);
      result =
          fusion::addDerived(rw_, "Add", {result, bv}, &n, from, nullptr, {n.output(0)})->output(0);
    }
    fusion::replaceAndErase(rw_, n.output(0), result, {&n});
  }

  rewrite::Rewriter& rw_;
  int64_t from_ = 1, to_ = 13;
  size_t rewritten_ = 0;
};

}  // namespace

Text whyNotRaiseOpset(rewrite::Rewriter& rw, int64_t target) {
  return Raiser(rw, target).whyNotAll();
}

size_t raiseOpset(rewrite::Rewriter& rw, int64_t target) {
  return Raiser(rw, target).apply();
}

const ir::Node* raiseRewritesOutside(rewrite::Rewriter& rw, int64_t target,
                                     const rewrite::NodeFilter& filter) {
  return Raiser(rw, target).firstRewrittenOutside(filter);
}

}  // namespace passlab::passes
