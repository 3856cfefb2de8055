// The ONNX operator conformance suite: each test folder holds model.onnx and
// test_data_set_*/{input,output}_*.pb. Tests are run with the ONNX backend-test
// tolerances, compared, and checked against a list of known failures.
#pragma once

#include <map>
#include <string>
#include <vector>

#include "app/cli/data_values.h"

namespace passlab::cli {

struct ConformanceOptions {
  std::string dir;
  std::string suite;                 // name used in the known-failures file ("corpus", "debian")
  std::string knownFailures;         // file of known failures ("" = none)
  std::string tolerances;            // file of per-test tolerances ("" = defaults only)
  std::vector<std::string> filters;  // only tests whose name contains one of these
  int threads = 1;
  bool referenceKernels = false;  // run on the reference kernels only
  // The executor's backend ("cuda": tests none of whose steps have a CUDA
  // kernel are skipped, naming why).
  std::string device = "cpu";
  double secondsPerTest = 60;  // a test running longer is cancelled (and fails)
};

struct TestOutcome {
  enum class Status { kPass, kFail, kSkip };
  std::string name;
  Status status = Status::kPass;
  std::string reason;
};

// Runs every test under options.dir (sorted by name).
std::vector<TestOutcome> runConformance(const ConformanceOptions& options,
                                        bool printProgress = false);

// "test name" -> reason, for lines "name reason" or "suite:name reason" whose
// suite matches (lines without a suite apply to all).
std::map<std::string, std::string> readKnownFailures(const std::string& path,
                                                     const std::string& suite);
// Per-test tolerance overrides: lines "name rtol=X atol=Y".
std::map<std::string, Tolerance> readTolerances(const std::string& path);

}  // namespace passlab::cli
