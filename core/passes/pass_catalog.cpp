#include "core/passes/pass_catalog.h"

#include <cstdio>
#include <cstdlib>
#include <nlohmann/json.hpp>
#include <utility>

namespace passlab::passes {

extern const char kPassCatalogJson[];
extern const std::size_t kPassCatalogJsonSize;

namespace {

using Json = nlohmann::ordered_json;

constexpr int64_t kDefaultMinOpset = 1;
constexpr int64_t kDefaultMaxOpset = 28;

// The enums are spelled as categoryName / optionKindName spell them.
constexpr Category kCategories[] = {Category::kStructural, Category::kPrecision,
                                    Category::kAlgorithm, Category::kReadWrite};
constexpr OptionKind kOptionKinds[] = {OptionKind::kText, OptionKind::kBool, OptionKind::kCount,
                                       OptionKind::kNumber};
std::string_view spellingOf(Category c) {
  return categoryName(c);
}
std::string_view spellingOf(OptionKind k) {
  return optionKindName(k);
}

struct Flag {
  std::string_view name;
  bool PassInfo::*field;
};
constexpr Flag kFlags[] = {
    {"changes_numerics", &PassInfo::changesNumerics},
    {"lossy", &PassInfo::lossy},
    {"exact_per_unit", &PassInfo::exactPerUnit},
    {"by_name_only", &PassInfo::byNameOnly},
    {"may_emit_nonstandard", &PassInfo::mayEmitNonStandard},
};

template <class Enum, size_t N>
Expected<Enum> valueOf(const Enum (&values)[N], const std::string& s, const std::string& where) {
  std::string accepted;
  for (Enum value : values) {
    std::string_view name = spellingOf(value);
    if (name == s) return value;
    accepted += (accepted.empty() ? "" : ", ") + std::string(name);
  }
  return invalidArgument(Text::of("%1: '%2' is not one of %3", where, s, accepted));
}

// Reads the fields of one JSON object, each checked for its type; errors
// name the entry and the field.
class FieldReader {
 public:
  FieldReader(const Json& object, std::string where) : object_(object), where_(std::move(where)) {}

  Status text(const char* field, std::string& out, bool required = true) const {
    auto it = object_.find(field);
    if (it == object_.end()) return required ? Status(missing(field)) : Status::ok();
    if (!it->is_string()) return wrongType(field, "a string");
    out = it->get<std::string>();
    return Status::ok();
  }
  Status number(const char* field, double& out) const {
    auto it = object_.find(field);
    if (it == object_.end()) return Status::ok();
    if (!it->is_number()) return wrongType(field, "a number");
    out = it->get<double>();
    return Status::ok();
  }
  template <class Enum, size_t N>
  Status spelled(const char* field, const Enum (&values)[N], Enum& out) const {
    std::string s;
    PASSLAB_RETURN_IF_ERROR(text(field, s));
    auto value = valueOf(values, s, where_ + " " + field);
    if (!value) return value.error();
    out = *value;
    return Status::ok();
  }
  const Json* find(const char* field) const {
    auto it = object_.find(field);
    return it == object_.end() ? nullptr : &*it;
  }
  const std::string& where() const { return where_; }
  Error missing(const char* field) const {
    return invalidArgument(Text::of("%1: the field '%2' is missing", where_, field));
  }
  Error wrongType(const char* field, const char* expected) const {
    return invalidArgument(Text::of("%1: the field '%2' is not %3", where_, field, expected));
  }

 private:
  const Json& object_;
  std::string where_;
};

Expected<PassOption> readOption(const Json& j, const std::string& where) {
  if (!j.is_object()) return invalidArgument(Text::of("%1: an option is not an object", where));
  PassOption o;
  PASSLAB_RETURN_IF_ERROR(FieldReader(j, where).text("name", o.name));
  FieldReader f(j, where + " option " + o.name);
  PASSLAB_RETURN_IF_ERROR(f.text("default", o.defaultValue, /*required=*/false));
  PASSLAB_RETURN_IF_ERROR(f.text("help", o.help));
  PASSLAB_RETURN_IF_ERROR(f.spelled("kind", kOptionKinds, o.kind));
  PASSLAB_RETURN_IF_ERROR(f.number("minimum", o.minimum));
  return o;
}

Status readOptions(const FieldReader& f, PassInfo& info) {
  const Json* options = f.find("options");
  if (!options) return Status::ok();
  if (!options->is_array()) return f.wrongType("options", "an array");
  for (const Json& o : *options) {
    auto option = readOption(o, f.where());
    if (!option) return option.error();
    info.options.push_back(std::move(*option));
  }
  return Status::ok();
}

Status readOpsets(const FieldReader& f, PassInfo& info) {
  const Json* opsets = f.find("opsets");
  if (!opsets) return Status::ok();
  if (!opsets->is_array() || opsets->size() != 2 || !(*opsets)[0].is_number_integer() ||
      !(*opsets)[1].is_number_integer())
    return f.wrongType("opsets", "[lowest, highest]");
  info.minOpset = (*opsets)[0].get<int64_t>();
  info.maxOpset = (*opsets)[1].get<int64_t>();
  return Status::ok();
}

Status readFlags(const FieldReader& f, PassInfo& info) {
  const Json* flags = f.find("flags");
  if (!flags) return Status::ok();
  if (!flags->is_array()) return f.wrongType("flags", "an array");
  for (const Json& flag : *flags) {
    bool known = false;
    for (const Flag& k : kFlags)
      if (flag.is_string() && flag.get<std::string>() == k.name) {
        info.*k.field = true;
        known = true;
      }
    if (!known)
      return invalidArgument(
          Text::of("%1: unknown flag %2 (changes_numerics, lossy, exact_per_unit, "
                   "by_name_only, may_emit_nonstandard)",
                   f.where(), flag.dump()));
  }
  return Status::ok();
}

Status readSummary(const FieldReader& f, PassInfo& info) {
  const Json* summary = f.find("summary");
  if (!summary || !summary->is_object())
    return f.wrongType("summary", "{\"en\": ..., \"zh\": ...}");
  FieldReader s(*summary, f.where() + " summary");
  PASSLAB_RETURN_IF_ERROR(s.text("en", info.summaryEn));
  return s.text("zh", info.summaryZh);
}

Expected<PassInfo> readEntry(const Json& j, size_t index) {
  std::string where = Text::of("pass catalog entry %1", std::to_string(index + 1)).str();
  if (!j.is_object()) return invalidArgument(Text::of("%1 is not an object", where));
  PassInfo info;
  PASSLAB_RETURN_IF_ERROR(FieldReader(j, where).text("id", info.id));
  FieldReader f(j, where + " (" + info.id + ")");
  PASSLAB_RETURN_IF_ERROR(f.spelled("category", kCategories, info.category));
  PASSLAB_RETURN_IF_ERROR(f.text("kind", info.kind));
  PASSLAB_RETURN_IF_ERROR(readSummary(f, info));
  PASSLAB_RETURN_IF_ERROR(readOptions(f, info));
  PASSLAB_RETURN_IF_ERROR(readOpsets(f, info));
  PASSLAB_RETURN_IF_ERROR(readFlags(f, info));
  return info;
}

Json optionJson(const PassOption& o) {
  Json j;
  j["name"] = o.name;
  if (!o.defaultValue.empty()) j["default"] = o.defaultValue;
  j["kind"] = spellingOf(o.kind);
  if (o.minimum != 0) j["minimum"] = o.minimum;
  j["help"] = o.help;
  return j;
}

Json entryJson(const PassInfo& info) {
  Json j;
  j["id"] = info.id;
  j["category"] = spellingOf(info.category);
  j["kind"] = info.kind;
  j["summary"] = {{"en", info.summaryEn}, {"zh", info.summaryZh}};
  if (!info.options.empty()) {
    j["options"] = Json::array();
    for (const PassOption& o : info.options) j["options"].push_back(optionJson(o));
  }
  if (info.minOpset != kDefaultMinOpset || info.maxOpset != kDefaultMaxOpset)
    j["opsets"] = {info.minOpset, info.maxOpset};
  Json flags = Json::array();
  for (const Flag& k : kFlags)
    if (info.*k.field) flags.push_back(k.name);
  if (!flags.empty()) j["flags"] = flags;
  return j;
}

std::vector<PassInfo> loadCompiledCatalog() {
  auto parsed = parsePassCatalog(std::string_view(kPassCatalogJson, kPassCatalogJsonSize));
  if (!parsed) {
    std::fprintf(stderr, "passlab: the compiled-in pass catalog is invalid: %s\n",
                 parsed.error().message().c_str());
    std::abort();
  }
  return std::move(*parsed);
}

}  // namespace

Expected<std::vector<PassInfo>> parsePassCatalog(std::string_view json) {
  Json doc = Json::parse(json, nullptr, /*allow_exceptions=*/false, /*ignore_comments=*/true);
  if (doc.is_discarded()) return invalidArgument(Text("the pass catalog is not valid JSON"));
  const Json* passes = doc.is_object() && doc.contains("passes") ? &doc["passes"] : nullptr;
  if (!passes || !passes->is_array())
    return invalidArgument(Text("the pass catalog has no array 'passes'"));
  std::vector<PassInfo> out;
  for (size_t i = 0; i < passes->size(); ++i) {
    auto info = readEntry((*passes)[i], i);
    if (!info) return info.error();
    for (const PassInfo& earlier : out)
      if (earlier.id == info->id)
        return invalidArgument(Text::of("the pass catalog lists '%1' twice", info->id));
    out.push_back(std::move(*info));
  }
  return out;
}

std::string passCatalogJson(const std::vector<PassInfo>& infos) {
  Json doc;
  doc["passes"] = Json::array();
  for (const PassInfo& info : infos) doc["passes"].push_back(entryJson(info));
  return doc.dump(2, ' ', /*ensure_ascii=*/false) + "\n";
}

const std::vector<PassInfo>& passCatalog() {
  static const std::vector<PassInfo> kCatalog = loadCompiledCatalog();
  return kCatalog;
}

const PassInfo& catalogInfo(std::string_view id) {
  for (const PassInfo& info : passCatalog())
    if (info.id == id) return info;
  std::fprintf(stderr, "passlab: pass '%.*s' has no entry in core/passes/pass_catalog.json\n",
               static_cast<int>(id.size()), id.data());
  std::abort();
}

}  // namespace passlab::passes
