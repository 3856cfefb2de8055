// The pipeline panel: the plan of the session, the ordered schedule of a core
// level or recipe, one row per run of a pass ("eliminate_dead_nodes (2)" for
// its second run), each labelled and tinted by its category; rows switched on
// and off with check boxes, reordered by dragging or with Move Up/Down, added
// and removed, their options; the numeric check; Step (the next row), Run All
// (the rows from the next one on, in order), Reset and Cancel, with progress
// while passes run in the background.
#pragma once

#include <QWidget>

#include "ui/pipeline/pipeline_session.h"

class QCheckBox;
class QComboBox;
class QLabel;
class QMenu;
class QProgressBar;
class QPushButton;
class QTableWidget;
class QTreeWidget;
class QTreeWidgetItem;

namespace passlab::ui {

class BudgetEditor;
class PassTree;

class PipelinePanel : public QWidget {
  Q_OBJECT

 public:
  explicit PipelinePanel(PipelineSession* session, QWidget* parent = nullptr);

  PipelineSession* session() const { return session_; }
  // For tests.
  QTreeWidget* passTree() const;
  QTableWidget* optionTable() const { return options_; }
  BudgetEditor* budgetEditor() const { return budget_; }
  QPushButton* stepButton() const { return step_; }
  QPushButton* runAllButton() const { return runAll_; }
  QPushButton* resetButton() const { return reset_; }
  QPushButton* cancelButton() const { return cancel_; }
  QCheckBox* checkBox() const { return check_; }
  QString filterText() const;
  QString statusText() const;
  // The chosen pass's summary, with its "About this pass…" link.
  QLabel* summaryLabel() const { return summary_; }
  // The made-up inputs shown under the numeric check ("" while it is off).
  QString checkInputsText() const;
  // "Next: <pass> (row r of n)", "Done: all n rows applied." or "No pass is switched on."
  QString nextText() const;
  // Selects a pass's first row / a row in the list (its options show).
  void selectPass(const QString& id);
  void selectRow(int row);
  QPushButton* upButton() const { return up_; }
  QPushButton* downButton() const { return down_; }
  QPushButton* addButton() const { return add_; }
  QPushButton* removeButton() const { return remove_; }

 protected:
  void changeEvent(QEvent* event) override;

 private:
  void retranslateUi();
  void rebuildTree();
  void showOptions();
  void showCalibration();
  void updateState();
  void showCheckInputs(bool running);
  void markNextRow();
  void onItemChanged(QTreeWidgetItem* item, int column);
  void onOptionEdited(int row, int column);
  void move(int delta);
  QString currentPassId() const;
  int currentRow() const;

  PipelineSession* session_;
  QLabel* presetLabel_;
  QComboBox* preset_;
  PassTree* tree_;
  QPushButton* up_;
  QPushButton* down_;
  QPushButton* add_;
  QMenu* addMenu_;
  QPushButton* remove_;
  QLabel* summary_;
  QTableWidget* options_;
  QCheckBox* check_;
  QLabel* checkInputs_;
  // The made-up inputs are planned again only after the model, the language
  // or the check box changed (planning walks the whole model on the UI thread).
  bool checkInputsStale_ = true;
  QCheckBox* standardOnly_;
  // The accuracy budget of lossy passes: every figure (budget_editor.h).
  QLabel* budgetLabel_;
  BudgetEditor* budget_;
  // Where quantize_static calibrates: a folder, or synthesized inputs.
  QLabel* calibration_;
  QPushButton* calibrationButton_;
  QAction* chooseCalibration_;
  QAction* synthesizedCalibration_;
  QLabel* next_;
  QLabel* filter_;
  QPushButton* clearFilter_;
  QPushButton* step_;
  QPushButton* runAll_;
  QPushButton* reset_;
  QPushButton* cancel_;
  QProgressBar* progress_;
  QLabel* status_;
  bool building_ = false;
  QString lastMessage_;
};

}  // namespace passlab::ui
