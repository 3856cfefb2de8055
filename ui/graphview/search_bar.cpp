#include "ui/graphview/search_bar.h"

#include <QComboBox>
#include <QEvent>
#include <QHBoxLayout>
#include <QKeyEvent>
#include <QLabel>
#include <QLineEdit>
#include <QTimer>
#include <QToolButton>

namespace passlab::ui {

SearchBar::SearchBar(QWidget* parent) : QWidget(parent) {
  edit_ = new QLineEdit(this);
  edit_->setClearButtonEnabled(true);
  edit_->setMinimumWidth(220);
  field_ = new QComboBox(this);
  prev_ = new QToolButton(this);
  next_ = new QToolButton(this);
  prev_->setText(QStringLiteral("▲"));
  next_->setText(QStringLiteral("▼"));
  status_ = new QLabel(this);
  status_->setMinimumWidth(90);
  debounce_ = new QTimer(this);
  debounce_->setSingleShot(true);
  debounce_->setInterval(250);

  auto* row = new QHBoxLayout(this);
  row->setContentsMargins(6, 3, 6, 3);
  row->addWidget(edit_, 1);
  row->addWidget(field_);
  row->addWidget(prev_);
  row->addWidget(next_);
  row->addWidget(status_);

  auto fire = [this] { emit searchChanged(text(), field()); };
  connect(debounce_, &QTimer::timeout, this, fire);
  connect(edit_, &QLineEdit::textChanged, debounce_, qOverload<>(&QTimer::start));
  connect(edit_, &QLineEdit::returnPressed, this, [this, fire] {
    if (debounce_->isActive()) {
      debounce_->stop();
      fire();
    } else {
      emit nextRequested();
    }
  });
  connect(field_, qOverload<int>(&QComboBox::currentIndexChanged), this, fire);
  connect(prev_, &QToolButton::clicked, this, &SearchBar::previousRequested);
  connect(next_, &QToolButton::clicked, this, &SearchBar::nextRequested);
  retranslateUi();
}

QString SearchBar::text() const {
  return edit_->text();
}

SearchField SearchBar::field() const {
  return static_cast<SearchField>(std::max(0, field_->currentIndex()));
}

void SearchBar::focusSearch() {
  edit_->setFocus();
  edit_->selectAll();
}

void SearchBar::setStatus(int current, int total) {
  current_ = current;
  total_ = total;
  if (edit_->text().trimmed().isEmpty())
    status_->clear();
  else if (total == 0)
    status_->setText(tr("no match"));
  else
    status_->setText(tr("%1 of %2").arg(current + 1).arg(total));
  prev_->setEnabled(total > 0);
  next_->setEnabled(total > 0);
}

void SearchBar::retranslateUi() {
  edit_->setPlaceholderText(tr("Find node name, op type or tensor name (Ctrl+F)"));
  int index = field_->currentIndex();
  QSignalBlocker block(field_);
  field_->clear();
  // Same order as SearchField.
  field_->addItems({tr("Anything"), tr("Node name"), tr("Op type"), tr("Tensor name")});
  field_->setCurrentIndex(std::max(0, index));
  prev_->setToolTip(tr("Previous match (Shift+F3)"));
  next_->setToolTip(tr("Next match (F3)"));
  setStatus(current_, total_);
}

void SearchBar::changeEvent(QEvent* event) {
  if (event->type() == QEvent::LanguageChange) retranslateUi();
  QWidget::changeEvent(event);
}

}  // namespace passlab::ui
