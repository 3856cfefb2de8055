// PassLab's own operator registry: for every operator version of the ONNX
// standard domains (opsets up to 28) and ONNX Runtime's com.microsoft contrib
// domain, its formal inputs and outputs, type constraints, attributes with
// defaults and a one-line summary. The data is op_schemas.txt (generated) and
// op_schemas_extra.txt (hand-written: removed experimental ONNX ops, QONNX),
// compiled in.
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <string_view>
#include <unordered_map>
#include <vector>

#include <absl/container/flat_hash_map.h>

#include "core/ir/attribute.h"

namespace passlab::ir {

enum class ParamOption { kSingle, kOptional, kVariadic };

struct FormalParam {
  std::string name;
  std::string typeStr;  // a type parameter ("T") or a concrete type ("tensor(int64)")
  ParamOption option = ParamOption::kSingle;
  bool homogeneous = true;
  int minArity = 1;
};

struct TypeConstraint {
  std::string param;
  std::vector<std::string> allowed;  // "tensor(float)", "seq(tensor(int64))", ...
  // Bit k set when "tensor(<DataType k>)" is allowed: the verifier checks a
  // tensor's element type with one shift instead of comparing strings.
  uint64_t tensorElemBits = 0;
};

struct AttrSpec {
  std::string name;
  AttrType type = AttrType::kUndefined;
  bool required = false;
  std::optional<std::string> defaultText;  // as written in the table
};

struct OpSchema {
  std::string domain, name;
  int sinceVersion = 1;
  bool deprecated = false;
  bool deterministic = true;
  std::vector<FormalParam> inputs, outputs;
  std::vector<TypeConstraint> typeConstraints;
  std::vector<AttrSpec> attributes;
  std::string summary;

  int minInputs() const;
  int maxInputs() const;  // INT32_MAX when the last input is variadic
  int minOutputs() const;
  int maxOutputs() const;
  const AttrSpec* attr(std::string_view attrName) const;
  const TypeConstraint* constraint(std::string_view param) const;
  // The formal parameter that actual input/output `index` binds to (variadic tails repeat).
  const FormalParam* inputParam(size_t index) const;
  const FormalParam* outputParam(size_t index) const;
};

class Node;

class OpRegistry {
 public:
  static const OpRegistry& instance();

  // The schema in force for (domain, op) in a model importing `opsetVersion` of
  // that domain: the highest since_version <= opsetVersion. nullptr if unknown.
  const OpSchema* find(std::string_view domain, std::string_view op, int64_t opsetVersion) const;
  // The same for a node's op, found by its interned op type and domain (no
  // string built or hashed: the verifier and inference ask for every node).
  const OpSchema* find(const Node& n, int64_t opsetVersion) const;
  // Any version of the op (the newest), or nullptr.
  const OpSchema* latest(std::string_view domain, std::string_view op) const;
  // All versions, oldest first.
  const std::vector<OpSchema>* versions(std::string_view domain, std::string_view op) const;
  bool knowsDomain(std::string_view domain) const;
  // Highest opset version of a domain the table describes (28 for "").
  int64_t maxOpset(std::string_view domain) const;
  size_t schemaCount() const { return count_; }
  std::vector<std::string> opNames(std::string_view domain) const;

  // Normalises "ai.onnx" to "".
  static std::string_view canonicalDomain(std::string_view domain);

 private:
  OpRegistry();
  void parseTable(std::string_view table);  // appends the records of one table
  void index();                             // type bits, version order, interned lookup
  std::unordered_map<std::string, std::vector<OpSchema>> ops_;  // key "domain:op"
  // (interned domain, interned op) -> ops_ entry.
  absl::flat_hash_map<std::pair<const std::string*, const std::string*>,
                      const std::vector<OpSchema>*>
      byInterned_;
  std::unordered_map<std::string, int64_t> maxOpset_;
  size_t count_ = 0;
};

}  // namespace passlab::ir
