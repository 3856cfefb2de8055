// passlab-cli conformance DIR [--suite NAME] [--known-failures FILE]
//   [--tolerances FILE] [--filter TEXT]... [--strict] [--write-known-failures FILE]
// Runs ONNX operator tests; prints a line per failing (and skipped) test with
// the reason and "N passed, N failed, N skipped". Fails (exit 1) when a test fails that the
// known-failures file does not list, or, with --strict, when a listed test
// passes (so the list only shrinks). Exit 77 when DIR is absent and
// --skip-missing is given (ctest's skip code).
#include <CLI/CLI.hpp>

#include <cstdio>
#include <filesystem>
#include <fstream>
#include <iostream>
#include <set>

#include "app/cli/commands.h"
#include "app/cli/conformance.h"
#include "app/cli/output_files.h"

namespace passlab::cli {

namespace {

struct ConformanceArgs {
  ConformanceOptions options;
  bool strict = false;
  bool skipMissing = false;
  bool quiet = false;
  std::string writeKnown;
};

// Rewrites `path`: comments and other suites' lines stay, this suite's
// failures are replaced by the current ones.
bool writeKnownFailures(const std::string& path, const std::string& suite,
                        const std::vector<TestOutcome>& outcomes) {
  std::vector<std::string> keep;
  {
    std::ifstream in(path);
    std::string line;
    while (std::getline(in, line)) {
      if (!line.empty() && line[0] != '#' && line.rfind(suite + ":", 0) == 0) continue;
      keep.push_back(line);
    }
  }
  while (!keep.empty() && keep.back().empty()) keep.pop_back();
  std::string text;
  for (const std::string& l : keep) text += l + "\n";
  for (const TestOutcome& o : outcomes)
    if (o.status == TestOutcome::Status::kFail)
      text += suite + ":" + o.name + " " + o.reason + "\n";
  // Through a temporary file: a failed write leaves the old list whole.
  return writeFileAtomically(path, text).isOk();
}

int conformanceCommand(const ConformanceArgs& args) {
  const ConformanceOptions& o = args.options;
  if (!std::filesystem::is_directory(o.dir)) {
    std::cerr << (args.skipMissing ? "skipped: " : "error: ") << "no test folder '" << o.dir
              << "'\n";
    return args.skipMissing ? 77 : 1;
  }
  auto known = o.knownFailures.empty() ? std::map<std::string, std::string>{}
                                       : readKnownFailures(o.knownFailures, o.suite);
  auto outcomes = runConformance(o, !args.quiet);
  int passed = 0, failed = 0, skipped = 0, regressions = 0;
  std::vector<std::string> nowPassing;
  for (const TestOutcome& t : outcomes) {
    bool isKnown = known.count(t.name) > 0;
    switch (t.status) {
      case TestOutcome::Status::kPass:
        ++passed;
        if (isKnown) nowPassing.push_back(t.name);
        break;
      case TestOutcome::Status::kSkip:
        ++skipped;
        std::printf("SKIP %s: %s\n", t.name.c_str(), t.reason.c_str());
        break;
      case TestOutcome::Status::kFail:
        ++failed;
        if (!isKnown) ++regressions;
        std::printf("FAIL %s: %s%s\n", t.name.c_str(), t.reason.c_str(), isKnown ? " [known]" : "");
        break;
    }
  }
  for (const std::string& n : nowPassing)
    std::printf("PASS %s: listed as a known failure; remove it from the list\n", n.c_str());
  if (regressions > 0)
    std::printf("%d failing tests are not in the known-failures list\n", regressions);
  std::printf("%d passed, %d failed, %d skipped\n", passed, failed, skipped);
  if (!args.writeKnown.empty()) {
    if (!writeKnownFailures(args.writeKnown, o.suite, outcomes)) {
      std::cerr << "error: cannot write '" << args.writeKnown << "'\n";
      return 1;
    }
  }
  if (regressions > 0) return 1;
  if (args.strict && !nowPassing.empty()) return 1;
  return 0;
}

}  // namespace

void registerConformance(CLI::App& app) {
  auto* cmd =
      app.add_subcommand("conformance", "Run ONNX operator tests (model.onnx + test_data_set_*)");
  auto args = std::make_shared<ConformanceArgs>();
  ConformanceOptions& o = args->options;
  cmd->add_option("dir", o.dir, "Folder of test_* folders")->required();
  cmd->add_option("--suite", o.suite,
                  "Suite name in the known-failures file (default: folder name)");
  cmd->add_option("--known-failures", o.knownFailures, "File of known failures with reasons");
  cmd->add_option("--tolerances", o.tolerances, "File of per-test tolerances (name rtol=X atol=Y)");
  cmd->add_option("--filter", o.filters,
                  "Only tests whose name contains this (repeat it: contains one of them)");
  cmd->add_option("--threads", o.threads, "Threads per test (default 1)")
      ->check(CLI::PositiveNumber);
  cmd->add_flag("--reference", o.referenceKernels,
                "Run on the reference kernels only (what the fast paths are tested against)");
  cmd->add_option("--device", o.device,
                  "Run on this backend: cpu (default), cuda, cuda:N; tests whose ops have no "
                  "kernel there are skipped");
  cmd->add_option("--timeout", o.secondsPerTest, "Seconds before a test is cancelled (default 60)");
  cmd->add_flag("--strict", args->strict, "Also fail when a known failure passes");
  cmd->add_flag("--skip-missing", args->skipMissing, "Exit 77 (skipped) when DIR is absent");
  cmd->add_flag("--quiet", args->quiet, "No progress lines");
  cmd->add_option("--write-known-failures", args->writeKnown,
                  "Write this suite's current failures to FILE (keeps other suites' lines)");
  cmd->callback([args] {
    if (args->options.suite.empty())
      args->options.suite = std::filesystem::path(args->options.dir).filename().string();
    setExitCode(conformanceCommand(*args));
  });
}

}  // namespace passlab::cli
