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

SymInt::SymInt(int64_t value) : known_(true) {
  if (value != 0) terms_[{}] = value;
}

SymInt SymInt::symbol(std::string name) {
  SymInt s;
  s.known_ = true;
  s.terms_[{std::move(name)}] = 1;
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
  bool plain = isIdentStart(p[0]) && std::all_of(p.begin(), p.end(), isIdentChar);
  if (!plain) {
    if (auto parsed = parse(p)) return *parsed;
  }
  return symbol(p);
}

bool SymInt::isConstant() const {
  return known_ && (terms_.empty() || (terms_.size() == 1 && terms_.begin()->first.empty()));
}

std::optional<int64_t> SymInt::constant() const {
  if (!isConstant()) return std::nullopt;
  return terms_.empty() ? 0 : terms_.begin()->second;
}

ir::Dim SymInt::toDim() const {
  if (!known_) return {};
  if (auto c = constant()) return *c >= 0 ? ir::Dim(*c) : ir::Dim();
  return ir::Dim::symbol(toString());
}

std::string SymInt::toString() const {
  if (!known_) return "?";
  if (terms_.empty()) return "0";
  // Highest degree first, then by name; the constant term last.
  std::vector<const std::pair<const Monomial, int64_t>*> order;
  for (const auto& t : terms_) order.push_back(&t);
  std::stable_sort(order.begin(), order.end(), [](const auto* a, const auto* b) {
    if (a->first.size() != b->first.size()) return a->first.size() > b->first.size();
    return a->first < b->first;
  });
  std::string out;
  bool first = true;
  for (const auto* t : order) {
    int64_t c = t->second;
    uint64_t mag = c < 0 ? 0 - static_cast<uint64_t>(c) : static_cast<uint64_t>(c);
    if (first) {
      if (c < 0) out += "-";
    } else {
      out += c < 0 ? " - " : " + ";
    }
    first = false;
    std::string mono;
    for (const auto& s : t->first) mono += (mono.empty() ? "" : "*") + s;
    if (mono.empty())
      out += std::to_string(mag);
    else if (mag == 1)
      out += mono;
    else
      out += std::to_string(mag) + "*" + mono;
  }
  return out;
}

SymInt operator+(const SymInt& a, const SymInt& b) {
  if (!a.known_ || !b.known_) return SymInt::unknown();
  SymInt r = a;
  for (const auto& [m, c] : b.terms_) {
    int64_t& slot = r.terms_[m];
    if (__builtin_add_overflow(slot, c, &slot)) return SymInt::unknown();
    if (slot == 0) r.terms_.erase(m);
  }
  return r;
}

SymInt operator-(const SymInt& a, const SymInt& b) {
  if (!a.known_ || !b.known_) return SymInt::unknown();
  SymInt r = a;
  for (const auto& [m, c] : b.terms_) {
    int64_t& slot = r.terms_[m];
    if (__builtin_sub_overflow(slot, c, &slot)) return SymInt::unknown();
    if (slot == 0) r.terms_.erase(m);
  }
  return r;
}

SymInt operator*(const SymInt& a, const SymInt& b) {
  if (!a.known_ || !b.known_) return SymInt::unknown();
  SymInt r(0);
  // Keep expressions small: a product of large polynomials is not a useful dim.
  if (a.terms_.size() * b.terms_.size() > 64) return SymInt::unknown();
  for (const auto& [ma, ca] : a.terms_) {
    for (const auto& [mb, cb] : b.terms_) {
      SymInt::Monomial m = ma;
      m.insert(m.end(), mb.begin(), mb.end());
      std::sort(m.begin(), m.end());
      int64_t c;
      if (__builtin_mul_overflow(ca, cb, &c)) return SymInt::unknown();
      int64_t& slot = r.terms_[m];
      if (__builtin_add_overflow(slot, c, &slot)) return SymInt::unknown();
      if (slot == 0) r.terms_.erase(m);
    }
  }
  return r;
}

SymInt SymInt::floorDiv(const SymInt& d) const {
  if (!known_ || !d.known_) return unknown();
  auto dv = d.constant();
  if (!dv) {
    // Exact division by a single term c*m: every term must contain m and c must divide it.
    if (d.terms_.size() != 1) return sameAs(d) ? SymInt(1) : unknown();
    const auto& [dm, dc] = *d.terms_.begin();
    SymInt r(0);
    for (const auto& [m, c] : terms_) {
      if (c % dc != 0) return unknown();
      Monomial rest;
      if (!std::includes(m.begin(), m.end(), dm.begin(), dm.end())) return unknown();
      std::set_difference(m.begin(), m.end(), dm.begin(), dm.end(), std::back_inserter(rest));
      r.terms_[rest] = c / dc;
    }
    return r;
  }
  if (*dv == 0) return unknown();
  if (auto n = constant()) {
    if (*n == INT64_MIN && *dv == -1) return unknown();
    int64_t q = *n / *dv;
    if ((*n % *dv != 0) && ((*n < 0) != (*dv < 0))) --q;
    return SymInt(q);
  }
  SymInt r(0);
  for (const auto& [m, c] : terms_) {
    if (c % *dv != 0) return unknown();
    r.terms_[m] = c / *dv;
  }
  return r;
}

SymInt SymInt::ceilDiv(const SymInt& d) const {
  auto dv = d.constant();
  if (!known_ || !dv || *dv == 0) return unknown();
  if (auto n = constant()) {
    if (*n == INT64_MIN) return unknown();
    return -(SymInt(-*n).floorDiv(d));
  }
  return floorDiv(d);  // exact division or unknown
}

SymInt dimProduct(const std::vector<ir::Dim>& dims) {
  SymInt p(1);
  for (const auto& d : dims) p = p * SymInt::fromDim(d);
  return p;
}

}  // namespace passlab::analysis
