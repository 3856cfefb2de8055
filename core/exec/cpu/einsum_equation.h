// Einsum equations: "ij,jk->ik", "...ii->...i", "bij,bjk" (implicit output).
// Subscripts become letter ids: 'a'-'z' are 0-25, 'A'-'Z' 26-51, and the
// dims an ellipsis covers get ids from 52 on, right-aligned across operands so
// that they broadcast.
#pragma once

#include <cstdint>
#include <string>
#include <vector>

#include "core/exec/tensor.h"
#include "core/support/error.h"

namespace passlab::exec::cpu {

inline constexpr int kEinsumLetters = 52;

struct EinsumEquation {
  std::vector<std::vector<int>> inputs;  // per operand, a letter id per dim
  std::vector<int> output;               // a letter id per output dim
  std::vector<int64_t> letterDims;       // per letter id: its size (broadcast), 0 if unused
};

// Parses `equation` for operands of the given dims; errors name the problem
// (a bad character, a subscript count that does not match an operand's rank,
// sizes that disagree, an output letter no operand has).
Expected<EinsumEquation> parseEinsum(const std::string& equation,
                                     const std::vector<const Dims*>& operandDims);

}  // namespace passlab::exec::cpu
