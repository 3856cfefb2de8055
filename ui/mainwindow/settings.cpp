#include "ui/mainwindow/settings.h"

#include <QFileInfo>

namespace passlab::ui {

void Settings::addRecentFile(const QString& path) {
  QString absolute = QFileInfo(path).absoluteFilePath();
  QStringList list = recentFiles.get();
  list.removeAll(absolute);
  list.prepend(absolute);
  while (list.size() > kMaxRecentFiles) list.removeLast();
  recentFiles.set(list);
}

ViewSettings Settings::view() {
  ViewSettings v;
  v.layoutTimeoutSeconds = layoutTimeoutSeconds.get();
  v.groupingThreshold = groupingThreshold.get();
  v.boxBudget = boxBudget.get();
  v.useGraphviz = useGraphviz.get();
  v.helperPath = layoutHelper.get();
  v.edgeLabels = edgeLabels.get();
  v.fitOnOpen = fitOnOpen.get();
  return v;
}

void Settings::setView(const ViewSettings& v) {
  layoutTimeoutSeconds.set(v.layoutTimeoutSeconds);
  groupingThreshold.set(v.groupingThreshold);
  boxBudget.set(v.boxBudget);
  useGraphviz.set(v.useGraphviz);
  layoutHelper.set(v.helperPath);
  edgeLabels.set(v.edgeLabels);
  fitOnOpen.set(v.fitOnOpen);
}

}  // namespace passlab::ui
