// The bundled demo models (resources/demos/*.txt, compiled in): small graphs
// that give every kind of pass something to do.
#pragma once

#include <QList>
#include <QString>

namespace passlab::ui {

struct DemoModel {
  QString resource;     // ":/demos/cnn_block.txt"
  QString title;        // translated
  QString description;  // translated, one sentence
};

QList<DemoModel> demoModels();
// The demo opened when PassLab starts without a file.
DemoModel defaultDemo();

}  // namespace passlab::ui
