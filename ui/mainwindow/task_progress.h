// Long work in the status bar: what is running, a busy bar and Cancel. Work
// itself runs on worker threads; this only shows it.
#pragma once

#include <QWidget>

#include <functional>
#include <map>

class QLabel;
class QProgressBar;
class QPushButton;

namespace passlab::ui {

class TaskProgress : public QWidget {
  Q_OBJECT

 public:
  explicit TaskProgress(QWidget* parent = nullptr);

  // Shows a task; `cancel` runs when the user presses Cancel (then the task
  // is ended). Returns its id.
  int begin(const QString& text, std::function<void()> cancel);
  void end(int id);
  bool isBusy() const { return !tasks_.empty(); }
  QString currentText() const;
  void cancelAll();

 protected:
  void changeEvent(QEvent* event) override;

 private:
  void update();
  struct Task {
    QString text;
    std::function<void()> cancel;
  };
  std::map<int, Task> tasks_;
  int next_ = 1;
  QLabel* label_;
  QProgressBar* bar_;
  QPushButton* cancel_;
};

}  // namespace passlab::ui
