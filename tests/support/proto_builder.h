// Hand-encodes protobuf messages so tests can craft hostile or malformed ONNX
// files byte by byte, independent of the code under test.
#pragma once

#include <cstdint>
#include <string>
#include <vector>

namespace passlab::testing {

class ProtoBuilder {
 public:
  ProtoBuilder& varint(int field, uint64_t v) {
    key(field, 0);
    putVarint(v);
    return *this;
  }
  ProtoBuilder& bytes(int field, const std::string& b) {
    key(field, 2);
    putVarint(b.size());
    out_ += b;
    return *this;
  }
  ProtoBuilder& message(int field, const ProtoBuilder& m) { return bytes(field, m.out_); }
  const std::string& str() const { return out_; }

 private:
  void key(int field, int wire) {
    putVarint((static_cast<uint64_t>(field) << 3) | static_cast<uint64_t>(wire));
  }
  void putVarint(uint64_t v) {
    while (v >= 0x80) {
      out_.push_back(static_cast<char>((v & 0x7f) | 0x80));
      v >>= 7;
    }
    out_.push_back(static_cast<char>(v));
  }
  std::string out_;
};

// ONNX field numbers used by the tests.
namespace onnxf {
// ModelProto
inline constexpr int kIrVersion = 1, kGraph = 7, kOpsetImport = 8;
// OperatorSetIdProto
inline constexpr int kDomain = 1, kVersion = 2;
// GraphProto
inline constexpr int kNode = 1, kGraphName = 2, kInitializer = 5, kInput = 11, kOutput = 12;
// NodeProto
inline constexpr int kNodeInput = 1, kNodeOutput = 2, kNodeName = 3, kOpType = 4;
// ValueInfoProto / TypeProto / TensorShapeProto
inline constexpr int kViName = 1, kViType = 2, kTensorType = 1, kElemType = 1, kShape = 2, kDim = 1,
                     kDimValue = 1;
// TensorProto
inline constexpr int kDims = 1, kDataType = 2, kTensorName = 8, kRawData = 9, kExternalData = 13,
                     kDataLocation = 14;
// StringStringEntryProto
inline constexpr int kKey = 1, kValue = 2;
}  // namespace onnxf

// A float tensor value_info with static dims.
inline ProtoBuilder valueInfo(const std::string& name, const std::vector<int64_t>& dims) {
  ProtoBuilder shape;
  for (int64_t d : dims)
    shape.message(onnxf::kDim, ProtoBuilder().varint(onnxf::kDimValue, static_cast<uint64_t>(d)));
  ProtoBuilder tensorType;
  tensorType.varint(onnxf::kElemType, 1).message(onnxf::kShape, shape);
  return ProtoBuilder()
      .bytes(onnxf::kViName, name)
      .message(onnxf::kViType, ProtoBuilder().message(onnxf::kTensorType, tensorType));
}

inline ProtoBuilder node(const std::string& op, const std::vector<std::string>& inputs,
                         const std::vector<std::string>& outputs, const std::string& name = "") {
  ProtoBuilder n;
  for (const auto& i : inputs) n.bytes(onnxf::kNodeInput, i);
  for (const auto& o : outputs) n.bytes(onnxf::kNodeOutput, o);
  if (!name.empty()) n.bytes(onnxf::kNodeName, name);
  n.bytes(onnxf::kOpType, op);
  return n;
}

// A model around `graph`, importing the default domain at `opset`.
inline std::string model(const ProtoBuilder& graph, int64_t opset = 17) {
  ProtoBuilder m;
  m.varint(onnxf::kIrVersion, 8)
      .message(onnxf::kOpsetImport, ProtoBuilder()
                                        .bytes(onnxf::kDomain, "")
                                        .varint(onnxf::kVersion, static_cast<uint64_t>(opset)))
      .message(onnxf::kGraph, graph);
  return m.str();
}

}  // namespace passlab::testing
