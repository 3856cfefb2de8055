// What PassLab remembers about lessons (QSettings): the lessons completed and
// the user's lessons folder.
#pragma once

#include <QString>
#include <QStringList>

#include "ui/mainwindow/settings.h"

namespace passlab::ui {

struct LessonSettings {
  static inline const Setting<QStringList> completed{"lessons/completed", QStringList()};
  static inline const Setting<QString> userFolder{"lessons/userFolder", QString()};

  static bool isCompleted(const QString& id) { return completed.get().contains(id); }
  static void markCompleted(const QString& id) {
    QStringList done = completed.get();
    if (done.contains(id)) return;
    done << id;
    completed.set(done);
  }
};

}  // namespace passlab::ui
