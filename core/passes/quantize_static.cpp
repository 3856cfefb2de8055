// quantize_static: INT8 static quantization in the QDQ form ONNX Runtime
// writes and fuses. For each Conv, MatMul and Gemm with a constant weight:
//   - the weight becomes int8 (symmetric, one scale per output channel by
//     default) read through a DequantizeLinear;
//   - a constant bias becomes int32 with scale x_scale * w_scale, zero point 0
//     (what a QLinearConv adds before requantizing);
//   - the activation input, and the output (after a Relu that alone reads it,
//     whose zero clamp the quantized range then carries), pass through a
//     QuantizeLinear -> DequantizeLinear pair with a range calibrated on the
//     pipeline's input sets (MinMax, Percentile or Entropy), one pair per
//     tensor, shared by all its readers. A tensor that a value-preserving op
//     (MaxPool, Pad with zeros, Reshape, Transpose, ...) derives from a
//     quantized one takes that tensor's range, so that the op can later run
//     on the 8-bit values unchanged (exact: see sharedRangeSource). A
//     data-movement op (those and Split, Concat) whose every output is
//     quantized gets its inputs quantized too, as ONNX Runtime's quantizer
//     does, the tensors it joins one range (quantizeAboveDataMovement,
//     shareRangesOfDataMovement): a channel shuffle between quantized
//     convolutions runs on 8 bits, and the float ops before it end in a
//     QuantizeLinear of their own.
// A MatMul of two activations (an attention's Q * K^T and attn * V) has both
// inputs and its output quantized, per tensor, as ONNX Runtime's QDQ quantizer
// does unless its MatMulConstBOnly is set (here `matmul_const_b_only`): the
// unit DQ(a), DQ(b) -> MatMul -> Q then runs as QLinearMatMul.
// An Add or Mul of two activations that are both quantized already (inputs or
// outputs of the ops above, or of another such Add or Mul: a residual
// connection between quantized convolutions) gets its output quantized too,
// as ONNX Runtime's quantizer does for these ops (its node unit DQ, DQ -> Add
// -> Q runs as QLinearAdd); an Add or Mul elsewhere stays float.
// A bias Add after a quantized MatMul or Gemm (its other input a constant,
// its output read only by ops that are quantized or take a quantized input)
// is quantized too, the constant 8-bit per tensor, as ONNX Runtime's
// quantizer writes it (`quantize_bias_adds`): ONNX Runtime then runs it as
// QLinearAdd, moves the Reshape/Transpose/Split after it to 8 bits, and the
// residual Add after it becomes a node unit, so that it does not fuse
// `Add -> LayerNormalization` into a float SkipLayerNormalization (on its
// CPU provider 8x slower than LayerNormalization; measured in
// docs/precision.md).
// A quantized Conv whose output only an inference BatchNormalization reads
// takes it into its weight and bias first (`fold_batchnorm`, default on), so
// that the normalized output is the one quantized (ppocr_cls_mobile_v2: over
// the budget without it, docs/precision.md).
// Inside If branches and Loop/Scan bodies (option `subgraphs`, default on)
// each body is quantized as a graph of its own, its Q/DQ pairs and int8
// weights in the body, its inputs and outputs and the outer values it reads
// float32; its values are calibrated on every run of the body
// (exec::BodyValueWatch), and a body no calibration run entered stays
// float32 (the note counts its ops).
// Each DQ -> op -> Q group is then one "node unit" that ONNX Runtime runs as a
// QLinear op. Lossy: the check holds the outputs to the accuracy budget.
// The int8 weights take the full range, or [-64, 64] with reduce_range (7
// bits, ONNX Runtime's option for CPUs without VNNI); the default, auto,
// chooses 7 bits on a CPU without AVX-512 VNNI or AVX-VNNI and the note says
// which (reduce_range_option.h).
#include <algorithm>
#include <cmath>
#include <limits>
#include <map>
#include <set>
#include <unordered_map>

#include "core/passes/calibration_stats.h"
#include "core/passes/calibration_stats_source.h"
#include "core/passes/function_pass.h"
#include "core/passes/fusion_utils.h"
#include "core/passes/node_policy.h"
#include "core/passes/non_finite_input_source.h"
#include "core/passes/pass.h"
#include "core/passes/pass_catalog.h"
#include "core/passes/reduce_range_option.h"
#include "core/passes/rule_helpers.h"
#include "core/passes/subgraph_skips.h"
#include "core/support/strings.h"

namespace passlab::passes {

namespace {

constexpr const char* kId = "quantize_static";

bool hasNodeNamed(const ir::Graph& g, const std::string& name) {
  for (const auto& n : g.nodes())
    if (n->name() == name) return true;
  return false;
}

// How many values of `g` and of the bodies inside it carry each name (sibling
// bodies, an If's two branches, may use the same names).
void countValueNames(const ir::Graph& g, std::unordered_map<std::string, int>& count) {
  g.forEachValue([&](const ir::Value* v) {
    if (!v->name().empty()) ++count[v->name()];
  });
  for (const auto& n : g.nodes())
    for (const ir::Graph* sub : n->subgraphs()) countValueNames(*sub, count);
}

bool isFloat32Tensor(const ir::Value* v) {
  return v && v->type().isTensor() && v->type().elemType() == ir::DataType::kFloat;
}

// The stored data of a weight or bias: an initializer (also one that is a
// graph input: every initializer below IR version 4), or a Constant's value
// (exporters such as Paddle's write weights that way).
const ir::Tensor* storedTensor(const ir::Value* v) {
  if (!v) return nullptr;
  if (v->initializer()) return v->initializer();
  const ir::Node* p = v->producer();
  if (!p || p->opType() != "Constant" || !p->domain().empty()) return nullptr;
  const ir::Attribute* a = p->attr("value");
  return a && a->type() == ir::AttrType::kTensor ? &a->t : nullptr;
}

// Whether `v` is computed from stored tensors only (a Reshape of a weight
// before fold_constants, also of an initializer that is a graph input below
// IR version 4): a weight not stored yet, not an activation.
bool fromStoredTensorsOnly(const ir::Value* v, int depth = 8) {
  if (storedTensor(v)) return true;
  const ir::Node* p = v->producer();
  if (!p || depth == 0 || v->isGraphInput() || !p->domain().empty() || p->inputs().empty())
    return false;
  for (const ir::Value* in : p->inputs())
    if (in && !fromStoredTensorsOnly(in, depth - 1)) return false;
  return true;
}

// One op quantized: which of its inputs is the weight, and along which axis
// of the weight its output channels run.
struct Unit {
  ir::Node* node = nullptr;
  ir::Value* input = nullptr;  // the activation it reads (before its Q/DQ pair)
  int64_t weightAxis = 0;
  ir::Value* output = nullptr;    // the op's output, or the output of the Relu that alone reads it
  ir::Value* input2 = nullptr;    // an Add's, Mul's or MatMul's second activation (no weight then)
  ir::Value* constant = nullptr;  // a bias Add's constant, quantized to 8 bits per tensor
};

// An int8 weight with its scales (one per channel along `axis`, or one).
struct QuantizedWeight {
  ir::Tensor values;
  std::vector<float> scales;
  std::vector<int8_t> zeroPoints;  // one per scale; all 0 when symmetric
};

// The channels of a weight along `axis` (one channel when per tensor): the
// channel of flat element i.
struct WeightChannels {
  int64_t count = 1;  // channels
  int64_t inner = 1;  // elements per channel run
  int64_t of(int64_t i) const { return count == 1 ? 0 : (i / inner) % count; }
};

WeightChannels weightChannels(const ir::Tensor& w, int64_t axis, bool perChannel) {
  if (!perChannel) return {1, w.numel()};
  const std::vector<int64_t>& d = w.dims();
  WeightChannels c{d[static_cast<size_t>(axis)], 1};
  for (size_t i = static_cast<size_t>(axis) + 1; i < d.size(); ++i) c.inner *= d[i];
  return c;
}

// `qmax` is 127, or 64 with reduce_range (7 bits, as ONNX Runtime's quantizer:
// u8 x s8 pairs then cannot saturate a CPU's 16-bit pair sums without VNNI).
QuantizedWeight quantizeSymmetric(const ir::Tensor& w, int64_t axis, bool perChannel, float qmax) {
  const std::vector<int64_t>& d = w.dims();
  const WeightChannels c = weightChannels(w, axis, perChannel);
  const auto x = w.data<float>();
  const auto n = static_cast<int64_t>(x.size());
  std::vector<float> absMax(static_cast<size_t>(c.count), 0.0f);
  for (int64_t i = 0; i < n; ++i) {
    float& m = absMax[static_cast<size_t>(c.of(i))];
    m = std::max(m, std::fabs(x[static_cast<size_t>(i)]));
  }
  QuantizedWeight q;
  for (float m : absMax) q.scales.push_back(m > 0 ? m / qmax : 1.0f);
  std::vector<int8_t> values(static_cast<size_t>(n));
  for (int64_t i = 0; i < n; ++i) {
    const float v =
        std::nearbyint(x[static_cast<size_t>(i)] / q.scales[static_cast<size_t>(c.of(i))]);
    values[static_cast<size_t>(i)] = static_cast<int8_t>(std::clamp(v, -qmax, qmax));
  }
  q.values = ir::Tensor::fromVector<int8_t>(ir::DataType::kInt8, d, values);
  q.zeroPoints.assign(q.scales.size(), 0);
  return q;
}

// weight_symmetric=false (ONNX Runtime's WeightSymmetric=False): each
// channel's [min(lo, 0), max(hi, 0)] onto [qmin, qmax] of int8 with a zero
// point of its own (asymmetricParams), [-128, 127], or [-64, 64] with
// reduce_range as ONNX Runtime's 7-bit range.
QuantizedWeight quantizeAsymmetric(const ir::Tensor& w, int64_t axis, bool perChannel,
                                   bool reduceRange) {
  const int32_t qmin = reduceRange ? -64 : -128, qmax = reduceRange ? 64 : 127;
  const std::vector<int64_t>& d = w.dims();
  const WeightChannels c = weightChannels(w, axis, perChannel);
  const auto x = w.data<float>();
  const auto n = static_cast<int64_t>(x.size());
  std::vector<QuantRange> ranges(static_cast<size_t>(c.count), QuantRange{0.0f, 0.0f});
  for (int64_t i = 0; i < n; ++i) {
    QuantRange& r = ranges[static_cast<size_t>(c.of(i))];
    r.lo = std::min(r.lo, x[static_cast<size_t>(i)]);
    r.hi = std::max(r.hi, x[static_cast<size_t>(i)]);
  }
  QuantizedWeight q;
  std::vector<QuantParams> params;
  for (const QuantRange& r : ranges) {
    params.push_back(asymmetricParams(r, qmin, qmax));
    q.scales.push_back(params.back().scale);
    q.zeroPoints.push_back(static_cast<int8_t>(params.back().zeroPoint));
  }
  std::vector<int8_t> values(static_cast<size_t>(n));
  for (int64_t i = 0; i < n; ++i) {
    const QuantParams& p = params[static_cast<size_t>(c.of(i))];
    const float v = std::nearbyint(x[static_cast<size_t>(i)] / p.scale) + p.zeroPoint;
    values[static_cast<size_t>(i)] =
        static_cast<int8_t>(std::clamp(v, static_cast<float>(qmin), static_cast<float>(qmax)));
  }
  q.values = ir::Tensor::fromVector<int8_t>(ir::DataType::kInt8, d, values);
  return q;
}

// activation_symmetric=true (ONNX Runtime's ActivationSymmetric): the range
// [-m, m], m = max(|lo|, |hi|); int8 onto [-127, 127] with zero point 0,
// uint8 onto [0, 255] with zero point 128 (ONNX Runtime's rule for both).
QuantParams symmetricActivationParams(const QuantRange& r, bool int8) {
  const float m = std::max(std::fabs(r.lo), std::fabs(r.hi));
  QuantParams p;
  p.zeroPoint = int8 ? 0 : 128;
  if (m > 0 && std::isfinite(m)) p.scale = int8 ? m / 127.0f : 2.0f * m / 255.0f;
  return p;
}

// Ops whose output holds values of their input 0 only (moved, dropped or
// repeated; Pad adds zeros, which every range here holds exactly), so that
// with the input's scale and zero point Q(op(DQ(xq))) == op(xq): max
// commutes with the monotonic dequantization, the others move values.
bool preservesValues(const ir::Node& n, int64_t opset) {
  if (!n.domain().empty()) return false;
  const std::string& op = n.opType();
  if (op == "Reshape" || op == "Flatten" || op == "Transpose" || op == "Squeeze" ||
      op == "Unsqueeze" || op == "Identity" || op == "Split")
    return true;
  if (op == "MaxPool") return n.outputs().size() < 2 || !n.output(1) || n.output(1)->uses().empty();
  if (op != "Pad" || n.attrString("mode", "constant") != "constant") return false;
  if (opset < 11) return n.attrFloat("value", 0.0f) == 0.0f;
  const ir::Value* c = n.inputs().size() > 2 ? n.input(2) : nullptr;
  if (!c) return true;
  const ir::Tensor* t = c->isGraphInput() ? nullptr : storedTensor(c);
  return t && t->numel() == 1 && t->valueAsDouble(0) == 0;
}

class StaticQuantizer {
 public:
  explicit StaticQuantizer(PassContext& ctx)
      : ctx_(ctx), rw_(ctx.rewriter), g_(ctx.model().graph()) {}

  Status run() {
    PASSLAB_RETURN_IF_ERROR(readOptions());
    collectGraphs(g_);
    // The units of each graph, the main graph first: each graph (a body too)
    // is quantized as a graph of its own, a body's inputs and outputs and the
    // values of enclosing graphs it reads staying float32 there.
    std::vector<GraphUnits> graphs;
    for (ir::Graph* g : graphs_) {
      cur_ = g;
      GraphUnits w{g, {}, {}, nullptr, false};
      PASSLAB_RETURN_IF_ERROR(chooseUnits(w.units));
      if (ctx_.boolOption("fold_batchnorm")) {
        size_t folded = 0;
        for (Unit& u : w.units) folded += foldBatchNormInto(u) ? 1 : 0;
        // A unit that read a folded BatchNormalization's output reads the new
        // Conv's now (that value is gone): take every unit's values again.
        if (folded > 0)
          for (Unit& u : w.units) {
            u.input = u.node->input(0);
            if (u.input2) u.input2 = u.node->input(1);
            u.output = outputOf(*u.node);
          }
        folded_ += folded;
      }
      PASSLAB_RETURN_IF_ERROR(chooseBinaryUnits(w.units));
      if (!w.units.empty()) graphs.push_back(std::move(w));
    }
    if (graphs.empty()) {
      writeNote(0, 0);
      return Status::ok();
    }
    // One calibration for all the graphs. A body's values are seen on every
    // run of it (each If branch taken, each Loop iteration); whether a body
    // ran at all, its first unit's output says (`ran`).
    std::vector<ir::Value*> observed;
    std::set<const ir::Value*> listed;
    auto list = [&](ir::Value* v) {
      if (listed.insert(v).second) observed.push_back(v);
    };
    // The calibration finds a body's values by name: a body whose values share
    // a name with another value of the model (the same names in both branches
    // of an If) would get that value's statistics, so it stays float32.
    std::unordered_map<std::string, int> names;
    countValueNames(g_, names);
    for (GraphUnits& w : graphs) {
      cur_ = w.graph;
      w.activations = activationsOf(w.units);
      quantizeAboveDataMovement(w.activations);
      if (w.graph != &g_) {
        w.ran = w.units.front().node->output(0);
        w.ambiguous = names[w.ran->name()] > 1;
        for (const ir::Value* v : w.activations) w.ambiguous = w.ambiguous || names[v->name()] > 1;
        if (w.ambiguous) continue;
      }
      for (ir::Value* v : w.activations) list(v);
      if (w.graph != &g_) list(w.ran);
    }
    if (!observed.empty()) PASSLAB_RETURN_IF_ERROR(calibrate(observed));
    std::set<const ir::Value*> calibrated;
    for (GraphUnits& w : graphs) {
      if (w.ambiguous) {
        ambiguous_ += w.units.size();
        if (ctx_.explain)
          for (const Unit& u : w.units)
            ctx_.explain->note(u.node->id(), kId,
                               "a value of the subgraph it is in has the name of another value "
                               "of the model, so calibration cannot tell them apart: it stays "
                               "float32");
        continue;
      }
      if (w.graph != &g_ && !ranges_.count(w.ran)) {
        // No calibration run entered this body: it stays float32.
        notRun_ += w.units.size();
        if (ctx_.explain)
          for (const Unit& u : w.units)
            ctx_.explain->note(u.node->id(), kId,
                               "no calibration run entered the subgraph it is in (an If branch "
                               "not taken, a Loop or Scan of no iteration): it stays float32");
        continue;
      }
      for (const ir::Value* v : w.activations)
        if (!ranges_.count(v)) return noFiniteValue(*v);
      cur_ = w.graph;
      calibrated.insert(w.activations.begin(), w.activations.end());
      shareRangesOfDataMovement(w.activations);
      rememberOrder();
      for (ir::Value* v : w.activations) PASSLAB_RETURN_IF_ERROR(insertQdq(v));
      for (const Unit& u : w.units) {
        if (u.constant)
          quantizeConstantOperand(u);
        else if (!u.input2)
          quantizeWeights(u);
      }
      quantized_ += w.units.size();
      if (w.graph != &g_) inBodies_ += w.units.size();
    }
    writeNote(quantized_, calibrated.size());
    if (folded_ > 0 && ctx_.note)
      *ctx_.note = Text::of("%1; %2 BatchNormalizations folded into the Convs before them first",
                            *ctx_.note, std::to_string(folded_));
    return Status::ok();
  }

 private:
  Status readOptions() {
    auto method = parseCalibrationMethod(ctx_.option("method"));
    if (!method)
      return invalidArgument(Text::of("%1: method '%2' is not minmax, percentile or entropy", kId,
                                      ctx_.option("method")));
    method_ = *method;
    percentile_ = ctx_.doubleOption("percentile");
    if (!(percentile_ > 50 && percentile_ <= 100))
      return invalidArgument(
          Text::of("%1: percentile %2 is not in (50, 100]", kId, ctx_.option("percentile")));
    const std::string type = ctx_.option("activation_type");
    if (type != "uint8" && type != "int8")
      return invalidArgument(Text::of("%1: activation_type '%2' is not uint8 or int8", kId, type));
    int8Activations_ = type == "int8";
    quantizeOutputs_ = ctx_.boolOption("quantize_outputs");
    matmulConstBOnly_ = ctx_.boolOption("matmul_const_b_only");
    quantizeBiasAdds_ = ctx_.boolOption("quantize_bias_adds");
    auto range = readWeightRange(ctx_, kId);
    if (!range) return range.error();
    weightRange_ = *range;
    weightQmax_ = range->reduced ? 64.0f : 127.0f;
    activationSymmetric_ = ctx_.boolOption("activation_symmetric");
    weightSymmetric_ = ctx_.boolOption("weight_symmetric");
    subgraphs_ = ctx_.boolOption("subgraphs");
    for (const std::string& given : str::split(ctx_.option("op_types"), ',')) {
      const std::string op(str::trim(given));
      if (op.empty()) continue;
      if (op != "Conv" && op != "MatMul" && op != "Gemm" && op != "Add" && op != "Mul")
        return invalidArgument(Text::of(
            "%1: op_types names '%2'; it quantizes Conv, MatMul, Gemm, Add and Mul", kId, op));
      ops_.insert(op);
    }
    const int64_t opset = ctx_.model().opsetVersion("").value_or(1);
    if (opset < 10)
      return unsupported(
          Text::of("%1: QuantizeLinear needs opset 10 or later; the model imports "
                   "opset %2",
                   kId, std::to_string(opset)));
    perChannel_ = ctx_.boolOption("per_channel") && opset >= 13;  // DequantizeLinear's axis: 13
    return Status::ok();
  }

  // `g` and, with option subgraphs, the bodies its nodes hold (depth first,
  // after the graph itself); the candidate nodes of bodies not entered (an
  // If, Loop or Scan node the filter excludes) are counted.
  void collectGraphs(ir::Graph& g) {
    graphs_.push_back(&g);
    for (const auto& n : g.nodes()) {
      if (!n->hasSubgraphs()) continue;
      // A node the filter excludes keeps its bodies; one that a filter of
      // chosen nodes leaves out does not (the chosen may be in its bodies).
      const bool enter = subgraphs_ && (!ctx_.filter || !ctx_.filter->excluded.count(n->id()));
      for (ir::Graph* sub : n->subgraphs()) {
        if (enter) {
          collectGraphs(*sub);
          continue;
        }
        sub->forEachNodeRecursive(
            [&](ir::Node* m) { leftInBodies_ += m->domain().empty() && ops_.count(m->opType()); });
      }
    }
  }

  Status chooseUnits(std::vector<Unit>& units) {
    std::vector<ir::Node*> nodes;
    for (const auto& n : cur_->nodes())
      if (n->domain().empty() && ops_.count(n->opType()) && !isBinary(*n)) nodes.push_back(n.get());
    return forEachNode(ctx_, kId, kId, nodes, [&](ir::Node& n) {
      Unit u{&n, n.input(0)};
      if (Text why = whyNot(n, u); !why.empty()) {
        if (ctx_.explain) ctx_.explain->note(n.id(), kId, std::move(why));
      } else {
        units.push_back(u);
      }
      return Status::ok();
    });
  }

  static bool isBinary(const ir::Node& n) { return n.opType() == "Add" || n.opType() == "Mul"; }

  // `fold_batchnorm`: a quantized Conv whose output only an inference
  // BatchNormalization reads takes the BatchNormalization into its weight and
  // bias first (fuse_conv_batchnorm's algebra: W' = W * s, b' = (b - mean) *
  // s + B, s = scale / sqrt(var + eps), in float64, rounded once), so that the
  // output that gets one 8-bit range per tensor is the normalized one.
  // Quantizing the Conv's output before the BatchNormalization loses the
  // channels that it then scales up (ppocr_cls_mobile_v2's depthwise
  // convolutions: docs/precision.md). Constants as the weights are read (an
  // initializer, also one that is a graph input below IR version 4, or a
  // Constant node); the unit then is the new Conv.
  bool foldBatchNormInto(Unit& u) {
    ir::Node* conv = u.node;
    if (conv->opType() != "Conv" || u.input2 || u.constant) return false;
    ir::Value* y = conv->output(0);
    if (y->isGraphOutput() || y->uses().size() != 1 || y->uses()[0].inputIndex != 0) return false;
    ir::Node* bn = y->uses()[0].node;
    if (!isDefaultOp(*bn, "BatchNormalization") || bn->owner() != conv->owner()) return false;
    // An excluded BatchNormalization (optimize --exclude-node, a recipe's
    // exclusion) is left as it is, the explain log says so: the Conv is
    // quantized before it. A filter of chosen nodes (precision's trial of the
    // Conv alone) folds it, as the whole pass does.
    if (ctx_.filter && ctx_.filter->excluded.count(bn->id()) > 0) {
      mayChange(ctx_, *bn, kId);  // the explain note
      return false;
    }
    if (!fusion::whyNotInferenceBatchNorm(*bn, ctx_.matchContext()).empty()) return false;
    const ir::Tensor* w = storedTensor(conv->input(1));
    if (!w || w->dtype() != ir::DataType::kFloat || w->rank() < 3) return false;
    const int64_t m = w->dims()[0];
    if (m <= 0) return false;
    std::vector<double> p[4];  // scale, B, mean, var
    for (size_t i = 0; i < 4; ++i) {
      const ir::Tensor* t = bn->inputs().size() > i + 1 ? storedTensor(bn->input(i + 1)) : nullptr;
      if (!t || t->dtype() != ir::DataType::kFloat || t->numel() != m) return false;
      for (int64_t k = 0; k < m; ++k) p[i].push_back(t->valueAsDouble(k));
    }
    const ir::Tensor* b =
        conv->inputs().size() > 2 && conv->input(2) ? storedTensor(conv->input(2)) : nullptr;
    if (conv->inputs().size() > 2 && conv->input(2) &&
        (!b || b->dtype() != ir::DataType::kFloat || b->numel() != m))
      return false;
    const double eps = bn->attrFloat("epsilon", 1e-5f);
    std::vector<double> s(static_cast<size_t>(m)), nb(static_cast<size_t>(m));
    for (int64_t k = 0; k < m; ++k) {
      const size_t c = static_cast<size_t>(k);
      s[c] = p[0][c] / std::sqrt(p[3][c] + eps);
      nb[c] = ((b ? b->valueAsDouble(k) : 0.0) - p[2][c]) * s[c] + p[1][c];
    }
    const int64_t per = w->numel() / m;
    std::vector<double> nw(static_cast<size_t>(w->numel()));
    for (int64_t i = 0; i < w->numel(); ++i)
      nw[static_cast<size_t>(i)] = w->valueAsDouble(i) * s[static_cast<size_t>(i / per)];
    const std::string base = conv->name().empty() ? "conv" : conv->name();
    ir::Value* nW =
        addConstant(rw_, *conv->owner(), conv, base + "_weight_bn",
                    fusion::floatTensor(ir::DataType::kFloat, w->dims(), nw), {conv, bn});
    ir::Value* nB = addConstant(rw_, *conv->owner(), conv, base + "_bias_bn",
                                fusion::floatTensor(ir::DataType::kFloat, {m}, nb), {conv, bn});
    ir::Node* fused = fusion::addDerived(rw_, "Conv", {conv->input(0), nW, nB}, conv, {conv, bn},
                                         conv, {bn->output(0)});
    const std::string name = conv->name();
    ir::Graph& graph = *conv->owner();
    fusion::replaceAndErase(rw_, bn->output(0), fused->output(0), {bn, conv});
    // The new Conv keeps the old one's name (its provenance says it was
    // derived from both), so `--exclude-node NAME` and a recipe's exclusion
    // still name it. The old one is gone; the rewriter never hands its name
    // to another node of this pass (the names it saw stay taken).
    if (!name.empty() && !hasNodeNamed(graph, name)) fused->setName(name);
    u.node = fused;
    u.output = outputOf(*fused);
    return true;
  }

  // The Adds and Muls (in graph order, so that one can read another's
  // output) whose two inputs are activations quantized already.
  Status chooseBinaryUnits(std::vector<Unit>& units) {
    if (!quantizeOutputs_ || (!ops_.count("Add") && !ops_.count("Mul"))) return Status::ok();
    std::set<const ir::Value*> quantized;
    for (const ir::Value* v : activationsOf(units)) quantized.insert(v);
    std::vector<ir::Node*> nodes;
    for (const auto& n : cur_->nodes())
      if (n->domain().empty() && isBinary(*n) && ops_.count(n->opType())) nodes.push_back(n.get());
    return forEachNode(ctx_, kId, kId, nodes, [&](ir::Node& n) {
      Unit u{&n, n.input(0)};
      if (Text why = whyNotBinary(n, quantized); !why.empty()) {
        Text whyBias = whyNotBiasAdd(n, quantized, u);
        if (!u.constant) {
          if (ctx_.explain) ctx_.explain->note(n.id(), kId, whyBias.empty() ? why : whyBias);
          return Status::ok();
        }
      } else {
        u.input2 = n.input(1);
      }
      u.output = outputOf(n);
      if (isFloat32Tensor(u.output)) quantized.insert(u.output);
      units.push_back(u);
      return Status::ok();
    });
  }

  static Text whyNotBinary(const ir::Node& n, const std::set<const ir::Value*>& quantized) {
    if (n.inputs().size() != 2 || !isFloat32Tensor(n.input(0)) || !isFloat32Tensor(n.input(1)) ||
        !isFloat32Tensor(n.output(0)))
      return "the inputs are not two float32 tensors";
    if (n.hasAttr("broadcast")) return "the op uses the legacy broadcast attribute";
    if (!quantized.count(n.input(0)) || !quantized.count(n.input(1)))
      return "an input is not an activation quantized for a Conv, MatMul, Gemm, Add or Mul";
    return "";
  }

  // A bias Add: an Add of an activation that a quantized Conv, MatMul or
  // Gemm wrote (also through a Split, Reshape or Transpose) and a float
  // constant that does not broadcast it, whose output only ops that read it
  // quantized read: "" and `u` set to quantize the constant (8-bit, per
  // tensor) and the output; else why not, or "" with `u.constant` unset
  // when the Add is no Add of an activation and a constant.
  Text whyNotBiasAdd(const ir::Node& n, const std::set<const ir::Value*>& quantized,
                     Unit& u) const {
    if (!quantizeBiasAdds_ || n.opType() != "Add" || n.inputs().size() != 2) return "";
    for (size_t i = 0; i < 2; ++i) {
      ir::Value* a = n.input(i);
      ir::Value* c = n.input(1 - i);
      const ir::Tensor* t = c && !c->isGraphInput() ? storedTensor(c) : nullptr;
      if (!isFloat32Tensor(a) || rewrite::isConstant(a) || !t || t->dtype() != ir::DataType::kFloat)
        continue;
      if (!writtenByQuantizedProduct(a, quantized))
        return "the activation is not the output of a quantized Conv, MatMul or Gemm";
      if (!(a->type().shape() && n.output(0)->type().shape() &&
            *a->type().shape() == *n.output(0)->type().shape()))
        return "the constant broadcasts the activation";
      if (!readQuantizedOnly(outputOf(n)))
        return "an op that is not quantized reads the output (a bias Add stays float)";
      u.input = a;
      u.constant = c;
      return "";
    }
    return "";
  }

  // Whether `v` is a quantized Conv's, MatMul's or Gemm's output, or derived
  // from one by value-preserving ops (the Split of a fused Q/K/V projection).
  bool writtenByQuantizedProduct(const ir::Value* v,
                                 const std::set<const ir::Value*>& quantized) const {
    const int64_t opset = ctx_.model().opsetVersion("").value_or(1);
    for (int depth = 0; depth < 8 && v; ++depth) {
      const ir::Node* p = v->producer();
      if (!p || !p->domain().empty() || p->owner() != cur_) return false;
      if (quantized.count(v) &&
          (p->opType() == "Conv" || p->opType() == "MatMul" || p->opType() == "Gemm"))
        return true;
      if (!preservesValues(*p, opset)) return false;
      v = p->input(0);
    }
    return false;
  }

  // Whether every reader of `v` (through value-preserving ops) reads it as
  // a quantized input: a Conv, MatMul, Gemm, Add or Mul of `op_types`, or a
  // LayerNormalization (whose DQ -> op -> Q unit ONNX Runtime keeps).
  bool readQuantizedOnly(const ir::Value* v, int depth = 8) const {
    if (v->isGraphOutput() || v->uses().empty() || depth == 0) return false;
    const int64_t opset = ctx_.model().opsetVersion("").value_or(1);
    for (const ir::Use& use : v->uses()) {
      const ir::Node& r = *use.node;
      if (r.owner() != cur_ || !r.domain().empty()) return false;
      if (r.opType() == "LayerNormalization" && use.inputIndex == 0) continue;
      if (ops_.count(r.opType()) && (use.inputIndex == 0 || r.opType() != "Conv")) continue;
      if (!preservesValues(r, opset) || use.inputIndex != 0) return false;
      for (const ir::Value* out : r.outputs())
        if (out && !readQuantizedOnly(out, depth - 1)) return false;
    }
    return true;
  }

  Text whyNot(const ir::Node& n, Unit& u) const {
    if (!isFloat32Tensor(n.input(0))) return "the input is not a float32 tensor";
    if (rewrite::isConstant(n.input(0))) return "the input is a constant";
    // Weights and biases are initializers; one that is also a graph input
    // (every initializer below IR version 4) is frozen when it is quantized.
    const ir::Tensor* stored = storedTensor(n.input(1));
    if (!stored && n.opType() == "MatMul" && !fromStoredTensorsOnly(n.input(1)))
      return whyNotActivationMatMul(n, u);
    if (!stored) return "the weight is not a constant initializer";
    const ir::Tensor& t = *stored;
    if (n.opType() == "Conv") {
      if (t.dtype() != ir::DataType::kFloat || t.rank() < 3)
        return Text::of("the weight is %1, not a float32 filter", t.summary());
      u.weightAxis = 0;
    } else {
      if (t.dtype() != ir::DataType::kFloat || t.rank() != 2)
        return Text::of("the weight is %1, not a float32 matrix", t.summary());
      if (n.opType() == "Gemm" && n.attrInt("transA", 0) != 0) return "Gemm transposes A";
      const bool transB = n.opType() == "Gemm" && n.attrInt("transB", 0) != 0;
      u.weightAxis = transB ? 0 : 1;
    }
    if (const ir::Value* b = n.inputs().size() > 2 ? n.input(2) : nullptr) {
      const ir::Tensor* bt = storedTensor(b);
      if (!bt || bt->dtype() != ir::DataType::kFloat) return "the bias is not a float32 constant";
      const int64_t columns = t.dims()[static_cast<size_t>(u.weightAxis)];
      if (n.opType() == "Gemm" &&
          (n.attrFloat("beta", 1.0f) != 1.0f || bt->rank() != 1 || bt->numel() != columns))
        return "the Gemm's C is not a plain bias (beta 1, one value per column)";
    }
    if (n.opType() == "Gemm" && n.attrFloat("alpha", 1.0f) != 1.0f) return "the Gemm has alpha";
    u.output = outputOf(n);
    return "";
  }

  // A MatMul whose B is an activation too: both inputs get a Q/DQ pair.
  Text whyNotActivationMatMul(const ir::Node& n, Unit& u) const {
    if (matmulConstBOnly_) return "B is an activation and matmul_const_b_only is set";
    if (!isFloat32Tensor(n.input(1))) return "B is not a float32 tensor";
    if (isDequantized(n.input(0)) || isDequantized(n.input(1)))
      return "an input is dequantized already";
    u.input2 = n.input(1);
    u.output = outputOf(n);
    return "";
  }

  static bool isDequantized(const ir::Value* v) {
    const ir::Node* p = v->producer();
    return p && isDefaultOp(*p, "DequantizeLinear");
  }

  // The op's output, or that of a Relu reading it alone: Relu's clamp at
  // zero is then carried by the quantized range (ONNX Runtime removes such
  // a Relu when it fuses the unit).
  static ir::Value* outputOf(const ir::Node& n) {
    ir::Value* y = n.output(0);
    if (y->uses().size() == 1 && !y->isGraphOutput()) {
      const ir::Node* r = y->uses()[0].node;
      if (r->opType() == "Relu" && r->domain().empty() && r->owner() == n.owner())
        return r->output(0);
    }
    return y;
  }

  std::vector<ir::Value*> activationsOf(const std::vector<Unit>& units) const {
    std::vector<ir::Value*> out;
    std::set<const ir::Value*> seen;
    auto add = [&](ir::Value* v) {
      if (seen.insert(v).second) out.push_back(v);
    };
    for (const Unit& u : units) {
      add(u.input);
      if (u.input2) add(u.input2);
      if (quantizeOutputs_ && isFloat32Tensor(u.output)) add(u.output);
    }
    return out;
  }

  Status calibrate(const std::vector<ir::Value*>& activations) {
    if (!ctx_.evaluator)
      return unsupported(
          Text::of("%1: no calibration data (give input sets to calibrate with)", kId));
    std::vector<std::string> names;
    for (const ir::Value* v : activations) names.push_back(v->name());
    if (!takeSharedStats(names)) PASSLAB_RETURN_IF_ERROR(observe(names));
    // A value without finite values gets no range: an error for the graph
    // whose units read it, unless no calibration run entered that body.
    for (size_t k = 0; k < names.size(); ++k)
      if (!stats_[k].empty()) ranges_[activations[k]] = stats_[k].range(method_, percentile_);
    return Status::ok();
  }

  // Calibration saw no finite value of `v`: the error names the calibration
  // input holding NaN or infinite values, when the evaluator can find one
  // (usually the cause; `v` is often a tensor deep inside the model).
  Status noFiniteValue(const ir::Value& v) {
    auto* source = dynamic_cast<NonFiniteInputSource*>(ctx_.evaluator);
    const Text input = source ? source->firstNonFiniteInput(ctx_.model()) : Text();
    if (input.empty())
      return invalidArgument(
          Text::of("%1: calibration saw no finite value of '%2'", kId, v.name()));
    return invalidArgument(
        Text::of("%1: calibration saw no finite value of '%2': the calibration data holds NaN or "
                 "infinite values (%3)",
                 kId, v.name(), input));
  }

  // The statistics of every name from an evaluator that calibrated them
  // before (core/passes/calibration_stats_source.h); false when it has not
  // all of them (then they are observed here).
  bool takeSharedStats(const std::vector<std::string>& names) {
    const auto* source = dynamic_cast<const CalibrationStatsSource*>(ctx_.evaluator);
    if (!source) return false;
    std::vector<TensorStats> shared;
    for (const std::string& name : names) {
      const TensorStats* s = source->statsOf(ctx_.model(), name);
      if (!s) return false;
      shared.push_back(*s);
    }
    stats_ = std::move(shared);
    return true;
  }

  // Runs the model on the calibration sets, feeding each value of `names`
  // into its statistics.
  Status observe(const std::vector<std::string>& names) {
    stats_.assign(names.size(), TensorStats());
    return ctx_.evaluator->observeValues(
        ctx_.model(), names,
        [&](size_t k, const ir::Tensor& t) -> Status {
          if (t.dtype() != ir::DataType::kFloat)
            return invalidArgument(Text::of("%1: '%2' is %3 in the calibration run, not float32",
                                            kId, names[k], t.summary()));
          stats_[k].add(t);
          return Status::ok();
        },
        ctx_.cancel);
  }

  // The activation whose range `v` takes: the furthest quantized tensor
  // that a chain of value-preserving ops derives `v` from, or nullptr. The
  // tensors between them that nothing else reads are added to `between`
  // (they get the same range, so that each op of the chain can run on 8-bit
  // values).
  ir::Value* sharedRangeSource(ir::Value* v, int64_t opset,
                               std::vector<ir::Value*>& between) const {
    ir::Value* source = nullptr;
    std::vector<ir::Value*> pending;
    for (ir::Node* p = v->producer(); p && p->owner() == cur_ && preservesValues(*p, opset);) {
      ir::Value* in = p->input(0);
      if (!isFloat32Tensor(in)) break;
      if (ranges_.count(in)) {
        source = in;
        between.insert(between.end(), pending.begin(), pending.end());
        pending.clear();
      } else if (in->uses().size() != 1 || in->isGraphOutput() || in->isGraphInput() ||
                 in->isInitializer()) {
        break;
      } else {
        pending.push_back(in);
      }
      p = in->producer();
    }
    return source;
  }

  // A data-movement op: a value-preserving one (its data input 0) or a
  // Concat (every input), its outputs those that carry values (a MaxPool's
  // unread indices are none).
  static bool isConcat(const ir::Node& n) {
    return isDefaultOp(n, "Concat") && !n.inputs().empty() && isFloat32Tensor(n.output(0));
  }
  bool movesData(const ir::Node& n, int64_t opset) const {
    return n.owner() == cur_ && (preservesValues(n, opset) || isConcat(n));
  }
  // A MaxPool whose input a Pad filled with a constant other than 0: the
  // legacy form of its pads (the float32 lowest or -inf, which no maximum
  // keeps). The input holds that constant, which no 8-bit range of the
  // values should cover (winml_squeezenet's -3.4e38 made the MaxPools'
  // scale 1.3e36): it stays float, and the MaxPool with it.
  static bool readsAMaxPadding(const ir::Node& n, int64_t opset) {
    if (n.opType() != "MaxPool") return false;
    const ir::Node* pad = n.input(0) ? n.input(0)->producer() : nullptr;
    return pad && isDefaultOp(*pad, "Pad") && !preservesValues(*pad, opset);
  }
  static std::vector<ir::Value*> dataInputs(const ir::Node& n) {
    if (isConcat(n)) return {n.inputs().begin(), n.inputs().end()};
    return {n.input(0)};
  }
  static std::vector<ir::Value*> dataOutputs(const ir::Node& n) {
    if (n.opType() == "MaxPool") return {n.output(0)};
    return {n.outputs().begin(), n.outputs().end()};
  }

  // Whether `x` can get a Q/DQ pair in the graph being quantized: a float32
  // activation of it (not a constant, not a value of an enclosing graph).
  bool quantizable(const ir::Value* x) const {
    return x && isFloat32Tensor(x) && x->owner() == cur_ && !rewrite::isConstant(x) &&
           !fromStoredTensorsOnly(x);
  }

  static bool allQuantized(const std::vector<ir::Value*>& vs,
                           const std::set<const ir::Value*>& quantized) {
    for (const ir::Value* v : vs)
      if (!v || !quantized.count(v)) return false;
    return true;
  }

  // A data-movement op (Reshape, Transpose, Split, Concat, MaxPool, ...)
  // whose every output is quantized, and is no graph output, gets its inputs
  // quantized too, as ONNX Runtime's quantizer places them, so that the op
  // runs on 8-bit values (sharing one range, shareRangesOfDataMovement) and
  // the float ops before it end in a QuantizeLinear of their own (picodet's
  // HardSwish before the channel shuffle then becomes a lookup). Repeated
  // until nothing changes: a Split whose other output a Concat reads joins
  // once that Concat has.
  void quantizeAboveDataMovement(std::vector<ir::Value*>& activations) const {
    const int64_t opset = ctx_.model().opsetVersion("").value_or(1);
    std::set<const ir::Value*> quantized(activations.begin(), activations.end());
    std::vector<ir::Node*> nodes;
    for (const auto& n : cur_->nodes()) nodes.push_back(n.get());
    for (bool changed = true; changed;) {
      changed = false;
      for (auto it = nodes.rbegin(); it != nodes.rend(); ++it) {
        const ir::Node& p = **it;
        if (!movesData(p, opset) || readsAMaxPadding(p, opset)) continue;
        bool outputsQuantized = true;
        for (const ir::Value* y : dataOutputs(p))
          outputsQuantized = outputsQuantized && y && quantized.count(y) && !y->isGraphOutput();
        bool inputsQuantizable = true;
        for (const ir::Value* x : dataInputs(p))
          inputsQuantizable = inputsQuantizable && quantizable(x);
        if (isConcat(p) && !outputsQuantized && quantizable(p.output(0)) &&
            !quantized.count(p.output(0)) && allQuantized(p.inputs(), quantized)) {
          // A Concat of quantized tensors: its output too (a MaxPool after
          // it can then run on 8 bits).
          quantized.insert(p.output(0));
          activations.push_back(p.output(0));
          changed = true;
        }
        if (!outputsQuantized || !inputsQuantizable) continue;
        for (ir::Value* x : dataInputs(p))
          if (quantized.insert(x).second) activations.push_back(x), changed = true;
      }
    }
  }

  // One range for the quantized tensors that data-movement ops join, so that
  // DQ -> op -> Q of one scale and zero point is the op on the 8-bit values
  // (exact): the tensors a value-preserving op reads and writes (MaxPool
  // commutes with the monotonic dequantization, the others move values), and
  // a Concat's inputs and output. The range is the union of the calibrated
  // ranges of the group's tensors: with MinMax that of its sources (MaxPool,
  // Split, Reshape, Transpose output values of their input); with Entropy or
  // Percentile a tensor's range is no longer within its input's (the
  // maxima a MaxPool keeps lie in its input's tail: mnist8's Relu ->
  // MaxPool -> Reshape -> MatMul lost the budget with the Relu's range
  // alone). The unread tensors on a chain of value-preserving ops from a
  // quantized tensor to another are quantized too (sharedRangeSource).
  void shareRangesOfDataMovement(std::vector<ir::Value*>& activations) {
    const int64_t opset = ctx_.model().opsetVersion("").value_or(1);
    std::set<ir::Value*> members(activations.begin(), activations.end());
    for (ir::Value* v : std::vector<ir::Value*>(activations)) {
      std::vector<ir::Value*> between;
      if (sharedRangeSource(v, opset, between))
        for (ir::Value* b : between)
          if (members.insert(b).second) activations.push_back(b);
    }
    std::map<const ir::Value*, const ir::Value*> parent;
    auto root = [&](const ir::Value* v) {
      while (parent.count(v) && parent[v] != v) v = parent[v] = parent[parent[v]];
      return v;
    };
    auto unite = [&](const ir::Value* a, const ir::Value* b) { parent[root(a)] = root(b); };
    for (const ir::Value* v : members) parent[v] = v;
    for (const auto& owned : cur_->nodes()) {
      const ir::Node& n = *owned;
      if (!movesData(n, opset)) continue;
      // A Concat joins when all its tensors are quantized; a value-preserving
      // op joins its input with each quantized output (a Split with a float
      // output too: s -> Split -> b -> Reshape -> v, v read by a Conv).
      bool all = true;
      for (ir::Value* v : dataInputs(n)) all = all && members.count(v);
      if (isConcat(n)) all = all && members.count(n.output(0));
      if (!all) continue;
      for (ir::Value* y : dataOutputs(n))
        if (y && members.count(y))
          for (ir::Value* x : dataInputs(n)) unite(x, y);
    }
    std::map<const ir::Value*, QuantRange> groupRange;
    for (const ir::Value* v : members) {
      if (!ranges_.count(v)) continue;  // an unread tensor between two quantized ones
      const QuantRange& r = ranges_.at(v);
      auto [it, fresh] = groupRange.emplace(root(v), r);
      if (!fresh)
        it->second.lo = std::min(it->second.lo, r.lo),
        it->second.hi = std::max(it->second.hi, r.hi);
    }
    for (const ir::Value* v : members) ranges_[v] = groupRange.at(root(v));
  }

  // Graph positions of the nodes before any edit: a value's pair goes before
  // its first reader.
  void rememberOrder() {
    size_t i = 0;
    for (const auto& n : cur_->nodes()) order_[n.get()] = i++;
  }

  // Whether `r` is a value-preserving op (Transpose, Reshape, ...) whose
  // result a node of another graph (a subgraph of its graph) reads, also
  // through more such ops (ONNX Runtime follows DQ -> Reshape -> Transpose).
  bool feedsASubgraph(const ir::Node& r, int depth = 8) const {
    if (depth == 0 || !preservesValues(r, ctx_.model().opsetVersion("").value_or(1))) return false;
    for (const ir::Value* out : r.outputs())
      if (out)
        for (const ir::Use& u : out->uses())
          if (u.node->owner() != r.owner() || feedsASubgraph(*u.node, depth - 1)) return true;
    return false;
  }

  Status insertQdq(ir::Value* v) {
    std::vector<std::pair<ir::Node*, size_t>> readers;
    ir::Node* first = nullptr;
    for (const ir::Use& use : v->uses()) {
      // Another graph reading it (a body, or the graph around this body)
      // keeps the float value, or has a pair of its own.
      if (use.node->owner() != cur_) continue;
      // So does a value-preserving op whose result a subgraph reads: ONNX
      // Runtime 1.32's QDQPropagationTransformer aborts the session on
      // DQ -> Transpose -> (read inside an If branch), silero_vad's
      // Relu -> Transpose -> LSTM in a nested If.
      if (feedsASubgraph(*use.node)) continue;
      readers.emplace_back(use.node, static_cast<size_t>(use.inputIndex));
      if (!first || order_[use.node] < order_[first]) first = use.node;
    }
    if (!first) return Status::ok();
    const QuantParams p = activationSymmetric_
                              ? symmetricActivationParams(ranges_[v], int8Activations_)
                          : int8Activations_ ? asymmetricParams(ranges_[v], -128, 127)
                                             : asymmetricParams(ranges_[v], 0, 255);
    scales_[v] = p.scale;
    const std::vector<const ir::Node*> from{first};
    const std::string base = v->name();
    ir::Value* scale =
        addConstant(rw_, *cur_, first, base + "_scale", ir::Tensor::scalarFloat(p.scale), from);
    ir::Value* zero =
        int8Activations_
            ? addConstant(rw_, *cur_, first, base + "_zero_point",
                          ir::Tensor::fromVector<int8_t>(ir::DataType::kInt8, {},
                                                         {static_cast<int8_t>(p.zeroPoint)}),
                          from)
            : addConstant(rw_, *cur_, first, base + "_zero_point",
                          ir::Tensor::fromVector<uint8_t>(ir::DataType::kUInt8, {},
                                                          {static_cast<uint8_t>(p.zeroPoint)}),
                          from);
    ir::Node* q = rw_.addNode(*cur_, "QuantizeLinear", "", {v, scale, zero}, 1, first,
                              base + "_QuantizeLinear", from);
    rw_.setType(q->output(0),
                ir::Type::tensor(int8Activations_ ? ir::DataType::kInt8 : ir::DataType::kUInt8,
                                 v->type().shape()));
    ir::Node* dq = rw_.addNode(*cur_, "DequantizeLinear", "", {q->output(0), scale, zero}, 1, first,
                               base + "_DequantizeLinear", from);
    rw_.setType(dq->output(0), v->type());
    for (const auto& [node, index] : readers) rw_.setInput(node, index, dq->output(0));
    return Status::ok();
  }

  void quantizeWeights(const Unit& u) {
    ir::Node& n = *u.node;
    const std::vector<const ir::Node*> from{&n};
    const std::string base = n.input(1)->name();
    const ir::Tensor& stored = *storedTensor(n.input(1));
    QuantizedWeight w =
        weightSymmetric_
            ? quantizeSymmetric(stored, u.weightAxis, perChannel_, weightQmax_)
            : quantizeAsymmetric(stored, u.weightAxis, perChannel_, weightQmax_ < 127.0f);
    const auto channels = static_cast<int64_t>(w.scales.size());
    const std::vector<int64_t> scaleDims =
        perChannel_ ? std::vector<int64_t>{channels} : std::vector<int64_t>{};
    ir::Node* dq = dequantize(
        n, base, std::move(w.values),
        ir::Tensor::fromVector<float>(ir::DataType::kFloat, scaleDims, w.scales),
        ir::Tensor::fromVector<int8_t>(ir::DataType::kInt8, scaleDims, w.zeroPoints), u.weightAxis);
    rw_.setType(dq->output(0), n.input(1)->type());
    replaceConstantInput(n, 1, dq->output(0));
    if (n.inputs().size() > 2 && n.input(2)) quantizeBias(u, w.scales);
  }

  // A bias Add's constant as the activations' 8-bit type, per tensor, its
  // range the values' with 0 (ONNX Runtime's rule for a constant input of a
  // quantized Add), read through a DequantizeLinear.
  void quantizeConstantOperand(const Unit& u) {
    ir::Node& n = *u.node;
    const ir::Tensor& t = *storedTensor(u.constant);
    QuantRange r;
    for (float x : t.data<float>()) r.lo = std::min(r.lo, x), r.hi = std::max(r.hi, x);
    const int32_t qmin = int8Activations_ ? -128 : 0, qmax = int8Activations_ ? 127 : 255;
    const QuantParams p = asymmetricParams(r, qmin, qmax);
    std::vector<int32_t> q;
    for (float x : t.data<float>())
      q.push_back(
          static_cast<int32_t>(std::clamp(std::nearbyint(x / p.scale) + p.zeroPoint,
                                          static_cast<float>(qmin), static_cast<float>(qmax))));
    const ir::DataType type = int8Activations_ ? ir::DataType::kInt8 : ir::DataType::kUInt8;
    const std::vector<int32_t> zero{p.zeroPoint};
    ir::Node* dq = dequantize(n, u.constant->name(), eightBit(type, t.dims(), q),
                              ir::Tensor::scalarFloat(p.scale), eightBit(type, {}, zero), 0);
    rw_.setType(dq->output(0), u.constant->type());
    const size_t index = n.input(0) == u.constant ? 0 : 1;
    replaceConstantInput(n, index, dq->output(0));
  }

  static ir::Tensor eightBit(ir::DataType type, const std::vector<int64_t>& dims,
                             const std::vector<int32_t>& values) {
    if (type == ir::DataType::kInt8)
      return ir::Tensor::fromVector<int8_t>(type, dims,
                                            std::vector<int8_t>(values.begin(), values.end()));
    return ir::Tensor::fromVector<uint8_t>(type, dims,
                                           std::vector<uint8_t>(values.begin(), values.end()));
  }

  // int32 bias with scale x_scale * w_scale (per channel), zero point 0.
  void quantizeBias(const Unit& u, const std::vector<float>& weightScales) {
    ir::Node& n = *u.node;
    ir::Value* b = n.input(2);
    const ir::Tensor& t = *storedTensor(b);
    const float xs = scales_.count(u.input) ? scales_[u.input] : 0.0f;
    if (!(xs > 0)) return;
    const auto x = t.data<float>();
    const auto count = static_cast<int64_t>(x.size());
    std::vector<float> scales(static_cast<size_t>(perChannel_ ? count : 1));
    for (size_t c = 0; c < scales.size(); ++c) scales[c] = xs * weightScales[perChannel_ ? c : 0];
    std::vector<int32_t> q(static_cast<size_t>(count));
    for (int64_t i = 0; i < count; ++i) {
      const double v = std::nearbyint(static_cast<double>(x[static_cast<size_t>(i)]) /
                                      scales[perChannel_ ? static_cast<size_t>(i) : 0]);
      q[static_cast<size_t>(i)] = static_cast<int32_t>(
          std::clamp(v, static_cast<double>(std::numeric_limits<int32_t>::min()),
                     static_cast<double>(std::numeric_limits<int32_t>::max())));
    }
    const std::vector<int64_t> scaleDims =
        perChannel_ ? std::vector<int64_t>{count} : std::vector<int64_t>{};
    ir::Node* dq =
        dequantize(n, b->name(), ir::Tensor::fromVector<int32_t>(ir::DataType::kInt32, t.dims(), q),
                   ir::Tensor::fromVector<float>(ir::DataType::kFloat, scaleDims, scales),
                   ir::Tensor::fromVector<int32_t>(ir::DataType::kInt32, scaleDims,
                                                   std::vector<int32_t>(scales.size(), 0)),
                   0);
    rw_.setType(dq->output(0), b->type());
    replaceConstantInput(n, 2, dq->output(0));
  }

  // Input `i` of `n` (a float initializer) now reads `v`; the float
  // initializer goes when nothing else reads it (frozen first when it was
  // also a graph input, so that it is not left behind as one).
  void replaceConstantInput(ir::Node& n, size_t i, ir::Value* v) {
    ir::Value* old = n.input(i);
    rw_.setInput(&n, i, v);
    if (old->uses().empty() && !old->isGraphOutput()) {
      if (old->isGraphInput()) rw_.freezeInitializer(old);
      dropIfUnused(rw_, old);
    }
  }

  // DequantizeLinear(values, scale, zero point) before `n`, the constants
  // named after `base`; `axis` when the scale has one value per channel.
  ir::Node* dequantize(ir::Node& n, const std::string& base, ir::Tensor values, ir::Tensor scale,
                       ir::Tensor zero, int64_t axis) {
    const std::vector<const ir::Node*> from{&n};
    const bool perChannel = scale.rank() == 1;
    ir::Graph& g = *n.owner();
    ir::Value* qv = addConstant(rw_, g, &n, base + "_quantized", std::move(values), from);
    ir::Value* sv = addConstant(rw_, g, &n, base + "_scale", std::move(scale), from);
    ir::Value* zv = addConstant(rw_, g, &n, base + "_zero_point", std::move(zero), from);
    ir::Node* dq = rw_.addNode(g, "DequantizeLinear", "", {qv, sv, zv}, 1, &n,
                               base + "_DequantizeLinear", from);
    if (perChannel) rw_.setAttr(dq, ir::Attribute::makeInt("axis", axis));
    return dq;
  }

  // With the counts of the ops quantized inside subgraphs, of those left in
  // bodies no calibration run entered, and of the candidate ops in bodies not
  // entered (subgraphs=false, or their node excluded).
  void writeNote(size_t units, size_t activations) {
    if (!ctx_.note) return;
    Text note;
    if (units > 0)
      note = Text::of(
          "%1 ops quantized to int8 (weights %2), %3 activations calibrated on %4 input sets (%5)",
          std::to_string(units),
          std::string(perChannel_ ? "per channel" : "per tensor") +
              (weightQmax_ < 127 ? ", 7 bits" : ""),
          std::to_string(activations), std::to_string(ctx_.evaluator->calibrationSets()),
          ctx_.option("method"));
    if (Text range = weightRangeNote(weightRange_); units > 0 && !range.empty())
      note = Text::of("%1; %2", note, range);
    if (inBodies_ > 0)
      note = Text::of("%1; %2 of them inside subgraphs", note, std::to_string(inBodies_));
    if (notRun_ > 0)
      note = note.empty()
                 ? Text::of(
                       "%1 ops inside subgraphs that no calibration run entered stay float32 (an "
                       "If branch not taken, a Loop or Scan of no iteration)",
                       std::to_string(notRun_))
                 : Text::of(
                       "%1; %2 ops inside subgraphs that no calibration run entered stay float32 "
                       "(an If branch not taken, a Loop or Scan of no iteration)",
                       note, std::to_string(notRun_));
    note = withNodesLeftInSubgraphs(note, leftInBodies_,
                                    "subgraphs=false, or their If/Loop/Scan node is excluded");
    note = withNodesLeftInSubgraphs(
        note, ambiguous_,
        "values of their subgraph have the names of other values of the model: calibration "
        "cannot tell them apart");
    if (!note.empty()) *ctx_.note = note;
  }

  // The graphs quantized (the main graph, then the bodies entered) and the
  // one being worked on.
  struct GraphUnits {
    ir::Graph* graph;
    std::vector<Unit> units;
    std::vector<ir::Value*> activations;
    ir::Value* ran;  // a body's value that each run of it computes
    bool ambiguous;  // a body whose values' names another value of the model has
  };

  PassContext& ctx_;
  rewrite::Rewriter& rw_;
  ir::Graph& g_;
  ir::Graph* cur_ = nullptr;
  std::vector<ir::Graph*> graphs_;
  bool subgraphs_ = true;
  size_t quantized_ = 0, inBodies_ = 0, notRun_ = 0, leftInBodies_ = 0, ambiguous_ = 0;
  CalibrationMethod method_ = CalibrationMethod::kMinMax;
  double percentile_ = 99.999;
  bool perChannel_ = true, int8Activations_ = false, quantizeOutputs_ = true;
  WeightRange weightRange_;    // reduce_range as given or chosen (auto)
  float weightQmax_ = 127.0f;  // 64 with reduce_range
  bool activationSymmetric_ = false, weightSymmetric_ = true;
  bool matmulConstBOnly_ = false, quantizeBiasAdds_ = true;
  size_t folded_ = 0;  // BatchNormalizations folded into quantized Convs
  std::set<std::string> ops_;
  std::vector<TensorStats> stats_;
  std::map<const ir::Value*, QuantRange> ranges_;
  std::map<const ir::Value*, float> scales_;
  std::unordered_map<const ir::Node*, size_t> order_;
};

}  // namespace

std::unique_ptr<Pass> makeQuantizeStatic() {
  return std::make_unique<FunctionPass>(
      catalogInfo(kId), [](PassContext& ctx) { return StaticQuantizer(ctx).run(); });
}

}  // namespace passlab::passes
