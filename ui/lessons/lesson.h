// A lesson: a small model, the pass to run on it next, and its texts (title,
// explanation, the prediction task, the closing question and its answer) in
// one or more languages. Lessons are data (docs/lessons.md): bundled under
// :/lessons/<id>/ or read from a user's folder, never compiled in as code.
#pragma once

#include <QMap>
#include <QString>

#include "core/passes/pass.h"

namespace passlab::ui {

struct LessonText {
  QString title;
  QString explanation;  // what the graph shows and what the pass does
  QString task;         // the prediction question: which nodes will go?
  QString question;     // the closing question
  QString answer;       // its answer, which the graph after the pass shows
};

struct Lesson {
  QString id;         // the lesson's folder name: "02_constant_folding"
  int order = 1000;   // lessons are listed by order, then id
  QString folder;     // ":/lessons/02_constant_folding" or a local folder
  QString modelPath;  // the model file inside `folder`
  std::string pass;   // the pass the lesson runs next
  passes::Options options;
  QMap<QString, LessonText> texts;  // by language: "en" (required), "zh_CN", ...
  bool bundled = false;

  // The texts in `language`, each field falling back to English.
  LessonText text(const QString& language) const;
};

}  // namespace passlab::ui
