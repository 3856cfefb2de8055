#include "core/ir/op_schema.h"

#include <algorithm>
#include <climits>

#include "core/ir/node.h"
#include "core/support/strings.h"

namespace passlab::ir {

extern const char kOpSchemaTable[];
extern const std::size_t kOpSchemaTableSize;
// op_schemas_extra.txt: hand-written records for operators the generator's
// sources do not describe (removed experimental ONNX ops, QONNX quantizers).
extern const char kOpSchemaExtraTable[];
extern const std::size_t kOpSchemaExtraTableSize;

namespace {

// "seq(map(string, float)),tensor(float)" -> the two types: commas inside
// parentheses belong to a type.
std::vector<std::string> splitTypeList(const std::string& s) {
  std::vector<std::string> out(1);
  int depth = 0;
  for (char ch : s) {
    if (ch == ',' && depth == 0) {
      out.emplace_back();
      continue;
    }
    depth += ch == '(' ? 1 : ch == ')' ? -1 : 0;
    out.back() += ch;
  }
  return out;
}

AttrType attrTypeFromName(std::string_view n) {
  static const std::pair<std::string_view, AttrType> kNames[] = {
      {"FLOAT", AttrType::kFloat},
      {"INT", AttrType::kInt},
      {"STRING", AttrType::kString},
      {"TENSOR", AttrType::kTensor},
      {"GRAPH", AttrType::kGraph},
      {"FLOATS", AttrType::kFloats},
      {"INTS", AttrType::kInts},
      {"STRINGS", AttrType::kStrings},
      {"TENSORS", AttrType::kTensors},
      {"GRAPHS", AttrType::kGraphs},
      {"SPARSE_TENSOR", AttrType::kSparseTensor},
      {"SPARSE_TENSORS", AttrType::kSparseTensors},
      {"TYPE_PROTO", AttrType::kTypeProto},
      {"TYPE_PROTOS", AttrType::kTypeProtos},
  };
  for (auto& [name, t] : kNames)
    if (name == n) return t;
  return AttrType::kUndefined;
}

ParamOption optionFromCode(std::string_view c) {
  if (c == "o") return ParamOption::kOptional;
  if (c == "v") return ParamOption::kVariadic;
  return ParamOption::kSingle;
}

std::string key(std::string_view domain, std::string_view op) {
  std::string k(OpRegistry::canonicalDomain(domain));
  k += ':';
  k += op;
  return k;
}

}  // namespace

int OpSchema::minInputs() const {
  int n = 0;
  for (const auto& p : inputs) {
    if (p.option == ParamOption::kSingle) ++n;
    if (p.option == ParamOption::kVariadic) n += p.minArity;
  }
  // Trailing optional inputs do not count, but an optional before a required one
  // must still be present (as ""), so count up to the last required param.
  int last = -1;
  for (int i = 0; i < static_cast<int>(inputs.size()); ++i)
    if (inputs[i].option != ParamOption::kOptional) last = i;
  int positional = last + 1;
  if (last >= 0 && inputs[last].option == ParamOption::kVariadic)
    positional = last + inputs[last].minArity;
  return std::max(n, positional);
}

int OpSchema::maxInputs() const {
  if (!inputs.empty() && inputs.back().option == ParamOption::kVariadic) return INT32_MAX;
  return static_cast<int>(inputs.size());
}

int OpSchema::minOutputs() const {
  int last = -1;
  for (int i = 0; i < static_cast<int>(outputs.size()); ++i)
    if (outputs[i].option != ParamOption::kOptional) last = i;
  if (last >= 0 && outputs[last].option == ParamOption::kVariadic)
    return last + outputs[last].minArity;
  return last + 1;
}

int OpSchema::maxOutputs() const {
  if (!outputs.empty() && outputs.back().option == ParamOption::kVariadic) return INT32_MAX;
  return static_cast<int>(outputs.size());
}

const AttrSpec* OpSchema::attr(std::string_view attrName) const {
  for (const auto& a : attributes)
    if (a.name == attrName) return &a;
  return nullptr;
}

const TypeConstraint* OpSchema::constraint(std::string_view param) const {
  for (const auto& c : typeConstraints)
    if (c.param == param) return &c;
  return nullptr;
}

static const FormalParam* bindParam(const std::vector<FormalParam>& params, size_t index) {
  if (params.empty()) return nullptr;
  if (index < params.size()) return &params[index];
  if (params.back().option == ParamOption::kVariadic) return &params.back();
  return nullptr;
}

const FormalParam* OpSchema::inputParam(size_t index) const {
  return bindParam(inputs, index);
}
const FormalParam* OpSchema::outputParam(size_t index) const {
  return bindParam(outputs, index);
}

std::string_view OpRegistry::canonicalDomain(std::string_view domain) {
  return domain == "ai.onnx" ? std::string_view() : domain;
}

const OpRegistry& OpRegistry::instance() {
  static const OpRegistry registry;
  return registry;
}

OpRegistry::OpRegistry() {
  parseTable(std::string_view(kOpSchemaTable, kOpSchemaTableSize));
  parseTable(std::string_view(kOpSchemaExtraTable, kOpSchemaExtraTableSize));
  index();
}

void OpRegistry::parseTable(std::string_view table) {
  OpSchema* cur = nullptr;
  size_t pos = 0;
  while (pos < table.size()) {
    size_t end = table.find('\n', pos);
    if (end == std::string_view::npos) end = table.size();
    std::string_view line = table.substr(pos, end - pos);
    pos = end + 1;
    if (line.empty() || line[0] == '#') continue;
    auto f = str::split(line, '\t');
    const std::string& kind = f[0];
    if (kind == "opset" && f.size() >= 3) {
      auto& mx = maxOpset_[f[1]];
      mx = std::max<int64_t>(mx, std::stoll(f[2]));
    } else if (kind == "op" && f.size() >= 6) {
      auto& list = ops_[key(f[1], f[2])];
      list.emplace_back();
      cur = &list.back();
      cur->domain = f[1];
      cur->name = f[2];
      cur->sinceVersion = std::stoi(f[3]);
      cur->deprecated = f[4] == "1";
      cur->deterministic = f[5] == "1";
      auto& mx = maxOpset_[f[1]];
      mx = std::max<int64_t>(mx, cur->sinceVersion);
      ++count_;
    } else if (cur && (kind == "in" || kind == "out") && f.size() >= 6) {
      FormalParam p{f[1], f[2], optionFromCode(f[3]), f[4] == "1", std::stoi(f[5])};
      (kind == "in" ? cur->inputs : cur->outputs).push_back(std::move(p));
    } else if (cur && kind == "tc" && f.size() >= 3) {
      cur->typeConstraints.push_back({f[1], splitTypeList(f[2])});
    } else if (cur && kind == "attr" && f.size() >= 4) {
      AttrSpec a{f[1], attrTypeFromName(f[2]), f[3] == "req", std::nullopt};
      if (f.size() >= 5) a.defaultText = f[4];
      cur->attributes.push_back(std::move(a));
    } else if (cur && kind == "doc" && f.size() >= 2) {
      cur->summary = f[1];
    }
  }
}

void OpRegistry::index() {
  std::vector<std::string> tensorTypeNames;  // "tensor(float)" by DataType code
  for (int code = 0; code < kDataTypeCount && code < 64; ++code)
    tensorTypeNames.push_back("tensor(" + std::string(dtypeName(static_cast<DataType>(code))) +
                              ")");
  for (auto& [k, list] : ops_) {
    for (OpSchema& schema : list)
      for (TypeConstraint& tc : schema.typeConstraints)
        for (std::string a : tc.allowed) {
          a.erase(std::remove(a.begin(), a.end(), ' '), a.end());
          for (size_t code = 0; code < tensorTypeNames.size(); ++code)
            if (a == tensorTypeNames[code]) tc.tensorElemBits |= uint64_t{1} << code;
        }
    std::sort(list.begin(), list.end(),
              [](const OpSchema& a, const OpSchema& b) { return a.sinceVersion < b.sinceVersion; });
    byInterned_[{&internOpName(list.front().domain), &internOpName(list.front().name)}] = &list;
  }
}

// The version in force at `opsetVersion`: the highest since_version not above it.
static const OpSchema* inForce(const std::vector<OpSchema>& versions, int64_t opsetVersion) {
  const OpSchema* best = nullptr;
  for (const auto& s : versions)
    if (s.sinceVersion <= opsetVersion) best = &s;
  return best;
}

const OpSchema* OpRegistry::find(const Node& n, int64_t opsetVersion) const {
  auto it = byInterned_.find({n.domainKey(), n.opTypeKey()});
  if (it == byInterned_.end())  // unknown, or a domain spelled "ai.onnx"
    return n.domain() == "ai.onnx" ? find(n.domain(), n.opType(), opsetVersion) : nullptr;
  return inForce(*it->second, opsetVersion);
}

const std::vector<OpSchema>* OpRegistry::versions(std::string_view domain,
                                                  std::string_view op) const {
  auto it = ops_.find(key(domain, op));
  return it == ops_.end() ? nullptr : &it->second;
}

const OpSchema* OpRegistry::find(std::string_view domain, std::string_view op,
                                 int64_t opsetVersion) const {
  const auto* list = versions(domain, op);
  return list ? inForce(*list, opsetVersion) : nullptr;
}

const OpSchema* OpRegistry::latest(std::string_view domain, std::string_view op) const {
  const auto* list = versions(domain, op);
  return list && !list->empty() ? &list->back() : nullptr;
}

bool OpRegistry::knowsDomain(std::string_view domain) const {
  return maxOpset_.count(std::string(canonicalDomain(domain))) > 0;
}

int64_t OpRegistry::maxOpset(std::string_view domain) const {
  auto it = maxOpset_.find(std::string(canonicalDomain(domain)));
  return it == maxOpset_.end() ? 0 : it->second;
}

std::vector<std::string> OpRegistry::opNames(std::string_view domain) const {
  std::vector<std::string> names;
  for (const auto& [k, list] : ops_)
    if (!list.empty() && list.front().domain == canonicalDomain(domain))
      names.push_back(list.front().name);
  std::sort(names.begin(), names.end());
  return names;
}

}  // namespace passlab::ir
