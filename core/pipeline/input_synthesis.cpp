#include "core/pipeline/input_synthesis.h"

#include <algorithm>
#include <cctype>
#include <cmath>
#include <functional>
#include <random>
#include <set>
#include <string_view>
#include <unordered_map>

#include "core/ir/graph.h"
#include "core/pipeline/graph_facts.h"
#include "core/pipeline/window_walk.h"
#include "core/support/float16.h"
#include "core/support/strings.h"

namespace passlab::pipeline {

namespace {

std::string num(double d) {
  char buf[32];
  if (d == std::floor(d) && std::fabs(d) < 1e15)
    std::snprintf(buf, sizeof buf, "%lld", static_cast<long long>(d));
  else
    std::snprintf(buf, sizeof buf, "%g", d);
  return buf;
}

// Writes next(i) into every element of `t` (numeric and bool types).
Status storeValues(ir::Tensor& t, const std::string& name,
                   const std::function<double(int64_t)>& next) {
  const int64_t n = t.numel();
  auto fill = [&](auto* data, auto conv) {
    for (int64_t i = 0; i < n; ++i) data[i] = conv(next(i));
  };
  switch (t.dtype()) {
    case ir::DataType::kFloat:
      fill(t.mutableData<float>().data(), [](double x) { return float(x); });
      break;
    case ir::DataType::kDouble:
      fill(t.mutableData<double>().data(), [](double x) { return x; });
      break;
    case ir::DataType::kFloat16:
      fill(t.mutableData<uint16_t>().data(), [](double x) { return floatToHalf(float(x)); });
      break;
    case ir::DataType::kBFloat16:
      fill(t.mutableData<uint16_t>().data(), [](double x) { return floatToBfloat16(float(x)); });
      break;
    case ir::DataType::kInt64:
      fill(t.mutableData<int64_t>().data(), [](double x) { return int64_t(x); });
      break;
    case ir::DataType::kInt32:
      fill(t.mutableData<int32_t>().data(), [](double x) { return int32_t(x); });
      break;
    case ir::DataType::kInt16:
      fill(t.mutableData<int16_t>().data(), [](double x) { return int16_t(x); });
      break;
    case ir::DataType::kInt8:
      fill(t.mutableData<int8_t>().data(), [](double x) { return int8_t(x); });
      break;
    case ir::DataType::kUInt8:
      fill(t.mutableData<uint8_t>().data(), [](double x) { return uint8_t(x); });
      break;
    case ir::DataType::kBool:
      fill(t.mutableData<uint8_t>().data(), [](double x) { return uint8_t(x != 0); });
      break;
    default:
      if (n > 0)
        return unsupported(
            Text::of("input '%1' has element type %2, which PassLab cannot generate yet", name,
                     std::string(ir::dtypeName(t.dtype()))));
  }
  return Status::ok();
}

// A dim spelled as an expression of other dims ("past_seq_len+seq_len",
// "2*N - 1"): its value from the values of those dims, or nullopt.
bool isDimExpression(const std::string& param) {
  return param.find_first_of("+*") != std::string::npos || param.find(" - ") != std::string::npos;
}

std::optional<int64_t> evalDimExpression(const std::string& text,
                                         const std::map<std::string, int64_t>& values) {
  // sum of products of (numbers | names), with + and - between terms
  int64_t sum = 0, product = 1, sign = 1;
  bool haveFactor = false;
  size_t i = 0;
  auto isName = [](char c) {
    return std::isalnum(static_cast<unsigned char>(c)) || c == '_' || c == '.';
  };
  while (i <= text.size()) {
    char c = i < text.size() ? text[i] : '+';
    if (c == ' ') {
      ++i;
      continue;
    }
    if (c == '+' || c == '-') {
      if (!haveFactor) return std::nullopt;
      sum += sign * product;
      sign = c == '-' ? -1 : 1;
      product = 1;
      haveFactor = false;
      ++i;
      if (i > text.size()) break;
      continue;
    }
    if (c == '*') {
      if (!haveFactor) return std::nullopt;
      haveFactor = false;
      ++i;
      continue;
    }
    if (!isName(c) || haveFactor) return std::nullopt;
    size_t j = i;
    while (j < text.size() && isName(text[j])) ++j;
    std::string token = text.substr(i, j - i);
    int64_t v;
    if (std::isdigit(static_cast<unsigned char>(token[0]))) {
      char* end = nullptr;
      v = std::strtoll(token.c_str(), &end, 10);
      if (*end != '\0') return std::nullopt;
    } else {
      auto it = values.find(token);
      if (it == values.end()) return std::nullopt;
      v = it->second;
    }
    product *= v;
    haveFactor = true;
    i = j;
  }
  return sum;
}

// ---- Hints: a static dim an input's dim is unified with through an op with a constant operand.

struct DimHint {
  int64_t value;
  Text reason;
};

std::optional<DimHint> unifiedDim(const ir::Value& input, size_t axis) {
  const size_t rank = input.type().shape()->rank();
  static const std::set<std::string_view> kBroadcast{
      "Add", "Sub", "Mul", "Div", "Pow", "Equal", "Less", "Greater", "And", "Or", "Where"};
  for (const ir::Use& u : input.uses()) {
    const ir::Node& n = *u.node;
    if (!standardOp(n)) continue;
    const std::string& op = n.opType();
    auto say = [&](int64_t v, const std::string& what) {
      return DimHint{v, "unified with " + what + " of " + nodeName(n)};
    };
    if (kBroadcast.count(op)) {
      for (size_t j = 0; j < n.inputs().size(); ++j) {
        if (static_cast<int>(j) == u.inputIndex) continue;
        const ir::Tensor* c = constantOf(n.input(j));
        if (!c) continue;
        const size_t cr = c->rank();
        const int64_t fromRight = static_cast<int64_t>(rank) - 1 - static_cast<int64_t>(axis);
        if (fromRight < static_cast<int64_t>(cr)) {
          int64_t v = c->dims()[cr - 1 - static_cast<size_t>(fromRight)];
          if (v > 1) return say(v, "the constant operand's dim");
        }
      }
    } else if (op == "MatMul" && u.inputIndex == 0 && axis + 1 == rank) {
      if (auto b = staticDims(n.input(1)); b && b->size() >= 2)
        return say((*b)[b->size() - 2], "the weight's rows");
    } else if (op == "Gemm" && u.inputIndex == 0 && rank == 2) {
      const bool ta = n.attrInt("transA", 0) != 0, tb = n.attrInt("transB", 0) != 0;
      if (axis == (ta ? 0u : 1u))
        if (auto b = staticDims(n.input(1)); b && b->size() == 2)
          return say((*b)[tb ? 1 : 0], "the weight's inner dim");
    } else if ((op == "Conv" || op == "ConvTranspose") && u.inputIndex == 0 && axis == 1) {
      if (auto w = staticDims(n.input(1)); w && w->size() >= 2) {
        int64_t group = n.attrInt("group", 1);
        int64_t c = op == "Conv" ? (*w)[1] * group : (*w)[0];
        return say(c, "the weight's input channels");
      }
    }
  }
  return std::nullopt;
}

std::optional<DimHint> metadataDim(const ir::Model& model, const std::string& param) {
  for (const auto& [key, value] : model.metadata) {
    if (key != param) continue;
    char* end = nullptr;
    long long v = std::strtoll(value.c_str(), &end, 10);
    if (end && *end == '\0' && v > 0) return DimHint{v, "model metadata " + key + "=" + value};
  }
  return std::nullopt;
}

bool nameHas(const std::string& name, std::initializer_list<std::string_view> words) {
  std::string lower = str::toLower(name);
  for (std::string_view w : words)
    if (lower.find(w) != std::string::npos) return true;
  return false;
}

bool nameIs(const std::string& name, std::initializer_list<std::string_view> words) {
  std::string lower = str::toLower(name);
  for (std::string_view w : words)
    if (lower == w) return true;
  return false;
}

DimChoice defaultDim(const ir::Value& input, size_t axis, const std::string& param) {
  const ir::Type& t = input.type();
  const size_t rank = t.shape()->rank();
  if (!param.empty() && !isAnonymousDim(param)) {
    if (nameHas(param, {"batch"}) || nameIs(param, {"n", "b", "bs"}))
      return {1, "batch dim (by its name)"};
    if (nameHas(param, {"height", "width"}) || nameIs(param, {"h", "w"}))
      return {32, "image dim (by its name), default 32"};
    if (nameHas(param, {"past"})) return {1, "past length (by its name), default 1"};
    if (nameHas(param, {"seq", "len", "token", "time", "frame", "step"}))
      return {4, "sequence dim (by its name), default 4"};
  }
  if (axis == 0 && rank >= 2) return {1, "leading (batch) dim, default 1"};
  return {1, "default 1"};
}

// ---- Values: what reads an integer input.

struct ValueChoice {
  std::optional<double> constant;
  bool whole = false;  // whole numbers (integer types, masks of any type)
  double lo = 0, hi = 4;
  Text reason;
};

// Ops an index passes through unchanged in value.
bool keepsValues(const ir::Node& n) {
  static const std::set<std::string_view> kOps{"Cast",      "Reshape",  "Unsqueeze", "Squeeze",
                                               "Flatten",   "Identity", "Expand",    "Slice",
                                               "Transpose", "Concat",   "Tile"};
  return standardOp(n) && kOps.count(n.opType());
}

void boundIndices(const ir::Value& v, ValueChoice& c, bool& bounded, int depth) {
  if (depth > 8) return;
  for (const ir::Use& u : v.uses()) {
    const ir::Node& n = *u.node;
    auto bound = [&](const ir::Value* data, int64_t axis, const std::string& what) {
      auto dims = staticDims(data);
      if (!dims || dims->empty()) return;
      if (axis < 0) axis += static_cast<int64_t>(dims->size());
      if (axis < 0 || axis >= static_cast<int64_t>(dims->size())) return;
      int64_t rows = (*dims)[static_cast<size_t>(axis)];
      if (rows < 1 || (bounded && rows >= c.hi)) return;
      c.lo = 0;
      c.hi = static_cast<double>(rows);
      c.reason = Text::of("%1 of %2, which has %3 rows", what, nodeName(n), std::to_string(rows));
      bounded = true;
    };
    if (standardOp(n) && (n.opType() == "Gather" || n.opType() == "GatherElements") &&
        u.inputIndex == 1) {
      bound(n.input(0), n.attrInt("axis", 0), "indices");
    } else if (n.domain() == "com.microsoft" && n.opType() == "EmbedLayerNormalization" &&
               (u.inputIndex == 0 || u.inputIndex == 1)) {
      bound(n.input(u.inputIndex == 0 ? 2 : 3), 0, u.inputIndex == 0 ? "token ids" : "segment ids");
    } else if (keepsValues(n) && n.output(0)) {
      boundIndices(*n.output(0), c, bounded, depth + 1);
    }
  }
}

ValueChoice chooseValues(const ir::Value& input) {
  ValueChoice c;
  const ir::DataType dt = input.type().elemType();
  const bool integer = !ir::isFloatingPoint(dt);
  // A scalar compared by Equal with a constant: take the constant (a sample rate, a mode).
  int64_t elems = 1;
  for (const ir::Dim& d : input.type().shape()->dims()) elems *= d.isStatic() ? d.value() : 2;
  if (elems == 1) {
    std::vector<double> seen;
    const ir::Node* by = nullptr;
    for (const ir::Use& u : input.uses()) {
      const ir::Node& n = *u.node;
      if (!standardOp(n) || n.opType() != "Equal") continue;
      const ir::Tensor* k = constantOf(n.input(u.inputIndex == 0 ? 1 : 0));
      if (!k || k->numel() != 1) continue;
      seen.push_back(k->valueAsDouble(0));
      by = &n;
    }
    if (!seen.empty()) {
      c.constant = *std::max_element(seen.begin(), seen.end());
      std::string all = str::join(seen, ", ", [](double d) { return num(d); });
      c.reason = seen.size() > 1
                     ? Text::of("compared by Equal with %1 (the largest) in %2", all, nodeName(*by))
                     : Text::of("compared by Equal with %1 in %2", all, nodeName(*by));
      return c;
    }
  }
  bool mask = nameHas(input.name(), {"mask"}) && dt != ir::DataType::kBool;
  for (const ir::Use& u : input.uses())
    if (standardOp(*u.node) && u.node->opType() == "Where" && u.inputIndex == 0) mask = true;
  // The scalars of ORT's generation ops: the values they document as usable.
  for (const ir::Use& u : input.uses()) {
    const ir::Node& n = *u.node;
    if (n.domain() != "com.microsoft" ||
        (n.opType() != "BeamSearch" && n.opType() != "GreedySearch" && n.opType() != "Sampling"))
      continue;
    static const char* kNames[] = {"input_ids",         "max_length",           "min_length",
                                   "num_beams",         "num_return_sequences", "length_penalty",
                                   "repetition_penalty"};
    static const double kValues[] = {0, -1, 1, 2, 1, 1, 1};
    if (u.inputIndex < 1 || u.inputIndex > 6) continue;
    c.constant = kValues[u.inputIndex];
    c.reason = Text::of("%1 of %2", std::string(kNames[u.inputIndex]), nodeName(n));
    if (u.inputIndex == 1)  // set by planInputs
      c.reason = Text::of("%1: the prompt length + 4", c.reason);
    return c;
  }
  if (!integer && !mask) {
    c.lo = -1;
    c.hi = 1;
    c.reason = "uniform in [-1, 1)";
    return c;
  }
  c.whole = true;
  bool bounded = false;
  if (integer) boundIndices(input, c, bounded, 0);
  if (bounded) return c;
  if (dt == ir::DataType::kBool) {
    c.lo = 0;
    c.hi = 2;
    c.reason = "random booleans";
    return c;
  }
  if (mask) {
    c.lo = 0;
    c.hi = 2;
    c.reason = "a mask: 0 or 1";
    return c;
  }
  c.reason = "integers in [0, 4), default";
  return c;
}

Text rangeText(const InputPlan& p) {
  if (p.constant) return Text::of("value %1", num(*p.constant));
  if (p.whole) return Text::of("integers in [%1, %2)", num(p.lo), num(p.hi));
  return Text::of("uniform in [%1, %2)", num(p.lo), num(p.hi));
}

Expected<InputPlan> planOne(const ir::Model& model, const ir::Value& v, const InputSpec& spec) {
  InputPlan p;
  p.name = v.name();
  const ir::Type& t = v.type();
  if (auto it = spec.fixed.find(v.name()); it != spec.fixed.end()) {
    p.given = true;
    p.dtype = it->second.dtype();
    for (int64_t d : it->second.dims()) p.dims.push_back({d, "given"});
    p.valuesReason = "given";
    return p;
  }
  if (!t.isTensor())
    return unsupported(Text::of("input '%1' is a %2; only tensor inputs can be generated", v.name(),
                                t.toString()));
  if (!t.hasShape())
    return unsupported(Text::of("input '%1' has no declared shape; give it a file", v.name()));
  p.dtype = t.elemType();
  const ir::Shape& shape = *t.shape();
  const size_t rank = shape.rank();
  const bool floating = ir::isFloatingPoint(p.dtype);
  for (size_t i = 0; i < rank; ++i) {
    const ir::Dim& d = shape[i];
    if (d.isStatic()) {
      p.dims.push_back({d.value(), ""});
      continue;
    }
    const std::string param = d.isSymbolic() ? d.param() : std::string();
    const bool named = !param.empty() && !isAnonymousDim(param);
    const Text label = named ? Text::of("dim %1 (%2)", std::to_string(i), param)
                             : Text::of("dim %1", std::to_string(i));
    // The sliding windows the axis reaches (through reshapes and into If branches).
    std::optional<AxisNeed> window;
    if (floating && i >= 1) window = needAlongAxis(v, i);
    if (named && isDimExpression(param) && !spec.dims.count(param)) {
      p.dims.push_back({1, "expression"});  // its value: planInputs, from the dims it names
      continue;
    }
    if (named && spec.dims.count(param)) {
      int64_t given = spec.dims.at(param);
      if (window && given < window->min)
        return invalidArgument(
            Text::of("input '%1' %2 = %3 is too small for %4: it needs at least %5", v.name(),
                     label, std::to_string(given), window->why, std::to_string(window->min)));
      p.dims.push_back({given, "given (--dim)"});
      continue;
    }
    if (auto h = unifiedDim(v, i)) {
      p.dims.push_back({h->value, h->reason});
      continue;
    }
    if (named)
      if (auto h = metadataDim(model, param)) {
        p.dims.push_back({h->value, h->reason});
        continue;
      }
    if (window && (!window->why.empty() || window->downsample > 1)) {
      const int64_t m = window->min, step = window->downsample;
      const int64_t value = (m + step - 1) / step * step;
      Text why = window->why.empty() ? Text("no window op limits it")
                                     : Text::of("smallest size %1 accepts", window->why);
      if (value != m)
        why = Text::of("%1, rounded up to the path's total stride %2", why, std::to_string(step));
      p.dims.push_back({value, why});
      continue;
    }
    p.dims.push_back(defaultDim(v, i, param));
  }
  ValueChoice c = chooseValues(v);
  p.constant = c.constant;
  p.whole = c.whole;
  p.lo = c.lo;
  p.hi = c.hi;
  p.valuesReason = c.reason;
  return p;
}

}  // namespace

bool isAnonymousDim(const std::string& param) {
  return param.empty() || param == "?";
}

std::vector<int64_t> InputPlan::shape() const {
  std::vector<int64_t> out;
  for (const DimChoice& d : dims) out.push_back(d.value);
  return out;
}

Text InputPlan::describe() const {
  std::string s = name + " " + std::string(ir::dtypeName(dtype)) + "[" +
                  str::join(dims, ",", [](const DimChoice& d) { return std::to_string(d.value); }) +
                  "]";
  if (given) return Text::of("%1: given", s);
  std::vector<Text> parts;
  for (size_t i = 0; i < dims.size(); ++i)
    if (!dims[i].reason.empty())
      parts.push_back(Text::of("dim %1 = %2 (%3)", std::to_string(i), std::to_string(dims[i].value),
                               dims[i].reason));
  // Default ranges say so themselves; other choices add their reason.
  const std::string_view values = valuesReason.templ();
  const bool plain = !constant && (values.starts_with("uniform") || values.starts_with("integers"));
  parts.push_back(plain ? rangeText(*this) : Text::of("%1 (%2)", rangeText(*this), valuesReason));
  return Text::of("%1: %2", s, Text::join(std::move(parts), "; "));
}

Expected<std::vector<InputPlan>> planInputs(const ir::Model& model, const InputSpec& spec) {
  std::vector<InputPlan> out;
  for (const ir::Value* v : model.graph().inputs()) {
    if (v->isInitializer()) continue;
    auto p = planOne(model, *v, spec);
    if (!p) return p.error();
    out.push_back(std::move(p.value()));
  }
  // A named symbol takes one value across inputs: the first input's choice.
  std::map<std::string, std::pair<int64_t, std::string>> symbols;
  size_t k = 0;
  for (const ir::Value* v : model.graph().inputs()) {
    if (v->isInitializer()) continue;
    InputPlan& p = out[k++];
    if (p.given || !v->type().hasShape()) continue;
    const auto& dims = v->type().shape()->dims();
    for (size_t i = 0; i < dims.size() && i < p.dims.size(); ++i) {
      if (!dims[i].isSymbolic() || isAnonymousDim(dims[i].param()) ||
          isDimExpression(dims[i].param()))
        continue;
      auto [it, fresh] = symbols.emplace(dims[i].param(), std::make_pair(p.dims[i].value, p.name));
      if (fresh || it->second.first == p.dims[i].value) continue;
      p.dims[i] = {it->second.first, "same symbol as input '" + it->second.second + "'"};
    }
  }
  // max_length of a generation op: longer than the prompt it extends.
  k = 0;
  for (const ir::Value* v : model.graph().inputs()) {
    if (v->isInitializer()) continue;
    InputPlan& p = out[k++];
    if (p.given || !p.constant || *p.constant != -1) continue;
    for (const ir::Use& u : v->uses()) {
      if (u.inputIndex != 1 || !u.node->input(0)) continue;
      for (const InputPlan& ids : out)
        if (ids.name == u.node->input(0)->name() && ids.dims.size() == 2)
          p.constant = static_cast<double>(ids.dims[1].value + 4);
    }
    if (*p.constant == -1) p.constant = 16;
  }
  // Dims spelled as expressions of other dims: their value from those dims
  // (the user's --dim first, then the values chosen above, then defaults by name).
  std::map<std::string, int64_t> values;
  for (const auto& [name, chosen] : symbols) values[name] = chosen.first;
  for (const auto& [name, given] : spec.dims) values[name] = given;
  k = 0;
  for (const ir::Value* v : model.graph().inputs()) {
    if (v->isInitializer()) continue;
    InputPlan& p = out[k++];
    if (p.given || !v->type().hasShape()) continue;
    const auto& dims = v->type().shape()->dims();
    for (size_t i = 0; i < dims.size() && i < p.dims.size(); ++i) {
      if (p.dims[i].reason != "expression") continue;
      const std::string& param = dims[i].param();
      std::map<std::string, int64_t> with = values;
      // Names used nowhere else take their default by name.
      std::string word;
      for (char c : param + " ") {
        if (std::isalnum(static_cast<unsigned char>(c)) || c == '_' || c == '.') {
          word += c;
          continue;
        }
        if (!word.empty() && !std::isdigit(static_cast<unsigned char>(word[0])) &&
            !with.count(word))
          with[word] = defaultDim(*v, i, word).value;
        word.clear();
      }
      auto value = evalDimExpression(param, with);
      if (!value || *value < 0) {
        p.dims[i] = {1, "'" + param + "' could not be evaluated, default 1"};
        continue;
      }
      p.dims[i] = {*value, param + " = " + std::to_string(*value)};
    }
  }
  return out;
}

Expected<exec::NamedInputs> fillInputs(const std::vector<InputPlan>& plan, const ir::Model& model,
                                       const InputSpec& spec) {
  (void)model;
  exec::NamedInputs out;
  for (const InputPlan& p : plan) {
    if (p.given) {
      out.emplace_back(p.name, exec::Value(spec.fixed.at(p.name)));
      continue;
    }
    const ir::DataType dt = p.dtype;
    if (dt == ir::DataType::kString)
      return unsupported(Text::of("input '%1' holds strings", p.name));
    ir::Tensor tensor(dt, p.shape());
    const int64_t n = tensor.numel();
    std::seed_seq seq{spec.seed, static_cast<uint64_t>(std::hash<std::string>()(p.name))};
    std::mt19937_64 rng(seq);
    const bool floating = !p.whole;
    auto next = [&](int64_t i) -> double {
      if (spec.zeros) return 0;
      if (p.constant) return *p.constant;
      if (spec.arange) {
        if (floating) return static_cast<double>(i) / static_cast<double>(std::max<int64_t>(n, 1));
        const int64_t span = std::max<int64_t>(1, static_cast<int64_t>(p.hi - p.lo));
        return p.lo + static_cast<double>(i % span);
      }
      if (floating) return std::uniform_real_distribution<double>(p.lo, p.hi)(rng);
      const int64_t lo = static_cast<int64_t>(p.lo);
      const int64_t hi = std::max<int64_t>(lo, static_cast<int64_t>(p.hi) - 1);
      return static_cast<double>(std::uniform_int_distribution<int64_t>(lo, hi)(rng));
    };
    // Zeros of a type PassLab cannot write are the tensor as constructed.
    if (Status st = storeValues(tensor, p.name, next); !st && !spec.zeros) return st.error();
    out.emplace_back(p.name, exec::Value(tensor));
  }
  return out;
}

Expected<exec::NamedInputs> makeInputs(const ir::Model& model, const InputSpec& spec) {
  // A given value of the wrong element type, named before the model runs.
  for (const ir::Value* v : model.graph().inputs()) {
    auto it = spec.fixed.find(v->name());
    const ir::Type& t = v->type();
    if (it != spec.fixed.end() && t.isTensor() && t.elemType() != ir::DataType::kUndefined &&
        it->second.dtype() != t.elemType())
      return invalidArgument(Text::of("input '%1' is %2, the value given is %3", v->name(),
                                      t.toString(),
                                      std::string(ir::dtypeName(it->second.dtype()))));
  }
  auto plan = planInputs(model, spec);
  if (!plan) return plan.error();
  return fillInputs(*plan, model, spec);
}

Expected<ir::Tensor> parseInputValues(const ir::Model& model, const std::string& name,
                                      const std::string& values, const InputSpec& spec) {
  const ir::Value* in = model.graph().findValue(name);
  if (!in || !in->isGraphInput())
    return invalidArgument(Text::of("the model has no input named '%1'", name));
  std::vector<double> parsed;
  for (const auto& part : str::split(values, ',')) {
    std::string s(str::trim(part));
    char* end = nullptr;
    double d = std::strtod(s.c_str(), &end);
    if (s.empty() || !end || *end != '\0')
      return invalidArgument(Text::of("'%1' is not a number", s));
    parsed.push_back(d);
  }
  InputSpec planSpec = spec;
  planSpec.fixed.erase(name);
  auto p = planOne(model, *in, planSpec);
  if (!p) return p.error();
  InputPlan plan = std::move(p.value());
  const int64_t n = [&] {
    int64_t c = 1;
    for (const DimChoice& d : plan.dims) c *= d.value;
    return c;
  }();
  if (parsed.size() != 1 && static_cast<int64_t>(parsed.size()) != n)
    return invalidArgument(Text::of("%1 values for %2 (planned as %3 elements)",
                                    std::to_string(parsed.size()), in->type().toString(),
                                    std::to_string(n)));
  switch (plan.dtype) {
    case ir::DataType::kFloat:
    case ir::DataType::kDouble:
    case ir::DataType::kFloat16:
    case ir::DataType::kBFloat16:
    case ir::DataType::kInt64:
    case ir::DataType::kInt32:
    case ir::DataType::kInt16:
    case ir::DataType::kInt8:
    case ir::DataType::kUInt8:
    case ir::DataType::kBool:
      break;
    default:
      return unsupported(
          Text::of("values for %1 inputs must come from a file", in->type().toString()));
  }
  ir::Tensor t(plan.dtype, plan.shape());
  Status st = storeValues(t, name, [&](int64_t i) {
    return parsed.size() == 1 ? parsed[0] : parsed[static_cast<size_t>(i)];
  });
  if (!st) return st.error();
  return t;
}

}  // namespace passlab::pipeline
