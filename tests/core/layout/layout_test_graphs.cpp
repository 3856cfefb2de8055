#include "tests/core/layout/layout_test_graphs.h"

#include <vector>

namespace passlab::layout::testgraphs {

ir::Model repeatedBlocks(int layers, bool scoped) {
  ir::Model m;
  m.setOpsetVersion("", 17);
  ir::Graph& g = m.graph();
  ir::Value* x = g.addInput("x", ir::Type::tensor(ir::DataType::kFloat, ir::Shape({1, 16})));
  ir::Value* w = g.addInitializer("w", ir::Tensor(ir::DataType::kFloat, {16, 16}));
  int k = 0;
  auto add = [&](const std::string& scope, const std::string& op, std::vector<ir::Value*> in) {
    ir::Node* n = g.addNode(op, "", in, 1);
    std::string base = op + "_" + std::to_string(k++);
    n->setName(scoped ? scope + "/" + base : base);
    return n->output(0);
  };
  ir::Value* h = x;
  for (int l = 0; l < layers; ++l) {
    std::string s = "/model/layers." + std::to_string(l);
    ir::Value* a = add(s + "/attn", "MatMul", {h, w});
    ir::Value* b = add(s + "/attn", "Softmax", {a});
    ir::Value* c = add(s + "/attn", "MatMul", {b, w});
    ir::Value* r1 = add(s, "Add", {h, c});
    ir::Value* d = add(s + "/mlp", "MatMul", {r1, w});
    ir::Value* e = add(s + "/mlp", "Relu", {d});
    ir::Value* f = add(s + "/mlp", "MatMul", {e, w});
    h = add(s, "Add", {r1, f});
  }
  ir::Value* y = add("/head", "Sigmoid", {h});
  g.addOutput(y);
  return m;
}

ir::Model chain(int n) {
  ir::Model m;
  m.setOpsetVersion("", 17);
  ir::Graph& g = m.graph();
  ir::Value* v = g.addInput("x", ir::Type::tensor(ir::DataType::kFloat, ir::Shape({4})));
  for (int i = 0; i < n; ++i) v = g.addNode("Relu", "", {v}, 1)->output(0);
  g.addOutput(v);
  return m;
}

}  // namespace passlab::layout::testgraphs
