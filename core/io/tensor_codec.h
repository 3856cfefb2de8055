// Conversion between wire TensorProto and ir::Tensor (all data layouts).
#pragma once

#include <functional>
#include <string>

#include "core/ir/tensor.h"
#include "core/support/error.h"
#include "onnx_wire.pb.h"

namespace passlab::io {

// Resolves an external-data reference to bytes; supplied by the loader.
using ExternalResolver = std::function<Expected<std::shared_ptr<const ir::Buffer>>(
    const ir::ExternalDataInfo&, uint64_t expectedBytes)>;

// `what` names the tensor in messages ("initializer 'conv1.weight'").
// Raw bytes are moved out of `proto`, which is left without data.
Expected<ir::Tensor> decodeTensor(wire::TensorProto& proto, const std::string& what,
                                  const ExternalResolver& external);

// Writes data as raw_data (strings as string_data).
void encodeTensor(const ir::Tensor& t, wire::TensorProto& proto);
// Writes only the metadata (name, dims, type, doc), for tensors whose data goes elsewhere.
void encodeTensorHeader(const ir::Tensor& t, wire::TensorProto& proto);

}  // namespace passlab::io
