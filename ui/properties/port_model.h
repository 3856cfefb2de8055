// A node's inputs or outputs: position, the operator's parameter name, the
// value, its type (dtype and shape) and where it comes from or goes.
#pragma once

#include <QAbstractTableModel>

#include "ui/document/document.h"

namespace passlab::ui {

class PortModel : public QAbstractTableModel {
  Q_OBJECT

 public:
  enum class Side { kInputs, kOutputs };
  enum Column { kIndex, kParameter, kValue, kType, kLink, kColumnCount };
  PortModel(Document* doc, Side side, QObject* parent = nullptr);

  void setNode(ir::NodeId id);  // 0: none
  // The value on a row ("" for an omitted optional one).
  QString valueAt(int row) const;

  int rowCount(const QModelIndex& parent = {}) const override;
  int columnCount(const QModelIndex& parent = {}) const override;
  QVariant data(const QModelIndex& index, int role) const override;
  QVariant headerData(int section, Qt::Orientation o, int role) const override;

 private:
  const ir::Node* nodePtr() const;
  const std::vector<ir::Value*>* ports() const;
  void reload();

  Document* doc_;
  Side side_;
  ir::NodeId node_ = 0;
  int rows_ = 0;
};

// "float[1,3,224,224]", or "?" when nothing is known yet.
QString typeText(const ir::Value& v);

}  // namespace passlab::ui
