#include "ui/profile/profile_tables.h"

#include <QBrush>
#include <QColor>

#include <string>
#include <string_view>

namespace passlab::ui {

namespace {

ProfileCell text(const QString& s) {
  return {s, s};
}
ProfileCell text(const std::string& s) {
  return text(QString::fromStdString(s));
}
ProfileCell number(double x, int decimals, const QString& suffix = {}) {
  return {QString::number(x, 'f', decimals) + suffix, x};
}
ProfileCell rank(int i) {
  return {QString::number(i + 1), i};
}
// The kernel name a device runner gives a step it sent to the CPU.
constexpr std::string_view kFallbackKernel = "cpu-fallback:";

// Why `n` fell back: the run's entry for its name, else the first for its op.
std::string fallbackReason(const exec::DeviceRunSummary& d, const pipeline::NodeTiming& n) {
  if (!n.name.empty())
    for (const exec::DeviceFallback& f : d.fallbacks)
      if (f.node == n.name) return f.reason;
  for (const exec::DeviceFallback& f : d.fallbacks)
    if (f.op == n.op) return f.reason;
  return {};
}

QString joined(const std::vector<std::string>& names) {
  QStringList out;
  for (const std::string& n : names) out << QString::fromStdString(n);
  return out.join(QStringLiteral(", "));
}

}  // namespace

QString ProfileTables::kindName(pipeline::GroupKind kind) {
  switch (kind) {
    case pipeline::GroupKind::kUnchanged:
      return tr("unchanged");
    case pipeline::GroupKind::kRewritten:
      return tr("rewritten");
    case pipeline::GroupKind::kRemoved:
      return tr("removed");
    case pipeline::GroupKind::kUnmatched:
      return tr("unmatched");
  }
  return {};
}

QString ProfileTables::threadChoiceName(exec::ThreadChoice choice) {
  switch (choice) {
    case exec::ThreadChoice::kOneThreadRun:
      return tr("one-thread run");
    case exec::ThreadChoice::kCostModel:
      return tr("cost model");
    case exec::ThreadChoice::kTrial:
      return tr("trial");
    case exec::ThreadChoice::kTrying:
      return tr("trying");
    case exec::ThreadChoice::kFixed:
      return tr("PASSLAB_SMALL_STEP_MICROS");
    case exec::ThreadChoice::kUnknown:
      break;
  }
  return {};
}

ProfileCell ProfileTables::threadsCell(const exec::StepThreadUse& use) {
  if (use.threads <= 0) return {tr("—"), 0};
  return {tr("%1 (%2)").arg(use.threads).arg(threadChoiceName(use.choice)), use.threads};
}

QString ProfileTables::threadsTip(const exec::StepThreadUse& use) {
  QString tip = tr("Ran on %n thread(s), chosen by: %1", nullptr, use.threads)
                    .arg(threadChoiceName(use.choice));
  if (use.trialOneMicros >= 0 || use.trialSplitMicros >= 0)
    tip += QStringLiteral("\n") + tr("Step trials, fastest run: one thread %1 ms, split %2 ms")
                                      .arg(use.trialOneMicros / 1000.0, 0, 'f', 3)
                                      .arg(use.trialSplitMicros / 1000.0, 0, 'f', 3);
  return tip;
}

ProfileTable ProfileTables::nodes(const ProfileOutcome& o) {
  ProfileTable t;
  t.headers = {tr("#"),       tr("Node"),   tr("Op"),     tr("Median ms"),
               tr("Min ms"),  tr("P90 ms"), tr("Spread"), tr("Share"),
               tr("GFLOP/s"), tr("GB/s"),   tr("Threads")};
  int i = 0;
  for (const pipeline::NodeTiming& n : o.profile.nodes) {
    ProfileRow r;
    ProfileCell spread = number(100 * n.time.spread, 1, QStringLiteral("%"));
    if (n.time.noisy) spread.text += QStringLiteral(" ") + tr("(noisy)");
    r.fallback = n.kernel.starts_with(kFallbackKernel);
    ProfileCell op = text(n.op);
    if (r.fallback) op.text += QStringLiteral(" ") + tr("(CPU fallback)");
    r.cells = {rank(i++),
               text(n.label()),
               op,
               number(n.time.medianMs, 4),
               number(n.time.minMs, 4),
               number(n.time.p90Ms, 4),
               spread,
               number(100 * n.share, 1, QStringLiteral("%")),
               number(n.gflops, 2),
               number(n.gbps, 2),
               threadsCell(n.threadUse)};
    r.nodes = {n.nodeId};
    r.flagged = n.time.noisy;
    r.tip = tr("%1 (%2), kernel %3: %4 calls per run, %5 runs")
                .arg(QString::fromStdString(n.label()), QString::fromStdString(n.op),
                     QString::fromStdString(n.kernel))
                .arg(n.callsPerRun)
                .arg(n.time.samples);
    if (n.time.noisy) r.tip += QStringLiteral("\n") + tr("Noisy: the spread is over 10%");
    if (n.threadUse.threads > 0) r.tip += QStringLiteral("\n") + threadsTip(n.threadUse);
    if (r.fallback) {
      const std::string reason = fallbackReason(o.profile.deviceRun, n);
      r.tip += QStringLiteral("\n") +
               (reason.empty() ? tr("Ran on the CPU: the device has no kernel for it")
                               : tr("Ran on the CPU: %1").arg(QString::fromStdString(reason)));
    }
    t.rows.push_back(std::move(r));
  }
  return t;
}

ProfileTable ProfileTables::groups(const ProfileOutcome& o) {
  ProfileTable t;
  t.headers = {tr("#"),        tr("Original nodes"), tr("New nodes"), tr("Before ms"),
               tr("After ms"), tr("Speedup"),        tr("Saved ms"),  tr("Kind")};
  int i = 0;
  for (const pipeline::NodeGroup& g : o.comparison.groups) {
    ProfileRow r;
    ProfileCell kind = text(kindName(g.kind));
    if (g.regression) kind.text += QStringLiteral(" ") + tr("(slower)");
    r.cells = {rank(i++),
               text(joined(g.originalLabels)),
               text(joined(g.newLabels)),
               number(g.beforeMs, 4),
               number(g.afterMs, 4),
               g.afterMs > 0 ? number(g.speedup,
                                      g.speedup < 10    ? 2
                                      : g.speedup < 100 ? 1
                                                        : 0,
                                      QStringLiteral("×"))
                             : ProfileCell{tr("—"), 1e300},
               number(g.savedMs, 4),
               kind};
    r.nodes = g.newNodes;
    r.flagged = g.regression;
    r.tip = tr("Original ops: %1\nNew ops: %2")
                .arg(joined(g.originalOps), g.newOps.empty() ? tr("none") : joined(g.newOps));
    if (g.noisy) r.tip += QStringLiteral("\n") + tr("A node of this group has a noisy time");
    t.rows.push_back(std::move(r));
  }
  return t;
}

ProfileTable ProfileTables::opTypes(const ProfileOutcome& o) {
  ProfileTable t;
  t.headers = {tr("Op"), tr("Nodes"), tr("Time ms"), tr("Share"), tr("GFLOP/s")};
  for (const pipeline::OpTypeTotal& op : o.profile.opTypes) {
    ProfileRow r;
    double gflops = op.ms > 0 ? op.flops / (op.ms * 1e6) : 0;
    r.cells = {text(op.op), number(op.nodes, 0), number(op.ms, 4),
               number(100 * op.share, 1, QStringLiteral("%")), number(gflops, 2)};
    t.rows.push_back(std::move(r));
  }
  return t;
}

void ProfileTableModel::setTable(ProfileTable table) {
  beginResetModel();
  table_ = std::move(table);
  endResetModel();
}

int ProfileTableModel::rowOf(ir::NodeId node) const {
  for (size_t i = 0; i < table_.rows.size(); ++i)
    for (ir::NodeId n : table_.rows[i].nodes)
      if (n == node) return static_cast<int>(i);
  return -1;
}

int ProfileTableModel::rowCount(const QModelIndex& parent) const {
  return parent.isValid() ? 0 : static_cast<int>(table_.rows.size());
}

int ProfileTableModel::columnCount(const QModelIndex& parent) const {
  return parent.isValid() ? 0 : static_cast<int>(table_.headers.size());
}

QVariant ProfileTableModel::data(const QModelIndex& index, int role) const {
  if (!index.isValid() || index.row() >= rowCount() || index.column() >= columnCount()) return {};
  const ProfileRow& row = table_.rows[static_cast<size_t>(index.row())];
  if (static_cast<size_t>(index.column()) >= row.cells.size()) return {};
  const ProfileCell& cell = row.cells[static_cast<size_t>(index.column())];
  switch (role) {
    case Qt::DisplayRole:
      return cell.text;
    case kSortRole:
      return cell.sortKey;
    case kNodeRole:
      return static_cast<qulonglong>(row.nodes.empty() ? 0 : row.nodes.front());
    case Qt::ToolTipRole:
      return row.tip.isEmpty() ? QVariant() : QVariant(row.tip);
    case Qt::ForegroundRole:
      if (row.flagged) return QBrush(QColor(0xc0, 0x39, 0x2b));
      return {};
    case Qt::BackgroundRole:
      if (row.fallback) return QBrush(QColor(0xf3, 0x9c, 0x12, 0x40));  // translucent amber
      return {};
    case Qt::TextAlignmentRole:
      if (cell.sortKey.typeId() != QMetaType::QString)
        return QVariant(Qt::AlignRight | Qt::AlignVCenter);
      return {};
    default:
      return {};
  }
}

QVariant ProfileTableModel::headerData(int section, Qt::Orientation o, int role) const {
  if (o == Qt::Horizontal && role == Qt::DisplayRole && section >= 0 &&
      section < table_.headers.size())
    return table_.headers[section];
  return QAbstractTableModel::headerData(section, o, role);
}

}  // namespace passlab::ui
