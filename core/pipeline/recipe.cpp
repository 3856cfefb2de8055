#include "core/pipeline/recipe.h"

#include <algorithm>
#include <cmath>
#include <unordered_set>
#include <vector>

#include <nlohmann/json.hpp>

#include "core/passes/reduce_range_option.h"
#include "core/passes/registry.h"

namespace passlab::pipeline {

using nlohmann::json;

namespace {

// Node lists are written in increasing order, so one recipe always gives the
// same file (the filter's sets have no order of their own).
std::vector<ir::NodeId> sortedIds(const std::unordered_set<ir::NodeId>& ids) {
  std::vector<ir::NodeId> v(ids.begin(), ids.end());
  std::sort(v.begin(), v.end());
  return v;
}

// An option as the recipe records it: the value it ran with. reduce_range=auto
// (quantize_static, quantize_dynamic) depends on the CPU, so it is written as
// what it chose here, and the recipe replays to the same file elsewhere.
std::string recordedValue(const std::string& passId, const std::string& option,
                          const std::string& value) {
  if (option == "reduce_range" && (passId == "quantize_static" || passId == "quantize_dynamic"))
    return passes::recordedWeightRange(value);
  return value;
}

}  // namespace

std::string recipeToJson(const Recipe& r) {
  json j;
  j["format"] = "passlab-recipe";
  j["passlab_version"] = r.passlabVersion;
  j["standard_only"] = r.standardOnly;
  j["check_input_sets"] = r.checkInputSets;
  json budget;
  budget["min_cosine"] = r.budget.minCosine;
  budget["min_snr_db"] = r.budget.minSnrDb;
  if (std::isfinite(r.budget.maxRelError)) budget["max_rel_error"] = r.budget.maxRelError;
  budget["min_top1"] = r.budget.minTop1;
  budget["min_top_k"] = r.budget.minTopK;
  budget["top_k"] = r.budget.topK;
  j["accuracy_budget"] = budget;
  if (r.calibration.recorded()) {
    json c = json::object();
    if (!r.calibration.data.empty()) c["data"] = r.calibration.data;
    if (r.calibration.sets > 0) c["sets"] = r.calibration.sets;
    j["calibration"] = c;
  }
  j["passes"] = json::array();
  for (const PassSpec& s : r.passes) {
    json p;
    p["id"] = s.id;
    json opts = json::object();
    for (const auto& [k, v] : s.options) opts[k] = recordedValue(s.id, k, v);
    p["options"] = opts;
    if (!s.filter.only.empty()) p["only_nodes"] = sortedIds(s.filter.only);
    if (!s.filter.excluded.empty()) p["excluded_nodes"] = sortedIds(s.filter.excluded);
    j["passes"].push_back(p);
  }
  return j.dump(2) + "\n";
}

Expected<Recipe> recipeFromJson(const std::string& text) {
  json j = json::parse(text, nullptr, false);
  if (j.is_discarded()) return parseError("the recipe is not valid JSON");
  // json::value throws when the member is there with another type.
  if (!j.is_object() || !j.contains("format") || j["format"] != "passlab-recipe")
    return parseError("not a PassLab recipe (\"format\": \"passlab-recipe\" missing)");
  Recipe r;
  try {
    r.passlabVersion = j.value("passlab_version", "");
    r.standardOnly = j.value("standard_only", true);
    r.checkInputSets = j.value("check_input_sets", 0);
    if (j.contains("accuracy_budget")) {
      const json& b = j["accuracy_budget"];
      r.budget.minCosine = b.value("min_cosine", r.budget.minCosine);
      r.budget.minSnrDb = b.value("min_snr_db", r.budget.minSnrDb);
      r.budget.maxRelError = b.value("max_rel_error", r.budget.maxRelError);
      r.budget.minTop1 = b.value("min_top1", r.budget.minTop1);
      r.budget.minTopK = b.value("min_top_k", r.budget.minTopK);  // not in older recipes
      r.budget.topK = b.value("top_k", r.budget.topK);
      PASSLAB_RETURN_IF_ERROR(validateBudget(r.budget));
    }
    // A recipe written before calibration was recorded has none: the replay
    // takes the command line's (or the defaults).
    if (j.contains("calibration")) {
      const json& c = j["calibration"];
      if (!c.is_object() || (c.contains("data") && !c["data"].is_string()) ||
          (c.contains("sets") && !c["sets"].is_number_integer()))
        return parseError(
            "the recipe's \"calibration\" is not {\"data\": FOLDER} or {\"sets\": COUNT}");
      r.calibration.data = c.value("data", "");
      // As --calibration-sets takes them: 1 to 100000.
      const int64_t sets = c.value("sets", int64_t{0});
      r.calibration.sets = static_cast<int>(std::clamp<int64_t>(sets, 0, 100000));
      if (c.contains("sets") && (sets < 1 || sets > 100000))
        return invalidArgument(Text::of(
            "the recipe's calibration sets is %1; it is a count of input sets (1 to 100000)",
            c["sets"].dump()));
    }
    if (!j.contains("passes") || !j["passes"].is_array())
      return parseError("the recipe has no \"passes\" list");
    for (const auto& p : j["passes"]) {
      PassSpec s;
      s.id = p.at("id").get<std::string>();
      if (p.contains("options"))
        for (auto it = p["options"].begin(); it != p["options"].end(); ++it)
          s.options.emplace_back(it.key(), it->is_string() ? it->get<std::string>() : it->dump());
      if (p.contains("only_nodes"))
        for (const auto& id : p["only_nodes"]) s.filter.only.insert(id.get<ir::NodeId>());
      if (p.contains("excluded_nodes"))
        for (const auto& id : p["excluded_nodes"]) s.filter.excluded.insert(id.get<ir::NodeId>());
      r.passes.push_back(std::move(s));
    }
  } catch (const json::exception& e) {
    return parseError(Text::of("malformed recipe: %1", e.what()));
  }
  PASSLAB_RETURN_IF_ERROR(validateRecipe(r));
  return r;
}

Status validateRecipe(const Recipe& r) {
  // A negative count would switch off the check a lossy pass is held to.
  if (r.checkInputSets < 0)
    return invalidArgument(
        Text::of("the recipe's check_input_sets is %1; it is a count of input sets (0 or more)",
                 std::to_string(r.checkInputSets)));
  for (const PassSpec& s : r.passes) {
    const passes::Pass* p = passes::findPass(s.id);
    if (!p) return invalidArgument(Text::of("the recipe names an unknown pass '%1'", s.id));
    auto o = effectiveOptions(*p, s.options);
    if (!o) return o.error();
  }
  return Status::ok();
}

}  // namespace passlab::pipeline
