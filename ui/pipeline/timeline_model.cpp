#include "ui/pipeline/timeline_model.h"

#include "ui/i18n/core_text.h"

#include <QBrush>
#include <QColor>
#include <QEvent>
#include <algorithm>

namespace passlab::ui {

QString changesText(const rewrite::EditSummary& s) {
  QStringList parts;
  auto add = [&parts](size_t n, QString text) {
    if (n > 0) parts << text;
  };
  const auto count = [](size_t n) { return static_cast<int>(n); };
  add(s.removed.size(), TimelineModel::tr("%n removed", "", count(s.removed.size())));
  add(s.added.size(), TimelineModel::tr("%n added", "", count(s.added.size())));
  add(s.rewired.size(), TimelineModel::tr("%n rewired", "", count(s.rewired.size())));
  add(s.attributeChanged.size(),
      TimelineModel::tr("%n rewritten", "", count(s.attributeChanged.size())));
  add(s.initializersAdded.size(),
      TimelineModel::tr("%n initializer(s) added", "", count(s.initializersAdded.size())));
  add(s.initializersRemoved.size(),
      TimelineModel::tr("%n initializer(s) removed", "", count(s.initializersRemoved.size())));
  add(s.initializersChanged.size(),
      TimelineModel::tr("%n initializer(s) changed", "", count(s.initializersChanged.size())));
  add(s.graphOutputsRewired,
      TimelineModel::tr("%n graph output(s) rewired", "", count(s.graphOutputsRewired)));
  for (const std::string& o : s.opsetsChanged)
    parts << TimelineModel::tr("opset %1").arg(QString::fromStdString(o));
  return parts.isEmpty() ? TimelineModel::tr("no change") : parts.join(TimelineModel::tr(", "));
}

QString checkText(const pipeline::Step& s) {
  if (!s.check.ran) return {};
  if (s.check.lossy) {
    // Against the accuracy budget (docs/precision.md): the figures of the
    // output that lost the most.
    // Over it, but accepted within the rounding floor (docs/numeric-check.md):
    // the output's figures against the floor's.
    if (s.check.passed && s.check.roundingFloor) {
      const auto& v = *s.check.roundingFloor;
      return TimelineModel::tr("accepted within the rounding floor: '%1' %2 vs floor %3")
          .arg(QString::fromStdString(v.output), trCore(pipeline::accuracyText(v.figures)),
               trCore(pipeline::accuracyText(v.floor)));
    }
    const pipeline::OutputAccuracy* worst = pipeline::worstOutput(s.check.accuracy);
    const QString figures = worst ? trCore(pipeline::accuracyText(*worst)) : QString();
    return s.check.passed ? TimelineModel::tr("within budget: %1").arg(figures)
                          : TimelineModel::tr("over budget: %1").arg(figures);
  }
  // The deviation in noise floors (docs/numeric-check.md), when one was measured.
  const QString noise =
      s.check.noiseMultiple > 0
          ? TimelineModel::tr(", %1x the noise floor").arg(s.check.noiseRatio, 0, 'g', 2)
          : QString();
  if (!s.check.passed)
    return TimelineModel::tr("failed: max |err| %1 at %2")
               .arg(s.check.maxAbsError, 0, 'g', 3)
               .arg(QString::fromStdString(s.check.firstDivergingTensor)) +
           noise;
  return TimelineModel::tr("passed: max |err| %1").arg(s.check.maxAbsError, 0, 'g', 3) + noise;
}

TimelineModel::TimelineModel(PipelineSession* session, QObject* parent)
    : QAbstractTableModel(parent), session_(session) {
  connect(session_, &PipelineSession::stepsChanged, this, &TimelineModel::rebuild);
  rebuild();
}

void TimelineModel::setShowUnchanged(bool show) {
  if (show == showUnchanged_) return;
  showUnchanged_ = show;
  rebuild();
}

void TimelineModel::rebuild() {
  beginResetModel();
  rows_.clear();
  const auto& steps = session_->steps();
  for (int i = 0; i < static_cast<int>(steps.size()); ++i) {
    const pipeline::Step& s = steps[static_cast<size_t>(i)]->step;
    const bool quiet = !s.changed && !s.rolledBack && s.verifierErrors.empty();
    if (quiet && !showUnchanged_) {
      if (rows_.empty() || rows_.back().step >= 0) rows_.push_back(Row{});
      rows_.back().unchanged.push_back(i);
    } else {
      rows_.push_back(Row{i, {}});
    }
  }
  endResetModel();
}

int TimelineModel::rowOfStep(int step) const {
  for (int r = 0; r < static_cast<int>(rows_.size()); ++r)
    if (rows_[static_cast<size_t>(r)].step == step) return r;
  return -1;
}

int TimelineModel::stepOfRow(int row) const {
  if (row < 0 || row >= static_cast<int>(rows_.size())) return -1;
  return rows_[static_cast<size_t>(row)].step;
}

int TimelineModel::rowCount(const QModelIndex& parent) const {
  return parent.isValid() ? 0 : static_cast<int>(rows_.size());
}

int TimelineModel::columnCount(const QModelIndex& parent) const {
  return parent.isValid() ? 0 : kColumnCount;
}

QVariant TimelineModel::headerData(int section, Qt::Orientation o, int role) const {
  if (o != Qt::Horizontal || role != Qt::DisplayRole) return {};
  switch (section) {
    case kNumber:
      return tr("#");
    case kPass:
      return tr("Pass");
    case kNodes:
      return tr("Nodes");
    case kChanges:
      return tr("Changes");
    case kTime:
      return tr("Time");
    case kCheck:
      return tr("Check");
  }
  return {};
}

QVariant TimelineModel::data(const QModelIndex& index, int role) const {
  if (!index.isValid() || index.row() >= static_cast<int>(rows_.size())) return {};
  const Row& row = rows_[static_cast<size_t>(index.row())];
  const auto& steps = session_->steps();
  if (role == kStepRole) return row.step;
  if (role == kFoldedCountRole) return static_cast<int>(row.unchanged.size());
  if (row.step >= 0)
    return stepData(steps[static_cast<size_t>(row.step)]->step, row.step + 1, index.column(), role);
  // A folded row: the passes that changed nothing.
  const int n = static_cast<int>(row.unchanged.size());
  if (role == Qt::ForegroundRole) return QBrush(QColor(0x80, 0x80, 0x80));
  if (role != Qt::DisplayRole && role != Qt::ToolTipRole) return {};
  QStringList names;
  for (int i : row.unchanged)
    names << QString::fromStdString(steps[static_cast<size_t>(i)]->step.passId);
  switch (index.column()) {
    case kNumber:
      return n == 1 ? QString::number(row.unchanged.front() + 1)
                    : QStringLiteral("%1–%2")
                          .arg(row.unchanged.front() + 1)
                          .arg(row.unchanged.back() + 1);
    case kPass:
      return role == Qt::ToolTipRole ? names.join(QLatin1Char('\n'))
                                     : tr("%n pass(es) changed nothing", "", n);
    case kChanges:
      return names.join(QStringLiteral(", "));
    case kTime: {
      double ms = 0;
      for (int i : row.unchanged) ms += steps[static_cast<size_t>(i)]->step.milliseconds;
      return tr("%1 ms").arg(ms, 0, 'f', 1);
    }
  }
  return {};
}

QVariant TimelineModel::stepData(const pipeline::Step& s, int number, int column, int role) const {
  if (role == Qt::ForegroundRole) {
    if (s.rolledBack || (s.check.ran && !s.check.passed)) return QBrush(QColor(0xc5, 0x22, 0x1f));
    if (!s.changed) return QBrush(QColor(0x80, 0x80, 0x80));
    return {};
  }
  if (role == Qt::TextAlignmentRole && (column == kNodes || column == kTime || column == kNumber))
    return QVariant(Qt::AlignRight | Qt::AlignVCenter);
  if (role != Qt::DisplayRole && role != Qt::ToolTipRole) return {};
  switch (column) {
    case kNumber:
      return QString::number(number);
    case kPass:
      return QString::fromStdString(s.passId);
    case kNodes:
      return QStringLiteral("%1 → %2").arg(s.before.nodes).arg(s.after.nodes);
    case kChanges:
      if (s.rolledBack) return tr("rolled back: %1").arg(trCore(s.error));
      if (s.skipped) return trCore(s.note);
      if (!s.changed) return tr("no change");
      return changesText(s.summary);
    case kTime:
      return tr("%1 ms").arg(s.milliseconds, 0, 'f', 1);
    case kCheck:
      if (role == Qt::ToolTipRole && s.check.ran) return trCore(s.check.detail);
      return checkText(s);
  }
  return {};
}

}  // namespace passlab::ui
