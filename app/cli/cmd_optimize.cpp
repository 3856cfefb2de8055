// passlab-cli optimize IN -o OUT: run the pipeline, one row per Step.
#include <CLI/CLI.hpp>

#include <algorithm>
#include <cstdio>
#include <fstream>
#include <iostream>
#include <map>
#include <optional>
#include <set>
#include <sstream>

#include "app/cli/budget_args.h"
#include "app/cli/calibration_args.h"
#include "app/cli/check_inputs.h"
#include "app/cli/commands.h"
#include "app/cli/int8_cpu_note.h"
#include "app/cli/output_files.h"
#include "core/analysis/shape_inference.h"
#include "core/io/model_io.h"
#include "core/io/npy.h"
#include "core/ir/attribute_limits.h"
#include "core/ir/graph.h"
#include "core/passes/pass_catalog.h"
#include "core/passes/registry.h"
#include "core/pipeline/numeric_check.h"
#include "core/pipeline/precision_checker.h"
#include "core/pipeline/recipe.h"
#include "core/pipeline/recorded_calibration.h"
#include "core/pipeline/report.h"
#include "core/pipeline/rounding_floor.h"
#include "core/support/strings.h"

namespace passlab::cli {

namespace {

struct OptimizeArgs {
  std::string in, out, passList, level, recipe, saveRecipe, report;
  int check = 0;
  bool explain = false, allowNonstandard = false, inPlace = false, verifyEachPass = false;
  std::vector<std::string> excludeNodes;
  std::vector<std::string> excludeOps;  // op types
  CheckInputArgs checkInputs;           // --input, --input-dir, --dim
  std::vector<std::string> sets;        // PASS.OPTION=VALUE
  // The accuracy budget of lossy passes, where given (else the recipe's or the default).
  BudgetArgs budget;
  CalibrationArgs calibration;  // for quantize_static
};

// Whether the plan runs a lossy pass (PassInfo::lossy).
bool plansLossyPass(const pipeline::Recipe& r) {
  for (const pipeline::PassSpec& spec : r.passes)
    if (const passes::Pass* p = passes::findPass(spec.id); p && p->info().lossy) return true;
  return false;
}

Expected<std::string> readText(const std::string& path) {
  std::ifstream in(path);
  if (!in) return ioError("cannot read '" + path + "'");
  std::stringstream ss;
  ss << in.rdbuf();
  return ss.str();
}

// The level `optimize` runs when no level, pass list or recipe is given.
constexpr const char* kDefaultLevel = "default";

std::string levelOf(const OptimizeArgs& a) {
  return a.level.empty() ? kDefaultLevel : a.level;
}

// What the plan is, in one line: the user sees which passes will run.
void printPlan(const OptimizeArgs& a, const pipeline::Recipe& r) {
  if (!a.recipe.empty())
    std::printf("plan: the recipe %s (%zu steps)\n", a.recipe.c_str(), r.passes.size());
  else if (!a.passList.empty())
    std::printf("plan: the passes given (%zu)\n", r.passes.size());
  else
    std::printf("plan: level %s%s (%zu passes; `passlab-cli passes` lists the levels)\n",
                levelOf(a).c_str(), a.level.empty() ? ", the default" : "", r.passes.size());
}

Expected<pipeline::Recipe> buildRecipe(const OptimizeArgs& a, const ir::Model& model) {
  pipeline::Recipe r;
  if (!a.recipe.empty()) {
    auto text = readText(a.recipe);
    if (!text) return text.error();
    auto parsed = pipeline::recipeFromJson(*text);
    if (!parsed) return parsed.error().withContext(a.recipe);
    r = std::move(parsed.value());
  } else {
    std::vector<std::string> ids;
    if (!a.passList.empty()) {
      ids = str::split(a.passList, ',');
    } else {
      auto level = passes::passesForLevel(levelOf(a));
      if (!level) return level.error();
      ids = *level;
    }
    for (const auto& id : ids) {
      std::string t(str::trim(id));
      if (!passes::findPass(t))
        return invalidArgument("unknown pass '" + t + "' (see `passlab-cli passes`)");
      r.passes.push_back({t, {}, {}});
    }
    r.standardOnly = !a.allowNonstandard;
    r.checkInputSets = a.check;
  }
  // --set PASS.OPTION=VALUE: an option of every run of PASS in the plan.
  for (const std::string& set : a.sets) {
    const size_t eq = set.find('=');
    const size_t dot = set.substr(0, eq).find('.');
    if (eq == std::string::npos || dot == std::string::npos || dot == 0 || dot + 1 == eq)
      return invalidArgument("--set " + set + ": write PASS.OPTION=VALUE");
    const std::string id = set.substr(0, dot), name = set.substr(dot + 1, eq - dot - 1),
                      value = set.substr(eq + 1);
    const passes::Pass* pass = passes::findPass(id);
    if (!pass) return invalidArgument("--set " + set + ": unknown pass '" + id + "'");
    if (auto checked = pipeline::effectiveOptions(*pass, {{name, value}}); !checked)
      return checked.error().withContext("--set " + set);
    bool inPlan = false;
    for (pipeline::PassSpec& spec : r.passes) {
      if (spec.id != id) continue;
      inPlan = true;
      std::erase_if(spec.options, [&](const auto& o) { return o.first == name; });
      spec.options.emplace_back(name, value);
    }
    if (!inPlan)
      return invalidArgument("--set " + set + ": pass '" + id + "' is not in the plan" +
                             (a.recipe.empty() ? " (give it in --passes, or pick a level with it)"
                                               : " (the recipe has no step of it)"));
  }
  if (a.check > 0) r.checkInputSets = a.check;
  if (a.allowNonstandard) r.standardOnly = false;
  if (Status b = a.budget.applyTo(r.budget); !b.isOk()) return b.error();
  // A pass that standard-only mode skips ignores its options: say so now.
  for (const std::string& set : a.sets) {
    const passes::Pass* pass = passes::findPass(set.substr(0, set.find('.')));
    if (pass && pass->info().mayEmitNonStandard && r.standardOnly)
      std::printf(
          "note: --set %s has no effect: %s emits non-standard ops and is skipped "
          "without --allow-nonstandard\n",
          set.c_str(), pass->info().id.c_str());
  }
  // --exclude-node NAME applies to every pass.
  for (const auto& name : a.excludeNodes) {
    ir::NodeId id = 0;
    model.graph().forEachNodeRecursive([&](ir::Node* n) {
      if (n->name() == name) id = n->id();
    });
    if (!id) return invalidArgument("--exclude-node: no node named '" + name + "'");
    for (auto& p : r.passes) p.filter.excluded.insert(id);
  }
  // --exclude-op OP: every node of that op type, in every pass.
  for (const auto& op : a.excludeOps) {
    std::vector<ir::NodeId> ids;
    model.graph().forEachNodeRecursive([&](ir::Node* n) {
      if (n->opType() == op) ids.push_back(n->id());
    });
    if (ids.empty()) return invalidArgument("--exclude-op: the model has no " + op + " node");
    for (auto& p : r.passes) p.filter.excluded.insert(ids.begin(), ids.end());
  }
  PASSLAB_RETURN_IF_ERROR(pipeline::validateRecipe(r));
  return r;
}

// ", 0.8x noise" when the check measured a noise floor: the worst output's
// deviation in floors of that output (docs/numeric-check.md).
std::string noiseText(const pipeline::NumericCheck& c) {
  if (c.noiseMultiple <= 0) return "";
  char buf[48];
  std::snprintf(buf, sizeof buf, ", %.2gx noise", c.noiseRatio);
  return buf;
}

// ", 10 values NaN or infinite in both" when the exact check met such
// pairs (equal: core/pipeline/non_finite_pair.h); said louder when they were
// all it compared.
std::string nonFiniteText(const pipeline::NumericCheck& c) {
  if (c.sameNonFinite == 0) return "";
  const std::string n = std::to_string(c.sameNonFinite);
  if (c.finiteCompared == 0)
    return ", no finite value compared: all " + n + " values NaN or infinite in both";
  return ", " + n + " values NaN or infinite in both";
}

// ", 821 of 903168 elements 1-2 quantization steps apart" when the step rule
// judged an output (docs/numeric-check.md).
std::string stepText(const pipeline::NumericCheck& c) {
  if (c.stepCompared <= 0) return "";
  char buf[96];
  std::snprintf(buf, sizeof buf, ", %lld of %lld elements %s quantization step%s apart",
                static_cast<long long>(c.stepMoved), static_cast<long long>(c.stepCompared),
                c.stepMostSteps > 1.0001 ? "1-2" : "a", c.stepMostSteps > 1.0001 ? "s" : "");
  return buf;
}

// "units ok (8 judged, 3 of 5117952 elements a step apart); " for a step
// judged by the check per node unit (docs/numeric-check.md).
std::string unitText(const pipeline::NumericCheck& c) {
  if (!c.unitsJudged) return "";
  char buf[160];
  if (c.passed || c.lossy)
    std::snprintf(buf, sizeof buf, "units ok (%zu judged, %lld of %lld elements a step apart); ",
                  c.units, static_cast<long long>(c.unitMoved),
                  static_cast<long long>(c.unitCompared));
  else
    std::snprintf(buf, sizeof buf, "unit FAILED at '%s'; ", c.worstUnit.c_str());
  return buf;
}

std::string checkText(const pipeline::Step& s) {
  if (!s.check.ran) return s.changed ? "-" : "";
  if (s.check.lossy) {
    if (pipeline::excusedByRoundingFloor(s.check)) {
      const auto& v = *s.check.roundingFloor;
      return unitText(s.check) + "within the rounding floor ('" + v.output +
             "': " + pipeline::accuracyText(v.figures).str() +
             "; floor: " + pipeline::accuracyText(v.floor).str() + ")";
    }
    const pipeline::OutputAccuracy* w = pipeline::worstOutput(s.check.accuracy);
    return unitText(s.check) + (s.check.passed ? "within budget" : "OVER BUDGET") +
           (w ? " ('" + w->output + "': " + pipeline::accuracyText(*w).str() + ")" : "");
  }
  char buf[320];
  if (s.check.passed) {
    std::snprintf(buf, sizeof buf, "ok (max abs %.1e, rel %.1e%s%s%s)", s.check.maxAbsError,
                  s.check.maxRelError, noiseText(s.check).c_str(), stepText(s.check).c_str(),
                  nonFiniteText(s.check).c_str());
  } else if (s.check.unitsJudged) {
    return unitText(s.check);
  } else {
    std::snprintf(buf, sizeof buf, "FAILED at '%s' (max abs %.2e, rel %.2e%s)",
                  s.check.firstDivergingTensor.c_str(), s.check.maxAbsError, s.check.maxRelError,
                  noiseText(s.check).c_str());
  }
  return buf;
}

// Why a step of a pass exact per node unit that passed was compared exactly
// instead (its units could not be judged: "its units were not judged (the
// step edits nodes in place ...)"); "" otherwise. Its "ok (...)" alone does
// not say so; a failed one says it in its error.
std::string unjudgedUnitsText(const pipeline::Step& s) {
  if (!s.check.ran || !s.check.passed || s.check.unitsJudged || s.check.detail.empty()) return "";
  const passes::Pass* pass = passes::findPass(s.passId);
  return pass && pass->info().exactPerUnit ? s.check.detail.str() : "";
}

// Writes `text` to `path` through a temporary file renamed over it, so a
// failure leaves no partial file; says "WHAT saved to PATH", or prints an
// error naming the file and returns false.
bool saveText(const char* what, const std::string& path, const std::string& text) {
  if (Status s = writeFileAtomically(path, text); !s.isOk()) {
    std::cerr << "error: cannot write the " << what << " to " << path << ": " << s.message()
              << "\nthe model was not saved\n";
    return false;
  }
  std::printf("%s saved to %s\n", what, path.c_str());
  return true;
}

void printSteps(const pipeline::PassManager& pm, bool explain) {
  std::printf("%-3s %-34s %-15s %-44s %9s  %s\n", "#", "pass", "nodes", "changes", "time", "check");
  int i = 0;
  for (const pipeline::Step& s : pm.timeline().steps()) {
    std::string nodes = std::to_string(s.before.nodes) + " -> " + std::to_string(s.after.nodes);
    std::string changes = s.skipped      ? s.note.str()
                          : s.rolledBack ? "ROLLED BACK: " + s.error.str()
                                         : s.summary.toString();
    std::printf("%-3d %-34s %-15s %-44s %7.1f ms  %s\n", ++i, s.passId.c_str(), nodes.c_str(),
                changes.c_str(), s.milliseconds, checkText(s).c_str());
    // A pass that ran can leave a note too (stopped by the driver's cap).
    if (!s.skipped && !s.note.empty()) std::printf("      note: %s\n", s.note.str().c_str());
    if (std::string why = unjudgedUnitsText(s); !why.empty())
      std::printf("      check: %s\n", why.c_str());
    if (explain) {
      for (const auto& [node, reasons] : s.explain.all()) {
        const ir::Node* n =
            s.snapshotBefore ? ir::findNodeRecursive(s.snapshotBefore->graph(), node) : nullptr;
        for (const auto& [pattern, why] : *reasons)
          std::printf("      near miss: %s on %s: %s\n", pattern.c_str(),
                      n ? n->describe().c_str() : ("#" + std::to_string(node)).c_str(),
                      why.str().c_str());
      }
    }
  }
}

// With --check, the file as saved is loaded again, verified, and run on the
// same inputs: what the user gets is what was checked, not the in-memory copy.
int checkSavedFile(const std::string& path, pipeline::ExecOutputChecker& checker,
                   const std::set<std::string>& originalErrors,
                   const pipeline::AccuracyBudget* budget) {
  auto reloaded = io::loadModel(path);
  if (!reloaded) {
    std::cerr << "error: the saved model does not load again: " << reloaded.error().message()
              << "\n";
    return 2;
  }
  analysis::inferShapes(reloaded->model);
  for (const std::string& e : pipeline::verifierErrorSet(reloaded->model))
    if (!originalErrors.count(e)) {
      std::cerr << "error: the saved model fails the verifier: " << e << "\n";
      return 2;
    }
  pipeline::NumericCheck c =
      budget ? checker.checkWithinBudget(reloaded->model, *budget) : checker.check(reloaded->model);
  if (c.lossy) {
    const pipeline::OutputAccuracy* w = pipeline::worstOutput(c.accuracy);
    if (!c.passed) {
      std::cerr << "error: the saved model is over the accuracy budget: " << c.detail << "\n";
      return 2;
    }
    std::printf(
        "reloaded %s: verifier clean, outputs within the accuracy budget on %zu input sets%s\n",
        path.c_str(), c.inputSets,
        w ? (" (worst '" + w->output + "': " + pipeline::accuracyText(*w).str() + ")").c_str()
          : "");
    return 0;
  }
  if (!c.passed) {
    std::cerr << "error: the saved model does not give the original outputs: " << c.detail << "\n";
    return 2;
  }
  const size_t random = checker.uncomparedOutputs().size();
  if (random > 0 && random == reloaded->model.graph().outputs().size()) {
    std::printf(
        "reloaded %s: verifier clean; no output values compared (every output comes from random "
        "ops without a seed; types and shapes equal)\n",
        path.c_str());
    return 0;
  }
  std::printf(
      "reloaded %s: verifier clean, outputs equal%s on %zu input sets (max abs %.1e, rel "
      "%.1e%s%s%s)%s\n",
      path.c_str(), checker.rebased() ? " to the checked model's" : "", c.inputSets, c.maxAbsError,
      c.maxRelError, noiseText(c).c_str(), stepText(c).c_str(), nonFiniteText(c).c_str(),
      random == 0 ? ""
                  : (" except " + std::to_string(random) + " random output" +
                     (random > 1 ? "s" : "") + ", not compared")
                        .c_str());
  return 0;
}

// After a step judged by its node units the check compares with the model
// as checked then (ExecOutputChecker::rebase), so "outputs equal" says
// nothing of the original's: those are held to the accuracy budget, as the
// step was.
int checkAgainstOriginal(pipeline::ExecOutputChecker& checker, const ir::Model& model,
                         const pipeline::AccuracyBudget& budget) {
  pipeline::NumericCheck c = checker.checkWithinBudget(model, budget);
  if (!c.passed) {
    std::cerr << "error: the saved model is over the accuracy budget against the original: "
              << c.detail << "\n";
    return 2;
  }
  if (pipeline::excusedByRoundingFloor(c)) {
    std::printf("against the original's outputs on %zu input sets: %s\n", c.inputSets,
                c.detail.str().c_str());
    return 0;
  }
  const pipeline::OutputAccuracy* w = pipeline::worstOutput(c.accuracy);
  std::printf(
      "against the original's outputs: within the accuracy budget on %zu input sets%s\n",
      c.inputSets,
      w ? (" (worst '" + w->output + "': " + pipeline::accuracyText(*w).str() + ")").c_str() : "");
  return 0;
}

// The check's input sets: --input-dir and --input (others synthesized), else
// the calibration sets when --calibration-data gave some (the data the model
// is meant for), else synthesized ones. Prints what they are.
Expected<std::unique_ptr<pipeline::ExecOutputChecker>> makeChecker(
    const OptimizeArgs& a, const ir::Model& model, int sets,
    const pipeline::CalibrationSetSource& calibration) {
  std::unique_ptr<pipeline::ExecOutputChecker> checker;
  if (calibration.count > 0 && !a.checkInputs.fixesInputs()) {
    const size_t n = std::min(calibration.count, static_cast<size_t>(sets));
    std::printf("check input: the first %zu calibration sets of %s\n", n,
                a.calibration.data.c_str());
    auto first = pipeline::firstCalibrationSets(calibration, model, n);
    if (!first) return first.error().withContext("cannot check outputs");
    auto c = pipeline::ExecOutputChecker::create(model, std::move(first.value()));
    if (!c) return c.error().withContext("cannot check outputs");
    checker = std::move(c.value());
  } else {
    auto given = a.checkInputs.spec(model);
    if (!given) return given.error();
    const pipeline::InputSpec& spec = *given;
    PASSLAB_RETURN_IF_ERROR(printCheckInputs(model, spec, &a.checkInputs));
    auto c = pipeline::ExecOutputChecker::create(model, sets, spec);
    if (!c) return c.error().withContext("cannot check outputs");
    checker = std::move(c.value());
  }
  if (const auto& random = checker->uncomparedOutputs(); !random.empty()) {
    const bool many = random.size() > 1;
    std::printf(
        "note: the check does not compare the values of output%s '%s' (only %s type and "
        "shape): computed from random ops without a seed, %s on every run\n",
        many ? "s" : "", str::join(random, "', '").c_str(), many ? "their" : "its",
        many ? "they differ" : "it differs");
  }
  return checker;
}

// The model was saved, but passes the verifier rejected were rolled back and
// left out (pipeline::skipsRejectedPass).
constexpr int kSavedWithPassesRolledBack = 3;

// A warning for each pass the pipeline rolled back and went on without; their ids.
std::vector<std::string> warnSkippedPasses(const pipeline::PassManager& pm) {
  std::vector<std::string> ids;
  for (const pipeline::Step& s : pm.timeline().steps()) {
    if (!pipeline::skipsRejectedPass(s)) continue;
    std::cerr << "warning: pass '" << s.passId
              << "' was rolled back and left out, the passes after it ran: " << s.error.str()
              << "\n";
    ids.push_back(s.passId);
  }
  return ids;
}

// The model was not saved: a lossy precision pass named in --passes changed
// nothing.
constexpr int kNamedLossyPassChangedNothing = 4;

// For each lossy precision pass (float16, int8, pruning, low rank) named in
// --passes that no step of it changed the model (skipped, nothing it
// converts, or rolled back by the verifier): an error naming it and why. The
// user asked for that conversion; a file saved without it would pass for
// converted. Levels, recipes and the lossy fusions of QDQ models are not
// judged so: they run what applies, as the other passes.
bool refuseUnchangedLossyPasses(const OptimizeArgs& a, const pipeline::Recipe& r,
                                const pipeline::PassManager& pm) {
  if (a.passList.empty() || !a.recipe.empty()) return false;
  std::set<std::string> seen;
  bool refused = false;
  for (const pipeline::PassSpec& spec : r.passes) {
    const passes::Pass* pass = passes::findPass(spec.id);
    if (!pass || !pass->info().lossy || pass->info().category != passes::Category::kPrecision ||
        !seen.insert(spec.id).second)
      continue;
    std::string why;
    bool changed = false;
    for (const pipeline::Step& s : pm.timeline().steps()) {
      if (s.passId != spec.id) continue;
      if (s.changed && !s.rolledBack)
        changed = true;
      else if (s.skipped)
        why = s.note.str();  // "skipped: ..."
      else if (s.rolledBack)
        why = "it was rolled back: " + s.error.str();
      else if (why.empty() && !s.note.empty())
        // The step's note says why: e.g. the nodes it would convert are
        // inside If/Loop/Scan bodies it does not enter, counted.
        why = "no node of the main graph converted (--explain says why each was left); " +
              s.note.str();
      else if (why.empty())
        why = "no node of the model is one it converts (--explain says why each was left)";
    }
    if (changed) continue;
    if (why.empty()) why = "it did not run";
    std::cerr << "error: " << spec.id << ", named in --passes, changed nothing: " << why << "\n";
    refused = true;
  }
  return refused;
}

// ", 1 pass rolled back (ID)" for the summary line, or "".
std::string skippedText(const std::vector<std::string>& ids) {
  if (ids.empty()) return "";
  return ", " + std::to_string(ids.size()) + (ids.size() == 1 ? " pass" : " passes") +
         " rolled back (" + str::join(ids, ", ") + ")";
}

// `a` by value: a recipe's calibration source replaces the defaults in it.
int runOptimize(OptimizeArgs a) {
  auto loaded = io::loadModel(a.in);
  if (!loaded) {
    std::cerr << "error: " << loaded.error().message() << "\n";
    return 1;
  }
  std::string out = a.inPlace ? a.in : a.out;
  if (out.empty()) {
    std::cerr << "error: give -o OUT (or --in-place to overwrite " << a.in << ")\n";
    return 1;
  }
  // No output on an input, nor two outputs on one file: refused before any
  // pass runs (--in-place names the model as the one output it may replace).
  std::vector<NamedPath> inputs = a.checkInputs.files();
  for (NamedPath& f : calibrationFilesIn("--calibration-data", a.calibration.data))
    inputs.push_back(std::move(f));
  inputs.insert(inputs.begin(), {"--recipe", a.recipe});
  if (!a.inPlace) inputs.insert(inputs.begin(), {"the model", a.in});
  const std::vector<NamedPath> outputs = {{a.inPlace ? "--in-place" : "-o", out},
                                          {"--save-recipe", a.saveRecipe},
                                          {"--report", a.report}};
  Status paths = checkOutputPaths(inputs, outputs);
  if (paths) paths = checkCalibrationNames({"--calibration-data", a.calibration.data}, outputs);
  if (!paths) {
    std::cerr << "error: " << paths.message() << "\n";
    if (!a.inPlace && sameFile(a.in, out)) std::cerr << "(--in-place overwrites the model)\n";
    return 1;
  }
  ir::Model& model = loaded->model;
  for (const auto& r : loaded->report.repairs) std::printf("repaired: %s\n", r.c_str());
  auto recipe = buildRecipe(a, model);
  if (!recipe) {
    std::cerr << "error: " << recipe.error().message() << "\n";
    return 1;
  }
  // The recipe's calibration data, unless --calibration-data or
  // --calibration-sets is given: its files are inputs too.
  if (!a.recipe.empty() && pipeline::recipeCalibrates(*recipe) &&
      a.calibration.replay(recipe->calibration, a.recipe) && !a.calibration.data.empty()) {
    std::vector<NamedPath> data = calibrationFilesIn("--calibration-data", a.calibration.data);
    Status p = checkOutputPaths(data, outputs);
    if (p)
      p = checkCalibrationNames({"the recipe's calibration data", a.calibration.data}, outputs);
    if (!p) {
      std::cerr << "error: " << p.message() << "\n";
      return 1;
    }
  }
  // An attribute no kernel can honour (a window that overflows, a perm that
  // is not one) is refused before any pass or kernel sees it: checked before
  // shape inference (windows) and after it (axes, which need ranks).
  auto refuseImpossible = [&model]() {
    Status limits = ir::checkAttributeLimits(model);
    if (!limits.isOk()) std::cerr << "error: " << limits.message() << "\nthe model was not saved\n";
    return !limits.isOk();
  };
  printPlan(a, *recipe);
  if (refuseImpossible()) return 1;
  analysis::inferShapes(model);
  if (refuseImpossible()) return 1;
  const std::set<std::string> originalErrors = pipeline::verifierErrorSet(model);
  auto calibration = a.calibration.readSets(model);
  if (!calibration) {
    std::cerr << "error: " << calibration.error().message() << "\nthe model was not saved\n";
    return 1;
  }
  // A lossy pass is always checked against the budget: on the calibration
  // sets (up to 16) when --calibration-data gave some, else on 2 synthesized.
  const bool lossy = plansLossyPass(*recipe);
  if (lossy && recipe->checkInputSets == 0) {
    recipe->checkInputSets = pipeline::defaultLossyCheckSets(calibration->count);
    std::printf(
        "note: the plan has a lossy pass; its outputs are checked against the accuracy "
        "budget on %d input sets (--check N for another count)\n",
        recipe->checkInputSets);
  }
  pipeline::PipelineOptions po;
  po.budget = recipe->budget;
  po.standardOnly = recipe->standardOnly;
  po.keepSnapshots = a.explain || !a.report.empty();
  po.verifyWholeModelAfterEachPass = a.verifyEachPass;
  pipeline::PassManager pm(model, po);
  if (lossy) warnFewCheckSets(recipe->checkInputSets, calibration->count);
  std::unique_ptr<pipeline::ExecOutputChecker> checker;
  if (recipe->checkInputSets > 0) {
    auto c = makeChecker(a, model, recipe->checkInputSets, *calibration);
    if (!c) {
      std::cerr << "error: " << c.error().message() << "\n";
      return 1;
    }
    checker = std::move(c.value());
    pm.setChecker(checker.get());
    if (lossy) warnTopKNotLimiting(*checker, model, po.budget);
  }
  auto evaluator = a.calibration.makeEvaluator(std::move(calibration.value()), a.checkInputs.dims,
                                               pipeline::recipeCalibrates(*recipe));
  if (!evaluator) {
    std::cerr << "error: " << evaluator.error().message() << "\nthe model was not saved\n";
    return 1;
  }
  pm.setEvaluator(evaluator->get());
  Status status = pm.runAll(recipe->passes);
  printSteps(pm, a.explain);
  // Whether the run failed, decided before anything is written: a failed or
  // refused run saves no model and no recipe (a recipe replays a run that
  // succeeded), but its report, which says where it failed.
  int failed = 0;
  std::string hint;
  if (!status.isOk()) {
    std::cerr << "error: " << status.message() << "\n";
    failed = 2;
  }
  for (const auto& s : pm.timeline().steps()) {
    if (failed) break;
    if (s.check.ran && !s.check.passed) {
      std::cerr << "error: pass '" << s.passId << "' changed the outputs (" << s.check.detail
                << "); the pipeline stopped there\n";
      failed = 2;
    }
  }
  if (!failed && refuseUnchangedLossyPasses(a, *recipe, pm)) failed = kNamedLossyPassChangedNothing;
  // Each step was verified where it touched the model; the whole model is
  // verified once more before anything is written.
  if (!failed)
    for (const std::string& e : pipeline::verifierErrorSet(model))
      if (!originalErrors.count(e)) {
        std::cerr << "error: the optimized model fails the verifier: " << e << "\n";
        hint = " (rerun with --verify-each-pass to find the pass)";
        failed = 2;
        break;
      }
  if (!a.report.empty() && !saveText("report", a.report, pipeline::reportToJson(pm, a.in, true)))
    return 1;
  if (failed) {
    std::cerr << "the model was not saved" << hint
              << (a.saveRecipe.empty() ? "" : ", nor the recipe (it would replay a failed run)")
              << (a.report.empty() ? "" : "; the report of the run is in " + a.report) << "\n";
    return failed;
  }
  if (!a.saveRecipe.empty()) {
    // Every option with the value it ran with, defaults included: the recipe
    // replays the same run after a later version changes a default.
    pipeline::Recipe saved = *recipe;
    for (pipeline::PassSpec& spec : saved.passes)
      if (const passes::Pass* pass = passes::findPass(spec.id))
        if (auto full = pipeline::effectiveOptions(*pass, spec.options)) spec.options = *full;
    // Where the calibration sets came from, so a replay calibrates on the same.
    saved.calibration = pipeline::recipeCalibrates(saved) ? a.calibration.recorded()
                                                          : pipeline::RecipeCalibration{};
    if (!saveText("recipe", a.saveRecipe, pipeline::recipeToJson(saved))) return 1;
  }
  const std::vector<std::string> skipped = warnSkippedPasses(pm);
  io::SaveOptions so;
  if (Status saved = io::saveModel(model, out, so); !saved) {
    std::cerr << "error: " << saved.message() << "\n";
    return 1;
  }
  const auto& steps = pm.timeline().steps();
  size_t before = steps.empty() ? model.graph().nodeCountRecursive() : steps.front().before.nodes;
  std::printf("saved %s: %zu -> %zu nodes%s\n", out.c_str(), before,
              model.graph().nodeCountRecursive(), skippedText(skipped).c_str());
  warnIfInt8SlowerHere(model);
  int code = 0;
  if (checker) {
    code = checkSavedFile(out, *checker, originalErrors, lossy ? &po.budget : nullptr);
    if (code == 0 && !lossy && checker->rebased())
      code = checkAgainstOriginal(*checker, model, po.budget);
  } else {
    std::printf(
        "note: the outputs were not compared with the original's; --check N runs both on N input "
        "sets after every pass\n");
  }
  return code == 0 && !skipped.empty() ? kSavedWithPassesRolledBack : code;
}

}  // namespace

void registerOptimize(CLI::App& app) {
  auto* cmd = app.add_subcommand("optimize", "Run optimization passes and save the result");
  cmd->footer(
      "Exit status: 0 saved, every pass ran; 1 bad arguments or files; 2 a check or the "
      "verifier failed, or a lossy step went over the accuracy budget (nothing saved, or the "
      "saved file failed its --check); 3 saved, but passes the verifier rejected were rolled "
      "back and left out (warnings name them); 4 a lossy precision pass named in --passes changed "
      "nothing (skipped, nothing it converts, or rolled back): nothing saved. A run that exits 2 "
      "or 4 before saving the model writes no --save-recipe either, but its --report");
  auto a = std::make_shared<OptimizeArgs>();
  cmd->add_option("model", a->in, "Input ONNX model")->required();
  cmd->add_option("-o,--output", a->out, "Output file (never the input, unless --in-place)");
  auto* passesOpt = cmd->add_option("--passes", a->passList, "Comma-separated pass ids, in order");
  auto* levelOpt =
      cmd->add_option("--level", a->level,
                      std::string("A pass level (without one, the level named ") + kDefaultLevel +
                          " runs): " + str::join(passes::levelNames(), ", "));
  passesOpt->excludes(levelOpt);
  cmd->add_option("--check", a->check,
                  "Check outputs after every pass on N seeded random input sets")
      ->check(CLI::Range(0, 100000));
  cmd->add_option("--recipe", a->recipe, "Replay a recipe (JSON)");
  cmd->add_option("--save-recipe", a->saveRecipe, "Save the recipe that was run");
  cmd->add_option("--report", a->report, "Write a JSON report of every step");
  // Each occurrence of a repeatable option takes one value: a model path after
  // it stays the positional argument.
  cmd->add_option("--exclude-node", a->excludeNodes,
                  "Keep every pass away from this node (by name); repeatable")
      ->allow_extra_args(false);
  cmd->add_option("--exclude-op", a->excludeOps,
                  "Keep every pass away from the nodes of this op type (e.g. Gemm); repeatable")
      ->allow_extra_args(false);
  a->checkInputs.addTo(*cmd);
  cmd->add_option("--set", a->sets,
                  "An option of a pass, PASS.OPTION=VALUE (every run of PASS in the plan; "
                  "`passlab-cli passes` lists them); repeatable")
      ->allow_extra_args(false);
  a->budget.addTo(*cmd);
  a->calibration.addTo(*cmd);
  cmd->add_flag("--explain", a->explain,
                "Print near misses: why each pattern did not fire where it almost did");
  cmd->add_flag("--allow-nonstandard", a->allowNonstandard,
                "Allow passes that emit PassLab/ONNX Runtime fused ops");
  cmd->add_flag("--in-place", a->inPlace, "Overwrite the input model");
  cmd->add_flag("--verify-each-pass", a->verifyEachPass,
                "Verify the whole model after every pass (default: what the pass touched)");
  cmd->callback([a] { setExitCode(runOptimize(*a)); });
}

void registerPasses(CLI::App& app) {
  auto* cmd = app.add_subcommand("passes", "List the passes, their categories and options");
  auto json = std::make_shared<bool>(false);
  cmd->add_flag("--json", *json,
                "Print every pass's metadata in the format of core/passes/pass_catalog.json");
  cmd->callback([json] {
    if (*json) {
      std::vector<passes::PassInfo> infos;
      for (const passes::Pass* p : passes::allPasses()) infos.push_back(p->info());
      std::fputs(passes::passCatalogJson(infos).c_str(), stdout);
      return;
    }
    for (const passes::Pass* p : passes::allPasses()) {
      const auto& i = p->info();
      std::printf("%-34s %-11s %s\n", i.id.c_str(),
                  std::string(passes::categoryName(i.category)).c_str(), i.summaryEn.c_str());
      for (const auto& o : i.options)
        std::printf("    %s (%s, default %s): %s\n", o.name.c_str(),
                    std::string(passes::optionKindName(o.kind)).c_str(),
                    o.defaultValue.empty() ? "empty" : o.defaultValue.c_str(), o.help.c_str());
    }
    std::printf("levels: %s\n", str::join(passes::levelNames(), ", ").c_str());
    // What each level runs, in order (from the registry, so never out of date).
    for (const std::string& level : passes::levelNames())
      if (auto ids = passes::passesForLevel(level))
        std::printf("  %s (%zu passes): %s\n", level.c_str(), ids->size(),
                    str::join(*ids, ", ").c_str());
    std::printf("options: passlab-cli optimize --set PASS.OPTION=VALUE, or in a recipe\n");
  });
}

}  // namespace passlab::cli
