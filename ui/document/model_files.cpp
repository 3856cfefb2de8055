#include "ui/document/model_files.h"

#include <QCoreApplication>
#include <QFile>
#include <QFileInfo>

#include "core/analysis/shape_inference.h"
#include "core/io/atomic_file.h"
#include "core/io/model_io.h"
#include "core/io/text_format.h"
#include "core/pipeline/pass_manager.h"

namespace passlab::ui {

namespace {
// Runs after every load, on the loading thread: element types and shapes of
// every value (core/analysis), for arrow labels and the properties panel.
void prepareModel(ir::Model& model, QStringList& notes) {
  analysis::ShapeInferenceReport r = analysis::inferShapes(model);
  constexpr int kShown = 5;
  for (int i = 0; i < static_cast<int>(r.failures.size()) && i < kShown; ++i)
    notes << QCoreApplication::translate("ModelFiles", "Shape inference: %1")
                 .arg(QString::fromStdString(r.failures[static_cast<size_t>(i)]));
  if (r.failures.size() > kShown)
    notes << QCoreApplication::translate("ModelFiles", "Shape inference: %1 more problems")
                 .arg(r.failures.size() - kShown);
  if (!r.conflicts.empty())
    notes << QCoreApplication::translate("ModelFiles",
                                         "Shape inference: %1 declared types disagree with the "
                                         "inferred ones (the declared types are kept), e.g. %2")
                 .arg(r.conflicts.size())
                 .arg(QString::fromStdString(r.conflicts.front()));
}

void finishLoad(LoadOutcome& out) {
  prepareModel(*out.model, out.notes);
  out.verifierErrors = pipeline::verifierErrorSet(*out.model);
}
}  // namespace

bool isTextModelPath(const QString& path) {
  QString suffix = QFileInfo(path).suffix().toLower();
  return suffix == QLatin1String("txt") || suffix == QLatin1String("onnxtxt");
}

LoadOutcome loadModelText(const QByteArray& text, const QString& displayName) {
  LoadOutcome out;
  auto parsed =
      io::parseModelText(std::string_view(text.constData(), static_cast<size_t>(text.size())));
  if (!parsed) {
    out.error = QCoreApplication::translate("ModelFiles", "%1: %2")
                    .arg(displayName, QString::fromStdString(parsed.error().message()));
    return out;
  }
  out.model = std::make_unique<ir::Model>(std::move(parsed.value()));
  out.fileNodes = out.model->graph().nodeCount();
  finishLoad(out);
  return out;
}

LoadOutcome loadModelFile(const QString& path) {
  if (isTextModelPath(path) || path.startsWith(QLatin1String(":/"))) {
    QFile f(path);
    if (!f.open(QIODevice::ReadOnly)) {
      LoadOutcome out;
      out.error = QCoreApplication::translate("ModelFiles", "%1: cannot read the file (%2)")
                      .arg(path, f.errorString());
      return out;
    }
    return loadModelText(f.readAll(), path);
  }
  LoadOutcome out;
  auto loaded = io::loadModel(path.toStdString());
  if (!loaded) {
    out.error = QString::fromStdString(loaded.error().message());
    return out;
  }
  for (const std::string& r : loaded->report.repairs)
    out.notes
        << QCoreApplication::translate("ModelFiles", "Repaired: %1").arg(QString::fromStdString(r));
  for (const std::string& w : loaded->report.warnings)
    out.notes
        << QCoreApplication::translate("ModelFiles", "Warning: %1").arg(QString::fromStdString(w));
  out.fileNodes = loaded->report.fileNodes;
  out.model = std::make_unique<ir::Model>(std::move(loaded->model));
  finishLoad(out);
  return out;
}

Status saveModelFile(const ir::Model& model, const QString& path) {
  std::string target = path.toStdString();
  if (!isTextModelPath(path)) return io::saveModel(model, target);
  io::PrintOptions po;
  po.maxTensorElements = 0;  // every element, so the file parses back
  io::AtomicFile file(target);
  PASSLAB_RETURN_IF_ERROR(file.open());
  PASSLAB_RETURN_IF_ERROR(file.write(io::printModelText(model, po)));
  return file.commit();
}

std::vector<std::string> newVerifierErrors(const ir::Model& model,
                                           const std::set<std::string>& opened) {
  std::vector<std::string> added;
  for (const std::string& e : pipeline::verifierErrorSet(model))
    if (!opened.count(e)) added.push_back(e);
  return added;
}

QString describeNewVerifierErrors(const std::vector<std::string>& errors) {
  constexpr size_t kShown = 3;
  const int count = static_cast<int>(errors.size());
  QStringList lines;
  lines << QCoreApplication::translate(
      "ModelFiles",
      "The model fails the verifier with %n error(s) it did not have when opened:", nullptr, count);
  for (size_t i = 0; i < errors.size() && i < kShown; ++i)
    lines << QString::fromStdString(errors[i]);
  const int more = count - static_cast<int>(kShown);
  if (more > 0) lines << QCoreApplication::translate("ModelFiles", "(and %n more)", nullptr, more);
  return lines.join(QLatin1Char('\n'));
}

}  // namespace passlab::ui
