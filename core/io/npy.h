// NumPy .npy files (format versions 1 to 3, little-endian, C order): the
// input files of `passlab-cli run`.
#pragma once

#include <string>
#include <string_view>

#include "core/ir/tensor.h"
#include "core/support/error.h"

namespace passlab::io {

Expected<ir::Tensor> readNpy(const std::string& path);
// Reads .npy bytes held in memory; `displayName` names them in messages.
Expected<ir::Tensor> readNpyFromBytes(std::string_view data, const std::string& displayName);
Status writeNpy(const std::string& path, const ir::Tensor& tensor);

}  // namespace passlab::io
