// A node's attributes as a table (name, type, value). Scalar and list values
// are editable; an edit becomes a SetAttributeCommand on the document's stack.
#pragma once

#include <QAbstractTableModel>

#include <optional>

#include "ui/document/document.h"

namespace passlab::ui {

class AttributeModel : public QAbstractTableModel {
  Q_OBJECT

 public:
  enum Column { kName, kType, kValue, kColumnCount };
  explicit AttributeModel(Document* doc, QObject* parent = nullptr);

  void setNode(ir::NodeId id);  // 0: none
  ir::NodeId node() const { return node_; }

  int rowCount(const QModelIndex& parent = {}) const override;
  int columnCount(const QModelIndex& parent = {}) const override;
  QVariant data(const QModelIndex& index, int role) const override;
  QVariant headerData(int section, Qt::Orientation o, int role) const override;
  Qt::ItemFlags flags(const QModelIndex& index) const override;
  bool setData(const QModelIndex& index, const QVariant& value, int role) override;

 private:
  const ir::Node* nodePtr() const;
  void reload();

  Document* doc_;
  ir::NodeId node_ = 0;
  int rows_ = 0;
};

// The text of an attribute value for display: "[1, 1]", "\"same\"", "float[64] (256 B)".
QString attributeValueText(const ir::Attribute& a);
// Reads text typed by the user as a value of `type` (INT, FLOAT, STRING and
// their lists); nullopt when it does not parse.
std::optional<ir::Attribute> parseAttributeValue(ir::AttrType type, const QString& text);

}  // namespace passlab::ui
