#include "core/ir/model.h"

namespace passlab::ir {

Model::Model() : graph_(std::make_unique<Graph>()) {}
Model::~Model() = default;
Model::Model(Model&&) noexcept = default;
Model& Model::operator=(Model&&) noexcept = default;

Model Model::clone() const {
  Model m;
  m.irVersion = irVersion;
  m.opsets = opsets;
  m.producerName = producerName;
  m.producerVersion = producerVersion;
  m.domain = domain;
  m.docString = docString;
  m.modelVersion = modelVersion;
  m.metadata = metadata;
  m.trainingInfo = trainingInfo;
  m.unknownFields = unknownFields;
  m.graph_ = graph_->clone();
  for (const Function& f : functions) {
    Function nf;
    nf.name = f.name;
    nf.domain = f.domain;
    nf.overload = f.overload;
    nf.docString = f.docString;
    nf.attributeNames = f.attributeNames;
    nf.opsets = f.opsets;
    nf.metadata = f.metadata;
    for (const Attribute& a : f.attributeDefaults) {
      // Defaults never hold graphs in practice; copy scalar data through a tiny graph-free path.
      Attribute na(a.name(), a.type());
      na.f = a.f;
      na.i = a.i;
      na.s = a.s;
      na.t = a.t;
      na.floats = a.floats;
      na.ints = a.ints;
      na.strings = a.strings;
      na.tensors = a.tensors;
      na.setDocString(a.docString());
      nf.attributeDefaults.push_back(std::move(na));
    }
    if (f.body) nf.body = f.body->clone();
    m.functions.push_back(std::move(nf));
  }
  return m;
}

static bool sameDomain(const std::string& a, const std::string& b) {
  auto norm = [](const std::string& d) { return d == "ai.onnx" ? std::string() : d; };
  return norm(a) == norm(b);
}

std::optional<int64_t> Model::opsetVersion(const std::string& d) const {
  for (const auto& o : opsets)
    if (sameDomain(o.domain, d)) return o.version;
  return std::nullopt;
}

void Model::setOpsetVersion(const std::string& d, int64_t version) {
  for (auto& o : opsets) {
    if (sameDomain(o.domain, d)) {
      o.version = version;
      return;
    }
  }
  opsets.push_back({d, version});
}

const Function* Model::findFunction(const std::string& d, const std::string& name) const {
  for (const auto& f : functions)
    if (f.name == name && sameDomain(f.domain, d)) return &f;
  return nullptr;
}

}  // namespace passlab::ir
