// Integers that shape inference tracks: a known number, a polynomial over named
// symbols ("batch", "past_seq_len + seq_len", "2*N"), or unknown.
//
// A symbolic dimension of an ir::Shape is a name; names that spell a polynomial
// over identifiers (as ONNX Runtime's symbolic inference writes them) are read
// back as that polynomial, so "past_seq_len + seq_len" minus "seq_len" is
// "past_seq_len". Any other name is a single opaque symbol. Arithmetic that
// cannot be represented exactly (overflow, inexact division) gives unknown:
// never a wrong number.
#pragma once

#include <cstdint>
#include <map>
#include <memory>
#include <optional>
#include <string>
#include <vector>

#include "core/ir/shape.h"

namespace passlab::analysis {

class SymInt {
 public:
  SymInt() = default;     // unknown
  SymInt(int64_t value);  // NOLINT(google-explicit-constructor)
  static SymInt symbol(std::string name);
  // A static dim is its number, a symbolic dim its polynomial, an unknown dim unknown.
  static SymInt fromDim(const ir::Dim& dim);

  bool isKnown() const { return known_; }
  bool isConstant() const;
  // The number, when known and constant.
  std::optional<int64_t> constant() const;
  // As a dimension: numbers >= 0 are static, polynomials become a symbol named by
  // their canonical spelling, negative numbers and unknowns are unknown dims.
  ir::Dim toDim() const;
  // "3", "N", "past_seq_len + seq_len", "2*N - 1", "?".
  std::string toString() const;

  // Same known value (unknowns are never equal to anything).
  bool sameAs(const SymInt& o) const;

  friend SymInt operator+(const SymInt& a, const SymInt& b);
  friend SymInt operator-(const SymInt& a, const SymInt& b);
  friend SymInt operator*(const SymInt& a, const SymInt& b);
  SymInt operator-() const { return SymInt(0) - *this; }
  // Exact division: a number, or a polynomial divided by a single term (a
  // number or c*N*M) that divides every term; unknown otherwise.
  SymInt exactDiv(const SymInt& d) const;
  // floor(this / d): numbers rounded toward negative infinity; polynomials
  // divided exactly when they can be, otherwise (for a positive number d) an
  // opaque symbol spelled "floor((H - 1)/2)", so equal computations give
  // equal dims.
  SymInt floorDiv(const SymInt& d) const;
  // ceil(this / d) = floor((this + d - 1) / d) for a positive number d.
  SymInt ceilDiv(const SymInt& d) const;

 private:
  using Monomial = std::vector<std::string>;  // sorted symbol names, repeated for powers
  using Terms = std::map<Monomial, int64_t>;  // no zero coefficients
  // Numbers need no allocation; symbolic terms are immutable and shared by copies.
  bool known_ = false;
  int64_t constant_ = 0;
  std::shared_ptr<const Terms> terms_;  // the non-constant terms; null when there are none

  static SymInt unknown() { return SymInt(); }
  static std::optional<SymInt> parse(const std::string& text);
  // All terms, the constant under the empty monomial.
  Terms full() const;
  static SymInt fromFull(Terms t);
};

// Product of dims as a SymInt (unknown if any dim is unknown).
SymInt dimProduct(const std::vector<ir::Dim>& dims);

}  // namespace passlab::analysis
