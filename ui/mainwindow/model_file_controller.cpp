#include "ui/mainwindow/model_file_controller.h"

#include <QFileInfo>
#include <QFutureWatcher>
#include <QUndoStack>

#include <QtConcurrent/QtConcurrentRun>

#include "ui/document/document.h"
#include "ui/document/model_files.h"
#include "ui/mainwindow/task_progress.h"

namespace passlab::ui {

// A checked copy waiting for the user's answer.
struct ModelFileController::PendingSave {
  std::shared_ptr<const ir::Model> copy;
  QString path;
  int undoIndex = 0;
  QString problems;
};

ModelFileController::ModelFileController(Document* doc, TaskProgress* tasks, QObject* parent)
    : QObject(parent), doc_(doc), tasks_(tasks) {}

ModelFileController::~ModelFileController() {
  ++loadGeneration_;  // a load still running is ignored
}

// ---- opening ----

void ModelFileController::open(const QString& path, const QString& displayName) {
  if (loadTask_ != 0) tasks_->end(loadTask_);
  const int generation = ++loadGeneration_;
  QString shown = displayName.isEmpty() ? QFileInfo(path).fileName() : displayName;
  loadTask_ = tasks_->begin(tr("Opening %1…").arg(shown), [this, generation] {
    if (loadGeneration_ != generation) return;
    ++loadGeneration_;
    loadTask_ = 0;
    emit openCancelled();
  });
  auto* watcher = new QFutureWatcher<std::shared_ptr<LoadOutcome>>(this);
  connect(watcher, &QFutureWatcherBase::finished, this, [this, watcher, generation, path, shown] {
    std::shared_ptr<LoadOutcome> outcome = watcher->result();
    watcher->deleteLater();
    if (generation != loadGeneration_) return;  // cancelled or superseded
    tasks_->end(loadTask_);
    loadTask_ = 0;
    finishOpen(path, shown, *outcome);
  });
  watcher->setFuture(
      QtConcurrent::run([path] { return std::make_shared<LoadOutcome>(loadModelFile(path)); }));
}

void ModelFileController::finishOpen(const QString& path, const QString& shown,
                                     LoadOutcome& outcome) {
  if (!outcome.model) {
    emit loadFailed(outcome.error);
    return;
  }
  const bool fromResource = path.startsWith(QLatin1String(":/"));
  doc_->open(std::move(outcome.model),
             fromResource ? QString() : QFileInfo(path).absoluteFilePath(), shown, outcome.notes,
             std::move(outcome.verifierErrors));
  emit opened(path, shown, fromResource);
}

// ---- saving ----

void ModelFileController::save(const QString& path, bool allowNewVerifierErrors) {
  if (!doc_->hasModel()) return;
  // A copy shares the weights; the window stays editable while it is written.
  auto copy = std::make_shared<const ir::Model>(doc_->model().clone());
  std::optional<std::set<std::string>> opened;
  if (!allowNewVerifierErrors) opened = doc_->openedVerifierErrors();
  writeCopy(copy, path, doc_->undoStack()->index(), std::move(opened));
}

void ModelFileController::writePendingSave() {
  if (!pending_) return;
  std::unique_ptr<PendingSave> p = std::move(pending_);
  writeCopy(p->copy, p->path, p->undoIndex, std::nullopt);
}

QString ModelFileController::dropPendingSave() {
  if (!pending_) return {};
  std::unique_ptr<PendingSave> p = std::move(pending_);
  return p->problems;
}

void ModelFileController::writeCopy(std::shared_ptr<const ir::Model> copy, const QString& path,
                                    int undoIndex, std::optional<std::set<std::string>> opened) {
  int task = tasks_->begin(tr("Saving %1…").arg(QFileInfo(path).fileName()), nullptr);
  struct Outcome {
    QString error;
    std::vector<std::string> newErrors;  // nothing was written
  };
  auto* watcher = new QFutureWatcher<std::shared_ptr<Outcome>>(this);
  connect(watcher, &QFutureWatcherBase::finished, this,
          [this, watcher, task, path, undoIndex, copy] {
            std::shared_ptr<Outcome> out = watcher->result();
            watcher->deleteLater();
            tasks_->end(task);
            if (!out->newErrors.empty()) {
              QString problems = describeNewVerifierErrors(out->newErrors);
              pending_.reset(new PendingSave{copy, path, undoIndex, problems});
              emit saveNeedsConfirmation(problems);
              return;
            }
            if (!out->error.isEmpty()) {
              emit saveFailed(out->error);
              return;
            }
            // The file now holds the model as it was when saving began.
            if (doc_->undoStack()->index() == undoIndex) doc_->undoStack()->setClean();
            emit saved(path);
          });
  watcher->setFuture(QtConcurrent::run([copy, path, opened = std::move(opened)] {
    auto out = std::make_shared<Outcome>();
    if (opened) {
      out->newErrors = newVerifierErrors(*copy, *opened);
      if (!out->newErrors.empty()) return out;
    }
    Status s = saveModelFile(*copy, path);
    if (!s) out->error = QString::fromStdString(s.message());
    return out;
  }));
}

}  // namespace passlab::ui
