#include "core/io/tensor_file.h"

#include <google/protobuf/io/coded_stream.h>
#include <google/protobuf/wire_format_lite.h>

#include <fstream>
#include <sstream>

#include "core/io/tensor_codec.h"
#include "onnx_wire.pb.h"

namespace passlab::io {

namespace {

using google::protobuf::io::CodedInputStream;
using WireFormat = google::protobuf::internal::WireFormatLite;

Expected<std::string> readFile(const std::string& path) {
  std::ifstream in(path, std::ios::binary);
  if (!in) return ioError("cannot open '" + path + "'");
  std::ostringstream ss;
  ss << in.rdbuf();
  return ss.str();
}

Expected<ir::Tensor> decodeTensorBytes(const std::string& bytes, const std::string& what) {
  wire::TensorProto proto;
  if (!proto.ParseFromString(bytes)) return parseError(what + ": not a TensorProto");
  return decodeTensor(proto, what, nullptr);
}

// Length-delimited and varint fields of one message, by field number.
struct Fields {
  std::vector<std::pair<int, std::string>> bytes;
  std::vector<std::pair<int, uint64_t>> varints;
};

Expected<Fields> splitFields(const std::string& data, const std::string& what) {
  Fields f;
  CodedInputStream in(reinterpret_cast<const uint8_t*>(data.data()), static_cast<int>(data.size()));
  while (uint32_t tag = in.ReadTag()) {
    int field = static_cast<int>(WireFormat::GetTagFieldNumber(tag));
    switch (WireFormat::GetTagWireType(tag)) {
      case WireFormat::WIRETYPE_VARINT: {
        uint64_t v;
        if (!in.ReadVarint64(&v)) return parseError(what + ": truncated");
        f.varints.emplace_back(field, v);
        break;
      }
      case WireFormat::WIRETYPE_LENGTH_DELIMITED: {
        uint32_t len;
        std::string s;
        if (!in.ReadVarint32(&len) || !in.ReadString(&s, static_cast<int>(len)))
          return parseError(what + ": truncated");
        f.bytes.emplace_back(field, std::move(s));
        break;
      }
      default:
        if (!WireFormat::SkipField(&in, tag)) return parseError(what + ": malformed");
    }
  }
  return f;
}

Expected<DataValue> decodeValue(const std::string& bytes, const ir::Type& type,
                                const std::string& what);

// SequenceProto: name 1, elem_type 2, tensor_values 3, sequence_values 5,
// map_values 6, optional_values 7.
Expected<DataValue> decodeSequence(const std::string& bytes, const ir::Type& type,
                                   const std::string& what) {
  auto split = splitFields(bytes, what);
  if (!split) return split.error();
  Fields& f = *split;
  DataValue v;
  v.kind = DataValue::Kind::kSequence;
  ir::Type elem = type.inner() ? *type.inner() : ir::Type::tensor(ir::DataType::kUndefined);
  for (auto& [field, data] : f.bytes) {
    if (field == 1) {
      v.name = data;
    } else if (field == 3 || field == 5 || field == 6 || field == 7) {
      ir::Type t = elem;
      if (field == 3 && !t.isTensor()) t = ir::Type::tensor(ir::DataType::kUndefined);
      auto item = decodeValue(data, t, what + " element");
      if (!item) return item.error();
      v.items.push_back(std::move(item).value());
    } else if (field == 4) {
      return unsupported(what + ": sparse tensors in sequences");
    }
  }
  return v;
}

// MapProto: name 1, key_type 2, keys 3 (int64), string_keys 4, values 5 (SequenceProto).
Expected<DataValue> decodeMap(const std::string& bytes, const ir::Type& type,
                              const std::string& what) {
  auto split = splitFields(bytes, what);
  if (!split) return split.error();
  Fields& f = *split;
  DataValue v;
  v.kind = DataValue::Kind::kMap;
  std::vector<int64_t> intKeys;
  std::vector<std::string> strKeys;
  for (auto& [field, value] : f.varints)
    if (field == 3) intKeys.push_back(static_cast<int64_t>(value));
  for (auto& [field, data] : f.bytes) {
    if (field == 1) {
      v.name = data;
    } else if (field == 3) {  // packed keys
      CodedInputStream in(reinterpret_cast<const uint8_t*>(data.data()),
                          static_cast<int>(data.size()));
      uint64_t k;
      while (in.ReadVarint64(&k)) intKeys.push_back(static_cast<int64_t>(k));
    } else if (field == 4) {
      strKeys.push_back(data);
    } else if (field == 5) {
      auto values =
          decodeSequence(data, ir::Type::sequence(type.inner() ? *type.inner() : ir::Type()), what);
      if (!values) return values.error();
      v.items = std::move(values->items);
    }
  }
  v.mapKeys = strKeys.empty()
                  ? ir::Tensor::fromInt64s(intKeys)
                  : ir::Tensor::fromStrings({static_cast<int64_t>(strKeys.size())}, strKeys);
  return v;
}

// OptionalProto: name 1, elem_type 2, tensor_value 3, sequence_value 5, map_value 6,
// optional_value 7.
Expected<DataValue> decodeOptional(const std::string& bytes, const ir::Type& type,
                                   const std::string& what) {
  auto split = splitFields(bytes, what);
  if (!split) return split.error();
  Fields& f = *split;
  DataValue v;
  v.kind = DataValue::Kind::kOptional;
  ir::Type elem = type.inner() ? *type.inner() : ir::Type();
  for (auto& [field, data] : f.bytes) {
    if (field == 1) {
      v.name = data;
    } else if (field == 3 || field == 5 || field == 6 || field == 7) {
      ir::Type t =
          field == 3 ? (elem.isTensor() ? elem : ir::Type::tensor(ir::DataType::kUndefined))
          : field == 5
              ? (elem.kind() == ir::Type::Kind::kSequence ? elem : ir::Type::sequence(ir::Type()))
              : elem;
      auto item = decodeValue(data, t, what);
      if (!item) return item.error();
      v.items.push_back(std::move(item).value());
    } else if (field == 4) {
      return unsupported(what + ": sparse tensors in optionals");
    }
  }
  return v;
}

Expected<DataValue> decodeValue(const std::string& bytes, const ir::Type& type,
                                const std::string& what) {
  switch (type.kind()) {
    case ir::Type::Kind::kSequence:
      return decodeSequence(bytes, type, what);
    case ir::Type::Kind::kMap:
      return decodeMap(bytes, type, what);
    case ir::Type::Kind::kOptional:
      return decodeOptional(bytes, type, what);
    case ir::Type::Kind::kSparseTensor:
      return unsupported(what + ": sparse tensors");
    default: {
      auto t = decodeTensorBytes(bytes, what);
      if (!t) return t.error();
      DataValue v;
      v.name = t->name();
      v.tensor = std::move(t).value();
      return v;
    }
  }
}

}  // namespace

Expected<ir::Tensor> readTensorFile(const std::string& path) {
  auto bytes = readFile(path);
  if (!bytes) return bytes.error();
  return decodeTensorBytes(*bytes, "'" + path + "'");
}

Expected<DataValue> readDataFile(const std::string& path, const ir::Type& type) {
  auto bytes = readFile(path);
  if (!bytes) return bytes.error();
  return decodeValue(*bytes, type, "'" + path + "'");
}

Expected<ir::Tensor> readTensorFromBytes(std::string_view bytes, const std::string& displayName) {
  return decodeTensorBytes(std::string(bytes), displayName);
}

Expected<DataValue> readDataFromBytes(std::string_view bytes, const ir::Type& type,
                                      const std::string& displayName) {
  return decodeValue(std::string(bytes), type, displayName);
}

}  // namespace passlab::io
