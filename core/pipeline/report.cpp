#include "core/pipeline/report.h"

#include <cmath>
#include <nlohmann/json.hpp>

namespace passlab::pipeline {

using nlohmann::json;

std::string reportToJson(const PassManager& pm, const std::string& modelPath, bool withExplain) {
  json j;
  j["format"] = "passlab-report";
  j["passlab_version"] = PASSLAB_VERSION;
  j["model"] = modelPath;
  j["steps"] = json::array();
  for (const Step& s : pm.timeline().steps()) {
    json st;
    st["pass"] = s.passId;
    json opts = json::object();
    for (const auto& [k, v] : s.options) opts[k] = v;
    st["options"] = opts;
    st["nodes_before"] = s.before.nodes;
    st["nodes_after"] = s.after.nodes;
    st["initializer_bytes_before"] = s.before.initializerBytes;
    st["initializer_bytes_after"] = s.after.initializerBytes;
    st["milliseconds"] = s.milliseconds;
    st["infer_milliseconds"] = s.inferMilliseconds;
    st["verify_milliseconds"] = s.verifyMilliseconds;
    st["shapes_inferred"] = s.shapesInferred;
    st["changed"] = s.changed;
    st["skipped"] = s.skipped;
    st["note"] = s.note;
    st["rolled_back"] = s.rolledBack;
    st["error"] = s.error;
    st["edits"] = {{"removed", s.summary.removed.size()},
                   {"added", s.summary.added.size()},
                   {"rewired", s.summary.rewired.size()},
                   {"attributes_changed", s.summary.attributeChanged.size()},
                   {"initializers_added", s.summary.initializersAdded.size()},
                   {"initializers_removed", s.summary.initializersRemoved.size()},
                   {"initializers_changed", s.summary.initializersChanged.size()},
                   {"opsets_changed", s.summary.opsetsChanged}};
    json added = json::array();
    for (ir::NodeId id : s.summary.added) {
      json a;
      a["node"] = id;
      a["origins"] = pm.provenance().origins(id);
      added.push_back(a);
    }
    st["added_nodes"] = added;
    st["removed_nodes"] = s.summary.removed;
    if (s.check.ran)
      st["check"] = {{"passed", s.check.passed},
                     {"input_sets", s.check.inputSets},
                     {"max_abs_error", s.check.maxAbsError},
                     {"max_rel_error", s.check.maxRelError},
                     {"first_diverging_tensor", s.check.firstDivergingTensor},
                     {"noise_ratio", s.check.noiseRatio},
                     {"noise_floor", s.check.noiseFloor},
                     {"noise_multiple", s.check.noiseMultiple},
                     {"step_moved", s.check.stepMoved},
                     {"step_compared", s.check.stepCompared},
                     {"step_worst_share", s.check.stepWorstShare},
                     {"step_most_steps", s.check.stepMostSteps},
                     {"step_share_limit", s.check.stepShareLimit},
                     {"step_limit", s.check.stepLimit},
                     {"same_non_finite", s.check.sameNonFinite},
                     {"finite_compared", s.check.finiteCompared},
                     {"detail", s.check.detail}};
    if (s.check.lossy) {
      json acc = json::array();
      for (const OutputAccuracy& a : s.check.accuracy) {
        json o = {{"output", a.output},
                  {"compared", a.compared},
                  {"cosine", a.cosine},
                  {"max_rel_error", a.maxRelError},
                  {"non_finite", a.nonFinite},
                  {"non_finite_differ", a.nonFiniteDiffer},
                  {"same_non_finite", a.sameNonFinite},
                  {"finite_compared", a.finiteCompared},
                  {"detail", accuracyText(a).str()}};
        o["snr_db"] = std::isfinite(a.snrDb) ? json(a.snrDb) : json(nullptr);  // inf: equal
        if (a.top1) o["top1"] = *a.top1;
        if (a.topK) o["top_k"] = *a.topK;
        acc.push_back(o);
      }
      st["check"]["lossy"] = true;
      st["check"]["accuracy"] = acc;
      if (const auto& v = s.check.roundingFloor) {
        json f = {{"output", v->output},
                  {"multiple", v->multiple},
                  {"figures", accuracyText(v->figures).str()},
                  {"floor", accuracyText(v->floor).str()},
                  {"cosine", v->figures.cosine},
                  {"floor_cosine", v->floor.cosine}};
        f["snr_db"] = std::isfinite(v->figures.snrDb) ? json(v->figures.snrDb) : json(nullptr);
        f["floor_snr_db"] = std::isfinite(v->floor.snrDb) ? json(v->floor.snrDb) : json(nullptr);
        if (v->sinceRebase) f["since_rebase"] = accuracyText(*v->sinceRebase).str();
        st["check"]["rounding_floor"] = f;
      }
    }
    if (s.check.unitsJudged)
      st["check"]["units"] = {{"judged", s.check.units},
                              {"moved", s.check.unitMoved},
                              {"compared", s.check.unitCompared},
                              {"worst_unit", s.check.worstUnit}};
    st["verifier_errors"] = s.verifierErrors;
    if (withExplain) {
      json ex = json::array();
      for (const auto& [node, reasons] : s.explain.all())
        for (const auto& [pattern, why] : *reasons) {
          json e = {{"node", node}, {"pattern", pattern}, {"reason", why}};
          if (s.snapshotBefore)
            if (const ir::Node* n = ir::findNodeRecursive(s.snapshotBefore->graph(), node))
              e["node_name"] = n->describe();
          ex.push_back(e);
        }
      st["near_misses"] = ex;
    }
    j["steps"].push_back(st);
  }
  return j.dump(2) + "\n";
}

}  // namespace passlab::pipeline
