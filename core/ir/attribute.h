// Node attributes: every ONNX attribute kind, including subgraphs.
#pragma once

#include <cstdint>
#include <memory>
#include <string>
#include <vector>

#include "core/ir/tensor.h"
#include "core/ir/type.h"

namespace passlab::ir {

class Graph;

// Numbered as ONNX AttributeProto.AttributeType.
enum class AttrType : int32_t {
  kUndefined = 0,
  kFloat = 1,
  kInt = 2,
  kString = 3,
  kTensor = 4,
  kGraph = 5,
  kFloats = 6,
  kInts = 7,
  kStrings = 8,
  kTensors = 9,
  kGraphs = 10,
  kSparseTensor = 11,
  kSparseTensors = 12,
  kTypeProto = 13,
  kTypeProtos = 14,
};
std::string_view attrTypeName(AttrType t);  // "INT", "FLOATS", ...

class Attribute {
 public:
  Attribute();
  Attribute(std::string name, AttrType type);
  ~Attribute();
  Attribute(Attribute&&) noexcept;
  Attribute& operator=(Attribute&&) noexcept;
  Attribute(const Attribute&) = delete;  // graphs are owned: use Graph cloning
  Attribute& operator=(const Attribute&) = delete;

  static Attribute makeFloat(std::string name, float v);
  static Attribute makeInt(std::string name, int64_t v);
  static Attribute makeString(std::string name, std::string v);
  static Attribute makeFloats(std::string name, std::vector<float> v);
  static Attribute makeInts(std::string name, std::vector<int64_t> v);
  static Attribute makeStrings(std::string name, std::vector<std::string> v);
  static Attribute makeTensor(std::string name, Tensor v);
  static Attribute makeGraph(std::string name, std::unique_ptr<Graph> g);

  const std::string& name() const { return name_; }
  void setName(std::string n) { name_ = std::move(n); }
  AttrType type() const { return type_; }
  void setType(AttrType t) { type_ = t; }
  // In a function body: the name of the caller's attribute this one refers to.
  const std::string& refAttrName() const { return refAttrName_; }
  void setRefAttrName(std::string n) { refAttrName_ = std::move(n); }
  const std::string& docString() const { return docString_; }
  void setDocString(std::string s) { docString_ = std::move(s); }

 private:  // first in the record: read by every attribute lookup
  std::string name_;
  AttrType type_ = AttrType::kUndefined;

 public:
  // In the order of how often walks read them: the subgraph links
  // (Node::subgraphs runs for every node of every walk) share the first
  // cache line of this 1.3 kB record with the name and type.
  std::unique_ptr<Graph> g;
  std::vector<std::unique_ptr<Graph>> graphs;
  float f = 0.0f;
  int64_t i = 0;
  std::vector<int64_t> ints;
  std::vector<float> floats;
  std::string s;
  Tensor t;
  SparseTensor sparse;
  Type tp;
  std::vector<std::string> strings;
  std::vector<Tensor> tensors;
  std::vector<SparseTensor> sparseTensors;
  std::vector<Type> typeProtos;

  // The value in text-format syntax (graphs are summarised): "[1,1]", "\"same\"".
  std::string valueToString() const;

 private:
  std::string refAttrName_;
  std::string docString_;
};

}  // namespace passlab::ir
