// Reading one lesson file (docs/lessons.md): "key: value" lines, values
// continued on indented lines, "#" comments; texts in English under the plain
// key and in other languages under "key.<language>" ("title.zh_CN"). Every
// problem names the file and the line.
#pragma once

#include <QByteArray>
#include <QString>

#include <vector>

#include "ui/lessons/lesson.h"

namespace passlab::ui {

struct LessonError {
  QString file;
  int line = 0;  // 1-based; 0: the file as a whole (it cannot be read)
  QString message;
  // "path/lesson.txt:12: unknown key 'titel'"
  QString toString() const;
};

struct LessonParse {
  Lesson lesson;
  std::vector<LessonError> errors;
  bool ok() const { return errors.empty(); }
};

// The lesson file's name inside a lesson folder.
inline constexpr const char* kLessonFileName = "lesson.txt";

// Parses `text`, the contents of `path` (the lesson's folder is the file's
// folder, its id the folder's name); checks the pass, its options and that
// the model file exists.
LessonParse parseLessonText(const QByteArray& text, const QString& path);
// Reads and parses the lesson file at `path`.
LessonParse readLessonFile(const QString& path);

// The text keys of a lesson, each required in English.
std::vector<QString> lessonTextKeys();

}  // namespace passlab::ui
