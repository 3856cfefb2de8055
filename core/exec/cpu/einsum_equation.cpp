#include "core/exec/cpu/einsum_equation.h"

#include <algorithm>

#include "core/exec/kernel.h"

namespace passlab::exec::cpu {

namespace {

int letterId(char c) {
  if (c >= 'a' && c <= 'z') return c - 'a';
  if (c >= 'A' && c <= 'Z') return 26 + (c - 'A');
  return -1;
}

// One side of the equation: letters, with -1 marking where "..." stands.
Expected<std::vector<int>> parseTerm(const std::string& term) {
  std::vector<int> out;
  bool ellipsis = false;
  for (size_t i = 0; i < term.size(); ++i) {
    char c = term[i];
    if (c == ' ') continue;
    if (c == '.') {
      if (term.compare(i, 3, "...") != 0 || ellipsis)
        return invalidArgument("bad ellipsis in term \"" + term + "\"");
      ellipsis = true;
      out.push_back(-1);
      i += 2;
      continue;
    }
    int id = letterId(c);
    if (id < 0)
      return invalidArgument(std::string("bad character '") + c + "' in \"" + term + "\"");
    out.push_back(id);
  }
  return out;
}

std::vector<std::string> split(const std::string& s, char sep) {
  std::vector<std::string> parts;
  size_t start = 0;
  for (size_t i = 0; i <= s.size(); ++i)
    if (i == s.size() || s[i] == sep) {
      parts.push_back(s.substr(start, i - start));
      start = i + 1;
    }
  return parts;
}

}  // namespace

Expected<EinsumEquation> parseEinsum(const std::string& equation,
                                     const std::vector<const Dims*>& operandDims) {
  std::string lhs = equation, rhs;
  bool explicitOut = false;
  if (auto arrow = equation.find("->"); arrow != std::string::npos) {
    lhs = equation.substr(0, arrow);
    rhs = equation.substr(arrow + 2);
    explicitOut = true;
  }
  std::vector<std::string> terms = split(lhs, ',');
  if (terms.size() != operandDims.size())
    return invalidArgument("equation \"" + equation + "\" has " + std::to_string(terms.size()) +
                           " operand terms for " + std::to_string(operandDims.size()) + " inputs");
  std::vector<std::vector<int>> raw;
  int ellipsisRank = 0;
  for (size_t k = 0; k < terms.size(); ++k) {
    PASSLAB_ASSIGN_OR_RETURN(std::vector<int> t, parseTerm(terms[k]));
    const auto rank = static_cast<int>(operandDims[k]->size());
    const bool hasEllipsis = std::count(t.begin(), t.end(), -1) > 0;
    const int letters = static_cast<int>(t.size()) - (hasEllipsis ? 1 : 0);
    if (hasEllipsis ? letters > rank : letters != rank)
      return invalidArgument("term \"" + terms[k] + "\" does not fit input " + std::to_string(k) +
                             " of rank " + std::to_string(rank));
    if (hasEllipsis) ellipsisRank = std::max(ellipsisRank, rank - letters);
    raw.push_back(std::move(t));
  }
  EinsumEquation eq;
  eq.letterDims.assign(static_cast<size_t>(kEinsumLetters + ellipsisRank), 0);
  std::vector<int> counts(eq.letterDims.size(), 0);
  auto bind = [&](int id, int64_t dim, bool broadcastable) -> Status {
    int64_t& d = eq.letterDims[static_cast<size_t>(id)];
    if (d == 0 || d == dim || (broadcastable && dim == 1)) {
      if (d == 0 || d == 1) d = dim;
      return Status::ok();
    }
    if (broadcastable && d == 1) {
      d = dim;
      return Status::ok();
    }
    return invalidArgument("subscript sizes disagree: " + std::to_string(d) + " and " +
                           std::to_string(dim) + " in \"" + equation + "\"");
  };
  for (size_t k = 0; k < raw.size(); ++k) {
    const Dims& dims = *operandDims[k];
    const int letters = static_cast<int>(raw[k].size()) -
                        (std::count(raw[k].begin(), raw[k].end(), -1) > 0 ? 1 : 0);
    const int covered = static_cast<int>(dims.size()) - letters;
    std::vector<int> ids;
    for (int id : raw[k]) {
      if (id >= 0) {
        ids.push_back(id);
        continue;
      }
      for (int j = 0; j < covered; ++j) ids.push_back(kEinsumLetters + ellipsisRank - covered + j);
    }
    for (size_t d = 0; d < ids.size(); ++d) {
      PASSLAB_RETURN_IF_ERROR(bind(ids[d], dims[d], ids[d] >= kEinsumLetters));
      ++counts[static_cast<size_t>(ids[d])];
    }
    eq.inputs.push_back(std::move(ids));
  }
  if (explicitOut) {
    PASSLAB_ASSIGN_OR_RETURN(std::vector<int> out, parseTerm(rhs));
    std::vector<bool> seen(eq.letterDims.size(), false);
    for (int id : out) {
      if (id < 0) {
        for (int j = 0; j < ellipsisRank; ++j) eq.output.push_back(kEinsumLetters + j);
        continue;
      }
      if (counts[static_cast<size_t>(id)] == 0)
        return invalidArgument("output subscript '" + rhs + "' names a letter no input has");
      if (seen[static_cast<size_t>(id)])
        return invalidArgument("output subscript \"" + rhs + "\" repeats a letter");
      seen[static_cast<size_t>(id)] = true;
      eq.output.push_back(id);
    }
  } else {
    for (int j = 0; j < ellipsisRank; ++j) eq.output.push_back(kEinsumLetters + j);
    // Letters used once, in ASCII order (upper case first), as numpy.
    for (int k = 0; k < kEinsumLetters; ++k) {
      const int id = (k + 26) % kEinsumLetters;
      if (counts[static_cast<size_t>(id)] == 1) eq.output.push_back(id);
    }
  }
  return eq;
}

}  // namespace passlab::exec::cpu
