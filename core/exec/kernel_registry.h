// A backend's kernel table: the rows of its families, looked up by
// (domain, op, opset, element type), optimized rows before reference rows.
#pragma once

#include <span>
#include <string>
#include <string_view>
#include <unordered_map>
#include <vector>

#include "core/exec/kernel.h"

namespace passlab::exec {

class KernelRegistry {
 public:
  explicit KernelRegistry(const std::vector<std::span<const KernelDef>>& families);

  // Every row, in table order.
  const std::vector<const KernelDef*>& rows() const { return rows_; }
  // Rows of (domain, op) whose opset range covers `opset`: optimized first.
  std::vector<const KernelDef*> find(std::string_view domain, std::string_view op,
                                     int64_t opset) const;
  // Of `candidates`, those that take `dtype` (kUndefined: only rows taking any
  // type), in order; reference rows only when `referenceOnly`.
  static std::vector<const KernelDef*> forType(const std::vector<const KernelDef*>& candidates,
                                               ir::DataType dtype, bool referenceOnly);
  bool supports(std::string_view domain, std::string_view op, int64_t opset) const {
    return !find(domain, op, opset).empty();
  }
  // Opset versions covered for (domain, op), as text: "7-12, 13+"; "" when none.
  std::string coverage(std::string_view domain, std::string_view op) const;

 private:
  std::vector<const KernelDef*> rows_;
  std::unordered_map<std::string, std::vector<const KernelDef*>> byOp_;  // "domain:op"
};

}  // namespace passlab::exec
