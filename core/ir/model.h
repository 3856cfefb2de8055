// A model: metadata, opset imports, the main graph and local functions.
#pragma once

#include <cstdint>
#include <memory>
#include <optional>
#include <string>
#include <utility>
#include <vector>

#include "core/ir/graph.h"

namespace passlab::ir {

struct OpsetImport {
  std::string domain;  // "" for the default ONNX domain
  int64_t version = 0;
  bool operator==(const OpsetImport& o) const { return domain == o.domain && version == o.version; }
};

// A model-local function (FunctionProto). The body is a Graph whose inputs and
// outputs are the formal parameters (their types are usually unknown).
struct Function {
  std::string name, domain, overload, docString;
  std::vector<std::string> attributeNames;   // attributes without defaults
  std::vector<Attribute> attributeDefaults;  // attributes with defaults (attribute_proto)
  std::vector<OpsetImport> opsets;
  std::unique_ptr<Graph> body;
  std::vector<std::pair<std::string, std::string>> metadata;
};

class Model {
 public:
  Model();
  ~Model();
  Model(Model&&) noexcept;
  Model& operator=(Model&&) noexcept;

  // Deep copy (weights shared). Node ids are kept.
  Model clone() const;

  int64_t irVersion = 8;
  std::vector<OpsetImport> opsets;
  std::string producerName, producerVersion, domain, docString;
  int64_t modelVersion = 0;
  std::vector<std::pair<std::string, std::string>> metadata;
  std::vector<Function> functions;
  // TrainingInfoProto messages, kept verbatim (serialized) for round trips.
  std::vector<std::string> trainingInfo;
  // Serialized fields of ModelProto this version does not know.
  std::string unknownFields;

  Graph& graph() { return *graph_; }
  const Graph& graph() const { return *graph_; }
  void setGraph(std::unique_ptr<Graph> g) { graph_ = std::move(g); }

  // The imported version of `domain` ("" and "ai.onnx" are the same), or nullopt.
  std::optional<int64_t> opsetVersion(const std::string& domain) const;
  void setOpsetVersion(const std::string& domain, int64_t version);
  const Function* findFunction(const std::string& domain, const std::string& name) const;

 private:
  std::unique_ptr<Graph> graph_;
};

}  // namespace passlab::ir
