// The Profile dock's tables as rows of cells, built from one run's outcome:
// per node (profile), per node group (comparison) and per op type. One small
// table model shows any of them; a QSortFilterProxyModel sorts by the raw
// numbers (kSortRole) and filters by the text.
#pragma once

#include <QAbstractTableModel>
#include <QCoreApplication>
#include <QStringList>
#include <QVariant>

#include <vector>

#include "core/ir/node.h"
#include "ui/profile/profile_runner.h"

namespace passlab::ui {

struct ProfileCell {
  QString text;
  QVariant sortKey;  // the raw number (or the text)
};

struct ProfileRow {
  std::vector<ProfileCell> cells;
  std::vector<ir::NodeId> nodes;  // of the current model, first one selected
  bool flagged = false;           // noisy (node) or a regression (group)
  bool fallback = false;          // ran on the CPU in a device run (kernel "cpu-fallback:...")
  QString tip;
};

struct ProfileTable {
  QStringList headers;
  std::vector<ProfileRow> rows;
};

class ProfileTables {
  Q_DECLARE_TR_FUNCTIONS(ProfileTables)

 public:
  // One row per node that ran, in run order: node, op, median, min, p90,
  // spread (noisy marked), share, GFLOP/s, GB/s, threads ("2 (trial)": the
  // threads it ran on and what chose them, issue #26; the step trials' times
  // in the tip). In a device run, a node
  // that fell back to its CPU kernel is marked in its op cell, its tip (with
  // the reason) and its background.
  static ProfileTable nodes(const ProfileOutcome& o);
  // One row per node group, regressions first: original nodes, new nodes,
  // time before and after, speedup, time saved, kind.
  static ProfileTable groups(const ProfileOutcome& o);
  // One row per op type, largest time first.
  static ProfileTable opTypes(const ProfileOutcome& o);
  // The kind of a group, translated.
  static QString kindName(pipeline::GroupKind kind);
  // What chose a step's threads (core/exec/step_thread_use.h), translated;
  // its cell ("—" when not known) and tip line.
  static QString threadChoiceName(exec::ThreadChoice choice);
  static ProfileCell threadsCell(const exec::StepThreadUse& use);
  static QString threadsTip(const exec::StepThreadUse& use);
};

class ProfileTableModel : public QAbstractTableModel {
  Q_OBJECT

 public:
  static constexpr int kSortRole = Qt::UserRole + 1;
  static constexpr int kNodeRole = Qt::UserRole + 2;  // qulonglong: the first node (0: none)

  using QAbstractTableModel::QAbstractTableModel;
  void setTable(ProfileTable table);
  const ProfileTable& table() const { return table_; }
  // The row showing `node` (-1: none).
  int rowOf(ir::NodeId node) const;

  int rowCount(const QModelIndex& parent = {}) const override;
  int columnCount(const QModelIndex& parent = {}) const override;
  QVariant data(const QModelIndex& index, int role) const override;
  QVariant headerData(int section, Qt::Orientation o, int role) const override;

 private:
  ProfileTable table_;
};

}  // namespace passlab::ui
