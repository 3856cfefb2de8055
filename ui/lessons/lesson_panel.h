// The Lessons dock: a start page listing the lessons (completed ones ticked,
// with the errors of lesson files that did not load), and the page of the
// lesson being worked through: its explanation, the prediction (the nodes
// picked in the graph), "Check my prediction", the verdict, the closing
// question and its answer.
#pragma once

#include <QWidget>

#include "ui/lessons/lesson_library.h"
#include "ui/lessons/lesson_session.h"

class QLabel;
class QListWidget;
class QPushButton;
class QStackedWidget;

namespace passlab::ui {

class LessonPanel : public QWidget {
  Q_OBJECT

 public:
  LessonPanel(LessonSession* session, QWidget* parent);

  void setLibrary(const LessonLibrary* library);
  // Shows the list of lessons.
  void showStartPage();

  // For tests and the window.
  QListWidget* lessonList() const { return list_; }
  QPushButton* checkButton() const { return check_; }
  QPushButton* retryButton() const { return retry_; }
  QPushButton* answerButton() const { return showAnswer_; }
  QString errorsText() const;
  QString verdictText() const;
  QString answerText() const;
  bool answerShown() const;
  bool onLessonPage() const;

 signals:
  void lessonChosen(const QString& id);
  void openFolderRequested();

 protected:
  void changeEvent(QEvent* event) override;

 private:
  QWidget* buildStartPage();
  QWidget* buildLessonPage();
  void retranslate();
  void fillList();
  void showLesson();
  void showPrediction();
  void showVerdict();
  void onStateChanged();
  QString nodeList(const std::vector<ir::NodeId>& nodes) const;

  LessonSession* session_;
  const LessonLibrary* library_ = nullptr;
  QStackedWidget* pages_;
  // start page
  QLabel* intro_;
  QListWidget* list_;
  QPushButton* openFolder_;
  QLabel* errors_;
  // lesson page
  QLabel* title_;
  QLabel* explanation_;
  QLabel* task_;
  QLabel* prediction_;
  QPushButton* check_;
  QPushButton* clear_;
  QLabel* verdict_;
  QLabel* question_;
  QPushButton* showAnswer_;
  QLabel* answer_;
  QPushButton* retry_;
  QPushButton* next_;
  QPushButton* back_;
};

}  // namespace passlab::ui
