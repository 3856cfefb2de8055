// Table models of the summary panel: op counts and inputs/outputs, over the
// core's analysis::ModelSummary (the same numbers `passlab-cli info` prints).
#pragma once

#include <QAbstractTableModel>

#include <set>
#include <string>
#include <utility>

#include "core/analysis/model_summary.h"

namespace passlab::ui {

class OpCountModel : public QAbstractTableModel {
  Q_OBJECT

 public:
  enum Column { kOp, kDomain, kCount, kInBodies, kColumnCount };
  using QAbstractTableModel::QAbstractTableModel;
  // `unknown`: (domain, op) pairs PassLab's operator table lacks, shown in red.
  void setOps(std::vector<analysis::OpCount> ops,
              std::set<std::pair<std::string, std::string>> unknown = {});

  int rowCount(const QModelIndex& parent = {}) const override;
  int columnCount(const QModelIndex& parent = {}) const override;
  QVariant data(const QModelIndex& index, int role = Qt::DisplayRole) const override;
  QVariant headerData(int section, Qt::Orientation o, int role) const override;

 private:
  std::vector<analysis::OpCount> ops_;
  std::set<std::pair<std::string, std::string>> unknown_;
};

class IoModel : public QAbstractTableModel {
  Q_OBJECT

 public:
  enum Column { kKind, kName, kType, kColumnCount };
  using QAbstractTableModel::QAbstractTableModel;
  void setRows(std::vector<analysis::ValueSummary> inputs,
               std::vector<analysis::ValueSummary> outputs);

  int rowCount(const QModelIndex& parent = {}) const override;
  int columnCount(const QModelIndex& parent = {}) const override;
  QVariant data(const QModelIndex& index, int role = Qt::DisplayRole) const override;
  QVariant headerData(int section, Qt::Orientation o, int role) const override;

 private:
  std::vector<analysis::ValueSummary> inputs_, outputs_;
};

}  // namespace passlab::ui
