// passlab-cli profile MODEL [--level L [--allow-nonstandard] [--node NAME] | --compare OTHER.onnx]
//   [--threads N]
//   [--warmup N] [--repeat N] [--input ...] [--dim ...] [--top N] [--roofs]
//   [--json | --csv FILE]
// Per-node timing with its spread, FLOPs and bytes, per op type totals, and
// the whole-model latency without per-node timing (the overhead is printed);
// with --level, the model optimized in process (provenance kept) compared
// group by group; with --compare, another file compared by op and output
// names; with --node, one node of the optimized model alone against the
// original nodes it stands for alone.
// Method and figures: docs/profiling.md.
#include <CLI/CLI.hpp>

#include <cstdio>
#include <fstream>
#include <iostream>

#include "app/cli/commands.h"
#include "app/cli/memory_limit.h"
#include "app/cli/output_files.h"
#include "app/cli/profile_output.h"
#include "app/cli/run_inputs.h"
#include "app/cli/size_option.h"
#include "core/io/model_io.h"
#include "core/passes/registry.h"
#include "core/pipeline/node_benchmark.h"
#include "core/pipeline/profile.h"
#include "core/pipeline/profile_compare.h"
#include "core/pipeline/roofs.h"
#include "core/support/strings.h"

namespace passlab::cli {

namespace {

struct ProfileArgs {
  std::string model, level, compare, csv, node;
  std::string device = "cpu";
  InputSpec inputs;
  int threads = 0, warmup = 2, repeat = 10, rounds = 10;
  uint64_t memoryLimit = 0;
  size_t top = 20;
  bool json = false, roofs = false, remeasureRoofs = false, allowNonstandard = false;
};

int fail(const Error& e) {
  std::cerr << "error: " << e.message() << "\n";
  return 1;
}

// The request with inputs as `run` prepares them (--input, --dim, --seed).
Expected<pipeline::ProfileRequest> buildRequest(const ProfileArgs& a, const ir::Model& model,
                                                std::vector<std::string>& descriptions) {
  auto ex = exec::Executor::create(model);
  if (!ex) return ex.error();
  auto prepared = prepareInputs(**ex, a.inputs);
  if (!prepared) return prepared.error();
  descriptions = prepared->descriptions;
  pipeline::ProfileRequest req;
  req.model = &model;
  req.given = std::move(prepared->values);
  req.threads = a.threads;
  req.memoryLimitBytes = a.memoryLimit;
  req.warmup = a.warmup;
  req.repeats = a.repeat;
  req.device = a.device;
  return req;
}

// --level L as `optimize --level L` runs it: standard ONNX only unless
// --allow-nonstandard; the passes that skips are named on stderr.
Expected<pipeline::OptimizedModel> optimizeAsAsked(const ProfileArgs& a, const ir::Model& model) {
  if (!a.allowNonstandard) {
    std::vector<std::string> skipped;
    if (auto ids = passes::passesForLevel(a.level))
      for (const std::string& id : *ids)
        if (const passes::Pass* p = passes::findPass(id); p && p->info().mayEmitNonStandard)
          skipped.push_back(id);
    if (!skipped.empty())
      std::fprintf(stderr,
                   "note: --level %s: %s emit non-standard ops and are skipped without "
                   "--allow-nonstandard\n",
                   a.level.c_str(), str::join(skipped, ", ").c_str());
  }
  return pipeline::optimizeForCompare(model, a.level, !a.allowNonstandard);
}

// --memory-limit as `run` keeps it (memory_limit.h): a limit the runs of
// `model` on `inputs` would pass is refused before they start, with the bytes
// a run needs, not by a node partway; `what` names the model.
Status fitsMemoryLimit(const ProfileArgs& a, const ir::Model& model,
                       const exec::NamedInputs& inputs) {
  if (a.memoryLimit == 0) return Status::ok();
  exec::ExecutorOptions eo;  // as pipeline::prepareRun makes the profiled executor
  eo.backend = a.device;
  exec::RunOptions ro;
  ro.threads = a.threads;
  return runsFitMemoryLimit(model, eo, inputs, ro, a.memoryLimit);
}

Status withinMemoryLimit(const ProfileArgs& a, const ir::Model& model,
                         const exec::NamedInputs& inputs, const std::string& what) {
  Status st = fitsMemoryLimit(a, model, inputs);
  return st ? st : st.error().withContext(what);
}

// The inputs of `model` among `given` (the optimized model runs on the
// original's inputs that it still has, as pipeline::compareModels gives them).
exec::NamedInputs inputsOf(const ir::Model& model, const exec::NamedInputs& given) {
  exec::NamedInputs out;
  for (const auto& [name, value] : given)
    for (const ir::Value* in : model.graph().inputs())
      if (in->name() == name) {
        out.emplace_back(name, value);
        break;
      }
  return out;
}

Expected<pipeline::CompareResult> runCompare(const ProfileArgs& a,
                                             const pipeline::ProfileRequest& req) {
  pipeline::CompareRequest creq;
  creq.base = req;
  creq.rounds = a.rounds;
  if (!a.level.empty()) {
    auto opt = optimizeAsAsked(a, *req.model);
    if (!opt) return opt.error().withContext("--level " + a.level);
    creq.optimized = &opt->model;
    creq.provenance = &opt->provenance;
    PASSLAB_RETURN_IF_ERROR(withinMemoryLimit(a, opt->model, inputsOf(opt->model, req.given),
                                              "the model optimized at --level " + a.level));
    return pipeline::compareModels(creq);
  }
  auto other = io::loadModel(a.compare);
  if (!other) return other.error().withContext(a.compare);
  creq.optimized = &other->model;
  PASSLAB_RETURN_IF_ERROR(withinMemoryLimit(a, other->model, inputsOf(other->model, req.given),
                                            "--compare " + a.compare));
  return pipeline::compareModels(creq);
}

bool writeCsv(const std::string& path, const std::string& text) {
  Status s = writeFileAtomically(path, text);
  if (s.isOk()) return true;
  std::cerr << "error: cannot write " << path << ": " << s.message() << "\n";
  return false;
}

// --node NAME: the node alone against its original nodes alone.
int runNodeBenchmark(const ProfileArgs& a, const pipeline::ProfileRequest& req) {
  Expected<pipeline::OptimizedModel> opt = internalError("no model to compare");
  if (!a.compare.empty()) {
    auto other = io::loadModel(a.compare);
    if (!other) return fail(other.error().withContext(a.compare));
    opt = pipeline::matchedByNames(*req.model, std::move(other->model));
  } else {
    opt = optimizeAsAsked(a, *req.model);
    if (!opt) return fail(opt.error().withContext("--level " + a.level));
  }
  // --memory-limit holds every run of the benchmark to it (the cut-outs, timed
  // and in context, and the whole models feeding them): refused before them.
  pipeline::RunCheck check;
  if (a.memoryLimit != 0)
    check = [&a](const ir::Model& m, const exec::NamedInputs& inputs) {
      return fitsMemoryLimit(a, m, inputs);
    };
  auto b = pipeline::benchmarkNode(req, *opt, a.node, check);
  if (!b && !a.compare.empty())
    return fail(b.error().withContext(
        "--compare " + a.compare +
        " (nodes matched by op and output names; a rewritten node maps to its original nodes "
        "only through provenance: use --level)"));
  if (!b) return fail(b.error());
  if (a.json) {
    nlohmann::json j = nodeBenchmarkJson(*b);
    j["model"] = a.model;
    std::cout << j.dump(2) << "\n";
  } else {
    printNodeBenchmarkText(*b);
  }
  return 0;
}

int runProfile(const ProfileArgs& a) {
  // The CSV on the model (the compared model, an --input file) would replace it.
  std::vector<NamedPath> readFiles = inputFilesOf(a.inputs.inputs);
  readFiles.insert(readFiles.begin(), {{"the model", a.model}, {"--compare", a.compare}});
  if (Status paths = checkOutputPaths(readFiles, {{"--csv", a.csv}}); !paths)
    return fail(paths.error());
  auto loaded = io::loadModel(a.model);
  if (!loaded) return fail(loaded.error());
  std::vector<std::string> descriptions;
  auto req = buildRequest(a, loaded->model, descriptions);
  if (!req) return fail(req.error());
  if (a.node.empty())
    if (Status st = withinMemoryLimit(a, loaded->model, req->given, a.model); !st)
      return fail(st.error());
  if (!a.node.empty()) {
    if (a.level.empty() && a.compare.empty())
      return fail(invalidArgument("--node needs --level or --compare"));
    return runNodeBenchmark(a, *req);
  }
  std::optional<pipeline::MachineRoofs> roofs;
  if (a.roofs || a.remeasureRoofs) {
    pipeline::RoofOptions ro;
    ro.threads = a.threads;
    ro.remeasure = a.remeasureRoofs;
    auto r = pipeline::machineRoofs(ro);
    if (!r) return fail(r.error());
    roofs = *r;
  }
  ProfileOutputOptions out;
  out.model = a.model;
  out.top = a.top;
  nlohmann::json j;
  if (!a.level.empty() || !a.compare.empty()) {
    auto c = runCompare(a, *req);
    if (!c) return fail(c.error());
    c->before.inputs = descriptions;
    if (!a.csv.empty() && !writeCsv(a.csv, compareCsv(*c))) return 1;
    if (a.json)
      j = compareJson(*c);
    else
      printCompareText(*c, out);
  } else {
    auto p = pipeline::profileModel(*req);
    if (!p) return fail(p.error());
    p->inputs = descriptions;
    if (!a.csv.empty() && !writeCsv(a.csv, profileCsv(*p))) return 1;
    if (a.json)
      j = profileJson(*p);
    else
      printProfileText(*p, out);
  }
  if (a.json) {
    j["model"] = a.model;
    if (roofs) j["roofs"] = roofsJson(*roofs);
    std::cout << j.dump(2) << "\n";
  } else if (roofs) {
    printRoofsText(*roofs);
  }
  return 0;
}

}  // namespace

void registerProfile(CLI::App& app) {
  auto* cmd = app.add_subcommand(
      "profile",
      "Per-node time, FLOPs and bytes of a model, or a comparison with an optimized one");
  auto a = std::make_shared<ProfileArgs>();
  cmd->add_option("model", a->model, "ONNX model file")->required();
  auto* level = cmd->add_option("--level", a->level,
                                "Optimize in process at this level and compare (provenance kept)");
  auto* other = cmd->add_option("--compare", a->compare,
                                "Compare with this (optimized) model file, nodes matched by name");
  level->excludes(other);
  cmd->add_flag("--allow-nonstandard", a->allowNonstandard,
                "With --level: also run the passes that emit non-standard ops (ai.passlab, "
                "com.microsoft), as optimize does");
  cmd->add_option("--node", a->node,
                  "With --level or --compare: time this node of the optimized model alone "
                  "against the original nodes it stands for, each cut out as a model of its own");
  cmd->add_option("--input", a->inputs.inputs,
                  "NAME=FILE.npy, NAME=FILE.pb, NAME=VALUE[,VALUE...], or random/zeros/arange")
      ->allow_extra_args(false);
  cmd->add_option("--dim", a->inputs.dims, "NAME=VALUE for a symbolic dim")
      ->allow_extra_args(false);
  cmd->add_option("--seed", a->inputs.seed, "Seed of the random inputs (default 0)");
  cmd->add_option(
      "--device", a->device,
      "Where to profile: cpu (default), cuda, cuda:N (per-node times from CUDA events)");
  cmd->add_option("--threads", a->threads, "Threads (default: every core)")
      ->check(CLI::NonNegativeNumber);
  cmd->add_option("--warmup", a->warmup, "Untimed runs first (default 2)")
      ->check(CLI::NonNegativeNumber);
  cmd->add_option("--repeat", a->repeat, "Timed rounds (default 10)")->check(CLI::PositiveNumber);
  cmd->add_option("--rounds", a->rounds,
                  "Interleaved whole-model rounds of a comparison (default 10)")
      ->check(CLI::PositiveNumber);
  cmd->add_option("--memory-limit", a->memoryLimit,
                  "Intermediate memory a run may use (bytes, or with a unit: 64MiB, 1.5GB; "
                  "not 0): as `run`, fails before the profiled runs when the executor's memory "
                  "plan, or one untimed run (not limited), needs more, with kernel scratch")
      ->transform(sizeWithUnit());
  cmd->add_option("--top", a->top, "Rows of the tables (default 20; 0: all)");
  cmd->add_flag("--roofs", a->roofs, "Print the machine's GEMM and bandwidth roofs (cached)");
  cmd->add_flag("--remeasure-roofs", a->remeasureRoofs, "Measure the roofs again and cache them");
  auto* json = cmd->add_flag("--json", a->json, "Print JSON");
  auto* csv = cmd->add_option("--csv", a->csv, "Write one row per node (or group) to FILE");
  json->excludes(csv);
  cmd->callback([a] { setExitCode(runProfile(*a)); });
}

}  // namespace passlab::cli
