#include "ui/properties/port_model.h"

#include <QBrush>
#include <QColor>

#include "core/ir/graph.h"
#include "core/ir/op_schema.h"
#include "core/layout/request_builder.h"
#include "ui/document/graph_ref.h"

namespace passlab::ui {

QString typeText(const ir::Value& v) {
  std::string t = layout::typeLabel(v);
  return t.empty() ? QStringLiteral("?") : QString::fromStdString(t);
}

PortModel::PortModel(Document* doc, Side side, QObject* parent)
    : QAbstractTableModel(parent), doc_(doc), side_(side) {
  connect(doc_, &Document::changed, this, [this](const DocumentChange& c) {
    if (c.has(DocumentChange::kModel) || c.has(DocumentChange::kStructure) ||
        c.has(DocumentChange::kNodes))
      reload();
  });
}

const ir::Node* PortModel::nodePtr() const {
  if (node_ == 0 || !doc_->hasModel()) return nullptr;
  return findNode(doc_->model(), node_);
}

const std::vector<ir::Value*>* PortModel::ports() const {
  const ir::Node* n = nodePtr();
  if (n == nullptr) return nullptr;
  return side_ == Side::kInputs ? &n->inputs() : &n->outputs();
}

void PortModel::reload() {
  beginResetModel();
  const auto* p = ports();
  rows_ = p ? static_cast<int>(p->size()) : 0;
  endResetModel();
}

void PortModel::setNode(ir::NodeId id) {
  node_ = id;
  reload();
}

QString PortModel::valueAt(int row) const {
  const auto* p = ports();
  if (p == nullptr || row < 0 || row >= static_cast<int>(p->size())) return {};
  const ir::Value* v = (*p)[static_cast<size_t>(row)];
  return v ? QString::fromStdString(v->name()) : QString();
}

int PortModel::rowCount(const QModelIndex& parent) const {
  return parent.isValid() ? 0 : rows_;
}

int PortModel::columnCount(const QModelIndex& parent) const {
  return parent.isValid() ? 0 : kColumnCount;
}

QVariant PortModel::data(const QModelIndex& index, int role) const {
  const auto* p = ports();
  const ir::Node* n = nodePtr();
  if (!index.isValid() || p == nullptr || index.row() >= static_cast<int>(p->size())) return {};
  const size_t row = static_cast<size_t>(index.row());
  const ir::Value* v = (*p)[row];
  if (role == Qt::ForegroundRole && v == nullptr) return QBrush(QColor(0x88, 0x88, 0x88));
  if (role != Qt::DisplayRole && role != Qt::ToolTipRole) return {};
  switch (index.column()) {
    case kIndex:
      return index.row();
    case kParameter: {
      int64_t opset = doc_->model()
                          .opsetVersion(n->domain())
                          .value_or(ir::OpRegistry::instance().maxOpset(n->domain()));
      const ir::OpSchema* s = ir::OpRegistry::instance().find(n->domain(), n->opType(), opset);
      const ir::FormalParam* fp = s == nullptr             ? nullptr
                                  : side_ == Side::kInputs ? s->inputParam(row)
                                                           : s->outputParam(row);
      return fp ? QString::fromStdString(fp->name) : QString();
    }
    case kValue:
      return v ? QString::fromStdString(v->name()) : tr("(omitted)");
    case kType:
      return v ? typeText(*v) : QString();
    case kLink: {
      if (v == nullptr) return {};
      if (side_ == Side::kInputs) {
        if (v->isInitializer())
          return tr("initializer %1").arg(QString::fromStdString(v->initializer()->summary()));
        if (v->isGraphInput()) return tr("graph input");
        if (const ir::Node* prod = v->producer())
          return tr("from %1").arg(QString::fromStdString(prod->describe()));
        return tr("outer scope");
      }
      QString readers = tr("%n reader(s)", nullptr, static_cast<int>(v->uses().size()));
      if (v->isGraphOutput()) readers += QStringLiteral(", ") + tr("graph output");
      return readers;
    }
  }
  return {};
}

QVariant PortModel::headerData(int section, Qt::Orientation o, int role) const {
  if (o != Qt::Horizontal || role != Qt::DisplayRole) return {};
  switch (section) {
    case kIndex:
      return QStringLiteral("#");
    case kParameter:
      return tr("Parameter");
    case kValue:
      return side_ == Side::kInputs ? tr("Input") : tr("Output");
    case kType:
      return tr("Type");
    case kLink:
      return side_ == Side::kInputs ? tr("Source") : tr("Readers");
  }
  return {};
}

}  // namespace passlab::ui
