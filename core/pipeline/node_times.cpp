#include "core/pipeline/node_times.h"

#include <algorithm>

namespace passlab::pipeline {

void NodeTimes::addRun(const std::vector<exec::NodeProfile>& run, double runMs) {
  double nodesMs = 0;
  for (const exec::NodeProfile& p : run) {
    auto [it, fresh] = index_.emplace(p.nodeId, series_.size());
    if (fresh) {
      series_.push_back({p, {}, 0});
      series_.back().first.micros = 0;  // the times are in the series
      series_.back().first.calls = 0;
    }
    Series& s = series_[it->second];
    s.first.threadUse = p.threadUse;  // the last run's way (the trials may still change it)
    s.ms.push_back(p.micros / 1000.0);
    s.calls += p.calls;
    if (p.depth == 0) nodesMs += p.micros / 1000.0;
  }
  nodeSumMs_.push_back(nodesMs);
  outsideMs_.push_back(runMs - nodesMs);
}

std::vector<NodeTimes::Row> NodeTimes::rows() const {
  std::vector<Row> out;
  out.reserve(series_.size());
  for (const Series& s : series_)
    out.push_back({s.first, summarizeTimes(s.ms), s.calls / std::max(runs(), 1)});
  return out;
}

double mainGraphMedianSumMs(const std::vector<NodeTimes::Row>& rows) {
  double sum = 0;
  for (const NodeTimes::Row& r : rows)
    if (r.node.depth == 0) sum += r.time.medianMs;
  return sum;
}

}  // namespace passlab::pipeline
