// The document: one open model, where it came from, its undo stack and what
// the pass pipeline knows about its nodes (Tiled's pattern: the document owns
// the QUndoStack; every edit is a small command; views listen to one signal).
#pragma once

#include <QObject>
#include <QString>
#include <QStringList>
#include <QUndoStack>

#include <memory>
#include <optional>
#include <set>
#include <string>
#include <vector>

#include "core/ir/model.h"
#include "core/support/error.h"
#include "ui/document/node_insights.h"

namespace passlab::ui {

// What changed, for the one signal views listen to.
struct DocumentChange {
  enum Kind : unsigned {
    kModel = 1,      // a different model (opened, or replaced by undo/redo of a pass)
    kStructure = 2,  // nodes or edges added/removed/rewired: relayout
    kNodes = 4,      // properties of `nodes` (names, attributes)
    kFile = 8,       // path, display name or saved state
    kInsights = 16,  // provenance / match-failure data
  };
  unsigned kinds = 0;
  std::vector<ir::NodeId> nodes;
  bool has(Kind k) const { return (kinds & k) != 0; }
};

class Document : public QObject {
  Q_OBJECT

 public:
  explicit Document(QObject* parent = nullptr);
  ~Document() override;

  bool hasModel() const { return model_ != nullptr; }
  ir::Model& model() { return *model_; }
  const ir::Model& model() const { return *model_; }
  // The file the model was read from (absolute, cleaned); empty for a bundled demo.
  const QString& filePath() const { return filePath_; }
  // What title bars show: the file name or the demo's title.
  const QString& displayName() const { return displayName_; }
  // Repairs and warnings from loading.
  const QStringList& loadNotes() const { return loadNotes_; }
  QUndoStack* undoStack() { return &undo_; }
  bool isModified() const { return !undo_.isClean(); }

  // Takes a freshly loaded model; clears the undo stack and the insights.
  // `verifierErrors`: the model's verifier errors as loaded
  // (LoadOutcome::verifierErrors, found on the loading thread); computed here
  // when not given.
  void open(std::unique_ptr<ir::Model> model, const QString& filePath, const QString& displayName,
            const QStringList& loadNotes = {},
            std::optional<std::set<std::string>> verifierErrors = std::nullopt);
  void close();

  // Writes the model to `path` atomically and makes it the document's file.
  // Refuses the file the model was opened from unless `overwriteOpened`: the
  // original is never replaced silently. Refuses a model with verifier errors
  // it did not have when opened unless `allowNewVerifierErrors`.
  Status saveAs(const QString& path, bool overwriteOpened = false,
                bool allowNewVerifierErrors = false);
  // The verifier's errors of the model as it was opened (node ids left out,
  // pipeline::verifierErrorSet): saving refuses only errors not among them.
  const std::set<std::string>& openedVerifierErrors() const { return openedErrors_; }
  // True if `path` names the file the model was opened from.
  bool isOpenedFile(const QString& path) const;

  // Pipeline data for the properties panel; nullptr until a pipeline ran.
  const NodeInsights* insights() const { return insights_.get(); }
  void setInsights(std::shared_ptr<const NodeInsights> insights);

  // ---- edits: called by undo commands only (ui/document/commands.h) ----
  bool setNodeName(ir::NodeId id, const std::string& name);
  // Sets (or with nullopt removes) an attribute.
  bool setNodeAttribute(ir::NodeId id, const std::string& name, std::optional<ir::Attribute> value);
  // Exchanges the model with `other` (a pass result or the snapshot before it).
  void swapModel(std::unique_ptr<ir::Model>& other);

 signals:
  void changed(const passlab::ui::DocumentChange& change);

 private:
  void emitChange(unsigned kinds, std::vector<ir::NodeId> nodes = {});

  std::unique_ptr<ir::Model> model_;
  QString filePath_, displayName_;
  QStringList loadNotes_;
  std::set<std::string> openedErrors_;
  QUndoStack undo_;
  std::shared_ptr<const NodeInsights> insights_;
};

// A copy of an attribute (tensors share their data). Graph attributes cannot
// be copied this way: nullopt.
std::optional<ir::Attribute> copyAttribute(const ir::Attribute& a);

}  // namespace passlab::ui

Q_DECLARE_METATYPE(passlab::ui::DocumentChange)
