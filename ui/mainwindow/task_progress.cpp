#include "ui/mainwindow/task_progress.h"

#include <QEvent>
#include <QHBoxLayout>
#include <QLabel>
#include <QProgressBar>
#include <QPushButton>

namespace passlab::ui {

TaskProgress::TaskProgress(QWidget* parent) : QWidget(parent) {
  label_ = new QLabel(this);
  bar_ = new QProgressBar(this);
  bar_->setRange(0, 0);  // busy: these tasks cannot report a fraction done
  bar_->setMaximumWidth(160);
  bar_->setMaximumHeight(16);
  cancel_ = new QPushButton(this);
  auto* row = new QHBoxLayout(this);
  row->setContentsMargins(0, 0, 0, 0);
  row->addWidget(label_);
  row->addWidget(bar_);
  row->addWidget(cancel_);
  connect(cancel_, &QPushButton::clicked, this, [this] {
    if (tasks_.empty()) return;
    auto it = std::prev(tasks_.end());  // the newest task
    auto cancel = std::move(it->second.cancel);
    tasks_.erase(it);
    if (cancel) cancel();
    update();
  });
  cancel_->setText(tr("Cancel"));
  update();
}

int TaskProgress::begin(const QString& text, std::function<void()> cancel) {
  int id = next_++;
  tasks_[id] = Task{text, std::move(cancel)};
  update();
  return id;
}

void TaskProgress::end(int id) {
  tasks_.erase(id);
  update();
}

void TaskProgress::cancelAll() {
  while (!tasks_.empty()) {
    auto it = std::prev(tasks_.end());
    auto cancel = std::move(it->second.cancel);
    tasks_.erase(it);
    if (cancel) cancel();
  }
  update();
}

QString TaskProgress::currentText() const {
  return tasks_.empty() ? QString() : std::prev(tasks_.end())->second.text;
}

void TaskProgress::update() {
  bool busy = !tasks_.empty();
  label_->setText(currentText());
  setVisible(busy);
  cancel_->setEnabled(busy && static_cast<bool>(std::prev(tasks_.end())->second.cancel));
}

void TaskProgress::changeEvent(QEvent* event) {
  if (event->type() == QEvent::LanguageChange) cancel_->setText(tr("Cancel"));
  QWidget::changeEvent(event);
}

}  // namespace passlab::ui
