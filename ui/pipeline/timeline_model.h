// The Timeline as a table: one row per applied Step (pass, nodes before ->
// after, what changed, time, numeric check with its largest error). Runs of
// Steps that changed nothing fold into one row unless they are asked for.
#pragma once

#include <QAbstractTableModel>

#include <vector>

#include "ui/pipeline/pipeline_session.h"

namespace passlab::ui {

class TimelineModel : public QAbstractTableModel {
  Q_OBJECT

 public:
  enum Column { kNumber, kPass, kNodes, kTime, kCheck, kChanges, kColumnCount };
  // Qt::UserRole: the Step's index in PipelineSession::steps(), or -1 on a folded row.
  static constexpr int kStepRole = Qt::UserRole;
  static constexpr int kFoldedCountRole = Qt::UserRole + 1;  // Steps behind a folded row

  explicit TimelineModel(PipelineSession* session, QObject* parent = nullptr);

  void setShowUnchanged(bool show);
  bool showUnchanged() const { return showUnchanged_; }
  // The row showing Step `step` (-1 if folded away).
  int rowOfStep(int step) const;
  int stepOfRow(int row) const;

  int rowCount(const QModelIndex& parent = {}) const override;
  int columnCount(const QModelIndex& parent = {}) const override;
  QVariant data(const QModelIndex& index, int role = Qt::DisplayRole) const override;
  QVariant headerData(int section, Qt::Orientation o, int role) const override;

 private:
  struct Row {
    int step = -1;               // a Step, or
    std::vector<int> unchanged;  // Steps that changed nothing, folded
  };
  void rebuild();
  QVariant stepData(const pipeline::Step& s, int number, int column, int role) const;

  PipelineSession* session_;
  std::vector<Row> rows_;
  bool showUnchanged_ = false;
};

// "2 removed, 1 added, 1 rewired, 3 initializers removed" (translated).
QString changesText(const rewrite::EditSummary& s);
// "max |err| 3.1e-07" style text of a Step's check ("" when none ran).
QString checkText(const pipeline::Step& s);

}  // namespace passlab::ui
