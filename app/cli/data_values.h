// Test-data values (io::DataValue, read from .pb files) as executor values,
// and the comparison of a result with an expected value under the ONNX
// backend-test rule |got - want| <= atol + rtol * |want| (NaNs equal).
#pragma once

#include <optional>
#include <string>

#include "core/exec/value.h"
#include "core/io/tensor_file.h"

namespace passlab::cli {

exec::Value toExecValue(const io::DataValue& v);

struct Tolerance {
  double rtol = 1e-3;
  double atol = 1e-7;
};

// nullopt when `got` matches `want`; else what differs ("element 3: 1.5 vs 1.25").
std::optional<std::string> compareValues(const exec::Value& want, const exec::Value& got,
                                         const Tolerance& tol);

}  // namespace passlab::cli
