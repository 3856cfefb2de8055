// What `passlab-cli info` and the GUI's summary panel show about a model:
// opsets, inputs and outputs, op counts, parameters, FLOPs, unknown ops and
// verifier problems.
#pragma once

#include <cstdint>
#include <string>
#include <vector>

#include "core/analysis/shape_inference.h"
#include "core/ir/model.h"

namespace passlab::analysis {

struct OpCount {
  std::string domain, op;
  size_t topLevel = 0;     // nodes in the main graph
  size_t inSubgraphs = 0;  // nodes in If/Loop/Scan bodies
};

struct UnknownOp {
  std::string domain, op;
  int64_t opset = 0;  // the model's import of the op's domain
  size_t count = 0;
  std::string reason;  // "no such op", "needs opset 17, the model imports 12", ...
};

struct ValueSummary {
  std::string name;
  std::string type;  // "float[N,3,224,224]"
};

struct ModelSummary {
  int64_t irVersion = 0;
  std::string producer;  // name and version
  std::vector<ir::OpsetImport> opsets;
  std::vector<ValueSummary> inputs, outputs;
  size_t nodes = 0;             // main graph
  size_t nodesInSubgraphs = 0;  // all If/Loop/Scan bodies
  size_t subgraphs = 0;
  std::vector<OpCount> ops;  // most frequent first
  size_t initializers = 0;
  uint64_t parameters = 0;  // elements of initializers and Constant-node tensors
  uint64_t parameterBytes = 0;
  uint64_t mappedBytes = 0;  // of those, bytes mapped from external data
  double flops = 0;          // for one run with symbolic dims at their inferred values
  size_t nodesWithUnknownCost = 0;
  std::vector<UnknownOp> unknownOps;
  std::vector<std::string> verifierErrors, verifierWarnings;
  ShapeInferenceReport shapes;
};

// Runs shape inference on `model` (storing the inferred types) and summarises it.
ModelSummary summarize(ir::Model& model);

}  // namespace passlab::analysis
