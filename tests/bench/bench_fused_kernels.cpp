// PassLab's fused kernels (ai.passlab FusedConv, FusedGemm, FusedElementwise,
// FusedAttention, FusedLayerNorm, FusedSoftmax)
// against the chains of standard ops they replace, on shapes from the corpus
// models: the chain is built as the model has it, the fused model is what the
// fusion pass makes of it (so a case also checks that the pass fires there),
// both run on the executor's optimized kernels with constant weights.
// Prints per case: median (--min: fastest) ms of the chain and of the fused model, the
// speedup, node counts, and the largest difference of the outputs.
// Not a test; figures in docs/fused-kernels.md.
//
//   bench_fused_kernels [--threads N] [--budget-ms MS] [--filter TEXT] [--min] [--profile]
#include <algorithm>
#include <array>
#include <chrono>
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <functional>
#include <random>
#include <string>
#include <vector>

#include "core/analysis/shape_inference.h"
#include "core/exec/executor.h"
#include "core/pipeline/pass_manager.h"
#include "tests/bench/bench_support.h"

using namespace passlab;
using bench::attrs;
using bench::ints;
using bench::randomTensor;

namespace {

using Dims = std::vector<int64_t>;

// A small graph builder: float32 inputs, random constant weights, nodes.
class Builder {
 public:
  Builder() {
    m_.irVersion = 8;
    m_.opsets = {{"", 17}};
  }
  ir::Value* input(const std::string& name, const Dims& dims) {
    inputs_.emplace_back(name, randomTensor(dims, seed_++));
    return g().addInput(name, ir::Type::tensor(ir::DataType::kFloat, ir::Shape::fromValues(dims)));
  }
  // A bool input: a causal mask [.., S, T] (key t kept for row s when t <= s + T - S).
  ir::Value* causalInput(const std::string& name, const Dims& dims) {
    const int64_t S = dims[dims.size() - 2], T = dims.back();
    int64_t n = 1;
    for (int64_t d : dims) n *= d;
    std::vector<uint8_t> v(static_cast<size_t>(n));
    for (int64_t i = 0; i < n; ++i) v[static_cast<size_t>(i)] = (i % T) <= (i / T) % S + T - S;
    ir::Tensor t(ir::DataType::kBool, dims);
    std::memcpy(t.mutableBytes().data(), v.data(), v.size());
    inputs_.emplace_back(name, std::move(t));
    return g().addInput(name, ir::Type::tensor(ir::DataType::kBool, ir::Shape::fromValues(dims)));
  }
  ir::Value* weight(const Dims& dims, float scale = 0.2f) {
    unsigned seed = seed_++;
    return g().addInitializer("w" + std::to_string(seed), randomTensor(dims, seed, scale));
  }
  ir::Value* scalar(float v) {
    return g().addInitializer("s" + std::to_string(seed_++), ir::Tensor::scalarFloat(v));
  }
  ir::Value* ints(const std::vector<int64_t>& v) {
    return g().addInitializer("i" + std::to_string(seed_++), ir::Tensor::fromInt64s(v));
  }
  ir::Value* op(const std::string& type, const std::vector<ir::Value*>& in,
                std::vector<ir::Attribute> attrs = {}, const std::string& domain = "") {
    ir::Node* n = g().addNode(type, domain, in, 1, nullptr, type);
    for (auto& a : attrs) n->setAttr(std::move(a));
    return n->output(0);
  }
  void output(ir::Value* v) { g().addOutput(v); }
  ir::Model take() {
    analysis::inferShapes(m_);
    return std::move(m_);
  }
  ir::Model& model() { return m_; }
  const exec::NamedInputs& inputs() const { return inputs_; }

 private:
  ir::Graph& g() { return m_.graph(); }
  ir::Model m_;
  exec::NamedInputs inputs_;
  unsigned seed_ = 1;
};

// x * 0.5 * (1 + Tanh(0.7978846 * (x + 0.044715 * x^3))), as GPT-2 writes it.
ir::Value* tanhGelu(Builder& b, ir::Value* x) {
  ir::Value* xh = b.op("Mul", {x, b.scalar(0.5f)});
  ir::Value* p = b.op("Pow", {x, b.scalar(3.0f)});
  ir::Value* pk = b.op("Mul", {p, b.scalar(0.044715f)});
  ir::Value* i = b.op("Add", {x, pk});
  ir::Value* ir_ = b.op("Mul", {i, b.scalar(0.7978846f)});
  ir::Value* th = b.op("Tanh", {ir_});
  ir::Value* t1 = b.op("Add", {th, b.scalar(1.0f)});
  return b.op("Mul", {xh, t1});
}

struct Case {
  std::string group;  // FusedConv, FusedGemm, FusedElementwise
  std::string name;
  std::string pass;  // the pass that makes the fused model ("" : `fused` builds it)
  std::function<void(Builder&)> chain;
  std::function<void(Builder&)> fused;  // for cases the pass (rightly) refuses
};

size_t countFused(const ir::Model& m) {
  size_t n = 0;
  for (const auto& node : m.graph().nodes()) n += node->domain() == "ai.passlab";
  return n;
}

void runCase(const Case& c, const bench::BenchOptions& o) {
  Builder cb;
  c.chain(cb);
  exec::NamedInputs inputs = cb.inputs();
  ir::Model chain = cb.take();
  ir::Model fused;
  if (c.fused) {
    Builder fb;
    c.fused(fb);
    fused = fb.take();
  } else {
    fused = chain.clone();
    pipeline::PipelineOptions po;
    po.keepSnapshots = false;
    po.standardOnly = false;
    pipeline::PassManager pm(fused, po);
    auto step = pm.run({c.pass, {}, {}});
    if (!step || !(*step)->changed) {
      std::string why;
      if (step)
        for (const auto& [node, reasons] : (*step)->explain.all())
          for (const auto& [pattern, r] : *reasons) why = r.str();
      std::printf("%-17s %-44s the pass did not fire: %s\n", c.group.c_str(), c.name.c_str(),
                  step ? why.c_str() : step.error().message().c_str());
      return;
    }
  }
  auto ec = exec::Executor::create(chain, {});
  auto ef = exec::Executor::create(fused, {});
  if (!ec || !ef) {
    std::printf("%-17s %-44s executor: %s\n", c.group.c_str(), c.name.c_str(),
                (!ec ? ec.error() : ef.error()).message().c_str());
    return;
  }
  exec::RunOptions ro;
  ro.threads = o.threads;
  auto rc = (*ec)->run(inputs, ro);
  auto rf = (*ef)->run(inputs, ro);
  double diff = -1;
  if (rc && rf && !rc->outputs.empty() && !rf->outputs.empty()) {
    auto a = rc->outputs[0].data<float>();
    auto b = rf->outputs[0].data<float>();
    diff = 0;
    for (size_t i = 0; i < a.size() && i < b.size(); ++i)
      diff = std::max(diff, static_cast<double>(std::fabs(a[i] - b[i])));
  }
  if (o.profile) {
    for (auto* ex : {ec->get(), ef->get()}) {
      ro.profile = true;
      for (int rep = 0; rep < 5; ++rep) {
        auto r = ex->run(inputs, ro);
        if (!r || rep < 4) continue;
        for (const auto& p : r->profile)
          std::printf("    %-24s %-30s %8.3f ms\n", p.op.c_str(), p.kernel.c_str(),
                      p.micros / 1000);
        std::printf("    total %.3f ms\n", r->totalMicros / 1000);
      }
    }
    ro.profile = false;
  }
  double tc = bench::timeRunsMs(**ec, inputs, o);
  double tf = bench::timeRunsMs(**ef, inputs, o);
  std::printf("%-17s %-44s %9.3f %9.3f %7.2fx %3zu -> %zu  %.1e\n", c.group.c_str(), c.name.c_str(),
              tc, tf, tc / tf, chain.graph().nodeCount(), fused.graph().nodeCount(), diff);
  std::fflush(stdout);
  (void)countFused;
}

std::vector<Case> cases() {
  std::vector<Case> v;
  // ---- FusedConv: Conv (+ BatchNormalization folded) + Relu from ultraface_rfb_320 ----
  auto convRelu = [](Dims x, Dims w, std::vector<ir::Attribute> (*convAttrs)(), const char* act) {
    return [=](Builder& b) {
      ir::Value* in = b.input("x", x);
      ir::Value* t = b.op("Conv", {in, b.weight(w), b.weight({w[0]})}, convAttrs());
      if (std::strcmp(act, "Relu") == 0) t = b.op("Relu", {t});
      if (std::strcmp(act, "HardSigmoid") == 0)
        t = b.op("HardSigmoid", {t}, attrs(ir::Attribute::makeFloat("alpha", 0.2f)));
      b.output(t);
    };
  };
  using Attrs = std::vector<ir::Attribute> (*)();
  Attrs s2p1 = [] {
    std::vector<ir::Attribute> a;
    a.push_back(ints("strides", {2, 2}));
    a.push_back(ints("pads", {1, 1, 1, 1}));
    return a;
  };
  Attrs dw16 = [] {
    std::vector<ir::Attribute> a;
    a.push_back(ir::Attribute::makeInt("group", 16));
    a.push_back(ints("pads", {1, 1, 1, 1}));
    return a;
  };
  Attrs dw64 = [] {
    std::vector<ir::Attribute> a;
    a.push_back(ir::Attribute::makeInt("group", 64));
    a.push_back(ints("pads", {1, 1, 1, 1}));
    return a;
  };
  Attrs none = [] { return std::vector<ir::Attribute>{}; };
  v.push_back({"FusedConv", "ultraface conv0 3->16 3x3/2 240x320 +Relu", "fuse_conv_activation",
               convRelu({1, 3, 240, 320}, {16, 3, 3, 3}, s2p1, "Relu"), nullptr});
  v.push_back({"FusedConv", "ultraface dw 16 3x3 120x160 +Relu", "fuse_conv_activation",
               convRelu({1, 16, 120, 160}, {16, 1, 3, 3}, dw16, "Relu"), nullptr});
  v.push_back({"FusedConv", "ultraface pw 16->32 1x1 120x160 +Relu", "fuse_conv_activation",
               convRelu({1, 16, 120, 160}, {32, 16, 1, 1}, none, "Relu"), nullptr});
  v.push_back({"FusedConv", "ultraface dw 64 3x3 30x40 +Relu", "fuse_conv_activation",
               convRelu({1, 64, 30, 40}, {64, 1, 3, 3}, dw64, "Relu"), nullptr});
  // squeezenet's fire modules: 1x1 squeeze and expand convolutions + Relu.
  for (auto [c, m, hw] : std::vector<std::array<int64_t, 3>>{{64, 16, 55},
                                                             {16, 64, 55},
                                                             {128, 32, 27},
                                                             {32, 128, 27},
                                                             {384, 48, 13},
                                                             {64, 256, 13},
                                                             {512, 1000, 13}})
    v.push_back({"FusedConv",
                 "squeezenet 1x1 " + std::to_string(c) + "->" + std::to_string(m) + " " +
                     std::to_string(hw) + "x" + std::to_string(hw) + " +Relu",
                 "fuse_conv_activation", convRelu({1, c, hw, hw}, {m, c, 1, 1}, none, "Relu"),
                 nullptr});
  v.push_back({"FusedConv", "ppocr SE 200->50 1x1 on 1x1 +Relu", "fuse_conv_activation",
               convRelu({1, 200, 1, 1}, {50, 200, 1, 1}, none, "Relu"), nullptr});
  v.push_back({"FusedConv", "ppocr SE 50->200 1x1 on 1x1 +HardSigmoid", "fuse_conv_activation",
               convRelu({1, 50, 1, 1}, {200, 50, 1, 1}, none, "HardSigmoid"), nullptr});
  // ---- FusedConv: resnet50's bottleneck end, Conv + residual Sum + Relu ----
  auto convResidual = [](Dims x, Dims w, bool relu) {
    return [=](Builder& b) {
      ir::Value* in = b.input("x", x);
      ir::Value* z = b.input("z", {x[0], w[0], x[2], x[3]});
      ir::Value* t = b.op("Conv", {in, b.weight(w), b.weight({w[0]})});
      ir::Value* u = b.op("Sum", {t, z});
      b.output(relu ? b.op("Relu", {u}) : u);
    };
  };
  v.push_back({"FusedConv", "resnet50 64->256 1x1 56x56 +Sum+Relu", "fuse_conv_activation",
               convResidual({1, 64, 56, 56}, {256, 64, 1, 1}, true), nullptr});
  v.push_back({"FusedConv", "resnet50 256->1024 1x1 14x14 +Sum+Relu", "fuse_conv_activation",
               convResidual({1, 256, 14, 14}, {1024, 256, 1, 1}, true), nullptr});
  v.push_back({"FusedConv", "resnet50 512->2048 1x1 7x7 +Sum+Relu", "fuse_conv_activation",
               convResidual({1, 512, 7, 7}, {2048, 512, 1, 1}, true), nullptr});
  v.push_back({"FusedConv", "resnet50 64->256 1x1 56x56 +Sum (no act)", "fuse_conv_activation",
               convResidual({1, 64, 56, 56}, {256, 64, 1, 1}, false), nullptr});
  // ---- FusedGemm: GPT-2 MLP (Gemm + Reshape + tanh GELU subgraph, as ort_gpt2_past has it) ----
  auto gpt2Mlp = [](int64_t seq, int64_t h) {
    return [=](Builder& b) {
      ir::Value* a = b.input("a", {seq, h});
      ir::Value* g = b.op("Gemm", {a, b.weight({h, 4 * h}, 0.05f), b.weight({4 * h})});
      ir::Value* x = b.op("Reshape", {g, b.ints({1, seq, 4 * h})});
      b.output(tanhGelu(b, x));
    };
  };
  v.push_back({"FusedGemm", "gpt2 MLP 8x768 * 768x3072 +tanh GELU", "fuse_gemm_activation",
               gpt2Mlp(8, 768), nullptr});
  v.push_back({"FusedGemm", "gpt2 MLP 64x768 * 768x3072 +tanh GELU", "fuse_gemm_activation",
               gpt2Mlp(64, 768), nullptr});
  v.push_back({"FusedGemm", "ort_gpt2_past MLP 1x4 * 4x16 +tanh GELU", "fuse_gemm_activation",
               gpt2Mlp(1, 4), nullptr});
  // Attention output projection: MatMul + bias Add + residual Add.
  v.push_back({"FusedGemm", "gpt2 proj [1,64,768]*768x768 +bias+residual", "fuse_gemm_activation",
               [](Builder& b) {
                 ir::Value* a = b.input("a", {1, 64, 768});
                 ir::Value* z = b.input("z", {1, 64, 768});
                 ir::Value* t = b.op("MatMul", {a, b.weight({768, 768}, 0.05f)});
                 ir::Value* u = b.op("Add", {t, b.weight({768})});
                 b.output(b.op("Add", {u, z}));
               },
               nullptr});
  v.push_back({"FusedGemm", "resnet50 fc 1x2048 * 2048x1000 +Relu", "fuse_gemm_activation",
               [](Builder& b) {
                 ir::Value* a = b.input("a", {1, 2048});
                 ir::Value* t = b.op("Gemm", {a, b.weight({2048, 1000}, 0.05f), b.weight({1000})});
                 b.output(b.op("Relu", {t}));
               },
               nullptr});
  // ---- FusedElementwise ----
  v.push_back({"FusedElementwise", "gpt2 tanh GELU [1,64,3072] (8 ops)", "fuse_elementwise_chains",
               [](Builder& b) {
                 b.output(tanhGelu(b, b.input("x", {1, 64, 3072})));
               },
               nullptr});
  // The same program built by hand, for the sizes where the pass does not fire.
  auto geluSweep = [](Dims dims, bool fused) {
    return [=](Builder& b) {
      ir::Value* x = b.input("x", dims);
      if (!fused) return b.output(tanhGelu(b, x));
      b.model().opsets.push_back({"ai.passlab", 1});
      std::vector<ir::Attribute> a;
      a.push_back(ir::Attribute::makeStrings(
          "ops", {"Mul", "Pow", "Mul", "Add", "Mul", "Tanh", "Add", "Mul"}));
      a.push_back(ints("operands", {0, -2, -1, 0, -3, -1, 2, -4, -1, 0, 3, -1,
                                    4, -5, -1, 5, -1, -1, 6, -6, -1, 1, 7, -1}));
      a.push_back(
          ir::Attribute::makeFloats("constants", {0.5f, 3.0f, 0.044715f, 0.7978846f, 1.0f}));
      b.output(b.op("FusedElementwise", {x}, std::move(a), "ai.passlab"));
    };
  };
  for (Dims d : {Dims{1, 1, 768}, Dims{1, 4, 768}, Dims{1, 8, 768}, Dims{1, 16, 768},
                 Dims{1, 64, 768}, Dims{1, 64, 3072}, Dims{1, 512, 3072}}) {
    std::string n = "tanh GELU [";
    for (size_t i = 0; i < d.size(); ++i) n += (i ? "," : "") + std::to_string(d[i]);
    v.push_back(
        {"FusedElementwise", n + "] (by hand)", "", geluSweep(d, false), geluSweep(d, true)});
  }
  // SiLU x * Sigmoid(x) by hand over sizes: Sigmoid's vectorized row either way
  // (fuse_elementwise_chains' limit for Sigmoid/Tanh groups above 4096 elements).
  auto siluSweep = [](Dims dims, bool fused) {
    return [=](Builder& b) {
      ir::Value* x = b.input("x", dims);
      if (!fused) return b.output(b.op("Mul", {x, b.op("Sigmoid", {x})}));
      b.model().opsets.push_back({"ai.passlab", 1});
      std::vector<ir::Attribute> a;
      a.push_back(ir::Attribute::makeStrings("ops", {"Sigmoid", "Mul"}));
      a.push_back(ints("operands", {0, -1, -1, 0, 1, -1}));
      b.output(b.op("FusedElementwise", {x}, std::move(a), "ai.passlab"));
    };
  };
  for (Dims d : {Dims{1, 16, 16, 16}, Dims{1, 32, 32, 32}, Dims{1, 16, 112, 112},
                 Dims{1, 96, 56, 56}, Dims{1, 96, 112, 112}}) {
    std::string n = "SiLU [";
    for (size_t i = 0; i < d.size(); ++i) n += (i ? "," : "") + std::to_string(d[i]);
    v.push_back(
        {"FusedElementwise", n + "] (by hand)", "", siluSweep(d, false), siluSweep(d, true)});
  }
  // Sin(3 x) + x and the erf GELU x (1 + Erf(x / sqrt 2)) / 2 by hand over
  // sizes, 1K to 1M elements: Sin, Cos, Erf and Gelu run vector rows
  // (trig_rows.h, erf_rows.h) fused or not; fuse_elementwise_chains' limit
  // for their groups comes from this sweep (docs/fused-kernels.md).
  auto sinSweep = [](Dims dims, bool fused) {
    return [=](Builder& b) {
      ir::Value* x = b.input("x", dims);
      if (!fused)
        return b.output(b.op("Add", {b.op("Sin", {b.op("Mul", {x, b.scalar(3.0f)})}), x}));
      b.model().opsets.push_back({"ai.passlab", 1});
      std::vector<ir::Attribute> a;
      a.push_back(ir::Attribute::makeStrings("ops", {"Mul", "Sin", "Add"}));
      a.push_back(ints("operands", {0, -2, -1, 1, -1, -1, 2, 0, -1}));
      a.push_back(ir::Attribute::makeFloats("constants", {3.0f}));
      b.output(b.op("FusedElementwise", {x}, std::move(a), "ai.passlab"));
    };
  };
  auto erfGeluSweep = [](Dims dims, bool fused) {
    return [=](Builder& b) {
      ir::Value* x = b.input("x", dims);
      if (!fused) {
        ir::Value* e = b.op("Erf", {b.op("Div", {x, b.scalar(1.4142135f)})});
        ir::Value* m = b.op("Mul", {x, b.op("Add", {e, b.scalar(1.0f)})});
        return b.output(b.op("Mul", {m, b.scalar(0.5f)}));
      }
      b.model().opsets.push_back({"ai.passlab", 1});
      std::vector<ir::Attribute> a;
      a.push_back(ir::Attribute::makeStrings("ops", {"Div", "Erf", "Add", "Mul", "Mul"}));
      a.push_back(ints("operands", {0, -2, -1, 1, -1, -1, 2, -3, -1, 0, 3, -1, 4, -4, -1}));
      a.push_back(ir::Attribute::makeFloats("constants", {1.4142135f, 1.0f, 0.5f}));
      b.output(b.op("FusedElementwise", {x}, std::move(a), "ai.passlab"));
    };
  };
  for (int64_t rows : {1, 4, 16, 64, 256, 1024}) {
    const Dims d{1, rows, 1024};
    const std::string n = "[1," + std::to_string(rows) + ",1024]";
    v.push_back({"FusedElementwise", "Sin(3x)+x " + n + " (by hand)", "", sinSweep(d, false),
                 sinSweep(d, true)});
    v.push_back({"FusedElementwise", "erf GELU " + n + " (by hand)", "", erfGeluSweep(d, false),
                 erfGeluSweep(d, true)});
  }
  // U(pre(x)) + x by hand over sizes, 1K to 1M elements, for the ops that
  // were libm rows before they got vector rows (Exp, Log, Softplus, Gelu
  // tanh, Elu; pre = Abs for Log, x / 2 otherwise): fuse_elementwise_chains'
  // limit for their groups comes from this sweep (docs/fused-kernels.md).
  auto rowSweep = [](std::string u, Dims dims, bool fused) {
    return [=](Builder& b) {
      const bool abs = u == "Log";
      const std::string instr = u == "Gelu" ? "GeluTanh" : u;
      ir::Value* x = b.input("x", dims);
      if (!fused) {
        if (u == "Gelu") b.model().opsets = {{"", 20}};
        ir::Value* p = abs ? b.op("Abs", {x}) : b.op("Mul", {x, b.scalar(0.5f)});
        std::vector<ir::Attribute> ua;
        if (u == "Gelu") ua.push_back(ir::Attribute::makeString("approximate", "tanh"));
        return b.output(b.op("Add", {b.op(u, {p}, std::move(ua)), x}));
      }
      b.model().opsets.push_back({"ai.passlab", 1});
      std::vector<ir::Attribute> a;
      a.push_back(ir::Attribute::makeStrings("ops", {abs ? "Abs" : "Mul", instr, "Add"}));
      const bool elu = u == "Elu";
      a.push_back(ints("operands", {0, abs ? -1 : -2, -1, 1, elu ? -3 : -1, -1, 2, 0, -1}));
      if (!abs)
        a.push_back(ir::Attribute::makeFloats(
            "constants", elu ? std::vector<float>{0.5f, 1.0f} : std::vector<float>{0.5f}));
      b.output(b.op("FusedElementwise", {x}, std::move(a), "ai.passlab"));
    };
  };
  for (const char* u : {"Exp", "Log", "Softplus", "Gelu", "Elu"})
    for (int64_t rows : {1, 4, 16, 64, 256, 1024}) {
      const Dims d{1, rows, 1024};
      const std::string n = std::string(u == std::string("Gelu") ? "GeluTanh" : u) + "(x)+x [1," +
                            std::to_string(rows) + ",1024]";
      v.push_back(
          {"FusedElementwise", n + " (by hand)", "", rowSweep(u, d, false), rowSweep(u, d, true)});
    }
  v.push_back({"FusedElementwise", "ort_gpt2_past tanh GELU [1,1,16]", "fuse_elementwise_chains",
               [](Builder& b) {
                 b.output(tanhGelu(b, b.input("x", {1, 1, 16})));
               },
               nullptr});
  // GPT-2's layer norm at opset 11, between its ReduceMeans: (x - m) / Sqrt(v + eps) * g + b.
  v.push_back({"FusedElementwise", "gpt2 layer norm tail [1,64,768] (4 ops)",
               "fuse_elementwise_chains",
               [](Builder& b) {
                 ir::Value* x = b.input("x", {1, 64, 768});
                 ir::Value* m = b.input("m", {1, 64, 1});
                 ir::Value* s = b.input("s", {1, 64, 1});  // Sqrt(var + eps), computed before
                 ir::Value* d = b.op("Sub", {x, m});
                 ir::Value* q = b.op("Div", {d, s});
                 ir::Value* g = b.op("Mul", {q, b.weight({768})});
                 b.output(b.op("Add", {g, b.weight({768})}));
               },
               nullptr});
  v.push_back({"FusedElementwise", "BN as Mul+Add+Relu [1,64,56,56]", "fuse_elementwise_chains",
               [](Builder& b) {
                 ir::Value* x = b.input("x", {1, 64, 56, 56});
                 ir::Value* u = b.op("Mul", {x, b.weight({64, 1, 1})});
                 ir::Value* w = b.op("Add", {u, b.weight({64, 1, 1})});
                 b.output(b.op("Relu", {w}));
               },
               nullptr});
  // The condition that keeps an op on a smaller tensor out of the group: here
  // the group is forced (Sqrt per channel inside), against the chain.
  auto smaller = [](bool fused) {
    return [=](Builder& b) {
      ir::Value* x = b.input("x", {1, 64, 56, 56});
      ir::Value* v = b.input("v", {64, 1, 1});
      if (!fused) {
        ir::Value* s = b.op("Sqrt", {v});
        ir::Value* y = b.op("Mul", {x, s});
        b.output(b.op("Relu", {y}));
        return;
      }
      b.model().opsets.push_back({"ai.passlab", 1});
      std::vector<ir::Attribute> a;
      a.push_back(ir::Attribute::makeStrings("ops", {"Sqrt", "Mul", "Relu"}));
      a.push_back(ints("operands", {1, -1, -1, 0, 2, -1, 3, -1, -1}));
      b.output(b.op("FusedElementwise", {x, v}, std::move(a), "ai.passlab"));
    };
  };
  v.push_back({"FusedElementwise", "Sqrt([64,1,1]) * x[1,64,56,56], Relu (forced)", "",
               smaller(false), smaller(true)});
  // ---- FusedAttention: GPT-2's Softmax(Where(causal, Q Kt / sqrt(H), -10000)) V ----
  // (ort_gpt2_past: Kt is the cache and the step concatenated; Megatron: Div on
  // Q and Kt, s * m - 10000 * (1 - m)). Q [1, N, S, H], Kt [1, N, H, T], V [1, N, T, H].
  auto gpt2Attention = [](int64_t N, int64_t S, int64_t T, int64_t H) {
    return [=](Builder& b) {
      ir::Value* q = b.input("q", {1, N, S, H});
      ir::Value* kt = b.input("kt", {1, N, H, T});
      ir::Value* v = b.input("v", {1, N, T, H});
      ir::Value* m = b.causalInput("m", {1, 1, S, T});
      ir::Value* s = b.op("MatMul", {q, kt});
      s = b.op("Div", {s, b.scalar(std::sqrt(static_cast<float>(H)))});
      s = b.op("Where", {m, s, b.scalar(-10000.0f)});
      ir::Value* p = b.op("Softmax", {s}, attrs(ir::Attribute::makeInt("axis", 3)));
      b.output(b.op("MatMul", {p, v}));
    };
  };
  auto megatronAttention = [](int64_t N, int64_t S, int64_t T, int64_t H) {
    return [=](Builder& b) {
      ir::Value* q = b.input("q", {1, N, S, H});
      ir::Value* kt = b.input("kt", {1, N, H, T});
      ir::Value* v = b.input("v", {1, N, T, H});
      ir::Value* m = b.input("m", {1, 1, S, T});
      ir::Value* c = b.scalar(std::sqrt(std::sqrt(static_cast<float>(H))));
      ir::Value* s = b.op("MatMul", {b.op("Div", {q, c}), b.op("Div", {kt, c})});
      s = b.op("Mul", {s, m});
      ir::Value* km = b.op("Mul", {b.op("Sub", {b.scalar(1.0f), m}), b.scalar(10000.0f)});
      s = b.op("Sub", {s, km});
      ir::Value* p = b.op("Softmax", {s}, attrs(ir::Attribute::makeInt("axis", 3)));
      b.output(b.op("MatMul", {p, v}));
    };
  };
  auto attName = [](const char* model, int64_t N, int64_t S, int64_t T, int64_t H) {
    return std::string(model) + " N" + std::to_string(N) + " S" + std::to_string(S) + " T" +
           std::to_string(T) + " H" + std::to_string(H);
  };
  // GPT-2 small (12 heads of 64): decoding with a cache (S = 1) and prompts (S = T).
  for (auto [S, T] : std::vector<std::array<int64_t, 2>>{
           {1, 1}, {1, 16}, {1, 64}, {1, 128}, {8, 8}, {32, 32}, {64, 64}, {128, 128}})
    v.push_back({"FusedAttention", attName("gpt2", 12, S, T, 64), "fuse_passlab_attention",
                 gpt2Attention(12, S, T, 64), nullptr});
  // ort_gpt2_past's own size (2 heads of 2) and ort_gpt2_megatron's (2 heads of 4).
  for (auto [S, T] : std::vector<std::array<int64_t, 2>>{{1, 8}, {8, 8}})
    v.push_back({"FusedAttention", attName("ort_gpt2_past", 2, S, T, 2), "fuse_passlab_attention",
                 gpt2Attention(2, S, T, 2), nullptr});
  for (auto [S, T] : std::vector<std::array<int64_t, 2>>{{1, 8}, {8, 8}, {64, 64}})
    v.push_back({"FusedAttention", attName("megatron", 2, S, T, 4), "fuse_passlab_attention",
                 megatronAttention(2, S, T, 4), nullptr});
  // Megatron-style masks at GPT-2 small's size.
  for (auto [S, T] : std::vector<std::array<int64_t, 2>>{{1, 64}, {64, 64}})
    v.push_back({"FusedAttention", attName("megatron masks", 12, S, T, 64),
                 "fuse_passlab_attention", megatronAttention(12, S, T, 64), nullptr});
  // ---- FusedLayerNorm: GPT-2's layer norm as opset 11 exports it, with the
  // residual Add before it (its sum read by the next residual Add), and the
  // standard LayerNormalization kernel (opset 17) against the fused one ----
  auto layerNorm = [](int64_t S, int64_t D, bool residual, bool node) {
    return [=](Builder& b) {
      if (!node) b.model().opsets = {{"", 11}};
      ir::Value* s = b.input("x", {1, S, D});
      ir::Value* r = residual ? b.input("r", {1, S, D}) : nullptr;
      if (residual) s = b.op("Add", {s, r});
      ir::Value* y;
      if (node) {
        y = b.op("LayerNormalization", {s, b.weight({D}), b.weight({D})},
                 attrs(ir::Attribute::makeFloat("epsilon", 1e-5f)));
      } else {
        ir::Value* m = b.op("ReduceMean", {s}, attrs(ints("axes", {-1})));
        ir::Value* d = b.op("Sub", {s, m});
        ir::Value* v =
            b.op("ReduceMean", {b.op("Pow", {d, b.scalar(2.0f)})}, attrs(ints("axes", {-1})));
        ir::Value* sd = b.op("Sqrt", {b.op("Add", {v, b.scalar(1e-5f)})});
        ir::Value* n = b.op("Div", {d, sd});
        y = b.op("Add", {b.op("Mul", {n, b.weight({D})}), b.weight({D})});
      }
      b.output(residual ? b.op("Add", {s, y}) : y);
    };
  };
  auto lnName = [](const char* what, int64_t S, int64_t D) {
    return std::string(what) + " [1," + std::to_string(S) + "," + std::to_string(D) + "]";
  };
  for (int64_t S : {1, 8, 64, 128})
    v.push_back({"FusedLayerNorm", lnName("gpt2 LN opset 11", S, 768), "fuse_passlab_layer_norm",
                 layerNorm(S, 768, false, false), nullptr});
  for (int64_t S : {1, 8, 64, 128})
    v.push_back({"FusedLayerNorm", lnName("gpt2 residual+LN (+Add after)", S, 768),
                 "fuse_passlab_layer_norm", layerNorm(S, 768, true, false), nullptr});
  for (int64_t S : {1, 64, 128})
    v.push_back({"FusedLayerNorm", lnName("LayerNormalization node", S, 768),
                 "fuse_passlab_layer_norm", layerNorm(S, 768, false, true), nullptr});
  // ort_gpt2_past's own width (4) and ort_gpt2_megatron's (8).
  for (auto [S, D] : std::vector<std::array<int64_t, 2>>{{1, 4}, {8, 4}, {1, 8}, {8, 8}, {64, 8}})
    v.push_back({"FusedLayerNorm", lnName("corpus residual+LN (+Add after)", S, D),
                 "fuse_passlab_layer_norm", layerNorm(S, D, true, false), nullptr});
  // ---- FusedSoftmax: scores Softmax(s / 8 + padding mask) outside an attention,
  // the decomposed form, and a plain Softmax (by hand: the pass leaves it) ----
  auto softmax = [](Dims d, int form) {  // 0: Div + Add mask, 1: decomposed, 2: plain
    return [=](Builder& b) {
      ir::Value* s = b.input("s", d);
      if (form == 0) {
        Dims md(d.size(), 1);
        md[0] = d[0];
        md.back() = d.back();
        s = b.op("Add", {b.op("Div", {s, b.scalar(8.0f)}), b.input("m", md)});
      }
      if (form == 1) {
        ir::Value* mx = b.op("ReduceMax", {s}, attrs(ints("axes", {-1})));
        ir::Value* e = b.op("Exp", {b.op("Sub", {s, mx})});
        return b.output(b.op("Div", {e, b.op("ReduceSum", {e, b.ints({-1})})}));
      }
      b.output(b.op("Softmax", {s}, attrs(ir::Attribute::makeInt("axis", -1))));
    };
  };
  auto plainFused = [](Dims d) {
    return [=](Builder& b) {
      b.model().opsets.push_back({"ai.passlab", 1});
      b.output(b.op("FusedSoftmax", {b.input("s", d)}, {}, "ai.passlab"));
    };
  };
  auto smName = [](const char* what, const Dims& d) {
    std::string n = std::string(what) + " [";
    for (size_t i = 0; i < d.size(); ++i) n += (i ? "," : "") + std::to_string(d[i]);
    return n + "]";
  };
  for (Dims d : {Dims{1, 12, 1, 64}, Dims{1, 12, 64, 64}, Dims{1, 12, 128, 128}, Dims{1, 2, 8, 8}})
    v.push_back({"FusedSoftmax", smName("scores / 8 + mask", d), "fuse_passlab_softmax",
                 softmax(d, 0), nullptr});
  for (Dims d : {Dims{1, 12, 64, 64}, Dims{1, 2, 8, 8}})
    v.push_back(
        {"FusedSoftmax", smName("decomposed", d), "fuse_passlab_softmax", softmax(d, 1), nullptr});
  for (Dims d : {Dims{1, 1000}, Dims{1, 12, 64, 64}})
    v.push_back(
        {"FusedSoftmax", smName("plain Softmax (by hand)", d), "", softmax(d, 2), plainFused(d)});
  return v;
}

}  // namespace

int main(int argc, char** argv) {
  const bench::BenchOptions o = bench::parseBenchOptions(argc, argv, 400);
  std::printf("%s\n", o.describe().c_str());
  std::printf("%-17s %-44s %9s %9s %8s %s  %s\n", "fused op", "case (corpus shape)", "chain ms",
              "fused ms", "speedup", "nodes", "max |diff|");
  for (const Case& c : cases())
    if (o.filter.empty() || (c.group + " " + c.name).find(o.filter) != std::string::npos)
      runCase(c, o);
  return 0;
}
