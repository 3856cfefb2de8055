// passlab-cli optimize IN -o OUT: run the pipeline, one row per Step.
#include <CLI/CLI.hpp>

#include <cstdio>
#include <filesystem>
#include <fstream>
#include <iostream>
#include <sstream>

#include "app/cli/commands.h"
#include "core/analysis/shape_inference.h"
#include "core/io/model_io.h"
#include "core/ir/graph.h"
#include "core/passes/registry.h"
#include "core/pipeline/numeric_check.h"
#include "core/pipeline/recipe.h"
#include "core/pipeline/report.h"
#include "core/support/strings.h"

namespace fs = std::filesystem;

namespace passlab::cli {

namespace {

struct OptimizeArgs {
  std::string in, out, passList, level, recipe, saveRecipe, report;
  int check = 0;
  bool explain = false, allowNonstandard = false, inPlace = false;
  std::vector<std::string> excludeNodes;
  std::vector<std::string> dims;
};

bool sameFile(const std::string& a, const std::string& b) {
  std::error_code ec;
  return fs::exists(b, ec) && fs::equivalent(a, b, ec);
}

Expected<std::string> readText(const std::string& path) {
  std::ifstream in(path);
  if (!in) return ioError("cannot read '" + path + "'");
  std::stringstream ss;
  ss << in.rdbuf();
  return ss.str();
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
      auto level = passes::passesForLevel(a.level.empty() ? "basic" : a.level);
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
  if (a.check > 0) r.checkInputSets = a.check;
  if (a.allowNonstandard) r.standardOnly = false;
  // --exclude-node NAME applies to every pass.
  for (const auto& name : a.excludeNodes) {
    ir::NodeId id = 0;
    model.graph().forEachNodeRecursive([&](ir::Node* n) {
      if (n->name() == name) id = n->id();
    });
    if (!id) return invalidArgument("--exclude-node: no node named '" + name + "'");
    for (auto& p : r.passes) p.filter.excluded.insert(id);
  }
  PASSLAB_RETURN_IF_ERROR(pipeline::validateRecipe(r));
  return r;
}

std::string checkText(const pipeline::Step& s) {
  if (!s.check.ran) return s.changed ? "-" : "";
  char buf[160];
  if (s.check.passed) {
    std::snprintf(buf, sizeof buf, "ok (max abs %.1e, rel %.1e)", s.check.maxAbsError,
                  s.check.maxRelError);
  } else {
    std::snprintf(buf, sizeof buf, "FAILED at '%s' (max abs %.2e, rel %.2e)",
                  s.check.firstDivergingTensor.c_str(), s.check.maxAbsError, s.check.maxRelError);
  }
  return buf;
}

void printSteps(const pipeline::PassManager& pm, bool explain) {
  std::printf("%-3s %-34s %-15s %-44s %9s  %s\n", "#", "pass", "nodes", "changes", "time", "check");
  int i = 0;
  for (const pipeline::Step& s : pm.timeline().steps()) {
    std::string nodes = std::to_string(s.before.nodes) + " -> " + std::to_string(s.after.nodes);
    std::string changes = s.skipped      ? s.note
                          : s.rolledBack ? "ROLLED BACK: " + s.error
                                         : s.summary.toString();
    std::printf("%-3d %-34s %-15s %-44s %7.1f ms  %s\n", ++i, s.passId.c_str(), nodes.c_str(),
                changes.c_str(), s.milliseconds, checkText(s).c_str());
    if (explain) {
      for (const auto& [node, reasons] : s.explain.all()) {
        const ir::Node* n =
            s.snapshotBefore ? ir::findNodeRecursive(s.snapshotBefore->graph(), node) : nullptr;
        for (const auto& [pattern, why] : reasons)
          std::printf("      near miss: %s on %s: %s\n", pattern.c_str(),
                      n ? n->describe().c_str() : ("#" + std::to_string(node)).c_str(),
                      why.c_str());
      }
    }
  }
}

int runOptimize(const OptimizeArgs& a) {
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
  if (!a.inPlace && sameFile(a.in, out)) {
    std::cerr << "error: " << out
              << " is the input model; PassLab never overwrites it unless --in-place is given\n";
    return 1;
  }
  ir::Model& model = loaded->model;
  for (const auto& r : loaded->report.repairs) std::printf("repaired: %s\n", r.c_str());
  auto recipe = buildRecipe(a, model);
  if (!recipe) {
    std::cerr << "error: " << recipe.error().message() << "\n";
    return 1;
  }
  analysis::inferShapes(model);
  pipeline::PipelineOptions po;
  po.standardOnly = recipe->standardOnly;
  po.keepSnapshots = a.explain || !a.report.empty();
  pipeline::PassManager pm(model, po);
  pipeline::ExecEvaluator evaluator;
  pm.setEvaluator(&evaluator);
  std::unique_ptr<pipeline::ExecOutputChecker> checker;
  if (recipe->checkInputSets > 0) {
    auto dims = pipeline::parseDims(a.dims);
    if (!dims) {
      std::cerr << "error: " << dims.error().message() << "\n";
      return 1;
    }
    pipeline::InputSpec spec;
    spec.dims = *dims;
    auto c = pipeline::ExecOutputChecker::create(model, recipe->checkInputSets, spec);
    if (!c) {
      std::cerr << "error: cannot check outputs: " << c.error().message() << "\n";
      return 1;
    }
    checker = std::move(c.value());
    pm.setChecker(checker.get());
  }
  Status status = pm.runAll(recipe->passes);
  printSteps(pm, a.explain);
  if (!a.saveRecipe.empty()) {
    std::ofstream(a.saveRecipe) << pipeline::recipeToJson(*recipe);
    std::printf("recipe saved to %s\n", a.saveRecipe.c_str());
  }
  if (!a.report.empty()) {
    std::ofstream(a.report) << pipeline::reportToJson(pm, a.in, true);
    std::printf("report saved to %s\n", a.report.c_str());
  }
  if (!status.isOk()) {
    std::cerr << "error: " << status.message() << "\nthe model was not saved\n";
    return 2;
  }
  for (const auto& s : pm.timeline().steps()) {
    if (s.check.ran && !s.check.passed) {
      std::cerr << "error: pass '" << s.passId << "' changed the outputs (" << s.check.detail
                << "); the pipeline stopped there and the model was not saved\n";
      return 2;
    }
  }
  io::SaveOptions so;
  if (Status saved = io::saveModel(model, out, so); !saved) {
    std::cerr << "error: " << saved.message() << "\n";
    return 1;
  }
  const auto& steps = pm.timeline().steps();
  size_t before = steps.empty() ? model.graph().nodeCountRecursive() : steps.front().before.nodes;
  std::printf("saved %s: %zu -> %zu nodes\n", out.c_str(), before,
              model.graph().nodeCountRecursive());
  return 0;
}

}  // namespace

void registerOptimize(CLI::App& app) {
  auto* cmd = app.add_subcommand("optimize", "Run optimization passes and save the result");
  auto a = std::make_shared<OptimizeArgs>();
  cmd->add_option("model", a->in, "Input ONNX model")->required();
  cmd->add_option("-o,--output", a->out, "Output file (never the input, unless --in-place)");
  auto* passesOpt = cmd->add_option("--passes", a->passList, "Comma-separated pass ids, in order");
  auto* levelOpt = cmd->add_option("--level", a->level, "A pass level: basic (default), all");
  passesOpt->excludes(levelOpt);
  cmd->add_option("--check", a->check,
                  "Check outputs after every pass on N seeded random input sets");
  cmd->add_option("--recipe", a->recipe, "Replay a recipe (JSON)");
  cmd->add_option("--save-recipe", a->saveRecipe, "Save the recipe that was run");
  cmd->add_option("--report", a->report, "Write a JSON report of every step");
  cmd->add_option("--exclude-node", a->excludeNodes,
                  "Keep every pass away from this node (by name); repeatable");
  cmd->add_option("--dim", a->dims, "Value for a symbolic dim in checks, NAME=VALUE; repeatable");
  cmd->add_flag("--explain", a->explain,
                "Print near misses: why each pattern did not fire where it almost did");
  cmd->add_flag("--allow-nonstandard", a->allowNonstandard,
                "Allow passes that emit PassLab/ONNX Runtime fused ops");
  cmd->add_flag("--in-place", a->inPlace, "Overwrite the input model");
  cmd->callback([a] { setExitCode(runOptimize(*a)); });
}

void registerPasses(CLI::App& app) {
  auto* cmd = app.add_subcommand("passes", "List the passes, their categories and options");
  cmd->callback([] {
    for (const passes::Pass* p : passes::allPasses()) {
      const auto& i = p->info();
      std::printf("%-34s %-11s %s\n", i.id.c_str(),
                  std::string(passes::categoryName(i.category)).c_str(), i.summaryEn.c_str());
      for (const auto& o : i.options)
        std::printf("    --%s (default %s): %s\n", o.name.c_str(), o.defaultValue.c_str(),
                    o.help.c_str());
    }
    std::printf("levels: %s\n", str::join(passes::levelNames(), ", ").c_str());
  });
}

}  // namespace passlab::cli
