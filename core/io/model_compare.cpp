#include "core/io/model_compare.h"

#include <google/protobuf/util/message_differencer.h>

#include <algorithm>
#include <fstream>
#include <map>
#include <set>

#include "core/io/tensor_codec.h"
#include "core/support/mapped_file.h"
#include "onnx_wire.pb.h"

namespace passlab::io {

namespace {

using google::protobuf::util::MessageDifferencer;

class Canonicalizer {
 public:
  explicit Canonicalizer(std::string baseDir) : baseDir_(std::move(baseDir)) {}

  Status model(wire::ModelProto& m) {
    for (auto& op : *m.mutable_opset_import())
      if (op.domain() == "ai.onnx") op.set_domain("");
    std::sort(m.mutable_opset_import()->begin(), m.mutable_opset_import()->end(),
              [](const auto& x, const auto& y) { return x.domain() < y.domain(); });
    if (m.ir_version() <= 0) m.set_ir_version(3);
    PASSLAB_RETURN_IF_ERROR(graph(*m.mutable_graph()));
    for (auto& f : *m.mutable_functions()) {
      for (auto& op : *f.mutable_opset_import())
        if (op.domain() == "ai.onnx") op.set_domain("");
      PASSLAB_RETURN_IF_ERROR(nodes(*f.mutable_node()));
      for (auto& a : *f.mutable_attribute_proto()) PASSLAB_RETURN_IF_ERROR(attribute(a));
      valueInfos(*f.mutable_value_info());
    }
    return Status::ok();
  }

 private:
  Status tensor(wire::TensorProto& t) {
    if (t.data_type() == 8) return Status::ok();  // strings: compared as they are
    ExternalResolver resolver =
        [this](const ir::ExternalDataInfo& info,
               uint64_t expected) -> Expected<std::shared_ptr<const ir::Buffer>> {
      auto f = MappedFile::open(baseDir_ + "/" + info.location);
      if (!f) return f.error();
      if (static_cast<uint64_t>(info.offset) + expected > (*f)->size())
        return invalidModel("external data too short");
      return ir::makeMappedBuffer(*f, static_cast<size_t>(info.offset),
                                  static_cast<size_t>(expected));
    };
    wire::TensorProto copy = t;
    auto decoded = decodeTensor(copy, "tensor '" + t.name() + "'",
                                baseDir_.empty() ? ExternalResolver() : resolver);
    if (!decoded) return decoded.error();
    std::string name = t.name(), doc = t.doc_string();
    auto meta = t.metadata_props();
    t.Clear();
    encodeTensor(*decoded, t);
    t.set_name(name);
    if (!doc.empty()) t.set_doc_string(doc);
    *t.mutable_metadata_props() = meta;
    t.clear_metadata_props();
    for (const auto& kv : meta) *t.add_metadata_props() = kv;
    return Status::ok();
  }

  Status attribute(wire::AttributeProto& a) {
    if (a.type() == 0 && a.ref_attr_name().empty()) {
      using AT = wire::AttributeProto;
      if (a.has_f())
        a.set_type(AT::FLOAT);
      else if (a.has_i())
        a.set_type(AT::INT);
      else if (a.has_s())
        a.set_type(AT::STRING);
      else if (a.has_t())
        a.set_type(AT::TENSOR);
      else if (a.has_g())
        a.set_type(AT::GRAPH);
      else if (a.floats_size())
        a.set_type(AT::FLOATS);
      else if (a.ints_size())
        a.set_type(AT::INTS);
      else if (a.strings_size())
        a.set_type(AT::STRINGS);
      else if (a.tensors_size())
        a.set_type(AT::TENSORS);
      else if (a.graphs_size())
        a.set_type(AT::GRAPHS);
    }
    // Only the field named by the type carries meaning.
    using AT = wire::AttributeProto;
    if (a.type() != AT::FLOAT) a.clear_f();
    if (a.type() != AT::INT) a.clear_i();
    if (a.type() != AT::STRING) a.clear_s();
    if (a.has_t()) PASSLAB_RETURN_IF_ERROR(tensor(*a.mutable_t()));
    for (auto& t : *a.mutable_tensors()) PASSLAB_RETURN_IF_ERROR(tensor(t));
    if (a.has_sparse_tensor()) {
      PASSLAB_RETURN_IF_ERROR(tensor(*a.mutable_sparse_tensor()->mutable_values()));
      PASSLAB_RETURN_IF_ERROR(tensor(*a.mutable_sparse_tensor()->mutable_indices()));
    }
    if (a.has_g()) PASSLAB_RETURN_IF_ERROR(graph(*a.mutable_g()));
    for (auto& g : *a.mutable_graphs()) PASSLAB_RETURN_IF_ERROR(graph(g));
    return Status::ok();
  }

  static std::string nodeKey(const wire::NodeProto& n) {
    std::string k;
    for (const auto& o : n.output()) k += o + "\x1f";
    return k;
  }

  Status nodes(google::protobuf::RepeatedPtrField<wire::NodeProto>& ns) {
    for (auto& n : ns) {
      if (n.domain() == "ai.onnx") n.clear_domain();
      for (auto& a : *n.mutable_attribute()) PASSLAB_RETURN_IF_ERROR(attribute(a));
      std::sort(n.mutable_attribute()->begin(), n.mutable_attribute()->end(),
                [](const auto& x, const auto& y) { return x.name() < y.name(); });
    }
    // Keep the last node per output list (duplicate Constant definitions), in output order.
    std::map<std::string, wire::NodeProto> byKey;
    std::vector<wire::NodeProto> unnamed;
    for (auto& n : ns) {
      std::string k = nodeKey(n);
      bool anyOutput = false;
      for (const auto& o : n.output()) anyOutput |= !o.empty();
      if (anyOutput)
        byKey[k] = n;
      else
        unnamed.push_back(n);
    }
    ns.Clear();
    for (auto& [k, n] : byKey) *ns.Add() = std::move(n);
    for (auto& n : unnamed) *ns.Add() = std::move(n);
    return Status::ok();
  }

  static void valueInfos(google::protobuf::RepeatedPtrField<wire::ValueInfoProto>& vis) {
    google::protobuf::RepeatedPtrField<wire::ValueInfoProto> kept;
    for (auto& vi : vis)
      if (vi.has_type() && vi.type().value_case() != wire::TypeProto::VALUE_NOT_SET)
        *kept.Add() = vi;
    std::sort(kept.begin(), kept.end(),
              [](const auto& x, const auto& y) { return x.name() < y.name(); });
    vis.Swap(&kept);
  }

  static void negativeDims(wire::TypeProto& t) {
    if (t.has_tensor_type() && t.tensor_type().has_shape())
      for (auto& d : *t.mutable_tensor_type()->mutable_shape()->mutable_dim())
        if (d.has_dim_value() && d.dim_value() < 0) d.clear_value();
  }

  Status graph(wire::GraphProto& g) {
    PASSLAB_RETURN_IF_ERROR(nodes(*g.mutable_node()));
    for (auto& t : *g.mutable_initializer()) PASSLAB_RETURN_IF_ERROR(tensor(t));
    std::sort(g.mutable_initializer()->begin(), g.mutable_initializer()->end(),
              [](const auto& x, const auto& y) { return x.name() < y.name(); });
    for (auto& s : *g.mutable_sparse_initializer()) {
      PASSLAB_RETURN_IF_ERROR(tensor(*s.mutable_values()));
      PASSLAB_RETURN_IF_ERROR(tensor(*s.mutable_indices()));
    }
    // value_info only means something for values this graph's nodes produce.
    std::set<std::string> produced;
    for (const auto& n : g.node())
      for (const auto& o : n.output()) produced.insert(o);
    google::protobuf::RepeatedPtrField<wire::ValueInfoProto> local;
    for (const auto& vi : g.value_info())
      if (produced.count(vi.name())) *local.Add() = vi;
    g.mutable_value_info()->Swap(&local);
    valueInfos(*g.mutable_value_info());
    for (auto& v : *g.mutable_value_info()) negativeDims(*v.mutable_type());
    for (auto& v : *g.mutable_input()) negativeDims(*v.mutable_type());
    for (auto& v : *g.mutable_output()) negativeDims(*v.mutable_type());
    return Status::ok();
  }

  std::string baseDir_;
};

// proto2 records whether a field was written; an explicit default value ("" or
// 0) means the same as an absent field, so clear those everywhere.
void clearDefaults(google::protobuf::Message& m) {
  using google::protobuf::FieldDescriptor;
  const auto* refl = m.GetReflection();
  std::vector<const FieldDescriptor*> fields;
  refl->ListFields(m, &fields);
  for (const FieldDescriptor* f : fields) {
    if (f->is_repeated()) {
      if (f->cpp_type() == FieldDescriptor::CPPTYPE_MESSAGE)
        for (int i = 0; i < refl->FieldSize(m, f); ++i)
          clearDefaults(*refl->MutableRepeatedMessage(&m, f, i));
      continue;
    }
    if (f->containing_oneof()) {
      if (f->cpp_type() == FieldDescriptor::CPPTYPE_MESSAGE)
        clearDefaults(*refl->MutableMessage(&m, f));
      continue;  // a set oneof member is meaningful even at its default
    }
    bool isDefault = false;
    switch (f->cpp_type()) {
      case FieldDescriptor::CPPTYPE_MESSAGE:
        clearDefaults(*refl->MutableMessage(&m, f));
        break;
      case FieldDescriptor::CPPTYPE_STRING:
        isDefault = refl->GetString(m, f).empty();
        break;
      case FieldDescriptor::CPPTYPE_INT64:
        isDefault = refl->GetInt64(m, f) == 0;
        break;
      case FieldDescriptor::CPPTYPE_INT32:
        isDefault = refl->GetInt32(m, f) == 0;
        break;
      case FieldDescriptor::CPPTYPE_UINT64:
        isDefault = refl->GetUInt64(m, f) == 0;
        break;
      case FieldDescriptor::CPPTYPE_UINT32:
        isDefault = refl->GetUInt32(m, f) == 0;
        break;
      case FieldDescriptor::CPPTYPE_FLOAT:
        isDefault = refl->GetFloat(m, f) == 0.0f;
        break;
      case FieldDescriptor::CPPTYPE_DOUBLE:
        isDefault = refl->GetDouble(m, f) == 0.0;
        break;
      case FieldDescriptor::CPPTYPE_BOOL:
        isDefault = !refl->GetBool(m, f);
        break;
      case FieldDescriptor::CPPTYPE_ENUM:
        isDefault = refl->GetEnumValue(m, f) == 0;
        break;
    }
    if (isDefault) refl->ClearField(&m, f);
  }
}

}  // namespace

Expected<std::vector<std::string>> compareModelBytes(std::string_view a,
                                                     const std::string& baseDirA,
                                                     std::string_view b,
                                                     const std::string& baseDirB) {
  wire::ModelProto ma, mb;
  if (!ma.ParseFromArray(a.data(), static_cast<int>(a.size())))
    return parseError("first model does not parse");
  if (!mb.ParseFromArray(b.data(), static_cast<int>(b.size())))
    return parseError("second model does not parse");
  PASSLAB_RETURN_IF_ERROR(Canonicalizer(baseDirA).model(ma));
  PASSLAB_RETURN_IF_ERROR(Canonicalizer(baseDirB).model(mb));
  clearDefaults(ma);
  clearDefaults(mb);
  // Opset imports the loader added for used-but-unimported domains are not differences.
  std::set<std::string> domainsA;
  for (const auto& op : ma.opset_import()) domainsA.insert(op.domain());
  google::protobuf::RepeatedPtrField<wire::OperatorSetIdProto> keptB;
  for (const auto& op : mb.opset_import())
    if (domainsA.count(op.domain())) *keptB.Add() = op;
  mb.mutable_opset_import()->Swap(&keptB);

  std::string report;
  MessageDifferencer diff;
  diff.ReportDifferencesToString(&report);
  std::vector<std::string> out;
  if (!diff.Compare(ma, mb)) {
    size_t pos = 0;
    while (pos < report.size() && out.size() < 20) {
      size_t end = report.find('\n', pos);
      if (end == std::string::npos) end = report.size();
      std::string line = report.substr(pos, end - pos);
      if (line.size() > 300) line = line.substr(0, 300) + "...";
      if (!line.empty()) out.push_back(line);
      pos = end + 1;
    }
  }
  return out;
}

}  // namespace passlab::io
