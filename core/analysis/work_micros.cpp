#include "core/analysis/work_micros.h"

#include <string_view>
#include <unordered_map>
#include <unordered_set>

#include "core/ir/value.h"

namespace passlab::analysis {

namespace {

enum class WorkKind { kStreaming, kContraction, kWindow, kPerElement, kView };

// The ops whose FLOPs cost_model.cpp counts as multiply-adds.
bool isContraction(std::string_view op) {
  static const std::unordered_set<std::string_view> kOps = {"Conv",
                                                            "FusedConv",
                                                            "ConvInteger",
                                                            "QLinearConv",
                                                            "ConvTranspose",
                                                            "Gemm",
                                                            "FusedGemm",
                                                            "MatMul",
                                                            "FusedMatMul",
                                                            "MatMulInteger",
                                                            "LSTM",
                                                            "QLinearMatMul",
                                                            "GRU",
                                                            "RNN",
                                                            "Attention",
                                                            "QGemm",
                                                            "Einsum",
                                                            "DeformConv",
                                                            "FusedConvInteger"};
  return kOps.count(op) > 0;
}

bool isWindow(std::string_view op) {
  return op == "MaxPool" || op == "AveragePool" || op == "LpPool";
}

bool isView(std::string_view op) {
  return op == "Reshape" || op == "Squeeze" || op == "Unsqueeze" || op == "Flatten" ||
         op == "Identity";
}

// Measured per output element (docs/exec-benchmark.md): Softmax 0.7 ns
// (since aec75e2's vector rows: 1 us over 1000 classes, 0.14 ms over
// [12,128,128]; 7.5-10 ns before), LogSoftmax 1.5 ns ([1,64,32000]), LRN
// 1.4-1.7 ns (two square roots each), Exp 0.3 ns, Resize 0.3-0.8 ns.
double nsPerElementOf(std::string_view op) {
  static const std::unordered_map<std::string_view, double> kNs = {
      {"Softmax", 0.7}, {"LogSoftmax", 1.5}, {"LRN", 1.4},
      {"Exp", 0.3},     {"Resize", 0.4},     {"Upsample", 0.4}};
  auto it = kNs.find(op);
  return it == kNs.end() ? 0.0 : it->second;
}

WorkKind kindOf(const ir::Node& node) {
  const std::string& op = node.opType();
  if (isView(op)) return WorkKind::kView;
  if (isContraction(op)) return WorkKind::kContraction;
  if (isWindow(op)) return WorkKind::kWindow;
  if (nsPerElementOf(op) > 0) return WorkKind::kPerElement;
  return WorkKind::kStreaming;
}

double outputElements(const ir::Node& node) {
  const ir::Value* out = node.output(0);
  if (out == nullptr || !out->type().isTensor() || !out->type().hasShape()) return 0;
  auto n = out->type().shape()->numel();
  return n ? static_cast<double>(*n) : 0;
}

}  // namespace

double nsPerOutputElement(const ir::Node& node) {
  return nsPerElementOf(node.opType());
}

double workMicros(const ir::Node& node, const NodeCost& cost) {
  if (!cost.known) return -1.0;
  const WorkRates& r = kWorkRates;
  const double bytes = static_cast<double>(cost.bytesRead + cost.bytesWritten);
  switch (kindOf(node)) {
    case WorkKind::kView:
      return 0.0;
    case WorkKind::kContraction:
      return cost.flops / r.flopsPerMicro + bytes / r.contractionBytesPerMicro;
    case WorkKind::kWindow:
      return cost.flops / r.windowFlopsPerMicro + bytes / r.bytesPerMicro;
    case WorkKind::kPerElement:
      return outputElements(node) * nsPerOutputElement(node) / 1000.0 + bytes / r.bytesPerMicro;
    case WorkKind::kStreaming:
      break;
  }
  return cost.flops / r.flopsPerMicro + bytes / r.bytesPerMicro;
}

double workMicros(const ir::Node& node) {
  return workMicros(node, estimateNodeCost(node));
}

double copyMicros(uint64_t bytes) {
  return 2.0 * static_cast<double>(bytes) / kWorkRates.bytesPerMicro;
}

}  // namespace passlab::analysis
