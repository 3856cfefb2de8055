// Undo commands: every change to the document is one of these, pushed on its
// QUndoStack. Nodes are named by their stable ids, never by pointers, so a
// command stays valid when the model is swapped by another command.
#pragma once

#include <QCoreApplication>
#include <QUndoCommand>

#include <memory>
#include <optional>
#include <string>

#include "core/ir/model.h"

namespace passlab::ui {

class Document;

class RenameNodeCommand : public QUndoCommand {
  Q_DECLARE_TR_FUNCTIONS(RenameNodeCommand)

 public:
  RenameNodeCommand(Document* doc, ir::NodeId node, std::string newName);
  void redo() override;
  void undo() override;

 private:
  Document* doc_;
  ir::NodeId node_;
  std::string before_, after_;
};

class SetAttributeCommand : public QUndoCommand {
  Q_DECLARE_TR_FUNCTIONS(SetAttributeCommand)

 public:
  // `value` nullopt removes the attribute.
  SetAttributeCommand(Document* doc, ir::NodeId node, std::string name,
                      std::optional<ir::Attribute> value);
  void redo() override;
  void undo() override;

 private:
  Document* doc_;
  ir::NodeId node_;
  std::string name_;
  std::optional<ir::Attribute> before_, after_;
};

// Replaces the whole model: how a pass application enters the undo stack
// (the pipeline keeps the result; the command keeps the snapshot before it).
class ReplaceModelCommand : public QUndoCommand {
 public:
  ReplaceModelCommand(Document* doc, std::unique_ptr<ir::Model> replacement, const QString& text);
  void redo() override;
  void undo() override;

 private:
  Document* doc_;
  std::unique_ptr<ir::Model> other_;  // whichever model is not in the document
};

}  // namespace passlab::ui
