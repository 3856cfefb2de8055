// The lessons PassLab offers: the bundled ones (:/lessons/<id>/lesson.txt)
// and a user's (<folder>/<id>/lesson.txt), listed by order. A lesson file that
// does not parse is left out with its errors; the others still load. A user
// lesson with a bundled lesson's id replaces it.
#pragma once

#include <QString>

#include <vector>

#include "ui/lessons/lesson.h"
#include "ui/lessons/lesson_format.h"

namespace passlab::ui {

struct LessonLibrary {
  std::vector<Lesson> lessons;
  std::vector<LessonError> errors;

  const Lesson* find(const QString& id) const;
  // The lesson after `id` in order (null: none, or `id` is the last).
  const Lesson* next(const QString& id) const;
};

// The folder of the bundled lessons.
inline constexpr const char* kBundledLessons = ":/lessons";

// Reads every <folder>/<id>/lesson.txt of `folders` in turn (later folders
// replace lessons of earlier ones with the same id); folders that do not exist
// are skipped.
LessonLibrary loadLessons(const QStringList& folders);
// The bundled lessons plus those of `userFolder` ("" for none).
LessonLibrary loadLessonLibrary(const QString& userFolder);

}  // namespace passlab::ui
