// Reads ModelProto bytes into an ir::Model, repairing what is recoverable and
// naming the file and the problem for what is not.
#include <limits.h>
#include <stdlib.h>

#include <filesystem>
#include <fstream>
#include <unordered_map>

#include "core/io/mapped_file_stream.h"
#include "core/io/model_io.h"
#include "core/io/tensor_codec.h"
#include "core/io/unknown_fields.h"
#include "core/ir/op_schema.h"
#include "core/support/mapped_file.h"
#include "core/support/strings.h"
#include "onnx_wire.pb.h"

namespace passlab::io {

namespace fs = std::filesystem;

namespace {

struct PendingNode {
  ir::Node* node;
  std::vector<std::string> inputs;
};

struct PendingGraph {
  ir::Graph* graph;
  std::string label;
  std::vector<std::string> outputs;
  std::vector<wire::ValueInfoProto*> outputInfos;
  std::vector<wire::ValueInfoProto*> valueInfos;
};

class Reader {
 public:
  Reader(std::string displayName, std::string baseDir, LoadOptions options)
      : file_(std::move(displayName)), baseDir_(std::move(baseDir)), options_(options) {}

  Expected<LoadedModel> read(wire::ModelProto& proto);

 private:
  Error fail(ErrorCode code, const std::string& message) const {
    return Error(code, file_ + ": " + message);
  }
  Status repair(const std::string& what) {
    if (!options_.repair) return fail(ErrorCode::kInvalidModel, what + " (repair disabled)");
    report_.repairs.push_back(what);
    return Status::ok();
  }

  Expected<ir::Type> convertType(const wire::TypeProto& t, const std::string& what);
  Status buildGraph(wire::GraphProto& g, ir::Graph& graph, const std::string& label);
  Status buildNode(wire::NodeProto& n, ir::Graph& graph, const std::string& label);
  Expected<ir::Attribute> convertAttribute(wire::AttributeProto& a, ir::Node* owner,
                                           const std::string& what);
  Status wireAll();
  Status sortAll();
  Expected<std::shared_ptr<const ir::Buffer>> resolveExternal(const ir::ExternalDataInfo& info,
                                                              uint64_t expected);
  Status checkShapeFits(const ir::Type& type, const std::string& what);

  std::string file_, baseDir_, baseReal_;
  LoadOptions options_;
  LoadReport report_;
  std::vector<PendingNode> pendingNodes_;
  std::vector<PendingGraph> pendingGraphs_;
  std::vector<ir::Graph*> allGraphs_;
  std::unordered_map<std::string, std::shared_ptr<const MappedFile>> mapped_;
  ExternalResolver resolver_;
  const ir::Graph* mainGraph_ = nullptr;
  bool countingFileNodes_ = true;
};

Expected<ir::Type> Reader::convertType(const wire::TypeProto& t, const std::string& what) {
  ir::Type out;
  auto convertShape = [&](const wire::TensorShapeProto& s) -> std::optional<ir::Shape> {
    std::vector<ir::Dim> dims;
    for (const auto& d : s.dim()) {
      ir::Dim dim;
      if (d.has_dim_value()) {
        if (d.dim_value() < 0) {
          (void)repair(what + ": dimension " + std::to_string(d.dim_value()) + " read as unknown");
        } else {
          dim = ir::Dim(d.dim_value());
        }
      } else if (d.has_dim_param()) {
        dim = ir::Dim::symbol(d.dim_param());
      }
      if (!d.denotation().empty()) dim.setDenotation(d.denotation());
      dims.push_back(std::move(dim));
    }
    return ir::Shape(std::move(dims));
  };
  auto elem = [&](int32_t e) -> Expected<ir::DataType> {
    if (e == 0) return ir::DataType::kUndefined;
    if (!ir::isKnownDtype(e))
      return fail(ErrorCode::kUnsupported, what + ": unknown element type " + std::to_string(e));
    return static_cast<ir::DataType>(e);
  };
  switch (t.value_case()) {
    case wire::TypeProto::kTensorType: {
      auto e = elem(t.tensor_type().elem_type());
      if (!e) return e.error();
      out = ir::Type::tensor(
          *e, t.tensor_type().has_shape() ? convertShape(t.tensor_type().shape()) : std::nullopt);
      break;
    }
    case wire::TypeProto::kSparseTensorType: {
      auto e = elem(t.sparse_tensor_type().elem_type());
      if (!e) return e.error();
      out = ir::Type::sparseTensor(*e, t.sparse_tensor_type().has_shape()
                                           ? convertShape(t.sparse_tensor_type().shape())
                                           : std::nullopt);
      break;
    }
    case wire::TypeProto::kSequenceType: {
      auto inner = convertType(t.sequence_type().elem_type(), what);
      if (!inner) return inner.error();
      out = ir::Type::sequence(std::move(inner.value()));
      break;
    }
    case wire::TypeProto::kOptionalType: {
      auto inner = convertType(t.optional_type().elem_type(), what);
      if (!inner) return inner.error();
      out = ir::Type::optional(std::move(inner.value()));
      break;
    }
    case wire::TypeProto::kMapType: {
      auto k = elem(t.map_type().key_type());
      if (!k) return k.error();
      auto inner = convertType(t.map_type().value_type(), what);
      if (!inner) return inner.error();
      out = ir::Type::map(*k, std::move(inner.value()));
      break;
    }
    case wire::TypeProto::kOpaqueType:
      out = ir::Type::opaque(t.opaque_type().domain(), t.opaque_type().name());
      break;
    case wire::TypeProto::VALUE_NOT_SET:
      break;
  }
  if (!t.denotation().empty()) out.setDenotation(t.denotation());
  return out;
}

Status Reader::checkShapeFits(const ir::Type& type, const std::string& what) {
  if (!type.hasShape()) return Status::ok();
  std::vector<int64_t> known;
  for (const auto& d : type.shape()->dims())
    if (d.isStatic()) known.push_back(d.value());
  if (!ir::checkedProduct(known))
    return fail(ErrorCode::kInvalidModel, what + ": the product of its dims " +
                                              type.shape()->toString() + " overflows 64 bits");
  return Status::ok();
}

Expected<ir::Attribute> Reader::convertAttribute(wire::AttributeProto& a, ir::Node* owner,
                                                 const std::string& what) {
  std::string label = what + " attribute '" + a.name() + "'";
  auto type = static_cast<ir::AttrType>(a.type());
  if (a.type() == 0) {
    // IR version 1 files may omit the discriminator: infer it from the field in use.
    if (a.has_f())
      type = ir::AttrType::kFloat;
    else if (a.has_i())
      type = ir::AttrType::kInt;
    else if (a.has_s())
      type = ir::AttrType::kString;
    else if (a.has_t())
      type = ir::AttrType::kTensor;
    else if (a.has_g())
      type = ir::AttrType::kGraph;
    else if (a.floats_size())
      type = ir::AttrType::kFloats;
    else if (a.ints_size())
      type = ir::AttrType::kInts;
    else if (a.strings_size())
      type = ir::AttrType::kStrings;
    else if (a.tensors_size())
      type = ir::AttrType::kTensors;
    else if (a.graphs_size())
      type = ir::AttrType::kGraphs;
    if (type != ir::AttrType::kUndefined && a.ref_attr_name().empty())
      report_.repairs.push_back(label + ": type field missing, inferred " +
                                std::string(ir::attrTypeName(type)));
  }
  ir::Attribute out(a.name(), type);
  out.setRefAttrName(a.ref_attr_name());
  out.setDocString(a.doc_string());
  out.f = a.f();
  out.i = a.i();
  out.s = a.s();
  out.floats.assign(a.floats().begin(), a.floats().end());
  out.ints.assign(a.ints().begin(), a.ints().end());
  out.strings.assign(a.strings().begin(), a.strings().end());
  if (a.has_t()) {
    auto t = decodeTensor(*a.mutable_t(), label, resolver_);
    if (!t) return fail(t.error().code(), t.error().message());
    out.t = std::move(t.value());
  }
  for (auto& tp : *a.mutable_tensors()) {
    auto t = decodeTensor(tp, label, resolver_);
    if (!t) return fail(t.error().code(), t.error().message());
    out.tensors.push_back(std::move(t.value()));
  }
  auto sparse = [&](wire::SparseTensorProto& sp) -> Expected<ir::SparseTensor> {
    ir::SparseTensor st;
    auto v = decodeTensor(*sp.mutable_values(), label + " values", resolver_);
    if (!v) return fail(v.error().code(), v.error().message());
    auto idx = decodeTensor(*sp.mutable_indices(), label + " indices", resolver_);
    if (!idx) return fail(idx.error().code(), idx.error().message());
    st.values = std::move(v.value());
    st.indices = std::move(idx.value());
    st.dims.assign(sp.dims().begin(), sp.dims().end());
    return st;
  };
  if (a.has_sparse_tensor()) {
    auto st = sparse(*a.mutable_sparse_tensor());
    if (!st) return st.error();
    out.sparse = std::move(st.value());
  }
  for (auto& sp : *a.mutable_sparse_tensors()) {
    auto st = sparse(sp);
    if (!st) return st.error();
    out.sparseTensors.push_back(std::move(st.value()));
  }
  if (a.has_tp()) {
    auto t = convertType(a.tp(), label);
    if (!t) return t.error();
    out.tp = std::move(t.value());
  }
  for (const auto& tp : a.type_protos()) {
    auto t = convertType(tp, label);
    if (!t) return t.error();
    out.typeProtos.push_back(std::move(t.value()));
  }
  auto subgraph = [&](wire::GraphProto& gp) -> Expected<std::unique_ptr<ir::Graph>> {
    auto g = std::make_unique<ir::Graph>(owner ? owner->owner()->context() : nullptr);
    if (owner) g->setParentNode(owner);
    PASSLAB_RETURN_IF_ERROR(buildGraph(gp, *g, label + " graph '" + gp.name() + "'"));
    return g;
  };
  if (a.has_g()) {
    auto g = subgraph(*a.mutable_g());
    if (!g) return g.error();
    out.g = std::move(g.value());
  }
  for (auto& gp : *a.mutable_graphs()) {
    auto g = subgraph(gp);
    if (!g) return g.error();
    out.graphs.push_back(std::move(g.value()));
  }
  return out;
}

Status Reader::buildNode(wire::NodeProto& n, ir::Graph& graph, const std::string& label) {
  std::string domain = n.domain();
  if (domain == "ai.onnx") domain.clear();
  if (countingFileNodes_) {
    ++report_.fileNodesInclSubgraphs;
    if (&graph == mainGraph_) ++report_.fileNodes;
  }
  std::string what = label + ": node " +
                     (n.name().empty() ? n.op_type() : "'" + n.name() + "' (" + n.op_type() + ")");
  if (n.op_type().empty()) return fail(ErrorCode::kInvalidModel, what + " has no op_type");
  std::vector<std::string> outputs;
  for (const auto& o : n.output()) {
    if (!o.empty()) {
      ir::Value* existing = graph.findValue(o);
      if (existing && existing->producer() && existing->producer()->opType() == "Constant" &&
          n.op_type() == "Constant" && n.output_size() == 1) {
        // Exporters have written the same Constant output twice; ONNX Runtime
        // binds every use to the last definition, and so do we.
        ir::Node* old = existing->producer();
        PASSLAB_RETURN_IF_ERROR(repair(label + ": value '" + o +
                                       "' is defined by two Constant nodes; kept the later one (" +
                                       (n.name().empty() ? std::string("unnamed") : n.name()) +
                                       ") as ONNX Runtime does, removed " + old->describe()));
        for (auto& p : pendingNodes_)
          if (p.node == old) p.node = nullptr;
        graph.removeNode(old);
        existing = nullptr;
      }
      if (existing) {
        std::string by = existing->producer()        ? existing->producer()->describe()
                         : existing->isInitializer() ? "an initializer"
                                                     : "a graph input";
        return fail(ErrorCode::kInvalidModel, label + ": value '" + o + "' is defined twice: by " +
                                                  by + " and by " + what.substr(label.size() + 2));
      }
      for (const auto& other : outputs)
        if (other == o)
          return fail(ErrorCode::kInvalidModel, what + " lists output '" + o + "' twice");
    }
    outputs.push_back(o);
  }
  ir::Node* node = graph.addNode(n.op_type(), domain, {}, outputs);
  node->setName(n.name());
  node->setOverload(n.overload());
  node->setDocString(n.doc_string());
  for (const auto& kv : n.metadata_props()) node->metadata().emplace_back(kv.key(), kv.value());
  node->setUnknownFields(unknownFieldsOf(n));
  pendingNodes_.push_back({node, std::vector<std::string>(n.input().begin(), n.input().end())});
  for (auto& a : *n.mutable_attribute()) {
    if (node->hasAttr(a.name()))
      return fail(ErrorCode::kInvalidModel, what + " has attribute '" + a.name() + "' twice");
    auto attr = convertAttribute(a, node, what);
    if (!attr) return attr.error();
    node->attributes().push_back(std::move(attr.value()));
  }
  return Status::ok();
}

Status Reader::buildGraph(wire::GraphProto& g, ir::Graph& graph, const std::string& label) {
  allGraphs_.push_back(&graph);
  graph.setName(g.name());
  graph.setDocString(g.doc_string());
  graph.setUnknownFields(unknownFieldsOf(g));
  for (const auto& kv : g.metadata_props()) graph.metadata().emplace_back(kv.key(), kv.value());
  for (const auto& qa : g.quantization_annotation()) {
    ir::QuantizationAnnotation q;
    q.tensorName = qa.tensor_name();
    for (const auto& kv : qa.quant_parameter_tensor_names())
      q.params.emplace_back(kv.key(), kv.value());
    graph.quantizationAnnotations().push_back(std::move(q));
  }
  for (const auto& in : g.input()) {
    if (in.name().empty())
      return fail(ErrorCode::kInvalidModel, label + ": a graph input has no name");
    if (graph.findValue(in.name()))
      return fail(ErrorCode::kInvalidModel,
                  label + ": graph input '" + in.name() + "' is listed twice");
    auto t = convertType(in.type(), label + " input '" + in.name() + "'");
    if (!t) return t.error();
    PASSLAB_RETURN_IF_ERROR(checkShapeFits(*t, label + " input '" + in.name() + "'"));
    ir::Value* v = graph.addInput(in.name(), std::move(t.value()));
    v->setDocString(in.doc_string());
    for (const auto& kv : in.metadata_props()) v->metadata().emplace_back(kv.key(), kv.value());
  }
  for (auto& init : *g.mutable_initializer()) {
    std::string what = label + ": initializer '" + init.name() + "'";
    if (init.name().empty())
      return fail(ErrorCode::kInvalidModel, label + ": an initializer has no name");
    ir::Value* existing = graph.findValue(init.name());
    if (existing && (existing->isInitializer() || !existing->isGraphInput()))
      return fail(ErrorCode::kInvalidModel, what + " is defined twice");
    auto t = decodeTensor(init, what, resolver_);
    if (!t) return fail(t.error().code(), t.error().message());
    std::string name = t->name();
    graph.addInitializer(std::move(name), std::move(t.value()));
  }
  for (auto& sp : *g.mutable_sparse_initializer()) {
    std::string what = label + ": sparse initializer '" + sp.values().name() + "'";
    auto v = decodeTensor(*sp.mutable_values(), what + " values", resolver_);
    if (!v) return fail(v.error().code(), v.error().message());
    auto idx = decodeTensor(*sp.mutable_indices(), what + " indices", resolver_);
    if (!idx) return fail(idx.error().code(), idx.error().message());
    if (v->name().empty())
      return fail(ErrorCode::kInvalidModel, label + ": a sparse initializer has no name");
    ir::SparseTensor st{
        std::move(v.value()), std::move(idx.value()), {sp.dims().begin(), sp.dims().end()}};
    if (!ir::checkedProduct(st.dims))
      return fail(ErrorCode::kInvalidModel, what + ": the product of its dims overflows 64 bits");
    std::string name = st.values.name();
    graph.addSparseInitializer(name, std::move(st));
  }
  for (auto& n : *g.mutable_node()) PASSLAB_RETURN_IF_ERROR(buildNode(n, graph, label));
  PendingGraph pending{&graph, label, {}, {}, {}};
  for (auto& out : *g.mutable_output()) {
    pending.outputs.push_back(out.name());
    pending.outputInfos.push_back(&out);
  }
  for (auto& vi : *g.mutable_value_info()) pending.valueInfos.push_back(&vi);
  pendingGraphs_.push_back(std::move(pending));
  return Status::ok();
}

Status Reader::wireAll() {
  for (auto& p : pendingNodes_) {
    if (p.node == nullptr) continue;  // removed while loading
    ir::Graph* g = p.node->owner();
    for (const auto& name : p.inputs) {
      if (name.empty()) {
        p.node->addInput(nullptr);
        continue;
      }
      ir::Value* v = g->lookup(name);
      if (v == nullptr)
        return fail(ErrorCode::kInvalidModel,
                    "node " + p.node->describe() + " uses value '" + name +
                        "', which nothing defines (not a graph input, initializer or node output)");
      p.node->addInput(v);
    }
  }
  for (auto& pg : pendingGraphs_) {
    for (size_t i = 0; i < pg.outputs.size(); ++i) {
      const std::string& name = pg.outputs[i];
      ir::Value* v = pg.graph->lookup(name);
      if (v == nullptr)
        return fail(ErrorCode::kInvalidModel,
                    pg.label + ": graph output '" + name + "' is never defined");
      pg.graph->addOutput(v);
      const auto* info = pg.outputInfos[i];
      if (info->has_type()) {
        auto t = convertType(info->type(), pg.label + " output '" + name + "'");
        if (!t) return t.error();
        PASSLAB_RETURN_IF_ERROR(checkShapeFits(*t, pg.label + " output '" + name + "'"));
        if (v->type().isUndefined() || v->producer()) v->setType(std::move(t.value()));
      }
      if (!info->doc_string().empty()) v->setDocString(info->doc_string());
      for (const auto& kv : info->metadata_props())
        v->metadata().emplace_back(kv.key(), kv.value());
    }
    for (const auto* vi : pg.valueInfos) {
      ir::Value* v = pg.graph->findValue(vi->name());
      if (v == nullptr) {
        report_.warnings.push_back(pg.label + ": value_info for '" + vi->name() +
                                   "', which the graph does not define, ignored");
        continue;
      }
      if (!vi->has_type() || vi->type().value_case() == wire::TypeProto::VALUE_NOT_SET) {
        PASSLAB_RETURN_IF_ERROR(
            repair(pg.label + ": value_info '" + vi->name() + "' has no type; ignored"));
        continue;
      }
      auto t = convertType(vi->type(), pg.label + " value_info '" + vi->name() + "'");
      if (!t) return t.error();
      if (!v->isGraphInput() && !v->isInitializer()) v->setType(std::move(t.value()));
      v->setDeclaredInValueInfo(true);
      v->setDocString(vi->doc_string());
      for (const auto& kv : vi->metadata_props()) v->metadata().emplace_back(kv.key(), kv.value());
    }
  }
  return Status::ok();
}

Status Reader::sortAll() {
  for (ir::Graph* g : allGraphs_) {
    std::vector<ir::NodeId> before;
    for (const auto& n : g->nodes()) before.push_back(n->id());
    if (!g->sortTopologically()) {
      // Name nodes on the cycle: those left after peeling off nodes whose
      // producers are all peeled (Kahn's algorithm).
      std::unordered_map<const ir::Node*, int> pending;
      std::vector<const ir::Node*> ready;
      for (const auto& n : g->nodes()) {
        int deps = 0;
        for (ir::Value* in : n->inputs())
          if (in && in->producer() && in->producer()->owner() == g) ++deps;
        pending[n.get()] = deps;
        if (deps == 0) ready.push_back(n.get());
      }
      while (!ready.empty()) {
        const ir::Node* n = ready.back();
        ready.pop_back();
        for (ir::Value* out : n->outputs())
          if (out)
            for (const auto& use : out->uses())
              if (use.node->owner() == g && --pending[use.node] == 0) ready.push_back(use.node);
      }
      std::string names;
      int shown = 0;
      for (const auto& n : g->nodes()) {
        if (pending[n.get()] > 0 && shown < 4) {
          names += (shown ? ", " : "") + n->describe();
          ++shown;
        }
      }
      std::string gname = g->name().empty() ? "main graph" : "graph '" + g->name() + "'";
      return fail(ErrorCode::kInvalidModel, gname + " contains a cycle (involving " + names + ")");
    }
    size_t i = 0;
    bool moved = false;
    for (const auto& n : g->nodes()) moved |= n->id() != before[i++];
    if (moved)
      PASSLAB_RETURN_IF_ERROR(
          repair("nodes of " +
                 (g->name().empty() ? std::string("the main graph") : "graph '" + g->name() + "'") +
                 " were not in topological order; sorted"));
  }
  return Status::ok();
}

Expected<std::shared_ptr<const ir::Buffer>> Reader::resolveExternal(
    const ir::ExternalDataInfo& info, uint64_t expected) {
  const std::string& loc = info.location;
  if (baseDir_.empty())
    return invalidModel("external data '" + loc +
                        "' needs the model's folder, which is unknown here");
  fs::path rel(loc);
  if (rel.is_absolute() || (!loc.empty() && loc[0] == '/'))
    return invalidModel("external data location '" + loc +
                        "' is absolute; it must be relative to the model's folder");
  for (const auto& part : rel)
    if (part == "..")
      return invalidModel("external data location '" + loc +
                          "' contains '..'; it must stay inside the model's folder");
  if (baseReal_.empty()) {
    char buf[PATH_MAX];
    if (!realpath(baseDir_.c_str(), buf))
      return ioError("cannot resolve the model's folder '" + baseDir_ + "'");
    baseReal_ = buf;
  }
  std::string full = baseDir_ + "/" + loc;
  char buf[PATH_MAX];
  if (!realpath(full.c_str(), buf))
    return ioError("external data file '" + loc + "' not found beside the model");
  std::string real = buf;
  if (!str::startsWith(real, baseReal_ + "/"))
    return invalidModel("external data location '" + loc + "' resolves to '" + real +
                        "', outside the model's folder (a symbolic link?)");
  auto it = mapped_.find(real);
  if (it == mapped_.end()) {
    auto m = MappedFile::open(real);
    if (!m) return m.error();
    it = mapped_.emplace(real, std::move(m.value())).first;
  }
  const auto& file = it->second;
  uint64_t size = file->size();
  uint64_t offset = static_cast<uint64_t>(info.offset);
  uint64_t length =
      info.length >= 0 ? static_cast<uint64_t>(info.length) : (offset <= size ? size - offset : 0);
  if (offset > size || length > size - offset)
    return invalidModel("external data '" + loc + "' is shorter than declared: needs bytes " +
                        std::to_string(offset) + ".." + std::to_string(offset + length) +
                        ", the file has " + std::to_string(size));
  if (length != expected)
    return invalidModel("external data '" + loc + "' declares " + std::to_string(length) +
                        " bytes, the tensor needs " + std::to_string(expected));
  return ir::makeMappedBuffer(file, static_cast<size_t>(offset), static_cast<size_t>(length));
}

Expected<LoadedModel> Reader::read(wire::ModelProto& proto) {
  resolver_ = [this](const ir::ExternalDataInfo& info, uint64_t expected) {
    return resolveExternal(info, expected);
  };
  if (!proto.has_graph()) {
    bool looksForeign = !proto.unknown_fields().empty() || proto.ir_version() <= 0;
    return fail(ErrorCode::kParse,
                looksForeign
                    ? "not an ONNX model (a protobuf message, but without ModelProto's graph)"
                    : "the model has no graph");
  }
  LoadedModel out;
  ir::Model& m = out.model;
  m.irVersion = proto.ir_version();
  m.producerName = proto.producer_name();
  m.producerVersion = proto.producer_version();
  m.domain = proto.domain();
  m.modelVersion = proto.model_version();
  m.docString = proto.doc_string();
  m.unknownFields = unknownFieldsOf(proto);
  for (const auto& kv : proto.metadata_props()) m.metadata.emplace_back(kv.key(), kv.value());
  for (const auto& ti : proto.training_info()) m.trainingInfo.push_back(ti.SerializeAsString());
  for (const auto& op : proto.opset_import()) {
    std::string d = op.domain();
    if (d == "ai.onnx") {
      d.clear();
      PASSLAB_RETURN_IF_ERROR(repair("opset import spelled 'ai.onnx' read as the default domain"));
    }
    if (m.opsetVersion(d)) {
      report_.warnings.push_back("opset import for '" + (d.empty() ? std::string("ai.onnx") : d) +
                                 "' listed twice; the first is used");
      continue;
    }
    m.opsets.push_back({d, op.version()});
  }
  if (!m.opsetVersion("")) {
    bool usesDefault = false;
    for (const auto& n : proto.graph().node())
      if (n.domain().empty() || n.domain() == "ai.onnx") usesDefault = true;
    if (usesDefault) {
      PASSLAB_RETURN_IF_ERROR(repair("no opset import for the default domain; assumed version 1"));
      m.opsets.insert(m.opsets.begin(), {"", 1});
    }
  }
  if (m.irVersion <= 0) PASSLAB_RETURN_IF_ERROR(repair("ir_version missing; assumed 3"));
  if (m.irVersion <= 0) m.irVersion = 3;

  mainGraph_ = &m.graph();
  PASSLAB_RETURN_IF_ERROR(buildGraph(*proto.mutable_graph(), m.graph(), "main graph"));
  countingFileNodes_ = false;  // function bodies are not part of the graph's count
  for (auto& fp : *proto.mutable_functions()) {
    ir::Function f;
    f.name = fp.name();
    f.domain = fp.domain();
    f.overload = fp.overload();
    f.docString = fp.doc_string();
    f.attributeNames.assign(fp.attribute().begin(), fp.attribute().end());
    for (const auto& kv : fp.metadata_props()) f.metadata.emplace_back(kv.key(), kv.value());
    for (const auto& op : fp.opset_import())
      f.opsets.push_back({op.domain() == "ai.onnx" ? "" : op.domain(), op.version()});
    f.body = std::make_unique<ir::Graph>();
    std::string label = "function '" + f.name + "'";
    allGraphs_.push_back(f.body.get());
    for (const auto& in : fp.input()) f.body->addInput(in, ir::Type());
    for (auto& n : *fp.mutable_node()) PASSLAB_RETURN_IF_ERROR(buildNode(n, *f.body, label));
    PendingGraph pg{f.body.get(), label, {fp.output().begin(), fp.output().end()}, {}, {}};
    static wire::ValueInfoProto kEmpty;
    pg.outputInfos.assign(pg.outputs.size(), &kEmpty);
    for (auto& vi : *fp.mutable_value_info()) pg.valueInfos.push_back(&vi);
    pendingGraphs_.push_back(std::move(pg));
    for (auto& ap : *fp.mutable_attribute_proto()) {
      auto a = convertAttribute(ap, nullptr, label);
      if (!a) return a.error();
      f.attributeDefaults.push_back(std::move(a.value()));
    }
    m.functions.push_back(std::move(f));
  }
  PASSLAB_RETURN_IF_ERROR(wireAll());
  PASSLAB_RETURN_IF_ERROR(sortAll());

  // Domains used by nodes but not imported (e.g. a contrib op without its opset import).
  const auto& reg = ir::OpRegistry::instance();
  std::vector<std::string> missing;
  m.graph().forEachNodeRecursive([&](ir::Node* n) {
    if (!m.opsetVersion(n->domain()) && !m.findFunction(n->domain(), n->opType()) &&
        std::find(missing.begin(), missing.end(), n->domain()) == missing.end())
      missing.push_back(n->domain());
  });
  for (const auto& d : missing) {
    PASSLAB_RETURN_IF_ERROR(
        repair("domain '" + d + "' is used by nodes but not imported; imported as version 1"));
    m.opsets.push_back({d, 1});
  }
  if (auto v = m.opsetVersion(""); v && *v > reg.maxOpset(""))
    report_.warnings.push_back("default-domain opset " + std::to_string(*v) +
                               " is newer than PassLab knows (" + std::to_string(reg.maxOpset("")) +
                               "); ops are read with their latest known definition");
  out.report = std::move(report_);
  return out;
}

}  // namespace

namespace {

// A model protobuf can hold at all.
Status checkModelSize(std::string_view bytes, const std::string& displayName) {
  if (bytes.empty()) return parseError(displayName + ": the file is empty");
  if (bytes.size() > static_cast<size_t>(INT_MAX))
    return unsupported(
        displayName +
        ": larger than 2 GiB; protobuf cannot hold it (large weights belong in external data)");
  return Status::ok();
}

// Why bytes that did not parse as a ModelProto are not a model: another
// protobuf message, a cut-off model, or no protobuf at all.
Error notAModel(std::string_view bytes, const std::string& displayName) {
  google::protobuf::UnknownFieldSet generic;
  if (generic.ParseFromArray(bytes.data(), static_cast<int>(bytes.size())))
    return parseError(displayName +
                      ": not an ONNX model (a protobuf message whose fields do not match "
                      "ModelProto)");
  if (static_cast<unsigned char>(bytes[0]) == 0x08)  // ONNX files start with ir_version
    return parseError(displayName +
                      ": truncated or corrupt ONNX model (protobuf parsing failed before the end)");
  return parseError(
      displayName +
      ": not an ONNX model (not protobuf data; truncated, corrupt or another format)");
}

}  // namespace

Expected<LoadedModel> loadModelFromBytes(std::string_view bytes, const std::string& baseDir,
                                         const std::string& displayName,
                                         const LoadOptions& options) {
  PASSLAB_RETURN_IF_ERROR(checkModelSize(bytes, displayName));
  wire::ModelProto proto;
  if (!proto.ParseFromArray(bytes.data(), static_cast<int>(bytes.size())))
    return notAModel(bytes, displayName);
  Reader reader(displayName, baseDir, options);
  return reader.read(proto);
}

Expected<LoadedModel> loadModel(const std::string& path, const LoadOptions& options) {
  std::error_code ec;
  if (fs::is_directory(path, ec)) return ioError(path + ": is a folder, not a model file");
  auto file = MappedFile::open(path);
  if (!file) return file.error();
  std::string dir = fs::path(path).parent_path().string();
  if (dir.empty()) dir = ".";
  std::string_view bytes(reinterpret_cast<const char*>((*file)->data()), (*file)->size());
  PASSLAB_RETURN_IF_ERROR(checkModelSize(bytes, path));
  // Parsed chunk by chunk, the file's pages given back behind the parser:
  // the weights are resident once (copied into the parsed tensors), not
  // twice (mapped_file_stream.h).
  wire::ModelProto proto;
  MappedFileStream stream(**file);
  if (!proto.ParseFromZeroCopyStream(&stream)) return notAModel(bytes, path);
  Reader reader(path, dir, options);
  return reader.read(proto);
}

}  // namespace passlab::io
