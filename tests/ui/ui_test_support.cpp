#include "tests/ui/ui_test_support.h"

#include <QFile>
#include <QFileInfo>
#include <QSettings>
#include <QTemporaryDir>

#include "tests/support/test_support.h"
#include "ui/document/model_files.h"

namespace passlab::ui::testing {

void isolateSettings() {
  static QTemporaryDir dir;
  QSettings::setDefaultFormat(QSettings::IniFormat);
  QSettings::setPath(QSettings::IniFormat, QSettings::UserScope, dir.path());
}

std::unique_ptr<ir::Model> demo(const QString& name) {
  LoadOutcome out = loadModelFile(QStringLiteral(":/demos/%1.txt").arg(name));
  return std::move(out.model);
}

std::optional<QString> corpusModel(const QString& fileName) {
  for (const std::string& p : passlab::testing::corpusModels())
    if (QFileInfo(QString::fromStdString(p)).fileName() == fileName)
      return QString::fromStdString(p);
  return std::nullopt;
}

QString tempDir() {
  return QString::fromStdString(passlab::testing::tempDir());
}

std::unique_ptr<ir::Model> scopedLayers(int layers) {
  auto m = std::make_unique<ir::Model>();
  m->setOpsetVersion("", 17);
  ir::Graph& g = m->graph();
  ir::Value* x = g.addInput("x", ir::Type::tensor(ir::DataType::kFloat, ir::Shape({1, 16})));
  ir::Value* w = g.addInitializer("w", ir::Tensor(ir::DataType::kFloat, {16, 16}));
  int k = 0;
  auto add = [&](const std::string& scope, const std::string& op, std::vector<ir::Value*> in) {
    ir::Node* n = g.addNode(op, "", in, 1);
    n->setName(scope + "/" + op + "_" + std::to_string(k++));
    n->output(0)->setType(ir::Type::tensor(ir::DataType::kFloat, ir::Shape({1, 16})));
    return n->output(0);
  };
  ir::Value* h = x;
  for (int l = 0; l < layers; ++l) {
    std::string s = "/model/layers." + std::to_string(l);
    ir::Value* a = add(s + "/attn", "MatMul", {h, w});
    ir::Value* b = add(s + "/attn", "Softmax", {a});
    ir::Value* c = add(s + "/attn", "MatMul", {b, w});
    ir::Value* r1 = add(s, "Add", {h, c});
    ir::Value* d = add(s + "/mlp", "MatMul", {r1, w});
    ir::Value* e = add(s + "/mlp", "Relu", {d});
    ir::Value* f = add(s + "/mlp", "MatMul", {e, w});
    h = add(s, "Add", {r1, f});
  }
  g.addOutput(add("/head", "Sigmoid", {h}));
  return m;
}

QString fakeHelper(const QString& body) {
  static int counter = 0;
  QString path = tempDir() + QStringLiteral("/helper%1.sh").arg(counter++);
  QFile f(path);
  f.open(QIODevice::WriteOnly);
  f.write("#!/bin/sh\n" + body.toUtf8() + "\n");
  f.close();
  f.setPermissions(QFile::ReadOwner | QFile::WriteOwner | QFile::ExeOwner);
  return path;
}

}  // namespace passlab::ui::testing
