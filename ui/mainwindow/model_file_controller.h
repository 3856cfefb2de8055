// Opening and saving the document's model file, on worker threads with a task
// in the status bar. The window asks the user (discard changes? overwrite the
// original? save a model that fails the verifier?) and shows the outcome; this
// controller does the work and reports it through signals.
#pragma once

#include <QObject>
#include <QString>

#include <memory>
#include <optional>
#include <set>
#include <string>

#include "core/ir/model.h"

namespace passlab::ui {

class Document;
class TaskProgress;
struct LoadOutcome;

class ModelFileController : public QObject {
  Q_OBJECT

 public:
  ModelFileController(Document* doc, TaskProgress* tasks, QObject* parent);
  ~ModelFileController() override;

  // Reads `path` (ONNX, text format, or a ":/demos/..." resource) on a worker
  // and opens it in the document. The reader cannot be interrupted: the task's
  // Cancel stops waiting and drops its result (`openCancelled`).
  void open(const QString& path, const QString& displayName);
  bool isLoading() const { return loadTask_ != 0; }

  // Writes a copy of the document's model to `path` on a worker (the window
  // asks first before overwriting the opened file). Unless `allowNewVerifierErrors`,
  // the whole model is verified first: with errors it did not have when
  // opened, nothing is written and `saveNeedsConfirmation` asks; then
  // writePendingSave() writes the copy that was checked, or
  // dropPendingSave() gives up and returns the problems.
  void save(const QString& path, bool allowNewVerifierErrors);
  void writePendingSave();
  QString dropPendingSave();

 signals:
  void opened(const QString& path, const QString& shownName, bool fromResource);
  void openCancelled();
  void loadFailed(const QString& message);
  void saved(const QString& path);
  void saveFailed(const QString& message);
  void saveNeedsConfirmation(const QString& problems);

 private:
  struct PendingSave;
  // Writes `copy` (taken at undo index `undoIndex`); with `opened`, only when
  // it has no verifier errors beyond those.
  void writeCopy(std::shared_ptr<const ir::Model> copy, const QString& path, int undoIndex,
                 std::optional<std::set<std::string>> opened);
  void finishOpen(const QString& path, const QString& shown, LoadOutcome& outcome);

  Document* doc_;
  TaskProgress* tasks_;
  int loadGeneration_ = 0;
  int loadTask_ = 0;
  std::unique_ptr<PendingSave> pending_;
};

}  // namespace passlab::ui
