#include "core/ir/attribute_limits.h"

#include <absl/container/flat_hash_map.h>

#include <algorithm>
#include <string_view>

namespace passlab::ir {

namespace {

using Problems = std::vector<std::string>;

std::string attrText(std::string_view name) {
  return "attribute '" + std::string(name) + "'";
}

// Ints attribute `name` (if present): every value in [lo, kMaxWindowExtent].
void checkIntsInRange(const Node& n, std::string_view name, int64_t lo, Problems& out) {
  const Attribute* a = n.attr(name);
  if (!a || a->type() != AttrType::kInts) return;
  for (size_t i = 0; i < a->ints.size(); ++i) {
    const int64_t v = a->ints[i];
    if (v < lo || v > kMaxWindowExtent) {
      out.push_back(attrText(name) + " value " + std::to_string(v) + " (index " +
                    std::to_string(i) + ") is outside [" + std::to_string(lo) + ", " +
                    std::to_string(kMaxWindowExtent) + "]");
      return;
    }
  }
}

// Int attribute `name` (if present) in [lo, kMaxWindowExtent].
void checkIntInRange(const Node& n, std::string_view name, int64_t lo, Problems& out) {
  const Attribute* a = n.attr(name);
  if (!a || a->type() != AttrType::kInt) return;
  if (a->i < lo || a->i > kMaxWindowExtent)
    out.push_back(attrText(name) + " value " + std::to_string(a->i) + " is outside [" +
                  std::to_string(lo) + ", " + std::to_string(kMaxWindowExtent) + "]");
}

std::vector<int64_t> intsOf(const Node& n, std::string_view name) {
  const Attribute* a = n.attr(name);
  return a && a->type() == AttrType::kInts ? a->ints : std::vector<int64_t>{};
}

// kernel_shape, strides, dilations >= 1, pads >= 0, each within the limit;
// matching lengths; and each axis's window (span, padded extent) fits.
int64_t firstInputRank(const Node& n);

void checkWindow(const Node& n, Problems& out) {
  const size_t before = out.size();
  checkIntsInRange(n, "kernel_shape", 1, out);
  checkIntsInRange(n, "strides", 1, out);
  checkIntsInRange(n, "dilations", 1, out);
  checkIntsInRange(n, "pads", 0, out);
  checkIntsInRange(n, "output_padding", 0, out);
  checkIntsInRange(n, "output_shape", 0, out);
  if (out.size() != before) return;
  const auto kernel = intsOf(n, "kernel_shape"), strides = intsOf(n, "strides"),
             dilations = intsOf(n, "dilations"), pads = intsOf(n, "pads");
  // Spatial axes: kernel_shape's, else X's [N, C, spatial...] (Col2Im's X is
  // not an image), else the longest list's.
  size_t sp = kernel.size();
  const int64_t rank = firstInputRank(n);
  if (sp == 0 && rank >= 2 && n.opType() != "Col2Im") sp = static_cast<size_t>(rank - 2);
  if (sp == 0) sp = std::max({strides.size(), dilations.size(), pads.size() / 2});
  auto lengthOk = [&](const std::vector<int64_t>& v, std::string_view name, size_t want) {
    if (v.empty() || v.size() == want) return true;
    out.push_back(attrText(name) + " has " + std::to_string(v.size()) + " values, expected " +
                  std::to_string(want) + " (" + std::to_string(sp) + " spatial axes)");
    return false;
  };
  bool ok = lengthOk(strides, "strides", sp);
  ok = lengthOk(dilations, "dilations", sp) && ok;
  ok = lengthOk(pads, "pads", 2 * sp) && ok;
  if (!ok) return;
  for (size_t i = 0; i < sp; ++i) {
    std::string why =
        windowAxisProblem(kernel.empty() ? 1 : kernel[i], strides.empty() ? 1 : strides[i],
                          dilations.empty() ? 1 : dilations[i], pads.empty() ? 0 : pads[i],
                          pads.empty() ? 0 : pads[i + sp]);
    if (!why.empty()) {
      out.push_back("attributes kernel_shape/dilations/pads on axis " + std::to_string(i) + ": " +
                    why);
      return;
    }
  }
}

// perm is a permutation of 0..r-1 (r: its length, or the input's rank when known).
void checkPerm(const Node& n, int64_t rank, Problems& out) {
  const Attribute* a = n.attr("perm");
  if (!a || a->type() != AttrType::kInts) return;
  const auto& perm = a->ints;
  if (rank >= 0 && static_cast<int64_t>(perm.size()) != rank) {
    out.push_back(attrText("perm") + " has " + std::to_string(perm.size()) +
                  " values for an input of rank " + std::to_string(rank));
    return;
  }
  std::vector<bool> seen(perm.size(), false);
  for (int64_t p : perm) {
    if (p < 0 || p >= static_cast<int64_t>(perm.size()) || seen[static_cast<size_t>(p)]) {
      out.push_back(attrText("perm") + " is not a permutation of 0.." +
                    std::to_string(static_cast<int64_t>(perm.size()) - 1) + " (value " +
                    std::to_string(p) + ")");
      return;
    }
    seen[static_cast<size_t>(p)] = true;
  }
}

// An axis of the first input: in [-r, r), or [-r, r] where the op allows r.
struct AxisRule {
  std::string_view op;
  std::string_view attr;
  bool inclusiveEnd;
};
constexpr AxisRule kAxisRules[] = {
    {"Concat", "axis", false},         {"Gather", "axis", false},
    {"GatherElements", "axis", false}, {"ScatterElements", "axis", false},
    {"Split", "axis", false},          {"Softmax", "axis", false},
    {"LogSoftmax", "axis", false},     {"Hardmax", "axis", false},
    {"ArgMax", "axis", false},         {"ArgMin", "axis", false},
    {"TopK", "axis", false},           {"LayerNormalization", "axis", false},
    {"Flatten", "axis", true},         {"LpNormalization", "axis", false},
    {"QuantizeLinear", "axis", false}, {"DequantizeLinear", "axis", false},
    {"Compress", "axis", false},       {"Unique", "axis", false},
};

// What attributeLimitProblems checks of one op type.
struct OpLimits {
  bool window = false;     // kernel_shape, strides, dilations, pads, group
  bool blocksize = false;  // DepthToSpace / SpaceToDepth
  bool perm = false;       // Transpose
  const AxisRule* axis = nullptr;
};

// The op types with limits, keyed by their interned name (Node::opTypeKey):
// the verifier asks for every node after every pass, and most ops have none.
const OpLimits* limitsOf(const Node& n) {
  static const auto* table = [] {
    auto* t = new absl::flat_hash_map<const std::string*, OpLimits>();
    for (std::string_view op :
         {"Conv", "ConvTranspose", "ConvInteger", "QLinearConv", "MaxPool", "AveragePool", "LpPool",
          "MaxUnpool", "DeformConv", "Col2Im", "FusedConv", "NhwcConv", "QLinearAveragePool",
          "NhwcMaxPool", "FusedConvActivation"})
      (*t)[&internOpName(op)].window = true;
    (*t)[&internOpName("DepthToSpace")].blocksize = true;
    (*t)[&internOpName("SpaceToDepth")].blocksize = true;
    (*t)[&internOpName("Transpose")].perm = true;
    for (const AxisRule& r : kAxisRules) (*t)[&internOpName(r.op)].axis = &r;
    return t;
  }();
  auto it = table->find(n.opTypeKey());
  return it == table->end() ? nullptr : &it->second;
}

void checkAxis(const Node& n, const AxisRule& r, int64_t rank, Problems& out) {
  if (rank < 0 || !n.domain().empty()) return;
  const Attribute* a = n.attr(r.attr);
  if (!a || a->type() != AttrType::kInt) return;
  const int64_t hi = r.inclusiveEnd ? rank : rank - 1;
  // Concat of rank-0 inputs has no axis at all; leave that to shape inference.
  if (a->i < -rank || a->i > hi)
    out.push_back(attrText(r.attr) + " value " + std::to_string(a->i) + " is outside [" +
                  std::to_string(-rank) + ", " + std::to_string(hi) + "] for an input of rank " +
                  std::to_string(rank));
}

int64_t firstInputRank(const Node& n) {
  const Value* v = n.inputs().empty() ? nullptr : n.inputs()[0];
  if (!v || !v->type().isTensor() || !v->type().hasShape()) return -1;
  return static_cast<int64_t>(v->type().shape()->rank());
}

}  // namespace

std::string windowAxisProblem(int64_t kernel, int64_t stride, int64_t dilation, int64_t padBegin,
                              int64_t padEnd, int64_t in) {
  if (kernel < 1 || stride < 1 || dilation < 1)
    return "kernel, stride and dilation must be positive (kernel " + std::to_string(kernel) +
           ", stride " + std::to_string(stride) + ", dilation " + std::to_string(dilation) + ")";
  if (padBegin < 0 || padEnd < 0 || in < 0) return "pads must not be negative";
  int64_t span = 0, padded = 0;
  const bool overflow = __builtin_mul_overflow(kernel - 1, dilation, &span) ||
                        __builtin_add_overflow(span, 1, &span) ||
                        __builtin_add_overflow(in, padBegin, &padded) ||
                        __builtin_add_overflow(padded, padEnd, &padded);
  if (overflow || span > kMaxWindowExtent || padded > kMaxWindowExtent || stride > kMaxWindowExtent)
    return "the window (kernel " + std::to_string(kernel) + ", dilation " +
           std::to_string(dilation) + ", stride " + std::to_string(stride) + ", pads " +
           std::to_string(padBegin) + "+" + std::to_string(padEnd) + ") exceeds " +
           std::to_string(kMaxWindowExtent);
  return "";
}

std::vector<std::string> attributeLimitProblems(const Node& n) {
  Problems out;
  const OpLimits* limits = limitsOf(n);
  if (!limits) return out;
  if (limits->window) {
    checkWindow(n, out);
    checkIntInRange(n, "group", 1, out);
  }
  if (limits->blocksize) checkIntInRange(n, "blocksize", 1, out);
  const int64_t rank = firstInputRank(n);
  if (limits->perm) checkPerm(n, rank, out);
  if (limits->axis) checkAxis(n, *limits->axis, rank, out);
  return out;
}

Status checkAttributeLimits(const Model& model) {
  Status first = Status::ok();
  model.graph().forEachNodeRecursive([&](Node* n) {
    if (!first.isOk()) return;
    Problems p = attributeLimitProblems(*n);
    if (!p.empty()) first = invalidModel(n->describe() + ": " + p.front());
  });
  return first;
}

}  // namespace passlab::ir
