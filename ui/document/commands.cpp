#include "ui/document/commands.h"

#include "ui/document/document.h"
#include "ui/document/graph_ref.h"

namespace passlab::ui {

RenameNodeCommand::RenameNodeCommand(Document* doc, ir::NodeId node, std::string newName)
    : doc_(doc), node_(node), after_(std::move(newName)) {
  if (ir::Node* n = findNode(doc->model(), node)) before_ = n->name();
  setText(tr("Rename node to “%1”").arg(QString::fromStdString(after_)));
}

void RenameNodeCommand::redo() {
  doc_->setNodeName(node_, after_);
}

void RenameNodeCommand::undo() {
  doc_->setNodeName(node_, before_);
}

SetAttributeCommand::SetAttributeCommand(Document* doc, ir::NodeId node, std::string name,
                                         std::optional<ir::Attribute> value)
    : doc_(doc), node_(node), name_(std::move(name)), after_(std::move(value)) {
  if (ir::Node* n = findNode(doc->model(), node)) {
    if (const ir::Attribute* a = n->attr(name_)) {
      before_ = copyAttribute(*a);
      // Bodies (GRAPH attributes) are not edited as values: nothing to do.
      if (!before_) setObsolete(true);
    }
  }
  setText(after_ ? tr("Set attribute %1").arg(QString::fromStdString(name_))
                 : tr("Remove attribute %1").arg(QString::fromStdString(name_)));
}

void SetAttributeCommand::redo() {
  if (isObsolete()) return;
  doc_->setNodeAttribute(node_, name_, after_ ? copyAttribute(*after_) : std::nullopt);
}

void SetAttributeCommand::undo() {
  if (isObsolete()) return;
  doc_->setNodeAttribute(node_, name_, before_ ? copyAttribute(*before_) : std::nullopt);
}

ReplaceModelCommand::ReplaceModelCommand(Document* doc, std::unique_ptr<ir::Model> replacement,
                                         const QString& text)
    : doc_(doc), other_(std::move(replacement)) {
  setText(text);
}

void ReplaceModelCommand::redo() {
  doc_->swapModel(other_);
}

void ReplaceModelCommand::undo() {
  doc_->swapModel(other_);
}

}  // namespace passlab::ui
