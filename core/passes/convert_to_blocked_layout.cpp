// convert_to_blocked_layout — keep activations in the CPU executor's
// blocked layout (nChw8c / nChw16c) across chains of convolutions, pools,
// elementwise ops and channel Concats, with explicit reorders only at the
// chains' ends (non-standard, ai.passlab; like ONNX Runtime's NCHWc
// transformer).
//
// Before:  t = Conv(x, W1); u = Relu(t); p = MaxPool(u); y = Conv(p, W2) ... z = Flatten(y)
// After:   xb = ai.passlab.ReorderToBlocked(x) <block=b>
//          tb = ai.passlab.FusedConv(xb, W1) <block=b>; ub = Relu(tb)
//          pb = ai.passlab.BlockedPool(ub) <block=b, pool="MaxPool">
//          yb = ai.passlab.FusedConv(pb, W2) <block=b>
//          y = ai.passlab.ReorderFromBlocked(yb) <block=b, channels=C>; z = Flatten(y)
// A blocked tensor is an ordinary float tensor [N, ceil(C/b), H, W, b]
// (core/ir/passlab_ops.h): oneDNN's convolutions and pools read and write it
// directly, so the NCHW <-> blocked reorders oneDNN otherwise runs around
// every convolution happen once per chain. b is 16 on a CPU with AVX-512, else
// 8 (option `block`: 0 picks it from this CPU, or 8 or 16); the graph records
// it, so the model runs on any CPU (at the speed of the other layout there).
// What is blocked, in graph order:
//   * Conv and ai.passlab FusedConv (2-D, float32, weights of known shape)
//     whose input is blocked or whose output feeds an op of this list (a
//     lone convolution between NCHW ops, as in QDQ models, stays: two
//     reorders would gain nothing); the input is reordered explicitly when
//     it is not blocked yet and has at least b channels, else read as NCHW
//     (a first layer of 3 channels: oneDNN reads that layout natively);
//   * MaxPool (no Indices output), AveragePool, GlobalAveragePool of a
//     blocked input: ai.passlab BlockedPool;
//   * Relu, LeakyRelu, Clip, Sigmoid, Tanh, HardSigmoid, HardSwish of a
//     blocked input; Add, Sub, Mul, Max, Min, Sum of two blocked inputs of
//     equal shape (or one [N, C, 1, 1]: a squeeze-excite scale), or of one
//     and a scalar or a per-channel [C,1,1] /
//     [1,C,1,1] operand (reshaped and reordered to [1, C/b, 1, 1, b]; a
//     constant one is folded by the cleanup); Div of a blocked input by a
//     scalar: the same op on the 5-D tensors. The padding channels may then
//     hold f(0) (Sigmoid: 0.5), finite; nothing lets them reach a real
//     channel: a blocked convolution weights them with oneDNN's zero weight
//     padding, pools and elementwise ops keep channels apart,
//     ReorderFromBlocked drops them. (A blocked or per-channel divisor would
//     divide them by zero, and 0 * inf is NaN even under a zero weight.)
//   * ai.passlab FusedElementwise of blocked inputs of its output's shape
//     (and scalars) whose program keeps finite values finite (no Div, Pow,
//     Log, Exp, Sqrt, Reciprocal, Softplus, PRelu);
//   * BatchNormalization (inference) of a blocked input: one FusedElementwise
//     X * a + c, a = scale / sqrt(var + epsilon), c = B - mean * a computed
//     per channel (standard ops on [C]; folded when constant) and blocked;
//     a Relu that alone reads its output ends the same program;
//   * Concat on axis 1 of blocked inputs whose channel counts are multiples
//     of b: Concat on axis 1 of the 5-D tensors.
// Every blocked value that something else reads (or a graph output) gets one
// ReorderFromBlocked, under the original name.
// The cost rule: a chain (the converted nodes joined by the blocked values
// they pass each other) stays blocked only if it saves more reorders than it
// adds. Added: its explicit ReorderToBlocked of values computed at run time
// and its ReorderFromBlocked. Saved: the reorders the NCHW kernels of its
// convolutions run themselves (oneDNN reorders X into its own layout and Y
// back on every call), except a 1x1 convolution (stride 1, no padding, one
// group; on a CPU without AVX-512 also a grouped one from 49 output
// positions), which runs on plain NCHW as one matmul, and the input of a first
// layer read as NCHW either way. Both are counted in elements (dims that are
// not static count 1). Measured on onnx_light_shufflenet (passlab-cli
// profile, 1 thread): a depthwise convolution between two channel shuffles
// blocked on its own took 0.093 ms plus 0.080 ms of explicit reorders against
// 0.108 ms in NCHW, reorders included (28x28x136); the rule leaves such a
// chain (as much added as saved) in NCHW and says so in the explain log.
// Option `every_chain`: blocks every chain (the rule off).
// Conditions: non-standard output allowed; main graph only; shapes known
// (rank 4, static channel counts; batch and spatial dims may be symbolic).
// Near misses, in the explain log: Convs with 1-D/3-D kernels or unknown
// weight shapes, grouped Convs whose groups are not whole blocks (oneDNN
// has no blocked kernel for them; depthwise ones are blocked), MaxPool with Indices, pools and
// elementwise ops whose input is not blocked, Concats with channel counts that are not multiples of
// b.
#include <map>
#include <unordered_map>
#include <unordered_set>

#include "core/ir/passlab_ops.h"
#include "core/passes/function_pass.h"
#include "core/passes/layout_chain.h"
#include "core/passes/pass.h"
#include "core/passes/pass_catalog.h"
#include "core/passes/passlab_fused_utils.h"
#include "core/passes/rule_helpers.h"
#include "core/support/cpu_isa.h"

namespace passlab::passes {

namespace {

namespace ops = ir::passlab_ops;

// 16 where the CPU has AVX-512 (oneDNN's nChw16c), else 8 (nChw8c).
int64_t cpuBlock() {
  return cpu_isa::hasAvx512f() ? 16 : 8;
}

bool isOneOf(const ir::Node& n, std::initializer_list<std::string_view> opsList) {
  if (!n.domain().empty()) return false;
  for (std::string_view op : opsList)
    if (n.opType() == op) return true;
  return false;
}

// The static channel count of a rank-4 float32 value; nullopt otherwise.
std::optional<int64_t> channelsOf(const ir::Value* v) {
  if (!v || elemTypeOf(v) != ir::DataType::kFloat || !v->type().hasShape()) return std::nullopt;
  const ir::Shape& s = *v->type().shape();
  if (s.rank() != 4 || !s[1].isStatic()) return std::nullopt;
  return s[1].value();
}

class Blocker {
 public:
  explicit Blocker(PassContext& ctx) : ctx_(ctx), rw_(ctx.rewriter), g_(ctx.model().graph()) {}

  Status run() {
    if (ctx_.standardOnly) return Status::ok();
    const int64_t option = ctx_.intOption("block");
    if (option != 0 && !ops::validBlock(option))
      return invalidArgument(
          Text::of("convert_to_blocked_layout: block %1 is not 0 (this CPU's), 8 or 16",
                   std::to_string(option)));
    b_ = option ? option : cpuBlock();
    if (!dryRun_ && !ctx_.boolOption("every_chain")) leftInNchw_ = chainsThatDoNotPay();
    converted_ = convertInGraphOrder(g_, ctx_.filter, [&](ir::Node& n) {
      current_ = &n;
      return convert(n);
    });
    if (converted_.empty()) return Status::ok();
    reorderBackWhereRead();
    if (dryRun_) return Status::ok();
    removeConverted(rw_, g_, converted_);
    if (ctx_.note) {
      *ctx_.note = Text::of("%1 nodes in the blocked layout (block %2), %3 reorders in, %4 out",
                            std::to_string(converted_.size()), std::to_string(b_),
                            std::to_string(reordersIn_), std::to_string(reordersOut_));
      if (chainsLeft_)
        *ctx_.note = Text::of(
            "%1; %2 chains left in NCHW (they would add as many reorders as "
            "they save, or more)",
            *ctx_.note, std::to_string(chainsLeft_));
    }
    return Status::ok();
  }

 private:
  struct Blocked {
    ir::Value* value;  // [N, ceil(C/b), H, W, b]
    int64_t channels;  // C
  };

  // What a chain's reorders come to, in elements (the cost rule).
  struct ChainCost {
    double added = 0;  // explicit reorders in and out
    double saved = 0;  // the reorders its convolutions' NCHW kernels run
    std::vector<ir::NodeId> nodes;
  };

  Blocker(PassContext& ctx, bool dryRun) : Blocker(ctx) { dryRun_ = dryRun; }

  // The chains a dry run on a copy of the model makes, by the node ids the
  // copy keeps, and which of them do not pay: their nodes are left in NCHW
  // (with a note) by the real run, which then makes exactly the other chains
  // (a node of a kept chain never reads a blocked value of a dropped one: it
  // would be in that chain).
  std::unordered_map<ir::NodeId, Text> chainsThatDoNotPay() {
    ir::Model copy = ctx_.model().clone();
    rewrite::EditLog log;
    rewrite::Rewriter rw(copy, log);
    PassContext dry{rw, ctx_.options};
    dry.filter = ctx_.filter;
    dry.standardOnly = false;
    Blocker plan(dry, true);
    if (Status st = plan.run(); !st.isOk()) return {};
    std::unordered_map<ir::NodeId, ChainCost> chains;
    for (const ir::Node* n : plan.converted_) {
      const ir::NodeId id = n->id();
      ChainCost& c = chains[plan.root(id)];
      c.nodes.push_back(id);
      c.added += plan.added_[id];
      c.saved += plan.saved_[id];
    }
    std::unordered_map<ir::NodeId, Text> left;
    for (const auto& [root, c] : chains) {
      if (c.saved > c.added) continue;
      ++chainsLeft_;
      const Text why = Text::of(
          "left in NCHW with its chain of %1 nodes: the chain's reorders would move %2 "
          "elements, the NCHW convolutions' own reorders that it saves %3",
          std::to_string(c.nodes.size()), elementsText(c.added), elementsText(c.saved));
      for (ir::NodeId id : c.nodes) left.emplace(id, why);
    }
    return left;
  }

  static std::string elementsText(double v) { return std::to_string(static_cast<long long>(v)); }

  // Elements of a value; dims that are not static count 1.
  static double elements(const ir::Value* v) {
    if (!v || !v->type().hasShape()) return 0;
    double e = 1;
    for (const ir::Dim& d : v->type().shape()->dims())
      if (d.isStatic()) e *= static_cast<double>(d.value());
    return e;
  }

  ir::NodeId root(ir::NodeId id) {
    auto it = parent_.find(id);
    if (it == parent_.end() || it->second == id) return id;
    return it->second = root(it->second);
  }
  void join(ir::NodeId a, ir::NodeId b) {
    a = root(a);
    b = root(b);
    if (a != b) parent_[a] = b;
  }

  void note(const ir::Node& n, const Text& why) {
    if (ctx_.explain) ctx_.explain->note(n.id(), "convert_to_blocked_layout", why);
  }

  const Blocked* blockedOf(const ir::Value* v) const {
    auto it = blocked_.find(v);
    return it == blocked_.end() ? nullptr : &it->second;
  }

  // The blocked type of an NCHW value.
  ir::Type blockedType(const ir::Value* plain) const {
    const ir::Shape& s = *plain->type().shape();
    return ir::Type::tensor(
        ir::DataType::kFloat,
        ir::Shape(std::vector<ir::Dim>{s[0], ir::Dim(ops::blockedGroups(s[1].value(), b_)), s[2],
                                       s[3], ir::Dim(b_)}));
  }

  ir::Node* addNode(const std::string& op, const std::string& domain,
                    const std::vector<ir::Value*>& inputs, ir::Node* before, const ir::Node* from,
                    const ir::Node* alsoFrom = nullptr) {
    if (domain == ops::kDomain && !ctx_.model().opsetVersion(ops::kDomain))
      rw_.setOpsetVersion(ops::kDomain, ops::kVersion);
    std::vector<const ir::Node*> origins = {from};
    if (alsoFrom) origins.push_back(alsoFrom);
    return rw_.addNode(g_, op, domain, inputs, 1, before, "", origins);
  }

  // `plain`'s blocked version: the one already made, or a new
  // ReorderToBlocked before `before`.
  ir::Value* blockedInput(ir::Value* plain, ir::Node* before) {
    if (const Blocked* bl = blockedOf(plain)) return bl->value;
    const ir::Node* from = plain->producer() ? plain->producer() : before;
    ir::Node* r = addNode(ops::kReorderToBlocked, ops::kDomain, {plain}, before, from);
    rw_.setAttr(r, ir::Attribute::makeInt(ops::kBlock, b_));
    rw_.setType(r->output(0), blockedType(plain));
    blocked_[plain] = {r->output(0), *channelsOf(plain)};
    ++reordersIn_;
    if (current_) added_[current_->id()] += elements(plain);
    return r->output(0);
  }

  // The node's output 0 is now `out` (blocked) with `channels` channels.
  // `n` joins the chains of the converted nodes whose blocked outputs `out`
  // reads.
  void produced(ir::Node& n, ir::Node* out, int64_t channels) {
    rw_.setType(out->output(0), blockedType(n.output(0)));
    blocked_[n.output(0)] = {out->output(0), channels};
    producerOf_[out->output(0)] = n.id();
    for (size_t i = 0; i < out->inputCount(); ++i) {
      auto it = producerOf_.find(out->input(i));
      if (it != producerOf_.end()) join(n.id(), it->second);
    }
  }

  bool convert(ir::Node& n) {
    if (auto it = leftInNchw_.find(n.id()); it != leftInNchw_.end()) {
      note(n, it->second);
      return false;
    }
    if (n.opType() == "Conv" && n.domain().empty()) return convertConv(n);
    if (fusedops::isFused(&n, ops::kFusedConv) && !n.hasAttr(ops::kBlock)) return convertConv(n);
    if (isOneOf(n, {"MaxPool", "AveragePool", "GlobalAveragePool"})) return convertPool(n);
    if (isOneOf(n, {"Relu", "LeakyRelu", "Clip", "Sigmoid", "Tanh", "HardSigmoid", "HardSwish"}))
      return convertUnary(n);
    if (isOneOf(n, {"Add", "Sub", "Mul", "Div", "Max", "Min", "Sum"})) return convertBinary(n);
    if (isOneOf(n, {"BatchNormalization"})) return convertBatchNorm(n);
    if (isOneOf(n, {"Concat"})) return convertConcat(n);
    if (fusedops::isFused(&n, ops::kFusedElementwise)) return convertFusedElementwise(n);
    return false;
  }

  bool convertConv(ir::Node& n) {
    ir::Value* x = n.input(0);
    ir::Value* w = n.inputCount() > 1 ? n.input(1) : nullptr;
    auto c = channelsOf(x);
    auto m = channelsOf(n.output(0));
    if (!c || !m || !w || !w->type().hasShape() || w->type().shape()->rank() != 4 ||
        !(*w->type().shape())[2].isStatic() || !(*w->type().shape())[3].isStatic()) {
      note(n, Text::of("not a 2-D float32 convolution with known channel counts"));
      return false;
    }
    if (n.outputCount() != 1) return false;
    const int64_t group = n.attrInt("group", 1);
    const bool depthwise = group == *c && group == *m;
    if (group > 1 && !depthwise && ((*c / group) % b_ != 0 || (*m / group) % b_ != 0)) {
      note(n, Text::of("grouped convolution (group %1) whose groups are not whole blocks of %2 "
                       "channels: oneDNN has no blocked kernel for it",
                       std::to_string(group), std::to_string(b_)));
      return false;
    }
    if (!blockedOf(x) && !feedsAChain(*n.output(0))) {
      note(n, Text::of("a convolution between NCHW ops (no blocked input, no reader that could "
                       "stay blocked): two reorders would gain nothing"));
      return false;
    }
    ir::Value* z = n.inputCount() > 3 ? n.input(3) : nullptr;
    if (z && !channelsOf(z)) {
      note(n, Text::of("the residual's shape is unknown"));
      return false;
    }
    ir::Value* xin = blockedOf(x) || *c >= b_ ? blockedInput(x, &n) : x;
    if (!runsOnPlainNchw(n, group))
      saved_[n.id()] += (xin != x ? elements(x) : 0) + elements(n.output(0));
    std::vector<ir::Value*> in = {xin, w, n.inputCount() > 2 ? n.input(2) : nullptr};
    if (z) in.push_back(blockedInput(z, &n));
    while (!in.empty() && !in.back()) in.pop_back();
    ir::Node* conv = addNode(ops::kFusedConv, ops::kDomain, in, &n, &n);
    for (const ir::Attribute& a : n.attributes())
      if (auto copy = copyAttribute(a)) rw_.setAttr(conv, std::move(*copy));
    // kernel_shape is optional on Conv; blocked, X has rank 5 and would
    // count 3 spatial axes: the window is stated from W.
    if (!n.hasAttr("kernel_shape")) {
      const ir::Shape& ws = *w->type().shape();
      rw_.setAttr(conv, ir::Attribute::makeInts("kernel_shape", {ws[2].value(), ws[3].value()}));
    }
    rw_.setAttr(conv, ir::Attribute::makeInt(ops::kBlock, b_));
    produced(n, conv, *m);
    return true;
  }

  // A 1x1 convolution with stride 1 and no padding whose NCHW kernel is one
  // matmul (a GEMM per group) on the plain tensors, no reorder to save: one
  // group, or, on a CPU without AVX-512, any number of groups from
  // kGroupedPlainMinPositions output positions (the executor's
  // runsInPlainNchw, core/exec/cpu/conv_layout_choice.h; blocked, such a
  // convolution reorders X and Y itself there: shufflenet's 544 -> 544 in 4
  // groups at 7x7).
  static bool runsOnPlainNchw(const ir::Node& n, int64_t group) {
    if (group != 1 && (cpu_isa::hasAvx512f() || positions(n.output(0)) < kGroupedPlainMinPositions))
      return false;
    const ir::Value* w = n.input(1);
    const ir::Shape& ws = *w->type().shape();
    if (!ws[2].isStatic() || ws[2].value() != 1 || !ws[3].isStatic() || ws[3].value() != 1)
      return false;
    for (const char* attr : {"strides", "pads", "dilations"})
      for (int64_t v : n.attrInts(attr))
        if (v != (std::string_view(attr) == "pads" ? 0 : 1)) return false;
    const std::string pad = n.attrString("auto_pad", "NOTSET");
    return pad == "NOTSET" || pad == "VALID";
  }

  // kPlainGroupedConvMinPixelsAvx2 of core/exec/cpu/conv_layout_choice.h.
  static constexpr int64_t kGroupedPlainMinPositions = 49;

  // H * W of a rank-4 value; 0 where not static.
  static int64_t positions(const ir::Value* v) {
    if (!v || !v->type().hasShape() || v->type().shape()->rank() != 4) return 0;
    const ir::Shape& s = *v->type().shape();
    if (!s[2].isStatic() || !s[3].isStatic()) return 0;
    return s[2].value() * s[3].value();
  }

  // Some reader of `y` is an op this pass may keep blocked.
  static bool feedsAChain(const ir::Value& y) {
    for (const ir::Use& u : y.uses()) {
      const ir::Node& r = *u.node;
      if (isOneOf(r, {"Conv",
                      "MaxPool",
                      "AveragePool",
                      "GlobalAveragePool",
                      "Relu",
                      "LeakyRelu",
                      "Clip",
                      "Sigmoid",
                      "Tanh",
                      "HardSigmoid",
                      "HardSwish",
                      "Add",
                      "Sub",
                      "Mul",
                      "Div",
                      "Max",
                      "Min",
                      "Sum",
                      "BatchNormalization",
                      "Concat"}) ||
          fusedops::isFused(&r, ops::kFusedConv) || fusedops::isFused(&r, ops::kFusedElementwise))
        return true;
    }
    return false;
  }

  bool convertPool(ir::Node& n) {
    const Blocked* x = blockedOf(n.input(0));
    if (!x) {
      note(n, Text::of("its input is not in the blocked layout"));
      return false;
    }
    if (n.outputCount() > 1 && n.output(1) && !n.output(1)->uses().empty()) {
      note(n, Text::of("MaxPool's Indices output is read"));
      return false;
    }
    if (!channelsOf(n.output(0))) return false;
    ir::Node* pool = addNode(ops::kBlockedPool, ops::kDomain, {x->value}, &n, &n);
    for (const ir::Attribute& a : n.attributes())
      if (a.name() != "storage_order")
        if (auto copy = copyAttribute(a)) rw_.setAttr(pool, std::move(*copy));
    rw_.setAttr(pool, ir::Attribute::makeInt(ops::kBlock, b_));
    rw_.setAttr(pool, ir::Attribute::makeString(ops::kPool, n.opType()));
    produced(n, pool, x->channels);
    return true;
  }

  // The same op on the blocked tensors; `inputs` replace the data inputs.
  bool same(ir::Node& n, std::vector<ir::Value*> inputs, int64_t channels,
            const std::string& domain = "") {
    if (!channelsOf(n.output(0)) || n.outputCount() != 1) return false;
    for (size_t i = inputs.size(); i < n.inputCount(); ++i) inputs.push_back(n.input(i));
    ir::Node* copy = addNode(n.opType(), domain, inputs, &n, &n);
    for (const ir::Attribute& a : n.attributes())
      if (auto c = copyAttribute(a)) rw_.setAttr(copy, std::move(*c));
    produced(n, copy, channels);
    return true;
  }

  bool convertUnary(ir::Node& n) {
    const Blocked* x = blockedOf(n.input(0));
    if (!x) return false;
    if (auto it = absorbed_.find(&n); it != absorbed_.end()) {
      produced(n, it->second, x->channels);
      return true;
    }
    return same(n, {x->value}, x->channels);
  }

  // The Relu that alone reads `y` (not a graph output) and that this pass may
  // convert, else null.
  ir::Node* soleReluReader(const ir::Value& y) const {
    if (y.isGraphOutput() || y.uses().size() != 1) return nullptr;
    ir::Node* r = y.uses().front().node;
    if (r->opType() != "Relu" || !r->domain().empty() || r->input(0) != &y) return nullptr;
    if (ctx_.filter && !ctx_.filter->allows(r->id())) return nullptr;
    return r;
  }

  bool convertBinary(ir::Node& n) {
    if (n.inputCount() != 2) return false;
    const Blocked* a = blockedOf(n.input(0));
    const Blocked* c = blockedOf(n.input(1));
    if (!a && !c) return false;
    if (a && c && n.opType() != "Div") {
      if (a->channels != c->channels || !(fusedops::sameShape(n.input(0), n.input(1)) ||
                                          spatialOne(n.input(0)) || spatialOne(n.input(1)))) {
        note(n, Text::of("its operands do not have equal shapes"));
        return false;
      }
      return same(n, {a->value, c->value}, a->channels);
    }
    // One blocked operand, the other a scalar or per channel.
    const size_t bi = a ? 0 : 1;
    const Blocked* x = a ? a : c;
    ir::Value* other = n.input(1 - bi);
    ir::Value* converted = nullptr;
    // A Div may only divide a blocked tensor by a scalar: a blocked divisor, or
    // a per-channel one padded with zeros, would divide by zero.
    if (n.opType() == "Div" && (bi != 0 || !isScalar(other))) {
      note(n, Text::of("a Div by a blocked or per-channel divisor would divide the padding "
                       "channels by zero"));
      return false;
    }
    if (isScalar(other)) {
      converted = other;
    } else if (perChannel(other, x->channels)) {
      converted = blockedChannelVector(other, x->channels, &n);
    } else {
      note(n, Text::of("'%1' is neither a scalar nor one value per channel of '%2'", other->name(),
                       n.input(bi)->name()));
      return false;
    }
    std::vector<ir::Value*> in(2);
    in[bi] = x->value;
    in[1 - bi] = converted;
    return same(n, in, x->channels);
  }

  // [N, C, 1, 1]: broadcasts over the other operand's H and W (a
  // squeeze-excite scale), blocked as [N, C/b, 1, 1, b] the same way.
  static bool spatialOne(const ir::Value* v) {
    if (!v || !v->type().hasShape() || v->type().shape()->rank() != 4) return false;
    const ir::Shape& s = *v->type().shape();
    return s[2].isStatic() && s[2].value() == 1 && s[3].isStatic() && s[3].value() == 1;
  }

  static bool isScalar(const ir::Value* v) {
    if (!v || !v->type().hasShape()) return false;
    for (const ir::Dim& d : v->type().shape()->dims())
      if (!d.isStatic() || d.value() != 1) return false;
    return v->type().shape()->rank() <= 4;
  }

  // [C, 1, 1] or [1, C, 1, 1] (broadcast against NCHW along the channels).
  static bool perChannel(const ir::Value* v, int64_t channels) {
    if (!v || !v->type().hasShape() || elemTypeOf(v) != ir::DataType::kFloat) return false;
    const ir::Shape& s = *v->type().shape();
    const size_t r = s.rank();
    if (r != 3 && r != 4) return false;
    if (r == 4 && !(s[0].isStatic() && s[0].value() == 1)) return false;
    const size_t c = r - 3;
    if (!s[c].isStatic() || s[c].value() != channels || channels == 1) return false;
    return s[c + 1].isStatic() && s[c + 1].value() == 1 && s[c + 2].isStatic() &&
           s[c + 2].value() == 1;
  }

  // v (C values, any shape) as [1, ceil(C/b), 1, 1, b], the padding zero:
  // Reshape to [1, C, 1, 1], then ReorderToBlocked (constant: folded later).
  ir::Value* blockedChannelVector(ir::Value* v, int64_t channels, ir::Node* before) {
    ir::Value* shape = addConstant(rw_, g_, before, "blocked_shape",
                                   ir::Tensor::fromInt64s({1, channels, 1, 1}), {before});
    ir::Node* r = addNode("Reshape", "", {v, shape}, before, before);
    rw_.setType(r->output(0), ir::Type::tensor(ir::DataType::kFloat,
                                               ir::Shape(std::vector<ir::Dim>{1, channels, 1, 1})));
    ir::Node* b = addNode(ops::kReorderToBlocked, ops::kDomain, {r->output(0)}, before, before);
    rw_.setAttr(b, ir::Attribute::makeInt(ops::kBlock, b_));
    rw_.setType(b->output(0), blockedType(r->output(0)));
    return b->output(0);
  }

  // A FusedElementwise whose instructions keep finite values finite, of
  // blocked inputs of its output's shape and of scalars.
  bool convertFusedElementwise(ir::Node& n) {
    static const std::unordered_set<std::string> kFinite = {
        "Add",   "Sub",      "Mul",       "Max",     "Min",         "Identity",
        "Neg",   "Abs",      "Relu",      "Sigmoid", "Tanh",        "Erf",
        "Floor", "Ceil",     "Sin",       "Cos",     "Softsign",    "HardSwish",
        "Gelu",  "GeluTanh", "LeakyRelu", "Elu",     "HardSigmoid", "Clip"};
    const Blocked* first = nullptr;
    std::vector<ir::Value*> in;
    for (size_t i = 0; i < n.inputCount(); ++i) {
      const Blocked* x = blockedOf(n.input(i));
      if (x && fusedops::sameShape(n.input(i), n.output(0))) {
        first = first ? first : x;
        in.push_back(x->value);
      } else if (isScalar(n.input(i))) {
        in.push_back(n.input(i));
      } else {
        return false;
      }
    }
    if (!first) return false;
    for (const std::string& op : n.attr(ops::kOps)->strings)
      if (!kFinite.count(op)) {
        note(n, Text::of("its program has %1, which may turn the padding channels' values into "
                         "infinities or NaN",
                         op));
        return false;
      }
    return same(n, in, first->channels, ops::kDomain);
  }

  // BatchNormalization (inference) of a blocked X:
  // Y = X * a + c, a = scale / sqrt(var + epsilon), c = B - mean * a, the
  // vectors computed on [C] (constants: folded later) and blocked.
  bool convertBatchNorm(ir::Node& n) {
    const Blocked* x = blockedOf(n.input(0));
    if (!x) {
      note(n, Text::of("its input is not in the blocked layout"));
      return false;
    }
    if (n.inputCount() != 5 || n.attrInt("spatial", 1) != 1) return false;
    for (size_t i = 1; i < n.outputCount(); ++i)
      if (n.output(i) && !n.output(i)->uses().empty()) {
        note(n, Text::of("a training output of the BatchNormalization is read"));
        return false;
      }
    if (!channelsOf(n.output(0))) return false;
    for (size_t i = 1; i < 5; ++i)
      if (elemTypeOf(n.input(i)) != ir::DataType::kFloat) return false;
    const float eps = static_cast<float>(n.attrFloat("epsilon", 1e-5f));
    const ir::Type vec = ir::Type::tensor(ir::DataType::kFloat,
                                          ir::Shape(std::vector<ir::Dim>{ir::Dim(x->channels)}));
    auto op = [&](const char* type, std::vector<ir::Value*> in) {
      ir::Node* m = addNode(type, "", in, &n, &n);
      rw_.setType(m->output(0), vec);
      return m->output(0);
    };
    ir::Value* e = addConstant(rw_, g_, &n, "epsilon", ir::Tensor::scalarFloat(eps), {&n});
    ir::Value* a = op("Div", {n.input(1), op("Sqrt", {op("Add", {n.input(4), e})})});
    ir::Value* c = op("Sub", {n.input(2), op("Mul", {n.input(3), a})});
    ir::Value* ab = blockedChannelVector(a, x->channels, &n);
    ir::Value* cb = blockedChannelVector(c, x->channels, &n);
    // x * a + c in one pass: FusedElementwise(x, a, c) = Add(Mul(r0, r1), r2);
    // with the Relu that alone reads Y, Relu(r4) in the same pass (densenet121's
    // 62 BatchNormalization + Relu pairs: one pass over each tensor, not two).
    // That Relu's blocked output is then this node's (convertUnary).
    ir::Node* relu = soleReluReader(*n.output(0));
    ir::Node* bn = addNode(ops::kFusedElementwise, ops::kDomain, {x->value, ab, cb}, &n, &n, relu);
    std::vector<std::string> program = {"Mul", "Add"};
    std::vector<int64_t> operands = {0, 1, -1, 3, 2, -1};
    if (relu) {
      program.push_back("Relu");
      operands.insert(operands.end(), {4, -1, -1});
      absorbed_[relu] = bn;
    }
    rw_.setAttr(bn, ir::Attribute::makeStrings(ops::kOps, program));
    rw_.setAttr(bn, ir::Attribute::makeInts(ops::kOperands, operands));
    produced(n, bn, x->channels);
    return true;
  }

  bool convertConcat(ir::Node& n) {
    const int64_t axis = n.attrInt("axis", 1);
    if (axis != 1 && axis != -3) return false;
    std::vector<ir::Value*> in;
    int64_t channels = 0;
    for (size_t i = 0; i < n.inputCount(); ++i) {
      const Blocked* x = blockedOf(n.input(i));
      if (!x) return false;
      if (x->channels % b_ != 0) {
        note(n, Text::of("input '%1' has %2 channels, not a multiple of the block %3",
                         n.input(i)->name(), std::to_string(x->channels), std::to_string(b_)));
        return false;
      }
      in.push_back(x->value);
      channels += x->channels;
    }
    if (in.empty() || !channelsOf(n.output(0))) return false;
    ir::Node* cat = addNode("Concat", "", in, &n, &n);
    rw_.setAttr(cat, ir::Attribute::makeInt("axis", 1));
    produced(n, cat, channels);
    return true;
  }

  // A ReorderFromBlocked for every converted output that an unconverted node
  // or the graph's outputs read; it takes over the value's uses and name.
  void reorderBackWhereRead() {
    for (ir::Node* n : readOutsideChain(g_, converted_)) {
      ir::Value* y = n->output(0);
      const Blocked& bl = blocked_.at(y);
      ir::Node* r = addNode(ops::kReorderFromBlocked, ops::kDomain, {bl.value}, n, n);
      rw_.setAttr(r, ir::Attribute::makeInt(ops::kBlock, b_));
      rw_.setAttr(r, ir::Attribute::makeInt(ops::kChannels, bl.channels));
      rw_.setType(r->output(0), y->type());
      rw_.replaceAllUsesWith(y, r->output(0));
      ++reordersOut_;
      added_[n->id()] += elements(y);
    }
  }

  PassContext& ctx_;
  rewrite::Rewriter& rw_;
  ir::Graph& g_;
  int64_t b_ = 8;
  std::unordered_map<const ir::Value*, Blocked> blocked_;
  // A Relu whose program a converted BatchNormalization's FusedElementwise
  // ends with: its blocked output is that node's.
  std::unordered_map<const ir::Node*, ir::Node*> absorbed_;
  std::vector<ir::Node*> converted_;
  size_t reordersIn_ = 0, reordersOut_ = 0;
  // The cost rule: the dry run's bookkeeping by original node id, and the
  // nodes the real run leaves in NCHW (why, for the explain log).
  bool dryRun_ = false;
  const ir::Node* current_ = nullptr;                            // the node being converted
  std::unordered_map<const ir::Value*, ir::NodeId> producerOf_;  // blocked value -> node
  std::unordered_map<ir::NodeId, ir::NodeId> parent_;            // chains (union-find)
  std::unordered_map<ir::NodeId, double> added_, saved_;
  std::unordered_map<ir::NodeId, Text> leftInNchw_;
  size_t chainsLeft_ = 0;
};

}  // namespace

std::unique_ptr<Pass> makeConvertToBlockedLayout() {
  return std::make_unique<FunctionPass>(catalogInfo("convert_to_blocked_layout"),
                                        [](PassContext& ctx) { return Blocker(ctx).run(); });
}

}  // namespace passlab::passes
