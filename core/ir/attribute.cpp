#include "core/ir/attribute.h"

#include <sstream>

#include "core/ir/graph.h"

namespace passlab::ir {

std::string_view attrTypeName(AttrType t) {
  switch (t) {
    case AttrType::kUndefined:
      return "UNDEFINED";
    case AttrType::kFloat:
      return "FLOAT";
    case AttrType::kInt:
      return "INT";
    case AttrType::kString:
      return "STRING";
    case AttrType::kTensor:
      return "TENSOR";
    case AttrType::kGraph:
      return "GRAPH";
    case AttrType::kFloats:
      return "FLOATS";
    case AttrType::kInts:
      return "INTS";
    case AttrType::kStrings:
      return "STRINGS";
    case AttrType::kTensors:
      return "TENSORS";
    case AttrType::kGraphs:
      return "GRAPHS";
    case AttrType::kSparseTensor:
      return "SPARSE_TENSOR";
    case AttrType::kSparseTensors:
      return "SPARSE_TENSORS";
    case AttrType::kTypeProto:
      return "TYPE_PROTO";
    case AttrType::kTypeProtos:
      return "TYPE_PROTOS";
  }
  return "UNKNOWN";
}

Attribute::Attribute() = default;
Attribute::Attribute(std::string name, AttrType type) : name_(std::move(name)), type_(type) {}
Attribute::~Attribute() = default;
Attribute::Attribute(Attribute&&) noexcept = default;
Attribute& Attribute::operator=(Attribute&&) noexcept = default;

Attribute Attribute::makeFloat(std::string name, float v) {
  Attribute a(std::move(name), AttrType::kFloat);
  a.f = v;
  return a;
}
Attribute Attribute::makeInt(std::string name, int64_t v) {
  Attribute a(std::move(name), AttrType::kInt);
  a.i = v;
  return a;
}
Attribute Attribute::makeString(std::string name, std::string v) {
  Attribute a(std::move(name), AttrType::kString);
  a.s = std::move(v);
  return a;
}
Attribute Attribute::makeFloats(std::string name, std::vector<float> v) {
  Attribute a(std::move(name), AttrType::kFloats);
  a.floats = std::move(v);
  return a;
}
Attribute Attribute::makeInts(std::string name, std::vector<int64_t> v) {
  Attribute a(std::move(name), AttrType::kInts);
  a.ints = std::move(v);
  return a;
}
Attribute Attribute::makeStrings(std::string name, std::vector<std::string> v) {
  Attribute a(std::move(name), AttrType::kStrings);
  a.strings = std::move(v);
  return a;
}
Attribute Attribute::makeTensor(std::string name, Tensor v) {
  Attribute a(std::move(name), AttrType::kTensor);
  a.t = std::move(v);
  return a;
}
Attribute Attribute::makeGraph(std::string name, std::unique_ptr<Graph> g) {
  Attribute a(std::move(name), AttrType::kGraph);
  a.g = std::move(g);
  return a;
}

namespace {
std::string quote(const std::string& s) {
  std::string out = "\"";
  for (char c : s) {
    if (c == '"' || c == '\\') out.push_back('\\');
    out.push_back(c);
  }
  return out + "\"";
}
template <class T, class F>
std::string list(const std::vector<T>& v, F f) {
  std::string s = "[";
  for (size_t i = 0; i < v.size(); ++i) s += (i ? ", " : "") + f(v[i]);
  return s + "]";
}
std::string fmtFloat(float f) {
  std::ostringstream os;
  os.precision(9);
  os << f;
  return os.str();
}
}  // namespace

std::string Attribute::valueToString() const {
  switch (type_) {
    case AttrType::kFloat:
      return fmtFloat(f);
    case AttrType::kInt:
      return std::to_string(i);
    case AttrType::kString:
      return quote(s);
    case AttrType::kTensor:
      return t.summary();
    case AttrType::kGraph:
      return "graph '" + (g ? g->name() : std::string()) + "'";
    case AttrType::kFloats:
      return list(floats, fmtFloat);
    case AttrType::kInts:
      return list(ints, [](int64_t v) { return std::to_string(v); });
    case AttrType::kStrings:
      return list(strings, quote);
    case AttrType::kTensors:
      return list(tensors, [](const Tensor& x) { return x.summary(); });
    case AttrType::kGraphs:
      return std::to_string(graphs.size()) + " graphs";
    case AttrType::kSparseTensor:
      return "sparse " + sparse.values.summary();
    case AttrType::kSparseTensors:
      return std::to_string(sparseTensors.size()) + " sparse tensors";
    case AttrType::kTypeProto:
      return tp.toString();
    case AttrType::kTypeProtos:
      return list(typeProtos, [](const Type& x) { return x.toString(); });
    case AttrType::kUndefined:
      break;
  }
  return "?";
}

}  // namespace passlab::ir
