#include "ui/lessons/lesson.h"

namespace passlab::ui {

LessonText Lesson::text(const QString& language) const {
  LessonText english = texts.value(QStringLiteral("en"));
  auto it = texts.find(language);
  if (it == texts.end()) return english;
  auto pick = [](const QString& own, const QString& fallback) {
    return own.isEmpty() ? fallback : own;
  };
  return {pick(it->title, english.title), pick(it->explanation, english.explanation),
          pick(it->task, english.task), pick(it->question, english.question),
          pick(it->answer, english.answer)};
}

}  // namespace passlab::ui
