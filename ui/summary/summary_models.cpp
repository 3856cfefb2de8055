#include "ui/summary/summary_models.h"

#include <QBrush>
#include <QColor>

namespace passlab::ui {

void OpCountModel::setOps(std::vector<analysis::OpCount> ops,
                          std::set<std::pair<std::string, std::string>> unknown) {
  beginResetModel();
  ops_ = std::move(ops);
  unknown_ = std::move(unknown);
  endResetModel();
}

int OpCountModel::rowCount(const QModelIndex& parent) const {
  return parent.isValid() ? 0 : static_cast<int>(ops_.size());
}

int OpCountModel::columnCount(const QModelIndex& parent) const {
  return parent.isValid() ? 0 : kColumnCount;
}

QVariant OpCountModel::data(const QModelIndex& index, int role) const {
  if (!index.isValid() || index.row() >= static_cast<int>(ops_.size())) return {};
  const analysis::OpCount& c = ops_[static_cast<size_t>(index.row())];
  const bool known = !unknown_.count({c.domain, c.op});
  if (role == Qt::ForegroundRole && !known) return QBrush(QColor(0xb0, 0x30, 0x30));
  if (role == Qt::ToolTipRole && !known) return tr("Not in PassLab's operator table at this opset");
  if (role == Qt::TextAlignmentRole && index.column() >= kCount)
    return QVariant::fromValue(Qt::AlignRight | Qt::AlignVCenter);
  if (role != Qt::DisplayRole) return {};
  switch (index.column()) {
    case kOp:
      return QString::fromStdString(c.op);
    case kDomain:
      return c.domain.empty() ? QStringLiteral("ai.onnx") : QString::fromStdString(c.domain);
    case kCount:
      return static_cast<qlonglong>(c.topLevel);
    case kInBodies:
      return static_cast<qlonglong>(c.inSubgraphs);
  }
  return {};
}

QVariant OpCountModel::headerData(int section, Qt::Orientation o, int role) const {
  if (o != Qt::Horizontal || role != Qt::DisplayRole) return {};
  switch (section) {
    case kOp:
      return tr("Operator");
    case kDomain:
      return tr("Domain");
    case kCount:
      return tr("Count");
    case kInBodies:
      return tr("In bodies");
  }
  return {};
}

void IoModel::setRows(std::vector<analysis::ValueSummary> inputs,
                      std::vector<analysis::ValueSummary> outputs) {
  beginResetModel();
  inputs_ = std::move(inputs);
  outputs_ = std::move(outputs);
  endResetModel();
}

int IoModel::rowCount(const QModelIndex& parent) const {
  return parent.isValid() ? 0 : static_cast<int>(inputs_.size() + outputs_.size());
}

int IoModel::columnCount(const QModelIndex& parent) const {
  return parent.isValid() ? 0 : kColumnCount;
}

QVariant IoModel::data(const QModelIndex& index, int role) const {
  if (!index.isValid() || role != Qt::DisplayRole || index.row() >= rowCount()) return {};
  size_t row = static_cast<size_t>(index.row());
  bool input = row < inputs_.size();
  const analysis::ValueSummary& r = input ? inputs_[row] : outputs_[row - inputs_.size()];
  switch (index.column()) {
    case kKind:
      return input ? tr("input") : tr("output");
    case kName:
      return QString::fromStdString(r.name);
    case kType:
      return r.type.empty() ? QStringLiteral("?") : QString::fromStdString(r.type);
  }
  return {};
}

QVariant IoModel::headerData(int section, Qt::Orientation o, int role) const {
  if (o != Qt::Horizontal || role != Qt::DisplayRole) return {};
  switch (section) {
    case kKind:
      return tr("Kind");
    case kName:
      return tr("Name");
    case kType:
      return tr("Type");
  }
  return {};
}

}  // namespace passlab::ui
