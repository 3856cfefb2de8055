#include "app/cli/device_report.h"

#include <cmath>
#include <cstdio>
#include <map>

#include "core/pipeline/profile_json.h"
#include "core/support/strings.h"

namespace passlab::cli {

std::string deviceSummaryText(const exec::DeviceRunSummary& s) {
  std::string t = s.device + ": " + std::to_string(s.deviceSteps) + " steps on the device";
  if (s.hostSteps > 0) t += ", " + std::to_string(s.hostSteps) + " on the host (dims only)";
  t += ", " + std::to_string(s.fallbackSteps) + " on the CPU (fallback)";
  if (s.keptSteps > 0) t += ", " + std::to_string(s.keptSteps) + " kept from the first run";
  t += "; copies: " + std::to_string(s.copiesToDevice) + " to the device (" +
       str::humanBytes(s.bytesToDevice) + "), " + std::to_string(s.copiesToHost) +
       " to the host (" + str::humanBytes(s.bytesToHost) + ")";
  if (s.blockBytes > 0)
    t += "; memory plan: " + std::to_string(s.placedInBlock) + " tensors in one block of " +
         str::humanBytes(s.blockBytes) + " (" + str::humanBytes(s.plannedTensorBytes) +
         " unshared)" +
         (s.blockFallbacks > 0 ? ", " + std::to_string(s.blockFallbacks) + " from the pool" : "") +
         (s.copiedOutOfBlock > 0 ? ", " + std::to_string(s.copiedOutOfBlock) + " copied out" : "");
  else if (!s.memoryNote.empty())
    t += "; memory: " + s.memoryNote;
  if (!s.timing.empty()) t += "; timing: " + s.timing;
  return t;
}

std::vector<std::string> fallbackLines(const exec::DeviceRunSummary& s) {
  std::map<std::pair<std::string, std::string>, int> counts;
  for (const exec::DeviceFallback& f : s.fallbacks) ++counts[{f.op, f.reason}];
  std::vector<std::string> lines;
  for (const auto& [key, n] : counts)
    lines.push_back(key.first + (n > 1 ? " x" + std::to_string(n) : "") + ": " + key.second);
  return lines;
}

nlohmann::json deviceSummaryJson(const exec::DeviceRunSummary& s) {
  return nlohmann::json::parse(pipeline::deviceRunToJson(s));
}

namespace {

OutputComparison compareOne(const std::string& name, const ir::Tensor& d, const ir::Tensor& c,
                            double rtol, double atol) {
  OutputComparison r;
  r.name = name;
  if (d.dtype() != c.dtype() || d.dims() != c.dims()) {
    r.note = "type or shape differs";
    return r;
  }
  if (d.dtype() == ir::DataType::kString || d.dtype() == ir::DataType::kUndefined) {
    r.note = "not numeric";
    return r;
  }
  std::vector<double> a = d.toDoubleVector(), b = c.toDoubleVector();
  r.compared = true;
  for (size_t i = 0; i < a.size(); ++i) {
    if (std::isnan(a[i]) && std::isnan(b[i])) continue;
    double err = std::fabs(a[i] - b[i]);
    if (std::isnan(err)) err = INFINITY;
    r.maxAbsError = std::max(r.maxAbsError, err);
    if (b[i] != 0) r.maxRelError = std::max(r.maxRelError, err / std::fabs(b[i]));
    if (!(err <= atol + rtol * std::fabs(b[i]))) {
      if (r.outside == 0) {
        char buf[160];
        std::snprintf(buf, sizeof buf, "first at element %zu: device %.9g, cpu %.9g", i, a[i],
                      b[i]);
        r.note = buf;
      }
      ++r.outside;
    }
  }
  r.withinTolerance = r.outside == 0;
  return r;
}

}  // namespace

std::vector<OutputComparison> compareOutputs(const exec::RunResult& device,
                                             const exec::RunResult& cpu, double rtol, double atol) {
  std::vector<OutputComparison> out;
  for (size_t i = 0; i < device.outputs.size() && i < cpu.outputs.size(); ++i) {
    const std::string& name = i < device.outputNames.size() ? device.outputNames[i] : "";
    if (!device.values[i].isTensor() || !cpu.values[i].isTensor()) {
      OutputComparison r;
      r.name = name;
      r.note = "not a tensor";
      out.push_back(r);
      continue;
    }
    out.push_back(compareOne(name, device.outputs[i], cpu.outputs[i], rtol, atol));
  }
  return out;
}

nlohmann::json comparisonJson(const std::vector<OutputComparison>& c, double rtol, double atol) {
  nlohmann::json rows = nlohmann::json::array();
  bool all = true;
  for (const OutputComparison& r : c) {
    all = all && (r.withinTolerance || !r.compared);
    rows.push_back({{"name", r.name},
                    {"compared", r.compared},
                    {"within_tolerance", r.withinTolerance},
                    {"max_abs_error", r.maxAbsError},
                    {"max_rel_error", r.maxRelError},
                    {"outside", r.outside},
                    {"note", r.note}});
  }
  return {{"rtol", rtol}, {"atol", atol}, {"all_within", all}, {"outputs", rows}};
}

}  // namespace passlab::cli
