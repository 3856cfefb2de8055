#include "ui/profile/profile_export.h"

#include <QJsonArray>
#include <QStringList>

namespace passlab::ui {

namespace {

QString qs(const std::string& s) {
  return QString::fromStdString(s);
}

QJsonArray strings(const std::vector<std::string>& list) {
  QJsonArray a;
  for (const std::string& s : list) a.append(qs(s));
  return a;
}

QJsonObject timingJson(const pipeline::Timing& t) {
  return {{"median_ms", t.medianMs}, {"min_ms", t.minMs}, {"p90_ms", t.p90Ms},
          {"spread", t.spread},      {"noisy", t.noisy},  {"samples", t.samples}};
}

QJsonObject nodeJson(const pipeline::NodeTiming& n) {
  return {{"id", static_cast<qint64>(n.nodeId)},
          {"name", qs(n.label())},
          {"op", qs(n.op)},
          {"kernel", qs(n.kernel)},
          {"depth", n.depth},
          {"calls_per_run", static_cast<qint64>(n.callsPerRun)},
          {"time", timingJson(n.time)},
          {"share", n.share},
          {"flops", static_cast<double>(n.cost.flops)},
          {"bytes", static_cast<double>(n.bytesMoved)},
          {"gflops", n.gflops},
          {"gbps", n.gbps}};
}

QJsonObject deviceRunJson(const exec::DeviceRunSummary& d) {
  QJsonArray fallbacks;
  for (const exec::DeviceFallback& f : d.fallbacks)
    fallbacks.append(QJsonObject{{"node", qs(f.node)}, {"op", qs(f.op)}, {"reason", qs(f.reason)}});
  return {{"device", qs(d.device)},
          {"device_steps", d.deviceSteps},
          {"host_steps", d.hostSteps},
          {"fallback_steps", d.fallbackSteps},
          {"kept_steps", d.keptSteps},
          {"copies_to_device", d.copiesToDevice},
          {"copies_to_host", d.copiesToHost},
          {"bytes_to_device", static_cast<double>(d.bytesToDevice)},
          {"bytes_to_host", static_cast<double>(d.bytesToHost)},
          {"fallbacks", fallbacks}};
}

QJsonObject profileJson(const pipeline::ProfileResult& r) {
  QJsonArray nodes, ops;
  for (const pipeline::NodeTiming& n : r.nodes) nodes.append(nodeJson(n));
  for (const pipeline::OpTypeTotal& t : r.opTypes)
    ops.append(QJsonObject{{"op", qs(t.op)},
                           {"nodes", t.nodes},
                           {"ms", t.ms},
                           {"share", t.share},
                           {"flops", t.flops}});
  QJsonObject j{{"device", qs(r.device)},
                {"threads", r.threads},
                {"warmup", r.warmup},
                {"repeats", r.repeats},
                {"inputs", strings(r.inputs)},
                {"latency", timingJson(r.latency)},
                {"node_sum_ms", r.nodeSumMs},
                {"overhead_ms", r.overheadMs},
                {"overhead_share", r.overheadShare},
                {"nodes", nodes},
                {"op_types", ops}};
  if (!r.deviceRun.device.empty()) j["device_run"] = deviceRunJson(r.deviceRun);
  return j;
}

QJsonObject groupJson(const pipeline::NodeGroup& g) {
  return {{"kind", QLatin1String(pipeline::groupKindName(g.kind))},
          {"original_nodes", strings(g.originalLabels)},
          {"new_nodes", strings(g.newLabels)},
          {"original_ops", strings(g.originalOps)},
          {"new_ops", strings(g.newOps)},
          {"before_ms", g.beforeMs},
          {"after_ms", g.afterMs},
          {"speedup", g.speedup},
          {"saved_ms", g.savedMs},
          {"regression", g.regression},
          {"noisy", g.noisy}};
}

// A CSV field, quoted when it holds a separator, a quote or a line break.
QString field(QString s) {
  if (s.contains(QLatin1Char(',')) || s.contains(QLatin1Char('"')) ||
      s.contains(QLatin1Char('\n'))) {
    s.replace(QStringLiteral("\""), QStringLiteral("\"\""));
    return QLatin1Char('"') + s + QLatin1Char('"');
  }
  return s;
}

QString joined(const std::vector<std::string>& list) {
  QStringList out;
  for (const std::string& s : list) out << qs(s);
  return out.join(QLatin1Char(' '));
}

QString num(double x) {
  return QString::number(x, 'g', 8);
}

}  // namespace

QJsonObject profileToJson(const ProfileOutcome& o) {
  if (!o.compare) return profileJson(o.profile);
  const pipeline::CompareResult& c = o.comparison;
  QJsonArray groups;
  for (const pipeline::NodeGroup& g : c.groups) groups.append(groupJson(g));
  return {{"matching", qs(c.matching)},
          {"latency_before", timingJson(c.latencyBefore)},
          {"latency_after", timingJson(c.latencyAfter)},
          {"speedup", c.speedup},
          {"groups", groups},
          {"before", profileJson(c.before)},
          {"after", profileJson(c.after)}};
}

QByteArray profileToCsv(const ProfileOutcome& o) {
  QStringList lines;
  if (o.compare) {
    lines << QStringLiteral(
        "kind,original_nodes,new_nodes,original_ops,new_ops,before_ms,after_ms,speedup,saved_ms,"
        "regression,noisy");
    for (const pipeline::NodeGroup& g : o.comparison.groups)
      lines << QStringList{QLatin1String(pipeline::groupKindName(g.kind)),
                           field(joined(g.originalLabels)),
                           field(joined(g.newLabels)),
                           field(joined(g.originalOps)),
                           field(joined(g.newOps)),
                           num(g.beforeMs),
                           num(g.afterMs),
                           num(g.speedup),
                           num(g.savedMs),
                           g.regression ? QStringLiteral("1") : QStringLiteral("0"),
                           g.noisy ? QStringLiteral("1") : QStringLiteral("0")}
                   .join(QLatin1Char(','));
  } else {
    lines << QStringLiteral(
        "name,op,kernel,median_ms,min_ms,p90_ms,spread,noisy,share,flops,bytes,gflops,gbps");
    for (const pipeline::NodeTiming& n : o.profile.nodes)
      lines << QStringList{field(qs(n.label())),
                           field(qs(n.op)),
                           field(qs(n.kernel)),
                           num(n.time.medianMs),
                           num(n.time.minMs),
                           num(n.time.p90Ms),
                           num(n.time.spread),
                           n.time.noisy ? QStringLiteral("1") : QStringLiteral("0"),
                           num(n.share),
                           num(static_cast<double>(n.cost.flops)),
                           num(static_cast<double>(n.bytesMoved)),
                           num(n.gflops),
                           num(n.gbps)}
                   .join(QLatin1Char(','));
  }
  return (lines.join(QLatin1Char('\n')) + QLatin1Char('\n')).toUtf8();
}

}  // namespace passlab::ui
