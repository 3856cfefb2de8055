// Semantic comparison of two ONNX files: the same model, whatever the bytes.
// Tolerates what the loader repairs by design (node order, "ai.onnx" spelled
// out, value_info without type, duplicate Constant outputs, opset imports added
// for used domains) and compares tensors by value, not by storage layout.
#pragma once

#include <string>
#include <string_view>
#include <vector>

#include "core/support/error.h"

namespace passlab::io {

// Differences between two serialized models (empty when equal). `baseDirA/B`
// resolve external data ("" if none).
Expected<std::vector<std::string>> compareModelBytes(std::string_view a,
                                                     const std::string& baseDirA,
                                                     std::string_view b,
                                                     const std::string& baseDirB);

}  // namespace passlab::io
