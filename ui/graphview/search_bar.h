// Find in the graph: text, what to match (any, node name, op type, tensor
// name), previous/next, and "3 of 17".
#pragma once

#include <QWidget>

#include "ui/graphview/graph_search.h"

class QComboBox;
class QLabel;
class QLineEdit;
class QTimer;
class QToolButton;

namespace passlab::ui {

class SearchBar : public QWidget {
  Q_OBJECT

 public:
  explicit SearchBar(QWidget* parent = nullptr);
  QString text() const;
  SearchField field() const;
  void setStatus(int current, int total);  // current -1: none chosen
  void focusSearch();
  QLineEdit* lineEdit() const { return edit_; }

 signals:
  void searchChanged(const QString& text, passlab::ui::SearchField field);
  void nextRequested();
  void previousRequested();

 protected:
  void changeEvent(QEvent* event) override;

 private:
  void retranslateUi();

  QLineEdit* edit_;
  QComboBox* field_;
  QToolButton* prev_;
  QToolButton* next_;
  QLabel* status_;
  QTimer* debounce_;
  int current_ = -1, total_ = 0;
};

}  // namespace passlab::ui
