#include "core/analysis/sym_int.h"

#include <algorithm>
#include <cctype>
#include <iterator>

namespace passlab::analysis {

namespace {

bool isIdentStart(char c) {
  return std::isalpha(static_cast<unsigned char>(c)) || c == '_';
}
bool isIdentChar(char c) {
  return std::isalnum(static_cast<unsigned char>(c)) || c == '_';
}

// Recursive-descent reader for the canonical spelling: term (('+'|'-') term)*,
// term := factor ('*' factor)*, factor := integer | identifier. Spaces are ignored.
class PolyReader {
 public:
  explicit PolyReader(const std::string& s) : s_(s) {}

  std::optional<SymInt> read() {
    skip();
    bool negate = false;
    if (peek('-')) {
      negate = true;
      ++p_;
    }
    auto first = term();
    if (!first) return std::nullopt;
    SymInt sum = negate ? -*first : *first;
    for (;;) {
      skip();
      if (p_ == s_.size()) break;
      char op = s_[p_];
      if (op != '+' && op != '-') return std::nullopt;
      ++p_;
      auto t = term();
      if (!t) return std::nullopt;
      sum = op == '+' ? sum + *t : sum - *t;
    }
    if (!sum.isKnown()) return std::nullopt;
    return sum;
  }

 private:
  void skip() {
    while (p_ < s_.size() && s_[p_] == ' ') ++p_;
  }
  bool peek(char c) {
    skip();
    return p_ < s_.size() && s_[p_] == c;
  }
  std::optional<SymInt> factor() {
    skip();
    if (p_ >= s_.size()) return std::nullopt;
    if (std::isdigit(static_cast<unsigned char>(s_[p_]))) {
      int64_t v = 0;
      while (p_ < s_.size() && std::isdigit(static_cast<unsigned char>(s_[p_]))) {
        if (__builtin_mul_overflow(v, 10, &v) || __builtin_add_overflow(v, s_[p_] - '0', &v))
          return std::nullopt;
        ++p_;
      }
      return SymInt(v);
    }
    if (!isIdentStart(s_[p_])) return std::nullopt;
    size_t b = p_;
    while (p_ < s_.size() && isIdentChar(s_[p_])) ++p_;
    // "floor(...)" (written by SymInt::floorDiv) is one symbol, parentheses balanced.
    if (s_.compare(b, p_ - b, "floor") == 0 && p_ < s_.size() && s_[p_] == '(') {
      int depth = 0;
      do {
        if (s_[p_] == '(') ++depth;
        if (s_[p_] == ')') --depth;
        ++p_;
      } while (p_ < s_.size() && depth > 0);
      if (depth != 0) return std::nullopt;
    }
    return SymInt::symbol(s_.substr(b, p_ - b));
  }
  std::optional<SymInt> term() {
    auto f = factor();
    if (!f) return std::nullopt;
    SymInt prod = *f;
    while (peek('*')) {
      ++p_;
      auto g = factor();
      if (!g) return std::nullopt;
      prod = prod * *g;
    }
    return prod;
  }

  const std::string& s_;
  size_t p_ = 0;
};

}  // namespace

SymInt::SymInt(int64_t value) : known_(true), constant_(value) {}

SymInt SymInt::symbol(std::string name) {
  SymInt s;
  s.known_ = true;
  s.terms_ = std::make_shared<const Terms>(Terms{{Monomial{std::move(name)}, 1}});
  return s;
}

SymInt::Terms SymInt::full() const {
  Terms t = terms_ ? *terms_ : Terms();
  if (constant_ != 0) t[{}] = constant_;
  return t;
}

SymInt SymInt::fromFull(Terms t) {
  SymInt s;
  s.known_ = true;
  for (auto it = t.begin(); it != t.end();) it = it->second == 0 ? t.erase(it) : std::next(it);
  if (auto c = t.find({}); c != t.end()) {
    s.constant_ = c->second;
    t.erase(c);
  }
  if (!t.empty()) s.terms_ = std::make_shared<const Terms>(std::move(t));
  return s;
}

std::optional<SymInt> SymInt::parse(const std::string& text) {
  return PolyReader(text).read();
}

SymInt SymInt::fromDim(const ir::Dim& dim) {
  if (dim.isStatic()) return SymInt(dim.value());
  if (!dim.isSymbolic()) return unknown();
  // Plain identifiers are the common case; only spellings with operators are parsed.
  const std::string& p = dim.param();
  // "?" (an exporter's spelling of an unnamed dynamic dim) and "" name nothing:
  // two such dims are not the same symbol.
  if (p.empty() || p == "?") return unknown();
  bool plain = isIdentStart(p[0]) && std::all_of(p.begin(), p.end(), isIdentChar);
  if (!plain) {
    if (auto parsed = parse(p)) return *parsed;
  }
  return symbol(p);
}

bool SymInt::isConstant() const {
  return known_ && !terms_;
}

std::optional<int64_t> SymInt::constant() const {
  if (!isConstant()) return std::nullopt;
  return constant_;
}

bool SymInt::sameAs(const SymInt& o) const {
  if (!known_ || !o.known_ || constant_ != o.constant_) return false;
  if (terms_ == o.terms_) return true;
  return terms_ && o.terms_ && *terms_ == *o.terms_;
}

ir::Dim SymInt::toDim() const {
  if (!known_) return {};
  if (auto c = constant()) return *c >= 0 ? ir::Dim(*c) : ir::Dim();
  return ir::Dim::symbol(toString());
}

std::string SymInt::toString() const {
  if (!known_) return "?";
  if (!terms_) return std::to_string(constant_);
  // Highest degree first, then by name; the constant term last.
  std::vector<std::pair<const Monomial*, int64_t>> order;
  for (const auto& [m, c] : *terms_) order.emplace_back(&m, c);
  std::stable_sort(order.begin(), order.end(), [](const auto& a, const auto& b) {
    if (a.first->size() != b.first->size()) return a.first->size() > b.first->size();
    return *a.first < *b.first;
  });
  if (constant_ != 0) order.emplace_back(nullptr, constant_);
  std::string out;
  bool first = true;
  for (const auto& [mono, c] : order) {
    uint64_t mag = c < 0 ? 0 - static_cast<uint64_t>(c) : static_cast<uint64_t>(c);
    if (first) {
      if (c < 0) out += "-";
    } else {
      out += c < 0 ? " - " : " + ";
    }
    first = false;
    std::string name;
    if (mono)
      for (const auto& s : *mono) name += (name.empty() ? "" : "*") + s;
    if (name.empty())
      out += std::to_string(mag);
    else if (mag == 1)
      out += name;
    else
      out += std::to_string(mag) + "*" + name;
  }
  return out;
}

namespace {

// a + sign*b over full term maps; false on overflow.
bool accumulate(std::map<std::vector<std::string>, int64_t>& a,
                const std::map<std::vector<std::string>, int64_t>& b, int sign) {
  for (const auto& [m, c] : b) {
    int64_t& slot = a[m];
    if (sign > 0 ? __builtin_add_overflow(slot, c, &slot) : __builtin_sub_overflow(slot, c, &slot))
      return false;
  }
  return true;
}

}  // namespace

SymInt operator+(const SymInt& a, const SymInt& b) {
  if (!a.known_ || !b.known_) return SymInt::unknown();
  if (!a.terms_ && !b.terms_) {
    int64_t r;
    if (__builtin_add_overflow(a.constant_, b.constant_, &r)) return SymInt::unknown();
    return SymInt(r);
  }
  SymInt::Terms t = a.full();
  if (!accumulate(t, b.full(), +1)) return SymInt::unknown();
  return SymInt::fromFull(std::move(t));
}

SymInt operator-(const SymInt& a, const SymInt& b) {
  if (!a.known_ || !b.known_) return SymInt::unknown();
  if (!a.terms_ && !b.terms_) {
    int64_t r;
    if (__builtin_sub_overflow(a.constant_, b.constant_, &r)) return SymInt::unknown();
    return SymInt(r);
  }
  SymInt::Terms t = a.full();
  if (!accumulate(t, b.full(), -1)) return SymInt::unknown();
  return SymInt::fromFull(std::move(t));
}

SymInt operator*(const SymInt& a, const SymInt& b) {
  if (!a.known_ || !b.known_) return SymInt::unknown();
  if (!a.terms_ && !b.terms_) {
    int64_t r;
    if (__builtin_mul_overflow(a.constant_, b.constant_, &r)) return SymInt::unknown();
    return SymInt(r);
  }
  SymInt::Terms ta = a.full(), tb = b.full(), out;
  // Keep expressions small: a product of large polynomials is not a useful dim.
  if (ta.size() * tb.size() > 64) return SymInt::unknown();
  for (const auto& [ma, ca] : ta) {
    for (const auto& [mb, cb] : tb) {
      SymInt::Monomial m = ma;
      m.insert(m.end(), mb.begin(), mb.end());
      std::sort(m.begin(), m.end());
      int64_t c;
      if (__builtin_mul_overflow(ca, cb, &c)) return SymInt::unknown();
      int64_t& slot = out[m];
      if (__builtin_add_overflow(slot, c, &slot)) return SymInt::unknown();
    }
  }
  return SymInt::fromFull(std::move(out));
}

SymInt SymInt::exactDiv(const SymInt& d) const {
  if (!known_ || !d.known_) return unknown();
  if (auto dv = d.constant()) {
    if (*dv == 0) return unknown();
    if (!terms_) {
      if ((constant_ == INT64_MIN && *dv == -1) || constant_ % *dv != 0) return unknown();
      return SymInt(constant_ / *dv);
    }
  }
  // Every term must contain the divisor's monomial and its coefficient must divide.
  Terms divisor = d.full();
  if (divisor.size() != 1) return sameAs(d) ? SymInt(1) : unknown();
  const auto& [dm, dc] = *divisor.begin();
  Terms out;
  for (const auto& [m, c] : full()) {
    if ((c == INT64_MIN && dc == -1) || c % dc != 0 ||
        !std::includes(m.begin(), m.end(), dm.begin(), dm.end()))
      return unknown();
    Monomial rest;
    std::set_difference(m.begin(), m.end(), dm.begin(), dm.end(), std::back_inserter(rest));
    out[rest] = c / dc;
  }
  return fromFull(std::move(out));
}

SymInt SymInt::floorDiv(const SymInt& d) const {
  if (!known_ || !d.known_) return unknown();
  auto dv = d.constant();
  if (dv && *dv != 0 && !terms_) {
    if (constant_ == INT64_MIN && *dv == -1) return unknown();
    int64_t q = constant_ / *dv;
    if ((constant_ % *dv != 0) && ((constant_ < 0) != (*dv < 0))) --q;
    return SymInt(q);
  }
  SymInt exact = exactDiv(d);
  if (exact.isKnown() || !dv || *dv <= 0) return exact;
  // Not a polynomial: a symbol that names the computation. Long names are not useful dims.
  std::string inner = toString();
  bool single = !terms_ || (constant_ == 0 && terms_->size() == 1 && terms_->begin()->second == 1);
  std::string name =
      "floor(" + (single ? inner : "(" + inner + ")") + "/" + std::to_string(*dv) + ")";
  if (name.size() > 160) return unknown();
  return symbol(name);
}

SymInt SymInt::ceilDiv(const SymInt& d) const {
  auto dv = d.constant();
  if (!known_ || !dv || *dv <= 0) return exactDiv(d);
  if (auto n = constant()) {
    if (*n == INT64_MIN) return unknown();
    return -(SymInt(-*n).floorDiv(d));
  }
  SymInt exact = exactDiv(d);
  if (exact.isKnown()) return exact;
  return (*this + SymInt(*dv - 1)).floorDiv(d);
}

SymInt dimProduct(const std::vector<ir::Dim>& dims) {
  SymInt p(1);
  for (const auto& d : dims) p = p * SymInt::fromDim(d);
  return p;
}

}  // namespace passlab::analysis
