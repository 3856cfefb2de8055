#include "ui/lessons/lesson_library.h"

#include <QDir>

#include <algorithm>

namespace passlab::ui {

namespace {

void addLesson(std::vector<Lesson>& lessons, Lesson lesson) {
  auto same = std::find_if(lessons.begin(), lessons.end(),
                           [&](const Lesson& l) { return l.id == lesson.id; });
  if (same != lessons.end())
    *same = std::move(lesson);
  else
    lessons.push_back(std::move(lesson));
}

void readFolder(const QString& folder, LessonLibrary& out) {
  QDir dir(folder);
  if (folder.isEmpty() || !dir.exists()) return;
  const bool bundled = folder.startsWith(QLatin1Char(':'));
  for (const QString& id : dir.entryList(QDir::Dirs | QDir::NoDotAndDotDot, QDir::Name)) {
    const QString file = dir.filePath(id + QLatin1Char('/') + QLatin1String(kLessonFileName));
    if (!QFileInfo::exists(file)) continue;  // not a lesson folder
    LessonParse parsed = readLessonFile(file);
    if (!parsed.ok()) {
      out.errors.insert(out.errors.end(), parsed.errors.begin(), parsed.errors.end());
      continue;
    }
    parsed.lesson.bundled = bundled;
    addLesson(out.lessons, std::move(parsed.lesson));
  }
}

}  // namespace

const Lesson* LessonLibrary::find(const QString& id) const {
  for (const Lesson& l : lessons)
    if (l.id == id) return &l;
  return nullptr;
}

const Lesson* LessonLibrary::next(const QString& id) const {
  for (size_t i = 0; i + 1 < lessons.size(); ++i)
    if (lessons[i].id == id) return &lessons[i + 1];
  return nullptr;
}

LessonLibrary loadLessons(const QStringList& folders) {
  LessonLibrary out;
  for (const QString& folder : folders) readFolder(folder, out);
  std::stable_sort(out.lessons.begin(), out.lessons.end(), [](const Lesson& a, const Lesson& b) {
    return a.order != b.order ? a.order < b.order : a.id < b.id;
  });
  return out;
}

LessonLibrary loadLessonLibrary(const QString& userFolder) {
  return loadLessons({QLatin1String(kBundledLessons), userFolder});
}

}  // namespace passlab::ui
