// freeze_initializer_inputs — weights listed as graph inputs become constants.
//
// Before:  main (float[1,3,8,8] x, float[4,3,3,3] w) => (y) <float[4,3,3,3] w = {...}> { y =
// Conv(x, w) } After:   main (float[1,3,8,8] x) => (y) <float[4,3,3,3] w = {...}> { y = Conv(x, w)
// } Why: from IR version 4 an initializer that is also a graph input is only a default — a caller
// may override it — so no pass may fold it (ONNX Runtime does the same). Many exporters (PyTorch
// before 1.4 with keep_initializers_as_inputs, every IR 3 model, where it was required) list every
// weight as an input, which blocks every weight fusion. This pass removes those entries from the
// main graph's inputs, so the weights are constants: callers can no longer override them (the
// model's interface loses those optional inputs; nothing else changes, outputs are bit for bit the
// same). IR 3 models are raised to 4, the first version that allows an initializer that is not an
// input; ONNX Runtime already treats initializers as constants below IR 4. IR 1 and 2 files are
// left alone: their exporters relied on legacy broadcasting that readers (PassLab's executor
// included) recognise by the IR version. Conditions: main graph only (subgraph inputs never carry
// initializers); an initializer that is also a graph output is left alone (the option `keep`, a
// comma-separated list of names, keeps others overridable). Opsets: 1-28 (IR versions 1-11).
#include <algorithm>
#include <sstream>

#include "core/passes/pass.h"
#include "core/passes/pass_catalog.h"

namespace passlab::passes {

namespace {

class FreezeInitializerInputs final : public Pass {
 public:
  const PassInfo& info() const override { return catalogInfo("freeze_initializer_inputs"); }
  Status run(PassContext& ctx) const override {
    ir::Model& model = ctx.model();
    std::vector<std::string> keep;
    std::stringstream ss(ctx.option("keep"));
    for (std::string s; std::getline(ss, s, ',');)
      if (!s.empty()) keep.push_back(s);
    std::vector<ir::Value*> frozen;
    for (ir::Value* v : model.graph().inputs()) {
      if (!v->isInitializer()) continue;
      if (model.irVersion < 3) {
        note(ctx, v,
             Text::of("IR version %1 is from before opset 7 broadcasting; raising it would change "
                      "how the file's legacy broadcasts are read",
                      std::to_string(model.irVersion)));
        continue;
      }
      if (std::find(keep.begin(), keep.end(), v->name()) != keep.end()) {
        note(ctx, v, "kept as an input (option keep)");
        continue;
      }
      if (v->isGraphOutput()) {
        note(ctx, v, Text::of("'%1' is also a graph output", v->name()));
        continue;
      }
      frozen.push_back(v);
    }
    for (ir::Value* v : frozen) ctx.rewriter.freezeInitializer(v);
    return Status::ok();
  }

 private:
  // Reasons go on the nodes reading the value (values have no explain entry of their own).
  static void note(PassContext& ctx, const ir::Value* v, const Text& why) {
    if (!ctx.explain) return;
    for (const ir::Use& u : v->uses()) ctx.explain->note(u.node->id(), "freeze", why);
  }
};

}  // namespace

std::unique_ptr<Pass> makeFreezeInitializerInputs() {
  return std::make_unique<FreezeInitializerInputs>();
}

}  // namespace passlab::passes
