// Prints models in the text format (see text_format.h).
#include <cmath>
#include <cstdio>
#include <sstream>

#include "core/io/text_format.h"

namespace passlab::io {

namespace {

bool isPlainIdentifier(const std::string& s) {
  if (s.empty() || !(std::isalpha(static_cast<unsigned char>(s[0])) || s[0] == '_')) return false;
  for (char c : s)
    if (!(std::isalnum(static_cast<unsigned char>(c)) || c == '_' || c == '.')) return false;
  return true;
}

std::string quoted(const std::string& s) {
  std::string out = "\"";
  for (char c : s) {
    if (c == '"' || c == '\\') out.push_back('\\');
    if (c == '\n') {
      out += "\\n";
      continue;
    }
    out.push_back(c);
  }
  return out + "\"";
}

std::string nameText(const std::string& s) {
  return isPlainIdentifier(s) ? s : quoted(s);
}

std::string floatText(double v) {
  if (std::isnan(v)) return "nan";
  if (std::isinf(v)) return v > 0 ? "inf" : "-inf";
  char buf[40];
  std::snprintf(buf, sizeof buf, "%.9g", v);
  std::string s = buf;
  if (s.find_first_of(".en") == std::string::npos) s += ".0";
  return s;
}

std::string typeText(const ir::Type& t) {
  switch (t.kind()) {
    case ir::Type::Kind::kTensor: {
      std::string s(ir::dtypeName(t.elemType()));
      if (t.hasShape()) {
        s += "[";
        const auto& dims = t.shape()->dims();
        for (size_t i = 0; i < dims.size(); ++i) {
          if (i) s += ",";
          s += dims[i].isStatic()     ? std::to_string(dims[i].value())
               : dims[i].isSymbolic() ? nameText(dims[i].param())
                                      : "?";
        }
        s += "]";
      }
      return s;
    }
    case ir::Type::Kind::kSparseTensor: {
      ir::Type dense = ir::Type::tensor(t.elemType(), t.shape());
      return "sparse_tensor(" + typeText(dense) + ")";
    }
    case ir::Type::Kind::kSequence:
      return "seq(" + typeText(*t.inner()) + ")";
    case ir::Type::Kind::kOptional:
      return "optional(" + typeText(*t.inner()) + ")";
    case ir::Type::Kind::kMap:
      return "map(" + std::string(ir::dtypeName(t.elemType())) + ", " + typeText(*t.inner()) + ")";
    default:
      return "undefined";
  }
}

class Printer {
 public:
  explicit Printer(const PrintOptions& o) : o_(o) {}

  void model(const ir::Model& m) {
    if (o_.printHeader) {
      os_ << "<\n  ir_version: " << m.irVersion << ",\n  opset_import: [";
      for (size_t i = 0; i < m.opsets.size(); ++i)
        os_ << (i ? ", " : "") << quoted(m.opsets[i].domain) << " : " << m.opsets[i].version;
      os_ << "]";
      if (!m.producerName.empty()) os_ << ",\n  producer_name: " << quoted(m.producerName);
      if (!m.producerVersion.empty()) os_ << ",\n  producer_version: " << quoted(m.producerVersion);
      os_ << "\n>\n";
    }
    graph(m.graph(), 0);
  }

  void graph(const ir::Graph& g, int indent) {
    std::string pad(static_cast<size_t>(indent), ' ');
    os_ << nameText(g.name().empty() ? "graph" : g.name()) << " (";
    bool first = true;
    for (const ir::Value* v : g.inputs()) {
      os_ << (first ? "" : ", ") << typeText(v->type()) << " " << nameText(v->name());
      if (v->isInitializer()) os_ << " = " << tensorData(*v->initializer());
      first = false;
    }
    os_ << ") => (";
    first = true;
    for (const ir::Value* v : g.outputs()) {
      os_ << (first ? "" : ", ") << typeText(v->type()) << " " << nameText(v->name());
      first = false;
    }
    os_ << ")";
    std::vector<const ir::Value*> inits;
    for (const ir::Value* v : g.initializers())
      if (!v->isGraphInput()) inits.push_back(v);
    if (!inits.empty()) {
      os_ << "\n" << pad << "<";
      for (size_t i = 0; i < inits.size(); ++i) {
        const ir::Tensor& t = *inits[i]->initializer();
        os_ << (i ? ",\n" + pad + " " : "") << typeText(ir::Type::tensor(t.dtype(), t.shape()))
            << " " << nameText(inits[i]->name()) << " = " << tensorData(t);
      }
      os_ << ">";
    }
    os_ << "\n" << pad << "{\n";
    for (const auto& n : g.nodes()) node(*n, indent + 2);
    os_ << pad << "}";
    if (indent == 0) os_ << "\n";
  }

  std::string str() const { return os_.str(); }

 private:
  std::string tensorData(const ir::Tensor& t) {
    int64_t n = t.numel();
    if (o_.maxTensorElements && static_cast<size_t>(n) > o_.maxTensorElements) return "{...}";
    std::string s = "{";
    for (int64_t i = 0; i < n; ++i) {
      if (i) s += ", ";
      if (t.dtype() == ir::DataType::kString)
        s += quoted(t.strings()[static_cast<size_t>(i)]);
      else if (ir::isFloatingPoint(t.dtype()))
        s += floatText(t.valueAsDouble(i));
      else
        s += std::to_string(t.valueAsInt64(i));
    }
    return s + "}";
  }

  void node(const ir::Node& n, int indent) {
    std::string pad(static_cast<size_t>(indent), ' ');
    os_ << pad;
    if (!n.name().empty()) os_ << "[" << nameText(n.name()) << "] ";
    for (size_t i = 0; i < n.outputs().size(); ++i)
      os_ << (i ? ", " : "") << (n.outputs()[i] ? nameText(n.outputs()[i]->name()) : "\"\"");
    os_ << " = " << (n.domain().empty() ? "" : n.domain() + ".") << n.opType();
    if (!n.attributes().empty()) {
      os_ << " <";
      for (size_t i = 0; i < n.attributes().size(); ++i) {
        if (i) os_ << ", ";
        attribute(n.attributes()[i], indent);
      }
      os_ << ">";
    }
    os_ << " (";
    for (size_t i = 0; i < n.inputs().size(); ++i)
      os_ << (i ? ", " : "") << (n.inputs()[i] ? nameText(n.inputs()[i]->name()) : "\"\"");
    os_ << ")\n";
  }

  void attribute(const ir::Attribute& a, int indent) {
    os_ << nameText(a.name());
    using AT = ir::AttrType;
    if (!a.refAttrName().empty()) {
      std::string t(ir::attrTypeName(a.type()));
      for (char& c : t) c = static_cast<char>(std::tolower(static_cast<unsigned char>(c)));
      os_ << ": " << t << " = @" << a.refAttrName();
      return;
    }
    auto list = [&](auto& v, auto f) {
      os_ << "[";
      for (size_t i = 0; i < v.size(); ++i) os_ << (i ? ", " : "") << f(v[i]);
      os_ << "]";
    };
    switch (a.type()) {
      case AT::kFloat:
        os_ << " = " << floatText(a.f);
        break;
      case AT::kInt:
        os_ << " = " << a.i;
        break;
      case AT::kString:
        os_ << " = " << quoted(a.s);
        break;
      case AT::kInts:
        os_ << (a.ints.empty() ? ": ints" : "") << " = ";
        list(a.ints, [](int64_t v) { return std::to_string(v); });
        break;
      case AT::kFloats:
        os_ << ": floats = ";
        list(a.floats, [](float v) { return floatText(v); });
        break;
      case AT::kStrings:
        os_ << (a.strings.empty() ? ": strings" : "") << " = ";
        list(a.strings, quoted);
        break;
      case AT::kTensor:
        os_ << " = " << typeText(ir::Type::tensor(a.t.dtype(), a.t.shape())) << " "
            << tensorData(a.t);
        break;
      case AT::kGraph:
        os_ << " = ";
        if (a.g) graph(*a.g, indent + 2);
        break;
      default:
        os_ << " = <" << ir::attrTypeName(a.type()) << ">";
        break;
    }
  }

  const PrintOptions& o_;
  std::ostringstream os_;
};

}  // namespace

std::string printModelText(const ir::Model& model, const PrintOptions& options) {
  Printer p(options);
  p.model(model);
  return p.str();
}

std::string printGraphText(const ir::Graph& graph, const PrintOptions& options) {
  Printer p(options);
  p.graph(graph, 0);
  return p.str();
}

}  // namespace passlab::io
