// A profile and a comparison (profile.h, profile_compare.h) as JSON text and
// CSV: the one serializer that `passlab-cli profile --json/--csv` and the GUI
// Profile dock's export share, so both write the same fields (the latency
// and the profiled runs' latency, the overheads, the runs' node sums and
// time outside the nodes, the machine, one entry per node and per op type;
// a comparison's groups with both profiles). The JSON is compact text whose
// object keys are sorted; a caller that adds fields parses it first.
#pragma once

#include <string>

#include "core/exec/device_run_summary.h"
#include "core/pipeline/profile.h"
#include "core/pipeline/profile_compare.h"

namespace passlab::pipeline {

std::string profileToJson(const ProfileResult& r);
std::string compareToJson(const CompareResult& r);
// Where a device run's steps ran and what it copied (the "device_run" of a profile).
std::string deviceRunToJson(const exec::DeviceRunSummary& s);

// A header and one row per node (profile) or per node group (comparison).
std::string profileToCsv(const ProfileResult& r);
std::string compareToCsv(const CompareResult& r);

}  // namespace passlab::pipeline
