#include "ui/properties/attribute_model.h"

#include <QRegularExpression>

#include "core/ir/graph.h"
#include "ui/document/commands.h"
#include "ui/document/graph_ref.h"

namespace passlab::ui {

namespace {

bool editable(ir::AttrType t) {
  switch (t) {
    case ir::AttrType::kInt:
    case ir::AttrType::kFloat:
    case ir::AttrType::kString:
    case ir::AttrType::kInts:
    case ir::AttrType::kFloats:
    case ir::AttrType::kStrings:
      return true;
    default:
      return false;
  }
}

QString unquote(QString s) {
  s = s.trimmed();
  if (s.size() >= 2 && s.startsWith('"') && s.endsWith('"')) s = s.mid(1, s.size() - 2);
  return s;
}

QStringList listItems(QString s) {
  s = s.trimmed();
  if (s.startsWith('[') && s.endsWith(']')) s = s.mid(1, s.size() - 2);
  if (s.trimmed().isEmpty()) return {};
  return s.split(QRegularExpression(QStringLiteral("\\s*,\\s*|\\s+")), Qt::SkipEmptyParts);
}

}  // namespace

QString attributeValueText(const ir::Attribute& a) {
  switch (a.type()) {
    case ir::AttrType::kTensor:
      return QString::fromStdString(a.t.summary());
    case ir::AttrType::kGraph: {
      if (!a.g) return QString();
      QString text = QCoreApplication::translate("AttributeModel", "graph “%1” (%2 nodes)");
      return text.arg(QString::fromStdString(a.g->name())).arg(a.g->nodeCountRecursive());
    }
    case ir::AttrType::kGraphs: {
      int n = static_cast<int>(a.graphs.size());
      return QCoreApplication::translate("AttributeModel", "%n graph(s)", nullptr, n);
    }
    default:
      return QString::fromStdString(a.valueToString());
  }
}

std::optional<ir::Attribute> parseAttributeValue(ir::AttrType type, const QString& text) {
  bool ok = false;
  switch (type) {
    case ir::AttrType::kInt: {
      qlonglong v = text.trimmed().toLongLong(&ok);
      if (ok) return ir::Attribute::makeInt("", v);
      return std::nullopt;
    }
    case ir::AttrType::kFloat: {
      float v = text.trimmed().toFloat(&ok);
      if (ok) return ir::Attribute::makeFloat("", v);
      return std::nullopt;
    }
    case ir::AttrType::kString:
      return ir::Attribute::makeString("", unquote(text).toStdString());
    case ir::AttrType::kInts: {
      std::vector<int64_t> v;
      for (const QString& item : listItems(text)) {
        v.push_back(item.toLongLong(&ok));
        if (!ok) return std::nullopt;
      }
      return ir::Attribute::makeInts("", std::move(v));
    }
    case ir::AttrType::kFloats: {
      std::vector<float> v;
      for (const QString& item : listItems(text)) {
        v.push_back(item.toFloat(&ok));
        if (!ok) return std::nullopt;
      }
      return ir::Attribute::makeFloats("", std::move(v));
    }
    case ir::AttrType::kStrings: {
      std::vector<std::string> v;
      QString s = text.trimmed();
      if (s.startsWith('[') && s.endsWith(']')) s = s.mid(1, s.size() - 2);
      for (const QString& item : s.split(',', Qt::SkipEmptyParts))
        v.push_back(unquote(item).toStdString());
      return ir::Attribute::makeStrings("", std::move(v));
    }
    default:
      return std::nullopt;
  }
}

AttributeModel::AttributeModel(Document* doc, QObject* parent)
    : QAbstractTableModel(parent), doc_(doc) {
  connect(doc_, &Document::changed, this, [this](const DocumentChange& c) {
    if (c.has(DocumentChange::kModel) || c.has(DocumentChange::kNodes)) reload();
  });
}

const ir::Node* AttributeModel::nodePtr() const {
  if (node_ == 0 || !doc_->hasModel()) return nullptr;
  return findNode(doc_->model(), node_);
}

void AttributeModel::reload() {
  beginResetModel();
  const ir::Node* n = nodePtr();
  rows_ = n ? static_cast<int>(n->attributes().size()) : 0;
  endResetModel();
}

void AttributeModel::setNode(ir::NodeId id) {
  node_ = id;
  reload();
}

int AttributeModel::rowCount(const QModelIndex& parent) const {
  return parent.isValid() ? 0 : rows_;
}

int AttributeModel::columnCount(const QModelIndex& parent) const {
  return parent.isValid() ? 0 : kColumnCount;
}

QVariant AttributeModel::data(const QModelIndex& index, int role) const {
  const ir::Node* n = nodePtr();
  if (!index.isValid() || n == nullptr || index.row() >= static_cast<int>(n->attributes().size()))
    return {};
  const ir::Attribute& a = n->attributes()[static_cast<size_t>(index.row())];
  if (role == Qt::DisplayRole || role == Qt::EditRole) {
    switch (index.column()) {
      case kName:
        return QString::fromStdString(a.name());
      case kType:
        return QString::fromStdString(std::string(ir::attrTypeName(a.type())));
      case kValue:
        return attributeValueText(a);
    }
  }
  if (role == Qt::ToolTipRole && index.column() == kValue) {
    QString text = attributeValueText(a);
    if (editable(a.type()))
      text += QLatin1Char('\n') + tr("Double-click to edit; edits can be undone.");
    return text;
  }
  return {};
}

QVariant AttributeModel::headerData(int section, Qt::Orientation o, int role) const {
  if (o != Qt::Horizontal || role != Qt::DisplayRole) return {};
  switch (section) {
    case kName:
      return tr("Attribute");
    case kType:
      return tr("Type");
    case kValue:
      return tr("Value");
  }
  return {};
}

Qt::ItemFlags AttributeModel::flags(const QModelIndex& index) const {
  Qt::ItemFlags f = QAbstractTableModel::flags(index);
  const ir::Node* n = nodePtr();
  if (index.isValid() && index.column() == kValue && n &&
      index.row() < static_cast<int>(n->attributes().size()) &&
      editable(n->attributes()[static_cast<size_t>(index.row())].type()))
    f |= Qt::ItemIsEditable;
  return f;
}

bool AttributeModel::setData(const QModelIndex& index, const QVariant& value, int role) {
  const ir::Node* n = nodePtr();
  if (role != Qt::EditRole || !index.isValid() || index.column() != kValue || n == nullptr ||
      index.row() >= static_cast<int>(n->attributes().size()))
    return false;
  const ir::Attribute& a = n->attributes()[static_cast<size_t>(index.row())];
  std::optional<ir::Attribute> parsed = parseAttributeValue(a.type(), value.toString());
  if (!parsed) return false;
  parsed->setName(a.name());
  doc_->undoStack()->push(new SetAttributeCommand(doc_, node_, a.name(), std::move(parsed)));
  return true;
}

}  // namespace passlab::ui
