// Parses the text format into a ModelProto, then loads it with the ordinary
// reader, so text and binary models pass the same checks.
#include <cctype>
#include <charconv>
#include <cmath>
#include <cstring>
#include <limits>
#include <vector>

#include "core/io/text_format.h"
#include "core/ir/dtype.h"
#include "onnx_wire.pb.h"

namespace passlab::io {

namespace {

enum class Tok { kEnd, kIdent, kInt, kFloat, kString, kPunct, kArrow };

struct Token {
  Tok kind = Tok::kEnd;
  std::string text;
  int line = 1, col = 1;
};

class Lexer {
 public:
  explicit Lexer(std::string_view s) : s_(s) {}

  Expected<std::vector<Token>> run() {
    std::vector<Token> out;
    while (true) {
      skipSpace();
      Token t;
      t.line = line_;
      t.col = col_;
      if (pos_ >= s_.size()) {
        out.push_back(t);
        return out;
      }
      char c = s_[pos_];
      if (std::isalpha(static_cast<unsigned char>(c)) || c == '_') {
        size_t start = pos_;
        while (pos_ < s_.size() && (std::isalnum(static_cast<unsigned char>(s_[pos_])) ||
                                    s_[pos_] == '_' || s_[pos_] == '.'))
          advance();
        t.kind = Tok::kIdent;
        t.text = std::string(s_.substr(start, pos_ - start));
      } else if (std::isdigit(static_cast<unsigned char>(c)) ||
                 ((c == '-' || c == '+' || c == '.') && pos_ + 1 < s_.size() &&
                  (std::isdigit(static_cast<unsigned char>(s_[pos_ + 1])) || s_[pos_ + 1] == '.' ||
                   s_.substr(pos_ + 1, 3) == "inf"))) {
        size_t start = pos_;
        bool isFloat = false;
        if (c == '-' || c == '+') advance();
        if (s_.substr(pos_, 3) == "inf") {
          advance(3);
          isFloat = true;
        } else {
          while (pos_ < s_.size()) {
            char d = s_[pos_];
            if (std::isdigit(static_cast<unsigned char>(d))) {
              advance();
            } else if (d == '.' || d == 'e' || d == 'E') {
              isFloat = true;
              advance();
              if ((d == 'e' || d == 'E') && pos_ < s_.size() &&
                  (s_[pos_] == '-' || s_[pos_] == '+'))
                advance();
            } else {
              break;
            }
          }
        }
        t.kind = isFloat ? Tok::kFloat : Tok::kInt;
        t.text = std::string(s_.substr(start, pos_ - start));
      } else if (c == '"') {
        advance();
        std::string v;
        while (pos_ < s_.size() && s_[pos_] != '"') {
          if (s_[pos_] == '\\' && pos_ + 1 < s_.size()) {
            advance();
            char e = s_[pos_];
            v.push_back(e == 'n' ? '\n' : e == 't' ? '\t' : e);
          } else {
            v.push_back(s_[pos_]);
          }
          advance();
        }
        if (pos_ >= s_.size()) return parseError(where(t) + "unterminated string");
        advance();
        t.kind = Tok::kString;
        t.text = std::move(v);
      } else if (c == '=' && pos_ + 1 < s_.size() && s_[pos_ + 1] == '>') {
        advance(2);
        t.kind = Tok::kArrow;
        t.text = "=>";
      } else if (std::strchr("()[]{}<>,=:@?", c)) {
        advance();
        t.kind = Tok::kPunct;
        t.text = std::string(1, c);
      } else {
        return parseError(where(t) + "unexpected character '" + std::string(1, c) + "'");
      }
      out.push_back(std::move(t));
    }
  }

  static std::string where(const Token& t) {
    return "line " + std::to_string(t.line) + ", column " + std::to_string(t.col) + ": ";
  }

 private:
  void advance(size_t n = 1) {
    for (size_t i = 0; i < n && pos_ < s_.size(); ++i) {
      if (s_[pos_] == '\n') {
        ++line_;
        col_ = 1;
      } else {
        ++col_;
      }
      ++pos_;
    }
  }
  void skipSpace() {
    while (pos_ < s_.size()) {
      char c = s_[pos_];
      if (std::isspace(static_cast<unsigned char>(c))) {
        advance();
      } else if (c == '#' || (c == '/' && pos_ + 1 < s_.size() && s_[pos_ + 1] == '/')) {
        while (pos_ < s_.size() && s_[pos_] != '\n') advance();
      } else {
        break;
      }
    }
  }
  std::string_view s_;
  size_t pos_ = 0;
  int line_ = 1, col_ = 1;
};

class Parser {
 public:
  Parser(std::vector<Token> toks, int64_t defaultOpset)
      : t_(std::move(toks)), defaultOpset_(defaultOpset) {}

  Status parseModel(wire::ModelProto& m) {
    m.set_ir_version(8);
    bool sawOpset = false;
    if (isPunct("<")) {
      next();
      while (!isPunct(">")) {
        auto key = ident();
        if (!key) return key.error();
        PASSLAB_RETURN_IF_ERROR(expect(":"));
        if (*key == "ir_version") {
          auto v = integer();
          if (!v) return v.error();
          m.set_ir_version(*v);
        } else if (*key == "opset_import") {
          sawOpset = true;
          PASSLAB_RETURN_IF_ERROR(expect("["));
          while (!isPunct("]")) {
            if (peek().kind != Tok::kString) return err("expected a quoted domain");
            std::string d = next().text;
            PASSLAB_RETURN_IF_ERROR(expect(":"));
            auto v = integer();
            if (!v) return v.error();
            auto* op = m.add_opset_import();
            op->set_domain(d);
            op->set_version(*v);
            if (isPunct(",")) next();
          }
          next();
        } else if (*key == "producer_name" || *key == "producer_version" || *key == "domain" ||
                   *key == "doc_string") {
          if (peek().kind != Tok::kString) return err("expected a string for " + *key);
          std::string v = next().text;
          if (*key == "producer_name") m.set_producer_name(v);
          if (*key == "producer_version") m.set_producer_version(v);
          if (*key == "domain") m.set_domain(v);
          if (*key == "doc_string") m.set_doc_string(v);
        } else if (*key == "model_version") {
          auto v = integer();
          if (!v) return v.error();
          m.set_model_version(*v);
        } else {
          return err("unknown model header key '" + *key + "'");
        }
        if (isPunct(",")) next();
      }
      next();
    }
    if (!sawOpset) {
      auto* op = m.add_opset_import();
      op->set_domain("");
      op->set_version(defaultOpset_);
    }
    PASSLAB_RETURN_IF_ERROR(parseGraph(*m.mutable_graph()));
    if (peek().kind != Tok::kEnd) return err("unexpected text after the graph");
    return Status::ok();
  }

 private:
  const Token& peek(size_t k = 0) const { return t_[std::min(i_ + k, t_.size() - 1)]; }
  const Token& next() { return t_[std::min(i_++, t_.size() - 1)]; }
  bool isPunct(const char* p, size_t k = 0) const {
    return peek(k).kind == Tok::kPunct && peek(k).text == p;
  }
  Error err(const std::string& m) const { return parseError(Lexer::where(peek()) + m); }
  Status expect(const char* p) {
    if (!isPunct(p)) return err(std::string("expected '") + p + "', found '" + peek().text + "'");
    next();
    return Status::ok();
  }
  Expected<std::string> ident() {
    if (peek().kind != Tok::kIdent) return err("expected a name, found '" + peek().text + "'");
    return next().text;
  }
  // A value or graph name: an identifier or, for names with other characters, a quoted string.
  Expected<std::string> name() {
    if (peek().kind == Tok::kString) return next().text;
    return ident();
  }
  Expected<int64_t> integer() {
    if (peek().kind != Tok::kInt) return err("expected an integer, found '" + peek().text + "'");
    return toInt(next());
  }
  // Numbers from tokens: text that is no number of the kind, or one out of
  // range, is an error naming it and its place.
  template <typename T>
  static Expected<T> toNumber(const Token& tok, const char* what) {
    std::string_view s = tok.text;
    if (!s.empty() && s[0] == '+') s.remove_prefix(1);
    T v{};
    auto [end, ec] = std::from_chars(s.data(), s.data() + s.size(), v);
    if (s.empty() || ec != std::errc() || end != s.data() + s.size())
      return parseError(Lexer::where(tok) + "'" + tok.text + "' is not " + what);
    return v;
  }
  static Expected<int64_t> toInt(const Token& tok) {
    return toNumber<int64_t>(tok, "a 64-bit integer");
  }
  static Expected<uint64_t> toUInt(const Token& tok) {
    return toNumber<uint64_t>(tok, "an unsigned 64-bit integer");
  }
  static Expected<double> toDouble(const Token& tok) {
    const std::string& s = tok.text;
    if (s == "inf" || s == "+inf") return std::numeric_limits<double>::infinity();
    if (s == "-inf") return -std::numeric_limits<double>::infinity();
    if (s == "nan") return std::numeric_limits<double>::quiet_NaN();
    return toNumber<double>(tok, "a number");
  }

  // type := elem [ '[' dims ']' ] | seq(type) | optional(type) | map(elem, type) |
  // sparse_tensor(type)
  // Types and graphs nest; past this depth the text is refused before the
  // recursion (here and in every later stage) can exhaust the stack.
  static constexpr int kMaxNesting = 64;
  Status enter() {
    if (++depth_ > kMaxNesting)
      return err("types or graphs nested more than " + std::to_string(kMaxNesting) + " deep");
    return Status::ok();
  }
  struct Leave {
    int& depth;
    ~Leave() { --depth; }
  };

  Status parseType(wire::TypeProto& tp) {
    Leave leave{depth_};
    PASSLAB_RETURN_IF_ERROR(enter());
    return parseTypeBody(tp);
  }
  Status parseTypeBody(wire::TypeProto& tp) {
    auto id = ident();
    if (!id) return id.error();
    if (*id == "seq" || *id == "optional" || *id == "sparse_tensor" || *id == "tensor") {
      PASSLAB_RETURN_IF_ERROR(expect("("));
      if (*id == "seq")
        PASSLAB_RETURN_IF_ERROR(parseType(*tp.mutable_sequence_type()->mutable_elem_type()));
      if (*id == "optional")
        PASSLAB_RETURN_IF_ERROR(parseType(*tp.mutable_optional_type()->mutable_elem_type()));
      if (*id == "tensor") PASSLAB_RETURN_IF_ERROR(parseType(tp));
      if (*id == "sparse_tensor") {
        wire::TypeProto inner;
        PASSLAB_RETURN_IF_ERROR(parseType(inner));
        auto* st = tp.mutable_sparse_tensor_type();
        st->set_elem_type(inner.tensor_type().elem_type());
        if (inner.tensor_type().has_shape()) *st->mutable_shape() = inner.tensor_type().shape();
      }
      return expect(")");
    }
    if (*id == "map") {
      PASSLAB_RETURN_IF_ERROR(expect("("));
      auto key = ident();
      if (!key) return key.error();
      auto kt = ir::dtypeFromName(*key);
      if (!kt) return err("unknown map key type '" + *key + "'");
      tp.mutable_map_type()->set_key_type(static_cast<int32_t>(*kt));
      PASSLAB_RETURN_IF_ERROR(expect(","));
      PASSLAB_RETURN_IF_ERROR(parseType(*tp.mutable_map_type()->mutable_value_type()));
      return expect(")");
    }
    auto dt = ir::dtypeFromName(*id);
    if (!dt) return err("unknown type '" + *id + "'");
    auto* tt = tp.mutable_tensor_type();
    tt->set_elem_type(static_cast<int32_t>(*dt));
    if (isPunct("[")) {
      next();
      auto* shape = tt->mutable_shape();
      while (!isPunct("]")) {
        auto* d = shape->add_dim();
        if (peek().kind == Tok::kInt) {
          auto v = toInt(next());
          if (!v) return v.error();
          d->set_dim_value(*v);
        } else if (peek().kind == Tok::kIdent) {
          d->set_dim_param(next().text);
        } else if (peek().kind == Tok::kString) {
          d->set_dim_param(next().text);
        } else if (peek().kind == Tok::kPunct && peek().text == "?") {
          next();
        } else {
          return err("expected a dimension");
        }
        if (isPunct(",")) next();
      }
      next();
    }
    return Status::ok();
  }

  // Literal data "{1, 2, 3}" for a tensor whose type and dims are already set.
  Status parseTensorData(wire::TensorProto& t) {
    PASSLAB_RETURN_IF_ERROR(expect("{"));
    auto dt = static_cast<ir::DataType>(t.data_type());
    while (!isPunct("}")) {
      if (peek().kind == Tok::kEnd || peek().kind == Tok::kPunct)
        return err("expected a value or '}' in the tensor data, found '" + peek().text + "'");
      const Token& tok = next();
      switch (dt) {
        case ir::DataType::kFloat: {
          auto v = toDouble(tok);
          if (!v) return v.error();
          t.add_float_data(static_cast<float>(*v));
          break;
        }
        case ir::DataType::kDouble: {
          auto v = toDouble(tok);
          if (!v) return v.error();
          t.add_double_data(*v);
          break;
        }
        case ir::DataType::kInt64: {
          auto v = toInt(tok);
          if (!v) return v.error();
          t.add_int64_data(*v);
          break;
        }
        case ir::DataType::kUInt32:
        case ir::DataType::kUInt64: {
          auto v = toUInt(tok);
          if (!v) return v.error();
          t.add_uint64_data(*v);
          break;
        }
        case ir::DataType::kString:
          t.add_string_data(tok.text);
          break;
        case ir::DataType::kFloat16:
        case ir::DataType::kBFloat16:
          return err("write float16/bfloat16 constants as float and Cast them");
        default:
          if (tok.text == "true" || tok.text == "false") {
            t.add_int32_data(tok.text == "true");
          } else {
            auto v = toInt(tok);
            if (!v) return v.error();
            t.add_int32_data(static_cast<int32_t>(*v));
          }
      }
      if (isPunct(",")) next();
    }
    next();
    return Status::ok();
  }

  // tensor literal with type: float[2] {1, 2}
  Status parseTypedTensor(wire::TensorProto& t) {
    wire::TypeProto tp;
    PASSLAB_RETURN_IF_ERROR(parseType(tp));
    if (!tp.has_tensor_type()) return err("a tensor literal needs a tensor type");
    t.set_data_type(tp.tensor_type().elem_type());
    for (const auto& d : tp.tensor_type().shape().dim()) {
      if (!d.has_dim_value()) return err("a tensor literal needs static dims");
      t.add_dims(d.dim_value());
    }
    if (peek().kind == Tok::kIdent || peek().kind == Tok::kString) t.set_name(next().text);
    return parseTensorData(t);
  }

  Status parseValueDecl(wire::GraphProto& g, bool asInput) {
    wire::TypeProto tp;
    PASSLAB_RETURN_IF_ERROR(parseType(tp));
    auto name = this->name();
    if (!name) return name.error();
    bool hasData = isPunct("=");
    if (hasData) {
      next();
      auto* t = g.add_initializer();
      t->set_name(*name);
      t->set_data_type(tp.tensor_type().elem_type());
      for (const auto& d : tp.tensor_type().shape().dim()) {
        if (!d.has_dim_value()) return err("initializer '" + *name + "' needs static dims");
        t->add_dims(d.dim_value());
      }
      PASSLAB_RETURN_IF_ERROR(parseTensorData(*t));
    }
    if (asInput || !hasData) {
      auto* vi = asInput ? g.add_input() : g.add_value_info();
      vi->set_name(*name);
      *vi->mutable_type() = tp;
    }
    return Status::ok();
  }

  Status parseGraph(wire::GraphProto& g) {
    Leave leave{depth_};
    PASSLAB_RETURN_IF_ERROR(enter());
    return parseGraphBody(g);
  }
  Status parseGraphBody(wire::GraphProto& g) {
    auto name = this->name();
    if (!name) return name.error();
    g.set_name(*name);
    PASSLAB_RETURN_IF_ERROR(expect("("));
    while (!isPunct(")")) {
      PASSLAB_RETURN_IF_ERROR(parseValueDecl(g, true));
      if (isPunct(",")) next();
    }
    next();
    if (peek().kind != Tok::kArrow) return err("expected '=>' after the graph inputs");
    next();
    PASSLAB_RETURN_IF_ERROR(expect("("));
    while (!isPunct(")")) {
      wire::TypeProto tp;
      PASSLAB_RETURN_IF_ERROR(parseType(tp));
      auto out = this->name();
      if (!out) return out.error();
      auto* vi = g.add_output();
      vi->set_name(*out);
      *vi->mutable_type() = tp;
      if (isPunct(",")) next();
    }
    next();
    if (isPunct("<")) {
      next();
      while (!isPunct(">")) {
        PASSLAB_RETURN_IF_ERROR(parseValueDecl(g, false));
        if (isPunct(",")) next();
      }
      next();
    }
    PASSLAB_RETURN_IF_ERROR(expect("{"));
    while (!isPunct("}")) PASSLAB_RETURN_IF_ERROR(parseNode(*g.add_node()));
    next();
    return Status::ok();
  }

  Status parseNameList(google::protobuf::RepeatedPtrField<std::string>& names, const char* close) {
    // Names separated by commas; an empty slot or "" is an omitted optional
    // value. Every comma separates two slots, so a trailing one leaves the
    // last slot empty ("Op(a,)" is "Op(a, \"\")").
    bool expectName = true;
    while (!isPunct(close)) {
      if (isPunct(",")) {
        if (expectName) names.Add("");
        next();
        expectName = true;
        continue;
      }
      if (peek().kind == Tok::kIdent || peek().kind == Tok::kString) {
        // Two names in a row: a comma is missing ("Add(a b)" is not two inputs).
        if (!expectName)
          return err("expected ',' or '" + std::string(close) + "' after '" +
                     names.Get(names.size() - 1) + "', found '" + peek().text + "'");
        names.Add(std::string(next().text));
        expectName = false;
        continue;
      }
      return err("expected a value name, found '" + peek().text + "'");
    }
    if (expectName && !names.empty()) names.Add("");  // after a trailing comma
    return Status::ok();
  }

  Status parseNode(wire::NodeProto& n) {
    if (isPunct("[")) {
      next();
      if (peek().kind != Tok::kIdent && peek().kind != Tok::kString)
        return err("expected a node name");
      n.set_name(next().text);
      PASSLAB_RETURN_IF_ERROR(expect("]"));
    }
    // Outputs up to '='. An omitted output keeps its position, written ""
    // or left empty between commas ("a, , c = Split(x)"), as inputs are.
    bool expectName = true;
    while (!isPunct("=")) {
      if (peek().kind == Tok::kIdent || peek().kind == Tok::kString) {
        if (!expectName)  // "a b = Split(x)": a comma is missing
          return err("expected ',' or '=' after output '" + n.output(n.output_size() - 1) +
                     "', found '" + peek().text + "'");
        n.add_output(next().text);
        expectName = false;
      } else if (isPunct(",")) {
        if (expectName) n.add_output("");
        next();
        expectName = true;
      } else {
        return err("expected output names before '='");
      }
    }
    if (expectName && n.output_size() > 0) n.add_output("");  // "a, = Split(x)": as inputs
    next();
    auto op = ident();
    if (!op) return op.error();
    size_t dot = op->rfind('.');
    if (dot != std::string::npos) {
      n.set_domain(op->substr(0, dot));
      n.set_op_type(op->substr(dot + 1));
    } else {
      n.set_op_type(*op);
    }
    if (isPunct("<")) {
      next();
      while (!isPunct(">")) {
        PASSLAB_RETURN_IF_ERROR(parseAttribute(*n.add_attribute()));
        if (isPunct(",")) next();
      }
      next();
    }
    PASSLAB_RETURN_IF_ERROR(expect("("));
    PASSLAB_RETURN_IF_ERROR(parseNameList(*n.mutable_input(), ")"));
    next();
    return Status::ok();
  }

  Status parseAttribute(wire::AttributeProto& a) {
    auto name = ident();
    if (!name) return name.error();
    a.set_name(*name);
    std::string declared;
    if (isPunct(":")) {
      next();
      auto t = ident();
      if (!t) return t.error();
      declared = *t;
    }
    PASSLAB_RETURN_IF_ERROR(expect("="));
    using AT = wire::AttributeProto;
    if (isPunct("@")) {
      next();
      auto ref = ident();
      if (!ref) return ref.error();
      a.set_ref_attr_name(*ref);
      static const std::pair<const char*, AT::AttributeType> kTypes[] = {
          {"int", AT::INT},       {"float", AT::FLOAT},   {"string", AT::STRING},
          {"ints", AT::INTS},     {"floats", AT::FLOATS}, {"strings", AT::STRINGS},
          {"tensor", AT::TENSOR}, {"graph", AT::GRAPH}};
      for (auto& [n, t] : kTypes)
        if (declared == n) a.set_type(t);
      return Status::ok();
    }
    const Token& tok = peek();
    if (tok.kind == Tok::kInt && declared != "float") {
      a.set_type(AT::INT);
      auto v = toInt(next());
      if (!v) return v.error();
      a.set_i(*v);
    } else if (tok.kind == Tok::kInt || tok.kind == Tok::kFloat) {
      a.set_type(AT::FLOAT);
      auto v = toDouble(next());
      if (!v) return v.error();
      a.set_f(static_cast<float>(*v));
    } else if (tok.kind == Tok::kString) {
      a.set_type(AT::STRING);
      a.set_s(next().text);
    } else if (isPunct("[")) {
      next();
      std::vector<Token> items;
      while (!isPunct("]")) {
        if (peek().kind == Tok::kEnd || peek().kind == Tok::kPunct)
          return err("expected a value or ']' in the list, found '" + peek().text + "'");
        items.push_back(next());
        if (isPunct(",")) next();
      }
      next();
      bool anyFloat = declared == "floats", anyString = declared == "strings";
      for (const auto& it : items) {
        anyFloat |= it.kind == Tok::kFloat;
        anyString |= it.kind == Tok::kString;
      }
      if (anyString) {
        a.set_type(AT::STRINGS);
        for (const auto& it : items) a.add_strings(it.text);
      } else if (anyFloat) {
        a.set_type(AT::FLOATS);
        for (const auto& it : items) {
          auto v = toDouble(it);
          if (!v) return v.error();
          a.add_floats(static_cast<float>(*v));
        }
      } else {
        a.set_type(AT::INTS);
        for (const auto& it : items) {
          auto v = toInt(it);
          if (!v) return v.error();
          a.add_ints(*v);
        }
      }
    } else if (tok.kind == Tok::kIdent && (tok.text == "inf" || tok.text == "nan")) {
      a.set_type(AT::FLOAT);
      auto v = toDouble(next());
      if (!v) return v.error();
      a.set_f(static_cast<float>(*v));
    } else if (tok.kind == Tok::kIdent && ir::dtypeFromName(tok.text) &&
               (isPunct("[", 1) || isPunct("{", 1) || peek(1).kind == Tok::kIdent)) {
      a.set_type(AT::TENSOR);
      PASSLAB_RETURN_IF_ERROR(parseTypedTensor(*a.mutable_t()));
    } else if ((tok.kind == Tok::kIdent || tok.kind == Tok::kString) && isPunct("(", 1)) {
      a.set_type(AT::GRAPH);
      PASSLAB_RETURN_IF_ERROR(parseGraph(*a.mutable_g()));
    } else {
      return err("cannot read the value of attribute '" + *name + "'");
    }
    return Status::ok();
  }

  std::vector<Token> t_;
  size_t i_ = 0;
  int64_t defaultOpset_;
  int depth_ = 0;  // types and graphs being parsed, one inside the other
};

}  // namespace

Expected<ir::Model> parseModelText(std::string_view text, int64_t defaultOpset) {
  auto toks = Lexer(text).run();
  if (!toks) return toks.error();
  wire::ModelProto proto;
  Parser parser(std::move(toks.value()), defaultOpset);
  PASSLAB_RETURN_IF_ERROR(parser.parseModel(proto));
  std::string bytes = proto.SerializeAsString();
  auto loaded = loadModelFromBytes(bytes, "", "text model");
  if (!loaded) return loaded.error();
  return std::move(loaded->model);
}

}  // namespace passlab::io
