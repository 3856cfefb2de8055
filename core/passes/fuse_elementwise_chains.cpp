// fuse_elementwise_chains — a chain or tree of elementwise ops becomes one
// ai.passlab FusedElementwise that runs them in one pass over the data
// (non-standard).
//
// Before:  u = Mul(x, s); v = Add(u, b); y = Relu(v)         (any tree, with broadcasting)
// After:   y = ai.passlab.FusedElementwise(x, s, b)
//              <ops = ["Mul", "Add", "Relu"], operands = [0, 1, -1,  3, 2, -1,  4, -1, -1]>
// Algebra: none — the program lists the same ops on the same operands
// (docs/fused-kernels.md gives the encoding); one-element constants become
// program constants. The kernel computes each op in float as the unfused
// kernels do (Pow by a constant 2, 3, 1 or 0.5 as x*x, x*x*x, x, sqrt, as
// Pow's kernel does); Mean becomes adds and a division by the count, as its
// kernel computes it. Exact: the same float operations in the same order.
// Conditions: at least two ops; every op is one FusedElementwise runs (Add,
// Sub, Mul, Div, Pow, Max, Min, Sum, Mean, PRelu, Neg, Abs, Relu, Sigmoid,
// Tanh, Exp, Log, Sqrt, Reciprocal, Erf, Floor, Ceil, Sin, Cos, Softplus,
// Softsign, HardSwish, Gelu, LeakyRelu, Elu, HardSigmoid, Clip with constant
// bounds, Identity), in the default domain, on float32 only (inputs and
// result), without the legacy `broadcast` attribute; every intermediate
// result has one consumer, in the group (not a graph output, not read in a
// subgraph); and every op's result has the group result's shape (equal dims
// or the same symbols) — an op on a smaller tensor (a per-channel Sqrt
// before a broadcast Mul) stays outside, as an input, since the fused kernel
// would recompute it for every output element, which bench_fused_kernels
// shows slower than computing it once.
// A group with an op computed by a scalar libm call (Exp, Log, Softplus,
// Elu, Pow by another exponent than 1, 2, 3, 0.5) fires only up to 4096
// output elements (static): above, its time is in those calls, the same
// fused or not (bench_fused_kernels: 1.00-1.01x), below, the saved per-node
// dispatch makes it faster. The same limit holds for a group with Sigmoid,
// Tanh, Sin, Cos, Erf or Gelu (erf form), for another reason: they run
// vectorized rows (sigmoid_rows.h, trig_rows.h, erf_rows.h) fused or not,
// and above it the fused group measures no steady gain (Sigmoid/Tanh:
// 0.87-1.15x the unfused ops depending on the build) or a loss (Sin, Erf:
// 0.85-0.94x, medians, from 64K to 256K elements).
// The group is grown backwards from its last op (a node whose result is not
// read by exactly one elementwise op of its shape) over intermediates with
// one consumer; a value read by several ops ends the groups there and is
// their input (joining it to one of them would leave the others without it).
// Near misses, with the reason: a node whose producers are not elementwise,
// an op on another element type, an intermediate with several consumers,
// a producer of another shape.
// Opsets: 7-28 (numpy broadcasting from 7; HardSwish from 14, Gelu from 20).
#include <algorithm>
#include <cmath>
#include <functional>
#include <unordered_map>
#include <unordered_set>

#include "core/ir/passlab_ops.h"
#include "core/passes/fusion_utils.h"
#include "core/passes/pass.h"
#include "core/passes/pass_catalog.h"
#include "core/passes/passlab_fused_utils.h"

namespace passlab::passes {

namespace {

namespace ops = ir::passlab_ops;

// The row of `n`'s op in FusedElementwise's one op table (core/ir/passlab_ops.h),
// or nullptr. Gelu takes the row of its `approximate`.
const ops::ElementwiseOp* rowOf(const ir::Node& n) {
  return ops::findOnnxOp(
      n.opType(), n.opType() == "Gelu" ? n.attrString("approximate", "none") : std::string("none"));
}

// The inputs of `n` that are data (Clip's bounds are parameters).
size_t dataInputs(const ir::Node& n) {
  return n.opType() == "Clip" ? 1 : n.inputCount();
}

// "" when `n` can go into a FusedElementwise; else why not.
Text whyNotFusable(const ir::Node& n, int64_t opset) {
  if (!n.domain().empty()) return Text::of("%1 is not a default-domain op", fusion::nodeText(n));
  if (!ops::findOnnxOp(n.opType(), "none") && !ops::findOnnxOp(n.opType(), "tanh"))
    return Text::of("%1 is not an elementwise op FusedElementwise runs", fusion::nodeText(n));
  if (n.hasAttr("broadcast"))
    return Text::of("%1 uses the legacy broadcast attribute", fusion::nodeText(n));
  if (n.outputCount() != 1 || !n.output(0) || n.hasSubgraphs())
    return Text::of("%1 has other outputs", fusion::nodeText(n));
  if (dataInputs(n) == 0) return Text::of("%1 has no input", fusion::nodeText(n));
  for (size_t i = 0; i < dataInputs(n); ++i)
    if (!n.input(i) || elemTypeOf(n.input(i)) != ir::DataType::kFloat)
      return Text::of("%1 has an input that is not float32", fusion::nodeText(n));
  if (elemTypeOf(n.output(0)) != ir::DataType::kFloat)
    return Text::of("%1's result is not float32", fusion::nodeText(n));
  Text why;
  if (!fusedops::activationParams(n, opset, why)) return why;
  return "";
}

// True when `n` (a candidate root) would be absorbed by the group of its consumers.
// (Its one consumer is a fusable op of its shape reading it as data.)
bool feedsOnlyFusable(const ir::Node& n, int64_t opset) {
  const ir::Value* out = n.output(0);
  if (out->isGraphOutput() || out->uses().size() != 1) return false;
  const ir::Use& u = out->uses()[0];
  if (u.node->owner() != n.owner() || !whyNotFusable(*u.node, opset).empty()) return false;
  if (static_cast<size_t>(u.inputIndex) >= dataInputs(*u.node)) return false;  // a Clip bound
  return fusedops::sameShape(out, u.node->output(0));
}

struct Program {
  std::vector<std::string> ops;
  std::vector<int64_t> operands;
  std::vector<float> constants;
  std::vector<ir::Value*> inputs;
};

// Encodes `order` (producers first) as a program.
Program encode(const std::vector<ir::Node*>& order, int64_t opset) {
  std::unordered_set<const ir::Node*> group(order.begin(), order.end());
  auto internal = [&](const ir::Value* v) {
    return v->producer() && group.count(v->producer()) > 0;
  };
  // The tensor inputs first (their rank decides which one-element constants may be inlined).
  std::vector<ir::Value*> candidates;
  for (ir::Node* n : order)
    for (size_t i = 0; i < dataInputs(*n); ++i)
      if (!internal(n->input(i)) &&
          std::find(candidates.begin(), candidates.end(), n->input(i)) == candidates.end())
        candidates.push_back(n->input(i));
  int64_t inputRank = 0;
  auto isOneElementConst = [](const ir::Value* v) { return fusion::scalarValue(v).has_value(); };
  for (ir::Value* v : candidates)
    if (!isOneElementConst(v)) inputRank = std::max<int64_t>(inputRank, rankOf(v).value_or(0));
  Program p;
  std::unordered_map<const ir::Value*, int64_t> constCode;
  for (ir::Value* v : candidates) {
    if (isOneElementConst(v) && rankOf(v).value_or(99) <= inputRank) {
      constCode[v] = -2 - static_cast<int64_t>(p.constants.size());
      p.constants.push_back(static_cast<float>(*fusion::scalarValue(v)));
    } else {
      p.inputs.push_back(v);
    }
  }
  const int64_t nin = static_cast<int64_t>(p.inputs.size());
  std::unordered_map<const ir::Value*, int64_t> reg;
  for (int64_t i = 0; i < nin; ++i) reg[p.inputs[static_cast<size_t>(i)]] = i;
  for (const auto& [v, code] : constCode) reg[v] = code;
  auto constant = [&](float x) {
    p.constants.push_back(x);
    return -2 - static_cast<int64_t>(p.constants.size() - 1);
  };
  auto emit = [&](const std::string& op, int64_t a, int64_t b = -1, int64_t c = -1) {
    p.ops.push_back(op);
    p.operands.insert(p.operands.end(), {a, b, c});
    return nin + static_cast<int64_t>(p.ops.size()) - 1;
  };
  for (ir::Node* n : order) {
    const std::string& op = n->opType();
    auto in = [&](size_t i) { return reg.at(n->input(i)); };
    const ops::ElementwiseOp& row = *rowOf(*n);
    const std::string instr(row.instr);
    int64_t r = 0;
    if (row.lowering != ops::EwLowering::kSingle) {  // a chain over the inputs
      r = in(0);
      for (size_t i = 1; i < n->inputCount(); ++i) r = emit(instr, r, in(i));
      if (n->inputCount() == 1) r = emit("Identity", r);
      if (row.lowering == ops::EwLowering::kMean && n->inputCount() > 1)
        r = emit("Div", r, constant(static_cast<float>(n->inputCount())));
    } else if (row.operands == ops::EwOperands::kTwo) {
      r = emit(instr, in(0), in(1));
    } else if (row.operands == ops::EwOperands::kOne) {
      r = emit(instr, in(0));
    } else {
      Text why;
      std::vector<float> prm = *fusedops::activationParams(*n, opset, why);
      if (op == "Clip") {
        auto bound = [&](float v) { return std::isinf(v) ? int64_t{-1} : constant(v); };
        r = emit(instr, in(0), bound(prm[0]), bound(prm[1]));
      } else if (op == "Elu") {
        r = emit(instr, in(0), constant(n->attrFloat("alpha", 1.0f)));
      } else if (op == "LeakyRelu") {
        r = emit(instr, in(0), constant(prm[0]));
      } else {  // HardSigmoid
        r = emit(instr, in(0), constant(prm[0]), constant(prm[1]));
      }
    }
    reg[n->output(0)] = r;
  }
  return p;
}

// Groups with an op whose float loop is a scalar libm call (powf; no row of
// passlab_ops.cpp's table is one now) spend their time there: fused, they
// save only the passes over memory, which bench_fused_kernels measured within
// noise (1.00-1.01x) from 6K elements up (when tanhf was one of them); below
// 4096 elements the saved per-node dispatch wins (1.06x at 3072, 3x at 16).
// Sigmoid and Tanh are no libm rows (passlab_ops.cpp) since they run
// vectorized rows, but bench_fused_kernels' SiLU and tanh GELU sweeps (1
// thread, load 1.5-1.9) still find no steady gain above 4096 elements: the
// fused group measured 1.04-1.15x the unfused ops in two builds (one run
// 0.96x) and 0.87-1.07x in another (the same sources: code placement),
// while below it the dispatch saved wins in every build (1.03-2.2x), so
// they keep the limit.
constexpr int64_t kSlowGroupMaxElements = 4096;

// Sin, Cos (trig_rows.h), Erf and Gelu's erf form (erf_rows.h) run vector
// rows fused or not since session 30 (no libm rows in passlab_ops.cpp's
// table). bench_fused_kernels' Sin(3x)+x and erf GELU sweeps (session 31,
// 1 thread, 3 rounds at load 9.2-9.6): fused / unfused 1.06-1.96x (medians) up
// to 4096 elements, 0.85-1.08x at 16K, 0.85-0.94x at 64K-256K, 1.04-2.2x
// at 1M (0.87-2.87x: noise), so their groups keep the 4096 limit, as
// Sigmoid and Tanh do, with the vectorized-row reason.
bool trigOrErfRow(const ir::Node& n) {
  if (!n.domain().empty()) return false;
  const std::string& op = n.opType();
  return op == "Sin" || op == "Cos" || op == "Erf" ||
         (op == "Gelu" && n.attrString("approximate", "none") == "none");
}

// Exp, Log, Softplus, Elu and Gelu's tanh form run vector rows fused or not
// since 6f5a4a6 (expRow, logRow, softplusRow, eluRow, geluTanhRow; no libm
// rows in passlab_ops.cpp's table since session 34). bench_fused_kernels'
// U(x)+x sweeps (session 34, Zen 3 AVX2, 1 thread, 3 rounds, load 0.9-2.1):
// fused / unfused 1.12-1.43x (medians) at 1K elements, 1.04-1.17x at 4K,
// 0.72-1.19x from 16K to 1M (ranges 0.71-1.60x), so their groups keep the
// 4096 limit, as Sigmoid and Tanh do, with the vectorized-row reason.
bool expFamilyRow(const ir::Node& n) {
  if (!n.domain().empty()) return false;
  const std::string& op = n.opType();
  return op == "Exp" || op == "Log" || op == "Softplus" || op == "Elu" ||
         (op == "Gelu" && n.attrString("approximate", "none") == "tanh");
}

const ir::Node* libmBound(const std::vector<ir::Node*>& group) {
  for (const ir::Node* n : group) {
    if (const ops::ElementwiseOp* row = rowOf(*n); row && row->libm) return n;
    if (n->opType() == "Pow") {
      auto e = fusion::scalarValue(n->input(1));
      if (!e || (*e != 1 && *e != 2 && *e != 3 && *e != 0.5)) return n;
    }
  }
  return nullptr;
}

const ir::Node* vectorizedRowBound(const std::vector<ir::Node*>& group) {
  for (const ir::Node* n : group)
    if (n->domain().empty() && (n->opType() == "Sigmoid" || n->opType() == "Tanh")) return n;
  for (const ir::Node* n : group)
    if (trigOrErfRow(*n) || expFamilyRow(*n)) return n;
  return nullptr;
}

// "" when a group of `out`'s size may be fused; else why not (see above).
Text whyTooLarge(const std::vector<ir::Node*>& group, const ir::Value* out) {
  const ir::Node* libm = libmBound(group);
  const ir::Node* row = libm ? nullptr : vectorizedRowBound(group);
  if (!libm && !row) return Text();
  auto dims = rewrite::staticDims(out);
  int64_t count = 1;
  for (int64_t d : dims.value_or(std::vector<int64_t>{})) count *= d;
  if (dims && count <= kSlowGroupMaxElements) return Text();
  const std::string limit = std::to_string(kSlowGroupMaxElements);
  const std::string size = dims ? std::to_string(count) : std::string("unknown");
  if (libm)
    return Text::of(
        "the group's time is %1's scalar libm calls, the same fused or not, above %2 "
        "elements (bench_fused_kernels); '%3' has %4 elements",
        libm->opType(), limit, out->name(), size);
  if (trigOrErfRow(*row))
    return Text::of(
        "%1 runs a vectorized row fused or not: above %2 elements the fused group measured "
        "slower (bench_fused_kernels: 0.85-0.94x from 64K elements); '%3' has %4 elements",
        row->opType(), limit, out->name(), size);
  if (expFamilyRow(*row))
    return Text::of(
        "%1 runs a vectorized row fused or not: above %2 elements the fused group measured no "
        "steady gain (bench_fused_kernels: 0.72-1.19x, medians from 16K elements); '%3' has %4 "
        "elements",
        row->opType(), limit, out->name(), size);
  return Text::of(
      "%1 runs a vectorized row fused or not: above %2 elements the fused group measured no "
      "steady gain (bench_fused_kernels: 0.87-1.15x); '%3' has %4 elements",
      row->opType(), limit, out->name(), size);
}

MatchResult fuse(ir::Node& root, const MatchContext& c) {
  if (c.standardOnly)
    return MatchResult::failure("standard ONNX only: FusedElementwise is ai.passlab");
  if (Text why = fusion::whyNotOpset(c, 7, 28, "fuse_elementwise_chains"); !why.empty())
    return MatchResult::failure(why);
  if (Text why = whyNotFusable(root, c.opset); !why.empty()) return MatchResult::failure(why);
  if (feedsOnlyFusable(root, c.opset))
    return MatchResult::failure(
        "its result feeds one elementwise op of its shape: the group is fused from its last op");
  ir::Value* out = root.output(0);
  std::vector<ir::Node*> group{&root};
  std::unordered_set<const ir::Node*> in{&root};
  Text firstWhy;
  auto note = [&](Text w) {
    if (firstWhy.empty()) firstWhy = std::move(w);
  };
  for (bool grew = true; grew;) {
    grew = false;
    for (size_t gi = 0; gi < group.size(); ++gi) {
      ir::Node* g = group[gi];
      for (size_t i = 0; i < dataInputs(*g); ++i) {
        ir::Value* v = g->input(i);
        ir::Node* p = v->producer();
        if (!p || in.count(p)) continue;
        if (p->owner() != root.owner()) continue;
        if (Text w = whyNotFusable(*p, c.opset); !w.empty()) {
          note(Text::of("'%1' comes from %2, not fusable", v->name(),
                        (w.templ().starts_with("%1 is ") ? w.args()[0] : w)));
          continue;
        }
        if (!fusedops::sameShape(v, out)) {
          note(
              Text::of("'%1' (%2) does not have the result's shape (%3): computing it per output "
                       "element would repeat it",
                       v->name(), typeText(v), typeText(out)));
          continue;
        }
        if (v->isGraphOutput()) {
          note(Text::of("'%1' is a graph output", v->name()));
          continue;
        }
        if (v->uses().size() != 1) {
          note(Text::of("'%1' has %2 consumers: it is an input of the groups that read it",
                        v->name(), std::to_string(v->uses().size())));
          continue;
        }
        group.push_back(p);
        in.insert(p);
        grew = true;
      }
    }
  }
  if (group.size() < 2)
    return MatchResult::failure(firstWhy.empty() ? Text("nothing to fuse with")
                                                 : Text::of("nothing to fuse with: %1", firstWhy));
  if (Text why = whyTooLarge(group, out); !why.empty()) return MatchResult::failure(why);
  // Producers first: a depth-first post-order from the root.
  std::vector<ir::Node*> order;
  std::unordered_set<const ir::Node*> done;
  std::function<void(ir::Node*)> visit = [&](ir::Node* n) {
    if (done.count(n)) return;
    done.insert(n);
    for (size_t i = 0; i < dataInputs(*n); ++i) {
      ir::Node* p = n->input(i)->producer();
      if (p && in.count(p)) visit(p);
    }
    order.push_back(n);
  };
  visit(&root);
  const int64_t opset = c.opset;
  return MatchResult::success(group, [&root, order, opset](rewrite::Rewriter& rw) {
    Program p = encode(order, opset);
    std::vector<const ir::Node*> from(order.begin(), order.end());
    ir::Node* fused =
        fusedops::addFused(rw, ops::kFusedElementwise, p.inputs, &root, from, root.output(0));
    rw.setAttr(fused, ir::Attribute::makeStrings(ops::kOps, p.ops));
    rw.setAttr(fused, ir::Attribute::makeInts(ops::kOperands, p.operands));
    if (!p.constants.empty())
      rw.setAttr(fused, ir::Attribute::makeFloats(ops::kConstants, p.constants));
    std::vector<ir::Node*> dead(order.rbegin(), order.rend());
    fusion::replaceAndErase(rw, root.output(0), fused->output(0), dead);
  });
}

fusion::Rules rules() {
  fusion::Rules r;
  std::vector<std::string> roots;
  for (const ops::ElementwiseOp& row : ops::elementwiseOps())
    if (std::find(roots.begin(), roots.end(), row.onnxOp) == roots.end())
      roots.emplace_back(row.onnxOp);
  std::sort(roots.begin(), roots.end());
  // f(g(x, y), h(z)) ... -> ai.passlab.FusedElementwise(x, y, z) <program>
  fusion::addRule(r, "elementwise_group",
                  "a tree of >= 2 elementwise ops -> ai.passlab.FusedElementwise (one pass)", roots,
                  fuse);
  return r;
}

}  // namespace

std::unique_ptr<Pass> makeFuseElementwiseChains() {
  return std::make_unique<PatternPass>(catalogInfo("fuse_elementwise_chains"), rules());
}

}  // namespace passlab::passes
