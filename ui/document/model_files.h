// Reading and writing model files for the GUI: ONNX (.onnx) through core/io,
// PassLab's text format (.txt, also the bundled demos under ":/demos/"). These
// are plain functions so they can run on a worker thread.
#pragma once

#include <QString>
#include <QStringList>

#include <memory>
#include <set>
#include <string>
#include <vector>

#include "core/ir/model.h"
#include "core/support/error.h"

namespace passlab::ui {

struct LoadOutcome {
  std::unique_ptr<ir::Model> model;  // null on failure
  QString error;                     // names the file and the problem
  QStringList notes;                 // repairs and warnings worth showing
  size_t fileNodes = 0;              // main-graph nodes as written (repairs may merge some)
  // The verifier's errors as loaded (pipeline::verifierErrorSet; for
  // Document::open): saving refuses only errors the model did not come with.
  std::set<std::string> verifierErrors;
};

// True for paths the text format is used for (".txt", ".onnxtxt").
bool isTextModelPath(const QString& path);

// Loads and prepares a model (types inferred where the core can).
LoadOutcome loadModelFile(const QString& path);
// Parses text-format bytes; `displayName` appears in messages.
LoadOutcome loadModelText(const QByteArray& text, const QString& displayName);

// Writes atomically (temporary file renamed into place): ONNX, or the text
// format for text paths.
Status saveModelFile(const ir::Model& model, const QString& path);

// The verifier's errors in `model` (the whole model, every check) that are not
// in `opened`, the errors it was opened with. The pipeline verifies each step
// where it touched the model; this is the check of the whole before a save.
// Errors are compared as texts without node ids (as `optimize` does): a new
// error worded exactly like an old one goes unseen, and renaming a node that
// had an error makes it look new.
std::vector<std::string> newVerifierErrors(const ir::Model& model,
                                           const std::set<std::string>& opened);
// One message for a refused save: how many errors, the first few.
QString describeNewVerifierErrors(const std::vector<std::string>& errors);

}  // namespace passlab::ui
