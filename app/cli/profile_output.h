// Output of `passlab-cli profile`: tables, JSON and CSV of a profile, of a
// comparison, and of the machine roofs.
#pragma once

#include <nlohmann/json.hpp>
#include <optional>
#include <string>

#include "core/pipeline/node_benchmark.h"
#include "core/pipeline/profile.h"
#include "core/pipeline/profile_compare.h"
#include "core/pipeline/roofs.h"

namespace passlab::cli {

struct ProfileOutputOptions {
  std::string model;
  size_t top = 20;  // rows of the node and group tables (0: all)
};

void printProfileText(const pipeline::ProfileResult& r, const ProfileOutputOptions& o);
void printCompareText(const pipeline::CompareResult& r, const ProfileOutputOptions& o);
void printRoofsText(const pipeline::MachineRoofs& roofs);
void printNodeBenchmarkText(const pipeline::NodeBenchmark& b);

nlohmann::json profileJson(const pipeline::ProfileResult& r);
nlohmann::json compareJson(const pipeline::CompareResult& r);
nlohmann::json roofsJson(const pipeline::MachineRoofs& roofs);
nlohmann::json nodeBenchmarkJson(const pipeline::NodeBenchmark& b);

// One row per node (profile) or per group (comparison).
std::string profileCsv(const pipeline::ProfileResult& r);
std::string compareCsv(const pipeline::CompareResult& r);

}  // namespace passlab::cli
