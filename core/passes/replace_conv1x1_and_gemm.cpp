// replace_conv1x1_and_gemm — a 1x1 Conv and a matrix product swapped where the cost model says the
// other is cheaper.
//
// Rule conv1x1_to_gemm:
//   Before:  t = Conv(x, W, b)  (1x1 kernel, x: [N, C, 1, 1]);  y = Flatten(t, axis = 1)
//   After:   u = Flatten(x, axis = 1);  y = Gemm(u, W', b, transB = 1)     (W' = W as [M, C])
//   Algebra: on a 1x1 image a 1x1 convolution is y[n, m] = sum_c x[n, c] W[m, c] + b[m].
// Rule nhwc_matmul_to_conv1x1:
//   Before:  t = Transpose(x, [0, 2, 3, 1]); u = MatMul(t, V) (+ Add(u, b)); y = Transpose(., [0,
//   3, 1, 2]) After:   y = Conv(x, W, b)  (1x1 kernel, W[m, c, 0, 0] = V[c, m]) Algebra: a matrix
//   product over the channel axis of a channels-last image is a 1x1 convolution of the
//   channels-first image.
// Both are decided by the cost model (core/analysis/cost_model.h): the
// replacement is built in a scratch graph and costed with the same
// estimateNodeCost as the original nodes, and the rule fires only when it is
// no worse in FLOPs and bytes and better in one (FLOPs are equal here; the
// bytes moved by the Transposes or Flattens decide). The reason given when it
// does not fire quotes both costs.
// Conditions: W (or V) and b constants of a float type; the Conv has group 1,
// strides and dilations 1, no pads, and every spatial dim of x is 1 (rule
// 1); the intermediates feed only the next node of the chain (not graph
// outputs, not read in a subgraph); b has one value per output channel; a
// Conv without bias becomes a Gemm without C only from opset 11 (C is
// required before).
// Exact up to the accumulation order of the kernels (changesNumerics).
// Opsets: 7-28 (Gemm's C broadcasts without the legacy flag).
#include "core/analysis/cost_model.h"
#include "core/passes/fusion_utils.h"
#include "core/passes/pass.h"
#include "core/passes/pass_catalog.h"

namespace passlab::passes {

namespace {

struct Cost {
  double flops = 0, bytes = 0;
  bool known = true;
  void add(const analysis::NodeCost& c) {
    flops += c.flops;
    bytes += static_cast<double>(c.bytesRead + c.bytesWritten);
    known = known && c.known;
  }
  Text text() const {
    return Text::of("%1 FLOPs, %2 bytes", std::to_string(static_cast<long long>(flops)),
                    std::to_string(static_cast<long long>(bytes)));
  }
};

// "" when `now` is Pareto-better than `before`; else the reason with both costs.
Text whyNotCheaper(const Cost& before, const Cost& now) {
  if (!before.known || !now.known) return "the cost model does not know every shape";
  bool noWorse = now.flops <= before.flops && now.bytes <= before.bytes;
  bool better = now.flops < before.flops || now.bytes < before.bytes;
  if (noWorse && better) return "";
  return Text::of("the cost model does not find it cheaper (%1 against %2)", now.text(),
                  before.text());
}

// A scratch graph to cost a replacement before building it.
class Scratch {
 public:
  ir::Value* input(const ir::Type& t) { return g_.addInput(g_.freshName("in"), t); }
  ir::Node* node(const std::string& op, const std::vector<ir::Value*>& ins, const ir::Type& out) {
    ir::Node* n = g_.addNode(op, "", ins, 1);
    n->output(0)->setType(out);
    return n;
  }
  Cost cost() const {
    Cost c;
    for (const auto& n : g_.nodes()) c.add(analysis::estimateNodeCost(*n));
    return c;
  }

 private:
  ir::Graph g_;
};

bool isUnitConv(const ir::Node& conv, size_t spatial) {
  std::vector<int64_t> ones(spatial, 1), zeros(2 * spatial, 0);
  return conv.attrInt("group", 1) == 1 && conv.attrInts("strides", ones) == ones &&
         conv.attrInts("dilations", ones) == ones && conv.attrInts("pads", zeros) == zeros &&
         conv.attrString("auto_pad", "NOTSET") == "NOTSET";
}

MatchResult convToGemm(ir::Node& flat, const MatchContext& c) {
  if (Text why = fusion::whyNotOpset(c, 7, 28, "Conv -> Gemm"); !why.empty())
    return MatchResult::failure(why);
  ir::Node* conv = producerOp(flat.input(0), "Conv");
  if (!conv) return MatchResult::failure("the input is not produced by a Conv");
  if (flat.attrInt("axis", 1) != 1) return MatchResult::failure("Flatten axis is not 1");
  if (Text why = rewrite::whyNotSoleConsumer(flat.input(0)); !why.empty())
    return MatchResult::failure(Text::of("Conv output %1", why));
  auto xd = fusion::dimsOf(conv->input(0));
  auto w = rewrite::constantValue(conv->input(1));
  if (!xd || xd->size() < 3) return MatchResult::failure("x has no static shape");
  if (!w || !fusion::isFloatType(w->dtype()))
    return MatchResult::failure("Conv weight is not a float constant");
  for (size_t i = 2; i < xd->size(); ++i)
    if ((*xd)[i] != 1) return MatchResult::failure("x is not 1x1 in its spatial dims");
  for (size_t i = 2; i < w->rank(); ++i)
    if (w->dims()[i] != 1) return MatchResult::failure("the kernel is not 1x1");
  if (!isUnitConv(*conv, xd->size() - 2))
    return MatchResult::failure("the Conv has groups, strides, dilations or pads");
  if (conv->input(2) && !rewrite::isConstant(conv->input(2)))
    return MatchResult::failure("Conv bias is not constant");
  if (!conv->input(2) && c.opset < 11)
    return MatchResult::failure("the Conv has no bias and Gemm needs a C input before opset 11");
  int64_t n = (*xd)[0], ch = (*xd)[1], m = w->dims()[0];
  ir::DataType dt = w->dtype();
  Cost before;
  before.add(analysis::estimateNodeCost(*conv));
  before.add(analysis::estimateNodeCost(flat));
  Scratch s;
  ir::Value* sx = s.input(conv->input(0)->type());
  ir::Value* sw = s.input(ir::Type::tensor(dt, ir::Shape::fromValues({m, ch})));
  std::vector<ir::Value*> gin{
      s.node("Flatten", {sx}, ir::Type::tensor(dt, ir::Shape::fromValues({n, ch})))->output(0), sw};
  if (conv->input(2)) gin.push_back(s.input(conv->input(2)->type()));
  s.node("Gemm", gin, ir::Type::tensor(dt, ir::Shape::fromValues({n, m})));
  if (Text why = whyNotCheaper(before, s.cost()); !why.empty()) return MatchResult::failure(why);
  ir::Tensor wt = *w;
  return MatchResult::success({&flat, conv}, [&flat, conv, wt, m, ch](rewrite::Rewriter& rw) {
    ir::Graph& g = *conv->owner();
    ir::Tensor w2(wt.dtype(), {m, ch}, wt.buffer());
    ir::Value* wv = addConstant(rw, g, conv, conv->input(1)->name() + "_2d", std::move(w2), {conv});
    ir::Node* f = fusion::addDerived(rw, "Flatten", {conv->input(0)}, &flat, {conv, &flat});
    rw.setAttr(f, ir::Attribute::makeInt("axis", 1));
    std::vector<ir::Value*> ins{f->output(0), wv};
    if (conv->input(2)) ins.push_back(conv->input(2));
    ir::Node* gemm =
        fusion::addDerived(rw, "Gemm", ins, &flat, {conv, &flat}, nullptr, {flat.output(0)});
    rw.setAttr(gemm, ir::Attribute::makeInt("transB", 1));
    fusion::replaceAndErase(rw, flat.output(0), gemm->output(0), {&flat, conv});
  });
}

MatchResult matmulToConv(ir::Node& back, const MatchContext& c) {
  auto pb = fusion::transposePerm(back);
  if (!pb || *pb != std::vector<int64_t>{0, 3, 1, 2})
    return MatchResult::failure("the Transpose is not NHWC -> NCHW");
  std::vector<ir::Node*> nodes{&back};
  ir::Value* cur = back.input(0);
  ir::Value* bias = nullptr;
  ir::Node* add = producerOp(cur, "Add");
  if (add) {
    for (size_t i = 0; i < 2 && !bias; ++i)
      if (producerOp(add->input(i), "MatMul") && rewrite::isConstant(add->input(1 - i))) {
        bias = add->input(1 - i);
        if (Text why = rewrite::whyNotSoleConsumer(cur); !why.empty())
          return MatchResult::failure(Text::of("Add output %1", why));
        cur = add->input(i);
        nodes.push_back(add);
      }
    if (!bias) return MatchResult::failure("the Add is not a MatMul plus a constant");
  }
  ir::Node* mm = producerOp(cur, "MatMul");
  if (!mm) return MatchResult::failure("the input is not produced by a MatMul");
  if (Text why = rewrite::whyNotSoleConsumer(cur); !why.empty())
    return MatchResult::failure(Text::of("MatMul output %1", why));
  nodes.push_back(mm);
  ir::Node* front = producerOp(mm->input(0), "Transpose");
  auto pf = front ? fusion::transposePerm(*front) : std::nullopt;
  if (!pf || *pf != std::vector<int64_t>{0, 2, 3, 1})
    return MatchResult::failure("the MatMul input is not an NCHW -> NHWC Transpose");
  if (Text why = rewrite::whyNotSoleConsumer(mm->input(0)); !why.empty())
    return MatchResult::failure(Text::of("Transpose output %1", why));
  nodes.push_back(front);
  auto v = rewrite::constantValue(mm->input(1));
  if (!v || v->rank() != 2 || !fusion::isFloatType(v->dtype()))
    return MatchResult::failure("the MatMul weight is not a 2-D float constant");
  int64_t ch = v->dims()[0], m = v->dims()[1];
  std::vector<double> bv;
  if (bias) {
    Text why;
    auto per = fusion::perChannelValues(bias, 4, 3, m, why);
    if (!per) return MatchResult::failure(why);
    bv = *per;
  }
  auto xd = fusion::dimsOf(front->input(0));
  if (!xd || xd->size() != 4 || (*xd)[1] != ch)
    return MatchResult::failure("x is not [N, C, H, W] with the MatMul's C");
  ir::DataType dt = v->dtype();
  Cost before;
  for (ir::Node* n : nodes) before.add(analysis::estimateNodeCost(*n));
  Scratch s;
  ir::Value* sx = s.input(front->input(0)->type());
  ir::Value* sw = s.input(ir::Type::tensor(dt, ir::Shape::fromValues({m, ch, 1, 1})));
  std::vector<ir::Value*> cin{sx, sw};
  if (bias) cin.push_back(s.input(ir::Type::tensor(dt, ir::Shape::fromValues({m}))));
  s.node("Conv", cin, back.output(0)->type());
  if (Text why = whyNotCheaper(before, s.cost()); !why.empty()) return MatchResult::failure(why);
  ir::Tensor vt = *v;
  return MatchResult::success(nodes, [&back, front, nodes, vt, bv, m, ch,
                                      dt](rewrite::Rewriter& rw) {
    ir::Graph& g = *back.owner();
    auto wt = fusion::transposeTensor(vt, {1, 0});
    ir::Tensor w4(wt->dtype(), {m, ch, 1, 1}, wt->buffer());
    std::vector<const ir::Node*> from(nodes.begin(), nodes.end());
    std::vector<ir::Value*> ins{front->input(0),
                                addConstant(rw, g, &back, "conv1x1_weight", std::move(w4), from)};
    if (!bv.empty())
      ins.push_back(
          addConstant(rw, g, &back, "conv1x1_bias", fusion::floatTensor(dt, {m}, bv), from));
    ir::Node* conv = fusion::addDerived(rw, "Conv", ins, &back, from, nullptr, {back.output(0)});
    rw.setAttr(conv, ir::Attribute::makeInts("kernel_shape", {1, 1}));
    fusion::replaceAndErase(rw, back.output(0), conv->output(0), nodes);
  });
}

fusion::Rules rules() {
  fusion::Rules r;
  // Flatten(Conv1x1(x: [N, C, 1, 1])) -> Gemm(Flatten(x), W', b, transB=1)   (when cheaper)
  fusion::addRule(r, "conv1x1_to_gemm", "Flatten(Conv1x1(x of 1x1 pixels)) -> Gemm(Flatten(x))",
                  {"Flatten"}, convToGemm);
  // Transpose(MatMul(Transpose(x, NHWC), V) + b, NCHW) -> Conv1x1(x, V^T, b)   (when cheaper)
  fusion::addRule(r, "nhwc_matmul_to_conv1x1",
                  "Transpose(MatMul(Transpose(x, to NHWC), V) + b, to NCHW) -> Conv1x1(x)",
                  {"Transpose"}, matmulToConv);
  return r;
}

}  // namespace

std::unique_ptr<Pass> makeReplaceConv1x1AndGemm() {
  return std::make_unique<PatternPass>(catalogInfo("replace_conv1x1_and_gemm"), rules());
}

}  // namespace passlab::passes
