// Writes an ir::Model as ModelProto, with weights inline or in an external-data
// file, atomically.
#include <algorithm>
#include <climits>
#include <filesystem>
#include <set>
#include <vector>

#include "core/io/atomic_file.h"
#include "core/io/model_io.h"
#include "core/io/tensor_codec.h"
#include "core/io/unknown_fields.h"
#include "core/support/mapped_file.h"
#include "onnx_wire.pb.h"

namespace passlab::io {

namespace {

constexpr uint64_t kProtobufLimit = static_cast<uint64_t>(INT_MAX);
constexpr uint64_t kExternalAlignment = 64;

void writeType(const ir::Type& t, wire::TypeProto& p) {
  auto writeShape = [](const ir::Shape& s, wire::TensorShapeProto& sp) {
    for (const auto& d : s.dims()) {
      auto* dp = sp.add_dim();
      if (d.isStatic())
        dp->set_dim_value(d.value());
      else if (d.isSymbolic())
        dp->set_dim_param(d.param());
      if (!d.denotation().empty()) dp->set_denotation(d.denotation());
    }
  };
  switch (t.kind()) {
    case ir::Type::Kind::kUndefined:
      break;
    case ir::Type::Kind::kTensor: {
      auto* tt = p.mutable_tensor_type();
      tt->set_elem_type(static_cast<int32_t>(t.elemType()));
      if (t.hasShape()) writeShape(*t.shape(), *tt->mutable_shape());
      break;
    }
    case ir::Type::Kind::kSparseTensor: {
      auto* tt = p.mutable_sparse_tensor_type();
      tt->set_elem_type(static_cast<int32_t>(t.elemType()));
      if (t.hasShape()) writeShape(*t.shape(), *tt->mutable_shape());
      break;
    }
    case ir::Type::Kind::kSequence:
      writeType(*t.inner(), *p.mutable_sequence_type()->mutable_elem_type());
      break;
    case ir::Type::Kind::kOptional:
      writeType(*t.inner(), *p.mutable_optional_type()->mutable_elem_type());
      break;
    case ir::Type::Kind::kMap:
      p.mutable_map_type()->set_key_type(static_cast<int32_t>(t.elemType()));
      writeType(*t.inner(), *p.mutable_map_type()->mutable_value_type());
      break;
    case ir::Type::Kind::kOpaque:
      p.mutable_opaque_type()->set_domain(t.opaqueDomain());
      p.mutable_opaque_type()->set_name(t.opaqueName());
      break;
  }
  if (!t.denotation().empty()) p.set_denotation(t.denotation());
}

template <class Proto>
void writeMetadata(const std::vector<std::pair<std::string, std::string>>& md, Proto* p) {
  for (const auto& [k, v] : md) {
    auto* e = p->add_metadata_props();
    e->set_key(k);
    e->set_value(v);
  }
}

class Writer {
 public:
  Writer(const SaveOptions& options, AtomicFile* data, std::string dataName)
      : options_(options), data_(data), dataName_(std::move(dataName)) {}

  Status writeModel(const ir::Model& m, wire::ModelProto& p) {
    p.set_ir_version(m.irVersion);
    for (const auto& o : m.opsets) {
      auto* op = p.add_opset_import();
      op->set_domain(o.domain);
      op->set_version(o.version);
    }
    if (!m.producerName.empty()) p.set_producer_name(m.producerName);
    if (!m.producerVersion.empty()) p.set_producer_version(m.producerVersion);
    if (!m.domain.empty()) p.set_domain(m.domain);
    if (m.modelVersion != 0) p.set_model_version(m.modelVersion);
    if (!m.docString.empty()) p.set_doc_string(m.docString);
    writeMetadata(m.metadata, &p);
    PASSLAB_RETURN_IF_ERROR(writeGraph(m.graph(), *p.mutable_graph()));
    for (const auto& ti : m.trainingInfo) p.add_training_info()->ParseFromString(ti);
    for (const auto& f : m.functions) PASSLAB_RETURN_IF_ERROR(writeFunction(f, *p.add_functions()));
    restoreUnknownFields(p, m.unknownFields);
    return Status::ok();
  }

 private:
  bool goesExternal(const ir::Tensor& t) const {
    if (!data_ || t.dtype() == ir::DataType::kString) return false;
    switch (options_.external) {
      case SaveOptions::External::kNone:
        return false;
      case SaveOptions::External::kAll:
        return t.expectedBytes() >= options_.externalThreshold;
      case SaveOptions::External::kAsLoaded:
        return t.externalData().has_value();
    }
    return false;
  }

  Status writeTensor(const ir::Tensor& t, wire::TensorProto& p) {
    if (!goesExternal(t)) {
      encodeTensor(t, p);
      return Status::ok();
    }
    encodeTensorHeader(t, p);
    uint64_t pad =
        (kExternalAlignment - data_->written() % kExternalAlignment) % kExternalAlignment;
    PASSLAB_RETURN_IF_ERROR(data_->write(std::string(pad, '\0')));
    uint64_t offset = data_->written();
    auto b = t.bytes();
    PASSLAB_RETURN_IF_ERROR(data_->write({reinterpret_cast<const char*>(b.data()), b.size()}));
    p.set_data_location(wire::TensorProto::EXTERNAL);
    auto add = [&](const std::string& k, const std::string& v) {
      auto* e = p.add_external_data();
      e->set_key(k);
      e->set_value(v);
    };
    add("location", dataName_);
    add("offset", std::to_string(offset));
    add("length", std::to_string(b.size()));
    return Status::ok();
  }

  void writeValueInfo(const ir::Value* v, wire::ValueInfoProto& p) {
    p.set_name(v->name());
    if (!v->type().isUndefined()) writeType(v->type(), *p.mutable_type());
    if (!v->docString().empty()) p.set_doc_string(v->docString());
    writeMetadata(v->metadata(), &p);
  }

  Status writeAttribute(const ir::Attribute& a, wire::AttributeProto& p) {
    p.set_name(a.name());
    if (!a.refAttrName().empty()) p.set_ref_attr_name(a.refAttrName());
    if (!a.docString().empty()) p.set_doc_string(a.docString());
    p.set_type(static_cast<wire::AttributeProto::AttributeType>(a.type()));
    if (!a.refAttrName().empty()) return Status::ok();
    switch (a.type()) {
      case ir::AttrType::kFloat:
        p.set_f(a.f);
        break;
      case ir::AttrType::kInt:
        p.set_i(a.i);
        break;
      case ir::AttrType::kString:
        p.set_s(a.s);
        break;
      case ir::AttrType::kTensor:
        PASSLAB_RETURN_IF_ERROR(writeTensor(a.t, *p.mutable_t()));
        break;
      case ir::AttrType::kGraph:
        if (a.g) PASSLAB_RETURN_IF_ERROR(writeGraph(*a.g, *p.mutable_g()));
        break;
      case ir::AttrType::kFloats:
        for (float f : a.floats) p.add_floats(f);
        break;
      case ir::AttrType::kInts:
        for (int64_t i : a.ints) p.add_ints(i);
        break;
      case ir::AttrType::kStrings:
        for (const auto& s : a.strings) p.add_strings(s);
        break;
      case ir::AttrType::kTensors:
        for (const auto& t : a.tensors) PASSLAB_RETURN_IF_ERROR(writeTensor(t, *p.add_tensors()));
        break;
      case ir::AttrType::kGraphs:
        for (const auto& g : a.graphs) PASSLAB_RETURN_IF_ERROR(writeGraph(*g, *p.add_graphs()));
        break;
      case ir::AttrType::kSparseTensor:
        PASSLAB_RETURN_IF_ERROR(writeSparse(a.sparse, *p.mutable_sparse_tensor()));
        break;
      case ir::AttrType::kSparseTensors:
        for (const auto& s : a.sparseTensors)
          PASSLAB_RETURN_IF_ERROR(writeSparse(s, *p.add_sparse_tensors()));
        break;
      case ir::AttrType::kTypeProto:
        writeType(a.tp, *p.mutable_tp());
        break;
      case ir::AttrType::kTypeProtos:
        for (const auto& t : a.typeProtos) writeType(t, *p.add_type_protos());
        break;
      case ir::AttrType::kUndefined:
        break;
    }
    return Status::ok();
  }

  Status writeSparse(const ir::SparseTensor& s, wire::SparseTensorProto& p) {
    PASSLAB_RETURN_IF_ERROR(writeTensor(s.values, *p.mutable_values()));
    PASSLAB_RETURN_IF_ERROR(writeTensor(s.indices, *p.mutable_indices()));
    for (int64_t d : s.dims) p.add_dims(d);
    return Status::ok();
  }

  Status writeNode(const ir::Node& n, wire::NodeProto& p) {
    for (const ir::Value* v : n.inputs()) p.add_input(v ? v->name() : std::string());
    for (const ir::Value* v : n.outputs()) p.add_output(v ? v->name() : std::string());
    if (!n.name().empty()) p.set_name(n.name());
    p.set_op_type(n.opType());
    if (!n.domain().empty()) p.set_domain(n.domain());
    if (!n.overload().empty()) p.set_overload(n.overload());
    if (!n.docString().empty()) p.set_doc_string(n.docString());
    writeMetadata(n.metadata(), &p);
    for (const auto& a : n.attributes())
      PASSLAB_RETURN_IF_ERROR(writeAttribute(a, *p.add_attribute()));
    restoreUnknownFields(p, n.unknownFields());
    return Status::ok();
  }

  Status writeGraph(const ir::Graph& g, wire::GraphProto& p) {
    if (!g.name().empty()) p.set_name(g.name());
    if (!g.docString().empty()) p.set_doc_string(g.docString());
    for (const ir::Value* v : g.inputs()) writeValueInfo(v, *p.add_input());
    for (const ir::Value* v : g.initializers()) {
      auto* tp = p.add_initializer();
      PASSLAB_RETURN_IF_ERROR(writeTensor(*v->initializer(), *tp));
      tp->set_name(v->name());
    }
    for (const ir::Value* v : g.sparseInitializers()) {
      auto* sp = p.add_sparse_initializer();
      PASSLAB_RETURN_IF_ERROR(writeSparse(*v->sparseInitializer(), *sp));
      sp->mutable_values()->set_name(v->name());
    }
    for (const auto& n : g.nodes()) PASSLAB_RETURN_IF_ERROR(writeNode(*n, *p.add_node()));
    for (const ir::Value* v : g.outputs()) writeValueInfo(v, *p.add_output());
    for (const auto& n : g.nodes()) {
      for (const ir::Value* v : n->outputs()) {
        if (!v || (v->isGraphOutput() && !v->declaredInValueInfo())) continue;
        bool typed = !v->type().isUndefined();
        if (v->declaredInValueInfo() || (options_.writeAllValueInfo && typed))
          writeValueInfo(v, *p.add_value_info());
      }
    }
    for (const auto& q : g.quantizationAnnotations()) {
      auto* qa = p.add_quantization_annotation();
      qa->set_tensor_name(q.tensorName);
      for (const auto& [k, v] : q.params) {
        auto* e = qa->add_quant_parameter_tensor_names();
        e->set_key(k);
        e->set_value(v);
      }
    }
    writeMetadata(g.metadata(), &p);
    restoreUnknownFields(p, g.unknownFields());
    return Status::ok();
  }

  Status writeFunction(const ir::Function& f, wire::FunctionProto& p) {
    p.set_name(f.name);
    if (!f.domain.empty()) p.set_domain(f.domain);
    if (!f.overload.empty()) p.set_overload(f.overload);
    if (!f.docString.empty()) p.set_doc_string(f.docString);
    for (const auto& a : f.attributeNames) p.add_attribute(a);
    for (const auto& a : f.attributeDefaults)
      PASSLAB_RETURN_IF_ERROR(writeAttribute(a, *p.add_attribute_proto()));
    for (const auto& o : f.opsets) {
      auto* op = p.add_opset_import();
      op->set_domain(o.domain);
      op->set_version(o.version);
    }
    writeMetadata(f.metadata, &p);
    if (!f.body) return Status::ok();
    for (const ir::Value* v : f.body->inputs()) p.add_input(v->name());
    for (const ir::Value* v : f.body->outputs()) p.add_output(v->name());
    for (const auto& n : f.body->nodes()) PASSLAB_RETURN_IF_ERROR(writeNode(*n, *p.add_node()));
    for (const auto& n : f.body->nodes())
      for (const ir::Value* v : n->outputs())
        if (v && v->declaredInValueInfo()) writeValueInfo(v, *p.add_value_info());
    return Status::ok();
  }

  const SaveOptions& options_;
  AtomicFile* data_;
  std::string dataName_;
};

uint64_t tensorBytes(const ir::Graph& g) {
  uint64_t total = 0;
  for (const ir::Value* v : g.initializers()) total += v->initializer()->bytes().size();
  g.forEachNodeRecursive([&](ir::Node* n) {
    for (const auto& a : n->attributes()) {
      total += a.t.bytes().size();
      for (const auto& t : a.tensors) total += t.bytes().size();
    }
  });
  return total;
}

bool hasExternal(const ir::Graph& g) {
  for (const ir::Value* v : g.initializers())
    if (v->initializer()->externalData()) return true;
  return false;
}

}  // namespace

Expected<std::string> serializeModel(const ir::Model& model, const SaveOptions& options) {
  wire::ModelProto proto;
  Writer writer(options, nullptr, "");
  PASSLAB_RETURN_IF_ERROR(writer.writeModel(model, proto));
  if (proto.ByteSizeLong() > kProtobufLimit)
    return limitError(
        "the model is larger than protobuf's 2 GiB limit; save it to a file with external data");
  return proto.SerializeAsString();
}

namespace {

void collectLocations(const wire::GraphProto& g, std::set<std::string>& out);

void collectLocations(const wire::TensorProto& t, std::set<std::string>& out) {
  for (const auto& e : t.external_data())
    if (e.key() == "location") out.insert(e.value());
}

void collectLocations(const wire::GraphProto& g, std::set<std::string>& out) {
  for (const auto& t : g.initializer()) collectLocations(t, out);
  for (const auto& s : g.sparse_initializer()) {
    collectLocations(s.values(), out);
    collectLocations(s.indices(), out);
  }
  for (const auto& n : g.node())
    for (const auto& a : n.attribute()) {
      collectLocations(a.t(), out);
      for (const auto& t : a.tensors()) collectLocations(t, out);
      if (a.has_g()) collectLocations(a.g(), out);
      for (const auto& sub : a.graphs()) collectLocations(sub, out);
    }
}

// The names saves give external data beside `modelFile`, in the order they
// are tried. A save must never rewrite the data file the model on disk reads:
// were it killed between renaming the new data into place and renaming the
// new model, the old model would read the new data. So saves alternate
// between "<model>.data" and "<model>.1.data", taking the one the file on
// disk does not read (".2.data" only when a hand-made file reads both).
std::vector<std::string> defaultDataNames(const std::string& modelFile) {
  return {modelFile + ".data", modelFile + ".1.data", modelFile + ".2.data"};
}

// Of those names, the ones the model now at `path` reads. The model is parsed
// only when one of them exists beside it (an inline model with no such file
// is not read again).
std::set<std::string> defaultDataFilesReadBy(const std::string& path) {
  const std::filesystem::path dir = std::filesystem::path(path).parent_path();
  const std::vector<std::string> names =
      defaultDataNames(std::filesystem::path(path).filename().string());
  std::error_code ec;
  if (std::none_of(names.begin(), names.end(),
                   [&](const std::string& n) { return std::filesystem::exists(dir / n, ec); }))
    return {};
  if (!std::filesystem::is_regular_file(path, ec)) return {};
  auto file = MappedFile::open(path);
  if (!file || (*file)->size() > kProtobufLimit) return {};
  wire::ModelProto proto;
  if (!proto.ParseFromArray((*file)->data(), static_cast<int>((*file)->size()))) return {};
  std::set<std::string> read;
  collectLocations(proto.graph(), read);
  for (const auto& f : proto.functions())
    for (const auto& n : f.node())
      for (const auto& a : n.attribute()) collectLocations(a.t(), read);
  std::set<std::string> out;
  for (const std::string& n : names)
    if (read.count(n)) out.insert(n);
  return out;
}

std::string defaultDataName(const std::string& modelFile, const std::set<std::string>& inUse) {
  for (const std::string& name : defaultDataNames(modelFile))
    if (!inUse.count(name)) return name;
  return defaultDataNames(modelFile).back();
}

// After the new model is in place: removes the default-named data files the
// previous version read and the new one does not (never a file the user named).
void removeOldDataFiles(const std::filesystem::path& dir, const std::set<std::string>& oldFiles,
                        const std::string& kept) {
  for (const std::string& name : oldFiles)
    if (name != kept) {
      std::error_code ec;
      std::filesystem::remove(dir / name, ec);
    }
}

}  // namespace

Status saveModel(const ir::Model& model, const std::string& path, const SaveOptions& requested) {
  SaveOptions options = requested;
  bool tooBig = tensorBytes(model.graph()) > options.autoExternalLimitBytes;
  if (tooBig && options.autoExternalOver2GiB && options.external != SaveOptions::External::kAll) {
    options.external = SaveOptions::External::kAll;
  }
  bool wantsExternal =
      options.external == SaveOptions::External::kAll ||
      (options.external == SaveOptions::External::kAsLoaded && hasExternal(model.graph()));
  const std::string modelFile = std::filesystem::path(path).filename().string();
  const std::set<std::string> oldDataFiles = defaultDataFilesReadBy(path);
  std::string dataName = options.externalFileName.empty() ? defaultDataName(modelFile, oldDataFiles)
                                                          : options.externalFileName;
  std::string dataPath = (std::filesystem::path(path).parent_path() / dataName).string();
  auto stage = [&](std::string_view what) {
    if (options.onStage) options.onStage(what);
  };

  std::unique_ptr<AtomicFile> data;
  if (wantsExternal) {
    data = std::make_unique<AtomicFile>(dataPath);
    PASSLAB_RETURN_IF_ERROR(data->open());
  }
  wire::ModelProto proto;
  Writer writer(options, data.get(), dataName);
  PASSLAB_RETURN_IF_ERROR(writer.writeModel(model, proto));
  if (proto.ByteSizeLong() > kProtobufLimit)
    return limitError(
        path + ": the model would be larger than protobuf's 2 GiB limit; allow external data");
  std::string bytes = proto.SerializeAsString();
  AtomicFile out(path);
  PASSLAB_RETURN_IF_ERROR(out.open());
  PASSLAB_RETURN_IF_ERROR(out.write(bytes));
  stage("model written");
  if (data) {
    PASSLAB_RETURN_IF_ERROR(data->commit());
    stage("data committed");
  }
  PASSLAB_RETURN_IF_ERROR(out.commit());
  stage("model committed");
  removeOldDataFiles(std::filesystem::path(path).parent_path(), oldDataFiles,
                     data ? dataName : std::string());
  return Status::ok();
}

}  // namespace passlab::io
