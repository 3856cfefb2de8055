#include "core/io/tensor_codec.h"

#include <cstring>

#include "core/ir/shape.h"

namespace passlab::io {

using ir::DataType;

namespace {

template <class Src, class Dst>
std::vector<std::byte> narrow(const google::protobuf::RepeatedField<Src>& field) {
  std::vector<std::byte> out(static_cast<size_t>(field.size()) * sizeof(Dst));
  for (int i = 0; i < field.size(); ++i) {
    Dst v = static_cast<Dst>(field.Get(i));
    std::memcpy(out.data() + static_cast<size_t>(i) * sizeof(Dst), &v, sizeof(Dst));
  }
  return out;
}

// Sub-byte types in int32_data: each int32 holds one packed byte.
std::vector<std::byte> packedBytes(const google::protobuf::RepeatedField<int32_t>& field) {
  return narrow<int32_t, uint8_t>(field);
}

size_t typedCount(const wire::TensorProto& p) {
  return static_cast<size_t>(p.float_data_size() + p.int32_data_size() + p.string_data_size() +
                             p.int64_data_size() + p.double_data_size() + p.uint64_data_size());
}

Expected<std::vector<std::byte>> typedToRaw(const wire::TensorProto& p, DataType dt) {
  switch (dt) {
    case DataType::kFloat:
    case DataType::kComplex64:
      return narrow<float, float>(p.float_data());
    case DataType::kDouble:
    case DataType::kComplex128:
      return narrow<double, double>(p.double_data());
    case DataType::kInt64:
      return narrow<int64_t, int64_t>(p.int64_data());
    case DataType::kUInt32:
      return narrow<uint64_t, uint32_t>(p.uint64_data());
    case DataType::kUInt64:
      return narrow<uint64_t, uint64_t>(p.uint64_data());
    case DataType::kInt32:
      return narrow<int32_t, int32_t>(p.int32_data());
    case DataType::kInt16:
      return narrow<int32_t, int16_t>(p.int32_data());
    case DataType::kUInt16:
    case DataType::kFloat16:
    case DataType::kBFloat16:
      return narrow<int32_t, uint16_t>(p.int32_data());
    case DataType::kInt8:
      return narrow<int32_t, int8_t>(p.int32_data());
    case DataType::kUInt8:
    case DataType::kBool:
    case DataType::kFloat8E4M3FN:
    case DataType::kFloat8E4M3FNUZ:
    case DataType::kFloat8E5M2:
    case DataType::kFloat8E5M2FNUZ:
    case DataType::kFloat8E8M0:
      return narrow<int32_t, uint8_t>(p.int32_data());
    case DataType::kInt4:
    case DataType::kUInt4:
    case DataType::kFloat4E2M1:
    case DataType::kInt2:
    case DataType::kUInt2:
      return packedBytes(p.int32_data());
    default:
      return unsupported("data type " + std::to_string(static_cast<int>(dt)) +
                         " has no typed-field layout");
  }
}

}  // namespace

Expected<ir::Tensor> decodeTensor(wire::TensorProto& p, const std::string& what,
                                  const ExternalResolver& external) {
  if (!ir::isKnownDtype(p.data_type()))
    return unsupported(what + ": unknown data type " + std::to_string(p.data_type()));
  auto dt = static_cast<DataType>(p.data_type());
  std::vector<int64_t> dims(p.dims().begin(), p.dims().end());
  for (int64_t d : dims)
    if (d < 0) return invalidModel(what + ": negative dimension " + std::to_string(d));
  auto numel = ir::checkedProduct(dims);
  if (!numel) return invalidModel(what + ": the product of its dims overflows 64 bits");
  if (p.has_segment()) return unsupported(what + ": segmented tensors are not supported");

  ir::Tensor t;
  if (dt == DataType::kString) {
    if (p.data_location() == wire::TensorProto::EXTERNAL)
      return unsupported(what + ": string tensors cannot use external data");
    std::vector<std::string> strings(p.string_data().begin(), p.string_data().end());
    if (static_cast<int64_t>(strings.size()) != *numel)
      return invalidModel(what + ": holds " + std::to_string(strings.size()) +
                          " strings, its shape needs " + std::to_string(*numel));
    t = ir::Tensor::fromStrings(dims, std::move(strings));
  } else {
    uint64_t expected = ir::dtypeStorageBytes(dt, static_cast<uint64_t>(*numel));
    std::shared_ptr<const ir::Buffer> buffer;
    std::optional<ir::ExternalDataInfo> ext;
    if (p.data_location() == wire::TensorProto::EXTERNAL) {
      ir::ExternalDataInfo info;
      for (const auto& kv : p.external_data()) {
        if (kv.key() == "location") {
          info.location = kv.value();
        } else if (kv.key() == "offset" || kv.key() == "length") {
          char* end = nullptr;
          long long v = std::strtoll(kv.value().c_str(), &end, 10);
          if (kv.value().empty() || *end != '\0' || v < 0)
            return invalidModel(what + ": external data " + kv.key() + " '" + kv.value() +
                                "' is not a number");
          (kv.key() == "offset" ? info.offset : info.length) = v;
        } else if (kv.key() == "checksum") {
          info.checksum = kv.value();
        } else {
          info.extra.emplace_back(kv.key(), kv.value());
        }
      }
      if (info.location.empty()) return invalidModel(what + ": external data without a location");
      if (!external)
        return invalidModel(what + ": uses external data, which needs the model's folder");
      auto resolved = external(info, expected);
      if (!resolved) return resolved.error().withContext(what);
      buffer = std::move(resolved.value());
      ext = std::move(info);
    } else if (p.has_raw_data()) {
      // The bytes move from the message into the tensor: no copy.
      buffer = ir::makeHeapBuffer(std::move(*p.mutable_raw_data()));
    } else {
      auto raw = typedToRaw(p, dt);
      if (!raw) return raw.error().withContext(what);
      buffer = ir::makeHeapBuffer(std::move(raw.value()));
    }
    if (buffer->size() != expected) {
      std::string where = p.has_raw_data() || ext ? "bytes"
                                                  : "bytes of typed data (" +
                                                        std::to_string(typedCount(p)) + " values)";
      return invalidModel(what + ": holds " + std::to_string(buffer->size()) + " " + where +
                          ", but " + std::string(ir::dtypeName(dt)) +
                          ir::Shape::fromValues(dims).toString() + " needs " +
                          std::to_string(expected));
    }
    t = ir::Tensor(dt, dims, std::move(buffer));
    t.setExternalData(std::move(ext));
  }
  t.setName(p.name());
  t.setDocString(p.doc_string());
  for (const auto& kv : p.metadata_props()) t.metadata().emplace_back(kv.key(), kv.value());
  return t;
}

void encodeTensorHeader(const ir::Tensor& t, wire::TensorProto& p) {
  for (int64_t d : t.dims()) p.add_dims(d);
  p.set_data_type(static_cast<int32_t>(t.dtype()));
  if (!t.name().empty()) p.set_name(t.name());
  if (!t.docString().empty()) p.set_doc_string(t.docString());
  for (const auto& [k, v] : t.metadata()) {
    auto* e = p.add_metadata_props();
    e->set_key(k);
    e->set_value(v);
  }
}

void encodeTensor(const ir::Tensor& t, wire::TensorProto& p) {
  encodeTensorHeader(t, p);
  if (t.dtype() == DataType::kString) {
    for (const auto& s : t.strings()) p.add_string_data(s);
    return;
  }
  auto b = t.bytes();
  p.set_raw_data(reinterpret_cast<const char*>(b.data()), b.size());
}

}  // namespace passlab::io
