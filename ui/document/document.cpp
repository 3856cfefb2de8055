#include "ui/document/document.h"

#include <QCoreApplication>
#include <QFileInfo>

#include "core/ir/attribute_copy.h"
#include "core/pipeline/pass_manager.h"
#include "ui/document/graph_ref.h"
#include "ui/document/model_files.h"

namespace passlab::ui {

Document::Document(QObject* parent) : QObject(parent) {
  qRegisterMetaType<passlab::ui::DocumentChange>();
  connect(&undo_, &QUndoStack::cleanChanged, this, [this] { emitChange(DocumentChange::kFile); });
}

Document::~Document() {
  undo_.clear();  // commands may refer to the model
}

void Document::emitChange(unsigned kinds, std::vector<ir::NodeId> nodes) {
  DocumentChange c;
  c.kinds = kinds;
  c.nodes = std::move(nodes);
  emit changed(c);
}

void Document::open(std::unique_ptr<ir::Model> model, const QString& filePath,
                    const QString& displayName, const QStringList& loadNotes,
                    std::optional<std::set<std::string>> verifierErrors) {
  undo_.clear();
  model_ = std::move(model);
  openedErrors_ = verifierErrors ? std::move(*verifierErrors)
                  : model_       ? pipeline::verifierErrorSet(*model_)
                                 : std::set<std::string>();
  // Absolute and clean ("a/../b" -> "b"), as saveAs() stores it: titles,
  // recent files and the never-overwrite check all compare this path.
  filePath_ = filePath.isEmpty() ? QString() : QFileInfo(filePath).absoluteFilePath();
  displayName_ = displayName.isEmpty() ? QFileInfo(filePath).fileName() : displayName;
  loadNotes_ = loadNotes;
  insights_.reset();
  emitChange(DocumentChange::kModel | DocumentChange::kStructure | DocumentChange::kFile |
             DocumentChange::kInsights);
}

void Document::close() {
  undo_.clear();
  model_.reset();
  filePath_.clear();
  displayName_.clear();
  loadNotes_.clear();
  openedErrors_.clear();
  insights_.reset();
  emitChange(DocumentChange::kModel | DocumentChange::kStructure | DocumentChange::kFile |
             DocumentChange::kInsights);
}

Status Document::saveAs(const QString& path, bool overwriteOpened, bool allowNewVerifierErrors) {
  if (!model_) return invalidArgument("no model is open");
  if (!overwriteOpened && isOpenedFile(path))
    return invalidArgument(
        QCoreApplication::translate("Document",
                                    "%1 is the file this model was opened from; choose "
                                    "another name or confirm overwriting it")
            .arg(path)
            .toStdString());
  if (!allowNewVerifierErrors) {
    std::vector<std::string> added = newVerifierErrors(*model_, openedErrors_);
    if (!added.empty()) return invalidArgument(describeNewVerifierErrors(added).toStdString());
  }
  Status s = saveModelFile(*model_, path);
  if (!s) return s;
  filePath_ = QFileInfo(path).absoluteFilePath();
  displayName_ = QFileInfo(path).fileName();
  undo_.setClean();
  emitChange(DocumentChange::kFile);
  return s;
}

bool Document::isOpenedFile(const QString& path) const {
  if (filePath_.isEmpty()) return false;
  QFileInfo target(path), opened(filePath_);
  // Through links and relative paths when both exist.
  if (target.exists() && opened.exists())
    return target.canonicalFilePath() == opened.canonicalFilePath();
  return target.absoluteFilePath() == opened.absoluteFilePath();
}

void Document::setInsights(std::shared_ptr<const NodeInsights> insights) {
  insights_ = std::move(insights);
  emitChange(DocumentChange::kInsights);
}

bool Document::setNodeName(ir::NodeId id, const std::string& name) {
  if (!model_) return false;
  ir::Node* n = findNode(*model_, id);
  if (n == nullptr) return false;
  n->setName(name);
  emitChange(DocumentChange::kNodes, {id});
  return true;
}

bool Document::setNodeAttribute(ir::NodeId id, const std::string& name,
                                std::optional<ir::Attribute> value) {
  if (!model_) return false;
  ir::Node* n = findNode(*model_, id);
  if (n == nullptr) return false;
  if (value) {
    value->setName(name);
    n->setAttr(std::move(*value));
  } else {
    n->removeAttr(name);
  }
  emitChange(DocumentChange::kNodes, {id});
  return true;
}

void Document::swapModel(std::unique_ptr<ir::Model>& other) {
  if (!other) return;
  std::swap(model_, other);
  emitChange(DocumentChange::kModel | DocumentChange::kStructure);
}

std::optional<ir::Attribute> copyAttribute(const ir::Attribute& a) {
  if (a.type() == ir::AttrType::kGraph || a.type() == ir::AttrType::kGraphs) return std::nullopt;
  return ir::copyAttribute(a);
}

}  // namespace passlab::ui
