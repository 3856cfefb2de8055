// passlab-cli precision MODEL [--pass convert_to_float16] [--check N] [--budget-* X]
//   [--top N] [--exclude-node NAME] [--exclude-op OP] [--set PASS.OPTION=VALUE]
//   [-o OUT [--save-recipe R]] | --sparsity
//   [--pass prune_magnitude --per-layer-sparsity [--pattern P] [--sparsity-steps N]]
// Per-layer sensitivity of a lossy pass: each node converted alone, ranked by
// the SNR of the worst output (docs/precision.md). With -o, automatic mixed
// precision: the fewest most sensitive nodes kept in float32 for the budget
// to hold (a bisection over the ranking), the result saved and checked, and
// the recipe (the pass with those nodes excluded) saved on request. Nodes
// the user excludes (by name or op type) stay float32: not trialled, not
// converted, excluded in the recipe too.
#include <CLI/CLI.hpp>

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <iostream>
#include <optional>
#include <unordered_set>

#include "app/cli/budget_args.h"
#include "app/cli/calibration_args.h"
#include "app/cli/check_inputs.h"
#include "app/cli/commands.h"
#include "app/cli/int8_cpu_note.h"
#include "app/cli/output_files.h"
#include "app/cli/per_layer_result.h"
#include "app/cli/precision_low_rank.h"
#include "app/cli/precision_sparsity.h"
#include "core/analysis/shape_inference.h"
#include "core/analysis/sparsity.h"
#include "core/io/model_io.h"
#include "core/passes/reduce_range_option.h"
#include "core/passes/registry.h"
#include "core/pipeline/precision_checker.h"
#include "core/pipeline/recipe.h"
#include "core/pipeline/sensitivity.h"

namespace passlab::cli {

namespace {

struct PrecisionArgs {
  std::string model, out, saveRecipe, pass = "convert_to_float16";
  int check = 2;
  size_t top = 15;
  BudgetArgs budget;
  CalibrationArgs calibration;  // for quantize_static
  CheckInputArgs checkInputs;   // --input, --input-dir, --dim: what the check runs on
  bool sparsity = false;
  int workers = 0;                // trials at once (0: one per core)
  bool recalibrate = false;       // quantize_static: calibrate in every trial
  bool svdPerTrial = false;       // factorize_low_rank: decompose the weight in every trial
  double latencyMargin = 0.02;    // factorize_low_rank: slower beyond this share stays dense
  bool keepSlower = false;        // factorize_low_rank: no latency check per layer
  bool perLayerSparsity = false;  // prune_magnitude: the largest ratio per layer
  std::string pattern = "unstructured";
  int sparsitySteps = 20;
  bool keepBias = false;
  std::vector<std::string> excludeNodes, excludeOps;
  std::vector<std::string> sets;  // PASS.OPTION=VALUE, options of --pass
};

// The model was not saved: the pass converts no node of the model (outside
// the exclusions).
constexpr int kNothingConverts = 4;

// --exclude-node NAME and --exclude-op OP: the nodes of the main graph they
// name (the ranking's candidates); an error for a name or op type that names
// none.
Expected<std::unordered_set<ir::NodeId>> excludedNodes(const ir::Model& model,
                                                       const PrecisionArgs& a) {
  std::unordered_set<ir::NodeId> out;
  for (const std::string& name : a.excludeNodes) {
    ir::NodeId id = 0;
    for (const auto& n : model.graph().nodes())
      if (n->name() == name) id = n->id();
    if (!id) return invalidArgument("--exclude-node: the model has no node named '" + name + "'");
    out.insert(id);
  }
  for (const std::string& op : a.excludeOps) {
    size_t found = 0;
    for (const auto& n : model.graph().nodes())
      if (n->opType() == op) {
        out.insert(n->id());
        ++found;
      }
    if (!found) return invalidArgument("--exclude-op: the model has no " + op + " node");
  }
  return out;
}

// --set PASS.OPTION=VALUE: options of --pass, checked against its declared ones.
Expected<passes::Options> passOptions(const passes::Pass& pass, const PrecisionArgs& a) {
  passes::Options out;
  for (const std::string& set : a.sets) {
    const size_t eq = set.find('=');
    const size_t dot = set.substr(0, eq).find('.');
    if (eq == std::string::npos || dot == std::string::npos || dot == 0 || dot + 1 == eq)
      return invalidArgument("--set " + set + ": write PASS.OPTION=VALUE");
    const std::string id = set.substr(0, dot), name = set.substr(dot + 1, eq - dot - 1);
    if (id != pass.info().id)
      return invalidArgument("--set " + set + ": the pass here is " + pass.info().id + " (--pass)");
    if (auto checked = pipeline::effectiveOptions(pass, {{name, set.substr(eq + 1)}}); !checked)
      return checked.error().withContext("--set " + set);
    std::erase_if(out, [&](const auto& o) { return o.first == name; });
    out.emplace_back(name, set.substr(eq + 1));
  }
  return out;
}

// quantize_static's and quantize_dynamic's weight range: what reduce_range
// (auto unless given) chooses on this CPU, said once before the trials
// (whose step notes are not printed); a value it does not take is an error.
Status printWeightRange(const passes::Pass& pass, const passes::Options& given) {
  const std::string& id = pass.info().id;
  if (id != "quantize_static" && id != "quantize_dynamic") return Status::ok();
  std::string value;
  for (const passes::PassOption& o : pass.info().options)
    if (o.name == "reduce_range") value = o.defaultValue;
  for (const auto& [name, v] : given)
    if (name == "reduce_range") value = v;
  auto range = passes::parseWeightRange(value, id);
  if (!range) return range.error();
  if (Text note = passes::weightRangeNote(*range); !note.empty())
    std::printf("note: %s: %s\n", id.c_str(), note.str().c_str());
  return Status::ok();
}

// The weights' sparsity per layer (core/analysis/sparsity.h), and in all.
int printSparsity(const ir::Model& model) {
  const auto layers = analysis::sparsityReport(model);
  std::printf("%-50s %10s %8s %14s %8s\n", "layer", "weights", "zeros", "zero channels", "2:4");
  int64_t elements = 0, zeros = 0, channels = 0, zeroChannels = 0, groups = 0, twoFour = 0;
  for (const auto& l : layers) {
    std::printf("%-50s %10lld %7.1f%% %8lld of %-4lld %7.1f%%\n", l.describe.c_str(),
                static_cast<long long>(l.elements), 100 * l.zeroShare(),
                static_cast<long long>(l.zeroChannels), static_cast<long long>(l.channels),
                100 * l.twoFourShare());
    elements += l.elements;
    zeros += l.zeros;
    channels += l.channels;
    zeroChannels += l.zeroChannels;
    groups += l.groupsOfFour;
    twoFour += l.twoFourGroups;
  }
  std::printf(
      "%zu layers: %lld weights, %.1f%% zero, %lld of %lld output channels all zero, "
      "%.1f%% of groups of 4 with the 2:4 pattern\n",
      layers.size(), static_cast<long long>(elements),
      elements ? 100.0 * double(zeros) / double(elements) : 0.0,
      static_cast<long long>(zeroChannels), static_cast<long long>(channels),
      groups ? 100.0 * double(twoFour) / double(groups) : 0.0);
  return 0;
}

// With a top-k column (the budget's k) when a classifier output reports one.
void printRanking(const std::vector<pipeline::LayerSensitivity>& ranked, size_t top, int k) {
  const bool topK =
      std::any_of(ranked.begin(), ranked.end(),
                  [](const pipeline::LayerSensitivity& l) { return l.topK.has_value(); });
  const std::string topKName = "top-" + std::to_string(k);
  std::printf("%-4s %-50s %10s %10s", "#", "node converted alone", "SNR dB", "cosine");
  if (topK) std::printf(" %8s", topKName.c_str());
  std::printf("\n");
  for (size_t i = 0; i < ranked.size() && i < top; ++i) {
    std::printf("%-4zu %-50s %10s %10.6f", i + 1, ranked[i].describe.c_str(),
                snrText(ranked[i].snrDb).c_str(), ranked[i].cosine);
    if (topK)
      std::printf(
          " %8s",
          ranked[i].topK
              ? (std::to_string(static_cast<int>(std::lround(100 * *ranked[i].topK))) + "%").c_str()
              : "-");
    std::printf("\n");
  }
  if (ranked.size() > top) std::printf("... %zu more\n", ranked.size() - top);
}

// The model converted with `kept` excluded, saved to `out` and checked again.
int saveMixed(ir::Model& model, pipeline::ExecOutputChecker& checker, const PrecisionArgs& a,
              const pipeline::AccuracyBudget& budget, const std::vector<ir::NodeId>& kept,
              const pipeline::SensitivityOptions& o) {
  pipeline::PipelineOptions po;
  po.keepSnapshots = false;
  po.budget = budget;
  pipeline::PassManager pm(model, po);
  pm.setChecker(&checker);
  pm.setEvaluator(o.evaluator);
  pipeline::PassSpec spec{a.pass, o.passOptions, {}};
  spec.filter.excluded = o.excluded;
  spec.filter.excluded.insert(kept.begin(), kept.end());
  auto step = pm.run(spec);
  if (!step || (*step)->rolledBack) {
    std::cerr << "error: " << (step ? (*step)->error.str() : step.error().message())
              << "\nthe model was not saved\n";
    return 2;
  }
  if (Status saved = io::saveModel(model, a.out, {}); !saved) {
    std::cerr << "error: " << saved.message() << "\n";
    return 1;
  }
  std::printf("saved %s\n", a.out.c_str());
  warnIfInt8SlowerHere(model);
  if (!a.saveRecipe.empty()) {
    pipeline::Recipe r;
    r.checkInputSets = a.check;
    r.budget = budget;
    r.passes.push_back(spec);
    // Where quantize_static calibrated, so `optimize --recipe` calibrates on the same.
    if (a.pass == "quantize_static") r.calibration = a.calibration.recorded();
    if (Status s = writeFileAtomically(a.saveRecipe, pipeline::recipeToJson(r)); !s.isOk()) {
      std::cerr << "error: cannot write the recipe to " << a.saveRecipe << ": " << s.message()
                << "\n";
      return 1;
    }
    std::printf("recipe saved to %s\n", a.saveRecipe.c_str());
  }
  return 0;
}

int runPrecision(const PrecisionArgs& a) {
  const passes::Pass* pass = passes::findPass(a.pass);
  if (!pass || !pass->info().lossy) {
    std::cerr << "error: '" << a.pass << "' is not a lossy pass (see `passlab-cli passes`)\n";
    return 1;
  }
  if (a.perLayerSparsity && a.pass != "prune_magnitude") {
    std::cerr << "error: --per-layer-sparsity chooses prune_magnitude's ratio; add --pass "
                 "prune_magnitude\n";
    return 1;
  }
  pipeline::AccuracyBudget budget;
  if (Status b = a.budget.applyTo(budget); !b.isOk()) {
    std::cerr << "error: " << b.message() << "\n";
    return 1;
  }
  std::vector<NamedPath> inputs = calibrationFilesIn("--calibration-data", a.calibration.data);
  for (NamedPath& f : a.checkInputs.files()) inputs.push_back(std::move(f));
  inputs.insert(inputs.begin(), {"the model", a.model});
  const std::vector<NamedPath> outputs = {{"-o", a.out}, {"--save-recipe", a.saveRecipe}};
  Status paths = checkOutputPaths(inputs, outputs);
  if (paths) paths = checkCalibrationNames({"--calibration-data", a.calibration.data}, outputs);
  if (!paths) {
    std::cerr << "error: " << paths.message() << "\n";
    return 1;
  }
  auto loaded = io::loadModel(a.model);
  if (!loaded) {
    std::cerr << "error: " << loaded.error().message() << "\n";
    return 1;
  }
  ir::Model& model = loaded->model;
  const bool narrowed = !a.excludeNodes.empty() || !a.excludeOps.empty() || !a.sets.empty();
  if (narrowed && (a.sparsity || a.perLayerSparsity || a.pass == "factorize_low_rank")) {
    std::cerr << "error: --exclude-node, --exclude-op and --set apply to the per-layer ranking; "
                 "not to --sparsity, --per-layer-sparsity or factorize_low_rank\n";
    return 1;
  }
  if (a.sparsity) return printSparsity(model);
  auto excluded = excludedNodes(model, a);
  if (!excluded) {
    std::cerr << "error: " << excluded.error().message() << "\n";
    return 1;
  }
  auto options = passOptions(*pass, a);
  if (!options) {
    std::cerr << "error: " << options.error().message() << "\n";
    return 1;
  }
  if (Status s = printWeightRange(*pass, *options); !s.isOk()) {
    std::cerr << "error: " << s.message() << "\n";
    return 1;
  }
  const int64_t opset = model.opsetVersion("").value_or(1);
  if (opset < pass->info().minOpset || opset > pass->info().maxOpset) {
    std::cerr << "error: " << a.pass << " is written for opsets " << pass->info().minOpset << "-"
              << pass->info().maxOpset << ", the model uses " << opset
              << "; raise it first: passlab-cli optimize " << a.model
              << " -o RAISED.onnx --passes raise_opset\n";
    return 1;
  }
  analysis::inferShapes(model);
  auto calibration = a.calibration.readSets(model);
  if (!calibration) {
    std::cerr << "error: " << calibration.error().message() << "\n";
    return 1;
  }
  // Measured on the inputs given (--input, --input-dir; the others
  // synthesized), else on the calibration data when given (what the model
  // is meant for), else on synthesized sets (sized by --dim).
  auto makeChecker = [&]() -> Expected<std::unique_ptr<pipeline::ExecOutputChecker>> {
    if (a.checkInputs.fixesInputs() || calibration->count == 0) {
      auto spec = a.checkInputs.spec(model);
      if (!spec) return spec.error();
      if (a.checkInputs.fixesInputs() || !a.checkInputs.dims.empty())
        PASSLAB_RETURN_IF_ERROR(printCheckInputs(model, *spec, &a.checkInputs));
      auto c = pipeline::precisionChecker(model, a.check, std::move(spec.value()));
      if (!c) return c.error().withContext("cannot run the model to measure it");
      return c;
    }
    auto first = pipeline::firstCalibrationSets(*calibration, model,
                                                static_cast<size_t>(std::max(1, a.check)));
    if (!first) return first.error();
    auto c = pipeline::precisionChecker(model, *first, a.check);
    if (!c) return c.error().withContext("cannot run the model to measure it");
    warnFewCheckSets(a.check, calibration->count);
    return c;
  };
  auto checker = makeChecker();
  if (!checker) {
    std::cerr << "error: " << checker.error().message() << "\n";
    return 1;
  }
  warnTopKNotLimiting(**checker, model, budget);
  auto evaluator = a.calibration.makeEvaluator(std::move(calibration.value()), a.checkInputs.dims,
                                               a.pass == "quantize_static");
  if (!evaluator) {
    std::cerr << "error: " << evaluator.error().message() << "\n";
    return 1;
  }
  if (a.pass == "factorize_low_rank")
    return runLowRankPrecision(model, **checker,
                               {a.model, a.out, a.saveRecipe, a.check, a.workers, budget,
                                evaluator->get(), !a.svdPerTrial, a.latencyMargin, !a.keepSlower});
  if (a.perLayerSparsity) {
    SparsityRequest r{a.model, a.out, a.saveRecipe, a.check, budget, {}};
    r.options.steps = a.sparsitySteps;
    r.options.pattern = a.pattern;
    r.options.keepBias = a.keepBias;
    r.options.evaluator = evaluator->get();
    r.options.workers = a.workers;
    return runSparsityPrecision(model, **checker, r);
  }
  pipeline::SensitivityOptions o;
  o.passId = a.pass;
  o.passOptions = *options;
  o.excluded = *excluded;
  o.evaluator = evaluator->get();
  o.workers = a.workers;
  o.shareCalibration = !a.recalibrate;
  o.topK = budget.topK;
  // One calibration for the ranking and the bisection, not one each.
  auto prepared = pipeline::prepareTrialCalibration(model, o);
  if (!prepared) {
    std::cerr << "error: " << prepared.error().message() << "\n";
    return 2;
  }
  o.trialCalibration = std::move(prepared).value();
  auto ranked = pipeline::rankLayers(model, **checker, o);
  if (!ranked) {
    std::cerr << "error: " << ranked.error().message() << "\n";
    return 2;
  }
  if (!o.excluded.empty())
    std::printf("excluded: %zu nodes stay float32, not trialled (--exclude-node, --exclude-op)\n",
                o.excluded.size());
  if (ranked->empty()) {
    std::cerr << "error: " << a.pass << " converts no node of this model"
              << (o.excluded.empty() ? "" : " outside the exclusions")
              << " (passlab-cli optimize MODEL -o OUT --passes " << a.pass
              << " --explain says why each was left)\nthe model was not saved\n";
    return kNothingConverts;
  }
  std::printf("%s: %zu nodes convert alone; most sensitive first (%d input sets)\n", a.pass.c_str(),
              ranked->size(), a.check);
  printRanking(*ranked, a.top, budget.topK);
  if (a.out.empty()) return 0;
  auto mixed = pipeline::mixedPrecision(model, **checker, *ranked, budget, o);
  if (!mixed) {
    std::cerr << "error: " << mixed.error().message() << "\nthe model was not saved\n";
    return 2;
  }
  if (pipeline::convertsNothingWithinBudget(*mixed, ranked->size())) {
    // Keeping every node is the unchanged model, not a conversion within the
    // budget: the budget cannot be met by this pass (issue #25).
    std::cerr << "error: the budget cannot be met: " << a.pass
              << " holds it only with every node it converts kept in float32 (" << ranked->size()
              << " of " << ranked->size() << "); with only the least sensitive, "
              << ranked->back().describe << ", converted: " << mixed->missWithOneFewer.detail.str()
              << "\nthe model was not saved\n";
    return 2;
  }
  std::printf("mixed precision: %zu of %zu nodes kept in float32 (%d conversions tried)\n",
              mixed->keptFloat32.size(), ranked->size(), mixed->conversions);
  for (const auto& l : *ranked)
    for (ir::NodeId id : mixed->keptFloat32)
      if (l.node == id) std::printf("  kept: %s\n", l.describe.c_str());
  return saveMixed(model, **checker, a, budget, mixed->keptFloat32, o);
}

// --latency-margin: a finite share above -1 (nan would switch the latency
// check off, -1 or less would call every layer slower).
CLI::Validator latencyMarginValidator() {
  return CLI::Validator(
      [](const std::string& text) -> std::string {
        double v = 0;
        if (!CLI::detail::lexical_cast(text, v) || !std::isfinite(v) || v <= -1)
          return "'" + text + "' is not a share above -1 (a finite number; 0.02 asks for 2%)";
        return "";
      },
      "MARGIN", "latency margin");
}

}  // namespace

void registerPrecision(CLI::App& app) {
  auto* cmd = app.add_subcommand(
      "precision", "Per-layer sensitivity of a lossy pass, and automatic mixed precision");
  cmd->footer(
      "Exit status: 0 done; 1 bad arguments or files; 2 the budget cannot be met or a check "
      "failed (nothing saved); 4 the pass converts no node of the model outside the exclusions "
      "(nothing saved)");
  auto a = std::make_shared<PrecisionArgs>();
  cmd->add_option("model", a->model, "Input ONNX model")->required();
  cmd->add_option("-o,--output", a->out,
                  "Keep the most sensitive nodes in float32 until the budget holds; save here");
  cmd->add_option("--pass", a->pass, "The lossy pass (default convert_to_float16)");
  cmd->add_option("--check", a->check, "Input sets to measure on (default 2)")
      ->check(CLI::PositiveNumber);
  cmd->add_option("--top", a->top, "Rows of the ranking to print (default 15)");
  cmd->add_option("--save-recipe", a->saveRecipe, "With -o: save the recipe that was run");
  cmd->add_flag("--sparsity", a->sparsity,
                "Instead: the weights' sparsity per layer (zeros, all-zero output channels, "
                "2:4 pattern share)");
  cmd->add_option("--workers", a->workers,
                  "Trials at once, each on its share of the cores (default 0: one per core)")
      ->check(CLI::NonNegativeNumber);
  cmd->add_flag("--recalibrate", a->recalibrate,
                "quantize_static: calibrate in every trial instead of once for all (slower)");
  cmd->add_flag("--per-layer-sparsity", a->perLayerSparsity,
                "prune_magnitude: the largest pruning ratio per layer that holds the budget "
                "(a bisection over --sparsity-steps), the layers pruned together");
  cmd->add_option("--pattern", a->pattern,
                  "With --per-layer-sparsity: unstructured (default) or channel");
  cmd->add_option("--sparsity-steps", a->sparsitySteps,
                  "With --per-layer-sparsity: ratios in steps of 1/N (default 20)");
  cmd->add_flag("--keep-bias", a->keepBias,
                "With --per-layer-sparsity --pattern channel: pruned channels keep their bias");
  cmd->add_flag("--svd-per-trial", a->svdPerTrial,
                "factorize_low_rank: decompose each weight in every trial instead of once per "
                "layer (slower; the same result)");
  cmd->add_option("--latency-margin", a->latencyMargin,
                  "factorize_low_rank: a layer whose two thin ops, timed alone, take longer than "
                  "(1 + this) x the dense layer stays dense (default 0.02; negative: a gain of "
                  "that share is asked)")
      ->check(latencyMarginValidator());
  cmd->add_flag("--keep-slower", a->keepSlower,
                "factorize_low_rank: no latency check per layer (a factorization that is slower "
                "on this CPU is kept)");
  cmd->add_option("--exclude-node", a->excludeNodes,
                  "Keep this node (by name) in float32: not trialled, not converted; repeatable")
      ->allow_extra_args(false);
  cmd->add_option("--exclude-op", a->excludeOps,
                  "Keep every node of this op type (e.g. Gemm) in float32; repeatable")
      ->allow_extra_args(false);
  cmd->add_option(
         "--set", a->sets,
         "An option of --pass, PASS.OPTION=VALUE (e.g. quantize_dynamic.per_channel=false; "
         "`passlab-cli passes` lists them); in every trial and the recipe; repeatable")
      ->allow_extra_args(false);
  a->checkInputs.addTo(*cmd);
  a->budget.addTo(*cmd);
  a->calibration.addTo(*cmd);
  cmd->callback([a] { setExitCode(runPrecision(*a)); });
}

}  // namespace passlab::cli
